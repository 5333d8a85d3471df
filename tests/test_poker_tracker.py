"""The seed notebook's HandTracker walk-through, in cardscore's names and tables."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardscore.cards import Card, Rank, Suit, full_deck, parse_cards
from cardscore.errors import DeckExhaustedError, IllegalMoveError
from cardscore.poker import Category
from cardscore.poker.tracker import HandTracker, allow_discards, discard_problems

NAMES = ["Brad", "Scott", "Dan", "Alex", "Olivia", "Lewis"]


def test_initialisation_matches_the_seed() -> None:
    tracker = HandTracker()
    shown = "[" + ", ".join(str(c) for c in tracker.deck) + "]"
    assert shown.startswith("[2♠, 2♥, 2♦, 2♣, 3♠")
    assert shown.endswith("A♠, A♥, A♦, A♣]")
    assert tracker.players == {}
    sizes = len(tracker.flush_ranks), len(tracker.unique5_ranks), len(tracker.dupe_ranks)
    assert sizes == (1287, 1287, 4888)


def test_seed_table_samples_and_the_aaaak_encoding() -> None:
    tracker = HandTracker()
    royal = parse_cards("As Ks Qs Js Ts")
    assert tracker.flush_ranks[tracker.twos_encoding(royal)] == 1  # RF AKQJT 1
    broadway = parse_cards("Ah Ks Qs Js Ts")
    assert tracker.unique5_ranks[tracker.twos_encoding(broadway)] == 1600  # SS AKQJT 1600
    hand_encoding = 37 * 41**4
    assert hand_encoding == 104553157
    aaaak = parse_cards("As Ah Ad Ac Ks")
    assert tracker.primes_encoding(aaaak) == hand_encoding
    assert tracker.dupe_ranks[hand_encoding] == 11
    assert tracker.evaluate_hand(aaaak).category.value == "four of a kind"


def test_encodings_of_the_seed_examples() -> None:
    tracker = HandTracker()
    assert tracker.twos_encoding(parse_cards("9c 8s Ad 7d 4c")) == 4324
    assert tracker.primes_encoding(parse_cards("Ts Qh Ac 5c 5s")) == 1432417
    assert tracker.has_unique5(parse_cards("9s 5h Jh 3d 2c"))
    assert not tracker.has_unique5(parse_cards("5d 8h Jh Ts Td"))
    assert not tracker.has_flush(parse_cards("2h Jc 2d Ks 5d"))
    assert tracker.has_flush(parse_cards("2h Jh 9h Kh 5h"))


@pytest.mark.parametrize(
    ("hand", "rank_n", "rank_c"),
    [
        ("2h 8h Kd 2d 3s", 6055, "pair"),
        ("Ad Td 2s As 3c", 3489, "pair"),
        ("3h Kc 5h Js 4s", 6878, "high card"),
        ("4c 6d 7h 7s Ac", 4912, "pair"),
        ("8s Jd Qc 8d 8c", 2027, "three of a kind"),
        ("Tc 7d 5d Ts 9d", 4377, "pair"),
        ("5c 2h Jc Kh Ks", 3678, "pair"),
    ],
)
def test_the_seed_evaluations(hand: str, rank_n: int, rank_c: str) -> None:
    found = HandTracker().evaluate_hand(parse_cards(hand))
    assert (found.rank, found.category.value) == (rank_n, rank_c)


def test_tracking_and_assignment() -> None:
    tracker = HandTracker()
    tracker.track_players(["Brad"])
    assert tracker.players == {"Brad": {"cards": []}}
    assert list(tracker.tracked_players()) == ["Brad"]
    cards = [Card.from_id(48 - 4 * i) for i in range(5)]  # the seed's Card(12 - i, 0)
    tracker.assign_cards("Brad", cards)
    assert [str(c) for c in tracker.players["Brad"]["cards"]] == ["A♠", "K♠", "Q♠", "J♠", "10♠"]
    tracker.unassign_cards("Brad", cards[1:])
    assert tracker.tracked_hand("Brad") == [Card(Rank.ACE, Suit.SPADES)]
    with pytest.raises(IllegalMoveError, match="'Dave' is not a tracked player"):
        tracker.assign_cards("Dave", cards)
    with pytest.raises(IllegalMoveError, match="does not hold K♠"):
        tracker.unassign_cards("Brad", cards[:2])
    assert tracker.tracked_hand("Brad") == [cards[0]]  # nothing removed on error


def test_dealing_evaluating_and_collecting() -> None:
    tracker = HandTracker(seed=11)
    tracker.track_players(NAMES)
    tracker.shuffle_deck()
    tracker.deal_players_in()
    tracker.evaluate_players_in()
    for info in tracker.players.values():
        assert len(info["cards"]) == 5
        assert 1 <= info["rank_n"] <= 7462
        assert Category(info["rank_c"])
    assert len(tracker.deck) == 52 - 30
    tracker.check()
    tracker.collect_cards()
    assert tracker.players == {name: {"cards": []} for name in NAMES}
    assert tracker.deck == list(full_deck())


def test_shuffles_are_seeded() -> None:
    def dealt(seed: int) -> list[Card]:
        tracker = HandTracker(seed=seed)
        tracker.shuffle_deck()
        return tracker.deal_hand()

    assert dealt(3) == dealt(3)
    assert dealt(3) != dealt(4)


def test_allow_discards_follows_the_draw_rules() -> None:
    hand = parse_cards("Jh Jd Ks Js 4c")
    assert not allow_discards(hand, hand[:4])  # the seed's example: kept 4♣
    assert allow_discards(hand, hand[2:])
    assert allow_discards(hand, ())
    aces = parse_cards("Ah 9d 7s 4c 2c")
    assert allow_discards(aces, aces[1:])
    assert not allow_discards(aces, aces)
    assert discard_problems(hand, parse_cards("2c")) == ["2♣ is not in the hand"]


def test_swaps_take_new_cards_and_keep_the_deck_whole() -> None:
    tracker = HandTracker(seed=5)
    tracker.shuffle_deck()
    hand = tracker.deal_hand()
    new_cards = tracker.swap_cards(hand)  # the low-level swap ignores the draw rules
    assert len(new_cards) == 5
    assert not set(new_cards) & set(hand)
    tracker.check()
    tracker.track_players(["Brad"])
    tracker.deal_players_in()
    before = list(tracker.tracked_hand("Brad"))
    tracker.swap_players_cards("Brad", before)
    after = tracker.tracked_hand("Brad")
    assert len(after) == 5
    assert not set(after) & set(before)
    tracker.check()


def test_the_discards_are_reshuffled_when_the_stock_runs_out() -> None:
    tracker = HandTracker(seed=2)
    names = [f"p{i}" for i in range(7)]
    tracker.track_players(names)
    tracker.shuffle_deck()
    tracker.deal_players_in()  # 35 dealt, 17 left
    seen_new: list[Card] = []
    for name in names:  # everyone throws three: 21 > 17 cards in the stock
        seen_new += tracker.swap_players_cards(name, tracker.tracked_hand(name)[:3])
        tracker.check()
    assert tracker.reshuffles == 1
    held = [c for name in names for c in tracker.tracked_hand(name)]
    assert len(held) == len(set(held)) == 35


def test_a_player_never_draws_their_own_discards() -> None:
    tracker = HandTracker(seed=9)
    tracker.track_players(["a", "b"])
    tracker.stock = list(full_deck())[:12]  # a short stock: 10 dealt, 2 left
    tracker.deal_players_in()
    before = list(tracker.tracked_hand("a"))
    with pytest.raises(DeckExhaustedError, match="2 in the stock and 0 discards"):
        tracker.swap_players_cards("a", before[:3])  # its own three may not come back
    assert tracker.tracked_hand("a") == before
    tracker.swap_players_cards("b", tracker.tracked_hand("b")[:2])
    new = tracker.swap_players_cards("a", before[:2])  # b's two discards are reshuffled
    assert not set(new) & set(before)
    assert tracker.reshuffles == 1


@settings(max_examples=50, deadline=None)
@given(
    st.integers(0, 2**32), st.integers(2, 7), st.lists(st.integers(0, 4), min_size=7, max_size=7)
)
def test_no_card_is_ever_dealt_twice(seed: int, players: int, throws: list[int]) -> None:
    tracker = HandTracker(seed=seed)
    names = [f"p{i}" for i in range(players)]
    tracker.track_players(names)
    tracker.shuffle_deck()
    tracker.deal_players_in()
    for name, n in zip(names, throws, strict=False):
        hand = tracker.tracked_hand(name)
        try:
            tracker.swap_players_cards(name, hand[:n])
        except DeckExhaustedError:
            break
        tracker.check()
    tracker.check()


def test_every_evaluation_printed_in_the_seed_notebook(shared: Path) -> None:
    """The ranks and categories the seed printed, read from the seed itself."""
    text = (shared / "seeds" / "004_189b5e4718edb477.txt").read_text(encoding="utf-8")
    tracker = HandTracker()
    players = re.findall(r"\{'cards': \[([^\]]*)\], 'rank_n': (\d+), 'rank_c': '([a-z ]+)'\}", text)
    singles = re.findall(
        r"Hand: \[([^\]]*)\]\nnumerical rank: (\d+)\ncategorical rank: ([a-z ]+)", text
    )
    assert len(players) == 6
    assert len(singles) == 1
    for cards, rank_n, rank_c in players + singles:
        found = tracker.evaluate_hand(parse_cards(cards))
        assert (found.rank, found.category.value) == (int(rank_n), rank_c)
    encoded = re.search(r"AAAAK encoded: (\d+)\nAAAAK rank_n: (\d+)\nAAAAK rank_c: ([a-z ]+)", text)
    assert encoded is not None
    assert tracker.dupe_ranks[int(encoded[1])] == int(encoded[2])
    assert tracker.evaluate_hand("As Ah Ad Ac Ks").category.value == encoded[3]
    for table, size in re.findall(r"Amount of keys in (\w+): (\d+)", text):
        assert len(getattr(tracker, table.lower())) == int(size)
    assert tracker.twos_encoding(parse_cards("9♣ 8♠ A♢ 7♢ 4♣")) == int(
        re.findall(r"Twos Encoding: (\d+)", text)[0]
    )
    assert tracker.primes_encoding(parse_cards("10♠ Q♡ A♣ 5♣ 5♠")) == int(
        re.findall(r"Primes Encoding: (\d+)", text)[0]
    )
