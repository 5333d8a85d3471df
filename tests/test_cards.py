from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardscore.cards import (
    Card,
    Deck,
    Rank,
    Suit,
    check_decks,
    count_over,
    full_deck,
    parse_card,
    parse_cards,
)
from cardscore.errors import DeckExhaustedError, ImpossibleTableError, InvalidCardError

cards = st.sampled_from(full_deck())


@pytest.mark.parametrize(
    ("token", "code"),
    [
        ("AS", "As"),
        ("As", "As"),
        ("as", "As"),
        ("A♠", "As"),
        ("A♤", "As"),
        ("10h", "Th"),
        ("Th", "Th"),
        ("th", "Th"),
        ("10♥", "Th"),
        ("10♡", "Th"),
        ("Q♢", "Qd"),
        ("Q♦", "Qd"),
        ("3♧", "3c"),
        ("ace_spades", "As"),
        ("two_hearts", "2h"),
        ("ten_clubs", "Tc"),
        ("queen_of_diamonds", "Qd"),
        (" 9c ", "9c"),
    ],
)
def test_every_notation_reads_the_same_card(token: str, code: str) -> None:
    assert parse_card(token).code == code


@pytest.mark.parametrize(
    "token", ["", "A", "1h", "11h", "Ax", "AhA", "ace", "ace_swords", "Ah "[:1]]
)
def test_bad_tokens_are_refused_and_quoted(token: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        parse_card(token)
    assert repr(token) in str(info.value)
    assert isinstance(info.value, ValueError)


def test_parse_cards_reports_every_bad_token_with_its_position() -> None:
    with pytest.raises(InvalidCardError) as info:
        parse_cards("Ah,Kx  10s;Zz 2c")
    assert info.value.problems == (
        "card 2 'Kx' is not a card (expected a rank A 2-10 T J Q K and a suit s h d c ♠ ♥ ♦ ♣, "
        "like 'Ah' or '10♥')",
        "card 4 'Zz' is not a card (expected a rank A 2-10 T J Q K and a suit s h d c ♠ ♥ ♦ ♣, "
        "like 'Ah' or '10♥')",
    )


def test_parse_cards_accepts_lists_and_cards() -> None:
    assert parse_cards(["Ah", Card("Ks"), "2c 3d"]) == parse_cards("Ah Ks 2c 3d")
    assert parse_cards("") == ()


@given(cards)
def test_repr_rebuilds_and_code_round_trips(card: Card) -> None:
    assert eval(repr(card)) == card  # repr is constructor syntax
    assert parse_card(card.code) == card
    assert parse_card(str(card)) == card
    assert Card.from_id(card.id) == card
    assert pickle.loads(pickle.dumps(card)) == card


@given(st.lists(cards, max_size=20))
def test_parse_cards_round_trips_any_list(hand: list[Card]) -> None:
    assert parse_cards(" ".join(str(c) for c in hand)) == tuple(hand)
    assert parse_cards(",".join(c.code.lower() for c in hand)) == tuple(hand)


def test_cards_are_immutable_hashable_and_ordered() -> None:
    ace = Card("Ah")
    with pytest.raises(AttributeError):
        ace.rank = Rank.TWO  # type: ignore[misc]
    assert len({Card("Ah"), Card("ace_hearts"), Card("Ks")}) == 2
    assert sorted(parse_cards("Ah 2c Ks")) == list(parse_cards("2c Ks Ah"))
    assert Rank.TEN.label == "10"
    assert Rank.TEN.value == "T"
    assert Suit.HEARTS.symbol == "♥"
    assert Suit.HEARTS.is_red
    assert not Suit.CLUBS.is_red
    assert [c.id for c in full_deck()] == list(range(52))


@given(cards)
def test_there_are_only_52_cards_however_built(card: Card) -> None:
    # The poker evaluator's C fast path knows the 52 cards by identity.
    same = [
        Card(card.code),
        Card(card.rank, card.suit),
        Card(str(card)),
        Card.from_id(card.id),
        parse_card(card.code.lower()),
        parse_cards([card.code])[0],
        parse_cards(f"2c {card}")[1],
        pickle.loads(pickle.dumps(card)),
        copy.copy(card),
        copy.deepcopy([card])[0],
    ]
    assert all(other is card for other in same)


def test_card_constructor_rejects_mixed_arguments() -> None:
    with pytest.raises(TypeError):
        Card("A", Suit.HEARTS)  # type: ignore[arg-type]
    with pytest.raises(InvalidCardError):
        Card.from_id(52)


def test_deck_is_seeded_and_never_hands_out_more_than_it_holds() -> None:
    assert Deck(seed=1).draw(52) == Deck(seed=1).draw(52)
    assert Deck(seed=1).draw(5) != Deck(seed=2).draw(5)
    two = Deck(decks=2, seed=3)
    drawn = two.draw(104)
    assert sorted(drawn) == sorted(full_deck() * 2)
    with pytest.raises(DeckExhaustedError, match="only 0 remain"):
        two.draw(1)
    crosskings = Deck(ranks="A2345678K")
    assert len(crosskings) == 36
    assert {c.rank for c in crosskings} == set(Rank) - {
        Rank.NINE,
        Rank.TEN,
        Rank.JACK,
        Rank.QUEEN,
    }


def test_deck_put_back_and_errors() -> None:
    deck = Deck(seed=4)
    hand = deck.draw(5)
    deck.put_back(hand)
    assert len(deck) == 52
    with pytest.raises(ValueError, match="positive"):
        Deck(decks=0)
    with pytest.raises(InvalidCardError, match="'X'"):
        Deck(ranks="AX")


def test_multiset_check_names_each_overused_card() -> None:
    table = parse_cards("Ah Ah Ah 2c 2c 2c 2c Ks")
    assert count_over(table, decks=3) == ["2♣ appears 4 times, but 3 decks hold only 3"]
    with pytest.raises(ImpossibleTableError) as info:
        check_decks(table, decks=2)
    assert info.value.problems == (
        "2♣ appears 4 times, but 2 decks hold only 2",
        "A♥ appears 3 times, but 2 decks hold only 2",
    )
    check_decks(table, decks=4)


@given(st.lists(st.text(alphabet="0123456789tjqkaTJQKAshdcSHDCx♠♤♥♡♦♢♣♧ ,", max_size=4)))
def test_a_list_of_codes_reads_as_each_read_in_turn(items: list[str]) -> None:
    """``parse_cards`` reads a whole code of a list at once (most items are one): it must read
    what splitting the item and reading each token says, errors and positions included."""

    def slowly(texts: list[str]) -> tuple[Card, ...] | str:
        try:
            return parse_cards(" ".join(t for t in texts if t.strip()) if texts else "")
        except InvalidCardError as error:
            return str(error)

    try:
        fast: tuple[Card, ...] | str = parse_cards(items)
    except InvalidCardError as error:
        fast = str(error)
    # A list item with separators inside is read as several tokens; joined with spaces the
    # same tokens come in the same order.
    assert fast == slowly(items)


def test_cards_hash_as_they_compare() -> None:
    assert {parse_card("Ah"): 1}[Card(Rank.ACE, Suit.HEARTS)] == 1
    assert len({parse_card(t) for t in ("AH", "ah", "A♥", "ace_hearts", "Ah")}) == 1
    assert hash(pickle.loads(pickle.dumps(parse_card("Ts")))) == hash(parse_card("10s"))
