"""Tranca melds and piles: classification, every reason a meld fails, canastras, card values."""

from __future__ import annotations

import pytest

from cardscore.cards import Card, Rank, parse_cards
from cardscore.errors import IllegalMoveError, InvalidNotationError
from cardscore.tranca import CanastraKind, Meld, MeldKind, Pile, TrancaRules, meld_problems
from cardscore.tranca.melds import InvalidMeldError
from cardscore.tranca.piles import parse_rank, pile_problems
from cardscore.tranca.rules import card_points, is_dollar, is_tranca

EDGES = TrancaRules(edges_only=True)


@pytest.mark.parametrize(
    ("code", "points"),
    [
        ("Ah", 15),
        ("Kd", 10),
        ("Qs", 10),
        ("Jc", 10),
        ("Th", 10),
        ("9h", 10),
        ("8h", 10),
        ("7h", 5),
        ("6h", 5),
        ("5h", 5),
        ("4h", 5),
        ("2c", 10),
        ("3h", 5),
        ("3d", 5),
    ],
)
def test_card_values(code: str, points: int) -> None:
    assert card_points(Card(code)) == points


def test_red_threes_are_dollars_black_threes_trancas() -> None:
    assert [is_dollar(Card(c)) for c in ("3h", "3d", "3s", "3c", "4h")] == [1, 1, 0, 0, 0]
    assert [is_tranca(Card(c)) for c in ("3h", "3d", "3s", "3c", "4s")] == [0, 0, 1, 1, 0]


def test_clean_sequence_becomes_a_canastra_at_seven() -> None:
    six = Meld("4h 5h 6h 7h 8h 9h")
    assert (six.kind, six.canastra, six.bonus, six.suit, six.rank) == (
        MeldKind.SEQUENCE,
        None,
        0,
        parse_cards("4h")[0].suit,
        None,
    )
    seven = six.extend("Th")
    assert seven.canastra is CanastraKind.CLEAN
    # 4+5+6+7 at 5 each, 8 9 10 at 10 each: 20 + 30
    assert (seven.card_points, seven.bonus) == (50, 200)


def test_joker_fills_a_gap_and_is_shown_in_it() -> None:
    meld = Meld("5h 6h 7h 2s 9h 10h Jh")  # the seed's own example: 2 replaces the 8
    assert str(meld) == "5♥ 6♥ 7♥ 2♠ 9♥ 10♥ J♥"
    assert meld.joker == Card("2s")
    assert meld.canastra is CanastraKind.DIRTY
    assert meld.bonus == 100


def test_joker_extends_an_end() -> None:
    assert str(Meld("Jh Qh 2c")) == "J♥ Q♥ 2♣"  # stands for the K
    assert str(Meld("Kh Ah 2c")) == "2♣ K♥ A♥"  # nothing above the ace: it stands for the Q
    assert Meld("Kh Ah 2c").kind is MeldKind.SEQUENCE


def test_a_full_four_to_ace_sequence_has_no_room_for_a_two() -> None:
    full = "4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah"
    assert Meld(full).size == 11
    (problem,) = meld_problems(full + " 2c")
    assert "the 2 has no place" in problem


def test_ace_is_only_high() -> None:
    assert Meld("Qh Kh Ah").kind is MeldKind.SEQUENCE
    (problem,) = meld_problems("Ah 4h 5h")
    assert "lacks 6♥" in problem
    assert "the ace ranks only above the king" in problem


@pytest.mark.parametrize("rank", ["4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"])
def test_sets_of_any_rank_by_default(rank: str) -> None:
    meld = Meld(f"{rank}h {rank}s {rank}d")
    assert meld.kind is MeldKind.SET
    assert meld.rank is parse_rank(rank)
    assert meld.suit is None


def test_edges_only_house_rule() -> None:
    for rank in "45KA":
        assert Meld(f"{rank}h {rank}s 2d", rules=EDGES).kind is MeldKind.SET
    (problem,) = meld_problems("9h 9s 9d", EDGES)
    assert "set of 9s" in problem
    assert "'edges only'" in problem
    with pytest.raises(InvalidMeldError):
        Meld("9h 9s 9d", rules=EDGES)
    # sequences are untouched by the house rule
    assert Meld("8h 9h Th", rules=EDGES).kind is MeldKind.SEQUENCE


def test_set_with_a_joker_and_set_canastras() -> None:
    dirty = Meld("Kh Ks Kd Kc Kh Ks 2d")
    assert (dirty.kind, dirty.canastra, dirty.joker, dirty.rank) == (
        MeldKind.SET,
        CanastraKind.DIRTY,
        Card("2d"),
        Rank.KING,
    )
    assert str(dirty) == "K♠ K♠ K♥ K♥ K♦ K♣ 2♦"
    clean = Meld("Ah As Ad Ac Ah As Ad")
    assert clean.canastra is CanastraKind.CLEAN
    assert clean.card_points == 7 * 15


def test_melds_of_only_twos() -> None:
    three = Meld("2h 2s 2d")
    assert (three.kind, three.canastra, three.joker, three.rank) == (
        MeldKind.TWOS,
        None,
        None,
        Rank.TWO,
    )
    seven = Meld("2h 2s 2d 2c 2h 2s 2d")
    assert seven.canastra is CanastraKind.TWOS
    assert (seven.card_points, seven.bonus) == (70, 1000)


def test_at_most_one_two_as_joker() -> None:
    (problem,) = meld_problems("5h 6h 2c 2d")
    assert "has 2 2s (2♦ 2♣)" in problem
    assert meld_problems("Kh Kd 2c 2s")


@pytest.mark.parametrize("cards", ["3h 3d 3h", "4h 5h 3h", "3c 3s 3c", "Kh Kd 3s"])
def test_threes_never_go_in_melds(cards: str) -> None:
    problems = meld_problems(cards)
    assert len(problems) == 1
    assert "3s never go in melds" in problems[0]


def test_every_reason_at_once() -> None:
    problems = meld_problems("3h 2c")
    assert len(problems) == 2
    assert "needs at least 3" in problems[0]
    assert "3s never go in melds" in problems[1]


@pytest.mark.parametrize(
    ("cards", "reason"),
    [
        ("Kh Kd", "needs at least 3"),
        ("7h 8d 9h", "mixes ♥ and ♦"),
        ("7h 7h 8h", "7♥ appears twice"),
        ("7h 9h Jh", "lacks 8♥ and 10♥, and no 2 fills them"),
        ("7h 9h Th", "lacks 8♥ and no 2 fills it"),
        ("7d 8d 9d 2h Jd Kd", "lacks 10♦ and Q♦, and one 2 fills only one gap"),
    ],
)
def test_no_meld_reasons(cards: str, reason: str) -> None:
    problems = meld_problems(cards)
    assert len(problems) == 1
    assert reason in problems[0]
    with pytest.raises(IllegalMoveError) as raised:
        Meld(cards)
    assert raised.value.problems == problems


def test_the_seeds_impossible_sequence_is_explained() -> None:
    assert meld_problems(
        "seven_diamonds eight_diamonds nine_diamonds two_hearts jack_diamonds king_diamonds"
    ) == ("7♦ 8♦ 9♦ 2♥ J♦ K♦ is no sequence: it lacks 10♦ and Q♦, and one 2 fills only one gap",)


def test_order_of_cards_does_not_matter_and_repr_rebuilds() -> None:
    a = Meld("9h 2c 5h 6h 7h 8h 4h")
    b = Meld(["4H", "5h", "6♥", "7h", "8h", "9h", "two_clubs"])
    assert a == b
    assert hash(a) == hash(b)
    assert eval(repr(a)) == a
    assert a.as_list() == ["4h", "5h", "6h", "7h", "8h", "9h", "2c"]
    assert len(a) == 7


def test_extend_and_can_extend() -> None:
    meld = Meld("Kh Ks Kd")
    assert meld.can_extend("Kc 2h")
    assert not meld.can_extend("2h 2c")
    assert not meld.can_extend("Qh")
    assert not meld.can_extend("9s", EDGES)
    assert not Meld("9h 9s 9d").can_extend("9c", EDGES)
    with pytest.raises(InvalidMeldError):
        meld.extend("Qh")
    assert meld.extend("Kc").size == 4
    assert meld.size == 3  # melds are values: extend returns a new one


def test_html_shows_red_and_black_cards() -> None:
    assert "#c62828" in Meld("Kh Ks Kd")._repr_html_()


# --- piles ----------------------------------------------------------------------------------


def test_piles_points_by_hand() -> None:
    clean = Pile(Rank.KING)
    assert (clean.canastra, clean.card_points, clean.bonus) == (CanastraKind.CLEAN, 70, 200)
    dirty = Pile(Rank.ACE, clean=False, cards=8)
    # seven aces at 15 and a 2 at 10
    assert (dirty.canastra, dirty.card_points, dirty.bonus) == (CanastraKind.DIRTY, 115, 100)
    assert dirty.rank_counts() == {Rank.ACE: 7, Rank.TWO: 1}
    with pytest.raises(InvalidNotationError, match="pile 2 cannot be dirty"):
        Pile(Rank.TWO, clean=False)
    twos = Pile(Rank.TWO)
    assert (twos.canastra, twos.clean, twos.card_points, twos.bonus) == (
        CanastraKind.TWOS,
        True,
        70,
        1000,
    )
    low = Pile.from_dict({"pile": "5", "clean": False})
    assert (low.cards, low.card_points) == (7, 6 * 5 + 10)


@pytest.mark.parametrize("text", ["10", "T", "t", "ten", "TEN"])
def test_pile_ranks_in_any_notation(text: str) -> None:
    assert Pile.from_dict({"pile": text}).rank is Rank.TEN


@pytest.mark.parametrize(
    ("data", "reasons"),
    [
        ({"pile": "3"}, ["3s never go in melds"]),
        ({"pile": "K", "cards": 6}, ["at least 7 cards, not 6"]),
        ({"pile": "X", "clean": "yes"}, ["'X' is not a rank", '"clean" must be true or false']),
        ({"cards": 7}, ['"pile" (its rank, like "K") is missing']),
        ({"pile": "K", "colour": 1}, ["unknown key(s) 'colour'"]),
        ({"pile": "K", "cards": "7"}, ['"cards" must be a whole number']),
        (["K"], ["is not a pile"]),
    ],
)
def test_pile_problems(data: object, reasons: list[str]) -> None:
    problems = pile_problems(data)
    assert len(problems) == len(reasons)
    for problem, reason in zip(problems, reasons, strict=True):
        assert reason in problem


def test_pile_edges_only_and_errors() -> None:
    assert "'edges only'" in pile_problems({"pile": "9"}, EDGES)[0]
    assert pile_problems({"pile": "2"}, EDGES) == ()
    with pytest.raises(InvalidNotationError):
        Pile(Rank.THREE)
    with pytest.raises(InvalidNotationError):
        Pile.from_dict({"pile": "K", "cards": 3})
    assert str(Pile(Rank.TEN, clean=False)) == "pile of 7 10 (dirty: 6 10 and a 2)"
    assert str(Pile(Rank.TWO)) == "pile of 7 2s"
