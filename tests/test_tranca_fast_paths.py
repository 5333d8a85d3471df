"""The shortcuts of Tranca checking and scoring agree with the long way, on random inputs.

The meld check is memoised per card tuple, a meld keeps its canastra and points from that
check, over-use is first counted without noting places, and card lists of exact codes are read
by a look-up: each is compared here with what it stands for, worked out without the shortcut.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardscore.breakdown import Term
from cardscore.cards import Card, Rank, Suit, parse_cards
from cardscore.errors import InvalidCardError
from cardscore.tranca import CanastraKind, Meld, MeldKind, Pile, TrancaRules
from cardscore.tranca.melds import InvalidMeldError, _checked, _classify
from cardscore.tranca.round import _counts_fit, _Draft, _overuse_problems
from cardscore.tranca.rules import card_points, is_dollar, is_tranca

DECK = [Card(rank, suit) for rank in Rank for suit in Suit]
NATURAL = [r for r in Rank if r.index >= Rank.FOUR.index]  # 4…A
RULES = st.sampled_from([TrancaRules(), TrancaRules(edges_only=True)])


@st.composite
def meldish(draw: st.DrawFn) -> tuple[Card, ...]:
    """Cards that are often a meld (a run of one suit or a set, maybe with 2s) and often not."""
    kind = draw(st.sampled_from(["run", "set", "any"]))
    if kind == "run":
        suit = draw(st.sampled_from(list(Suit)))
        start = draw(st.integers(0, len(NATURAL) - 3))
        length = draw(st.integers(1, len(NATURAL) - start))
        cards = [Card(rank, suit) for rank in NATURAL[start : start + length]]
        cards = [c for c in cards if draw(st.integers(0, 9))]  # sometimes leave a gap
    elif kind == "set":
        rank = draw(st.sampled_from(NATURAL))
        cards = draw(st.lists(st.sampled_from([Card(rank, s) for s in Suit]), max_size=9))
    else:
        cards = draw(st.lists(st.sampled_from(DECK), max_size=9))
    cards += draw(st.lists(st.sampled_from([Card(Rank.TWO, s) for s in Suit]), max_size=2))
    return tuple(draw(st.permutations(cards)))


def canastra_by_definition(meld: Meld) -> CanastraKind | None:
    """7+ cards: of 2s, dirty with a 2 as joker, else clean."""
    if len(meld.cards) < 7:
        return None
    if meld.kind is MeldKind.TWOS:
        return CanastraKind.TWOS
    has_two = any(c.rank is Rank.TWO for c in meld.cards)
    return CanastraKind.DIRTY if has_two else CanastraKind.CLEAN


@settings(max_examples=400, deadline=None)
@given(meldish(), RULES)
def test_the_memoised_check_is_the_check(cards: tuple[Card, ...], rules: TrancaRules) -> None:
    kind, ordered, problems = _classify(cards, rules)
    checked = _checked(cards, rules)
    assert (checked.kind, checked.cards) == (kind, ordered)
    assert [(p, p.code, p.params) for p in checked.problems] == [
        (p, p.code, p.params) for p in problems
    ]
    assert _checked(cards, rules) is checked  # the second time is the cached answer
    if kind is None:
        with pytest.raises(InvalidMeldError) as raised:
            Meld(cards, rules=rules)
        assert raised.value.problems == tuple(problems)
        return
    meld = Meld(cards, rules=rules)
    assert (meld.kind, meld.cards) == (kind, ordered)
    assert meld.canastra == canastra_by_definition(meld)
    assert meld.card_points == sum(card_points(c) for c in cards)
    assert meld == Meld(list(reversed(cards)), rules=rules)  # derived fields are not compared


@st.composite
def drafts(draw: st.DrawFn) -> list[_Draft]:
    """Teams whose cards may well be more than the decks hold, with piles or without."""
    cards = st.lists(st.sampled_from(DECK[:12]), max_size=6)  # few cards: repeats are common
    teams = []
    for number in range(draw(st.integers(1, 3))):
        draft = _Draft(f"team {number}", f"T{number}")
        draft.melds = [(tuple(m), True) for m in draw(st.lists(cards, max_size=3))]
        draft.dollars = tuple(draw(cards))
        if draw(st.booleans()):
            draft.hands = (("a", tuple(draw(cards))), ("b", tuple(draw(cards))))
            draft.hand = draft.hands[0][1] + draft.hands[1][1]
        else:
            draft.hand = tuple(draw(cards))
        ranks = st.sampled_from([Rank.TWO, Rank.FOUR, Rank.FIVE])
        draft.piles = [
            Pile(rank, clean=rank is Rank.TWO or draw(st.booleans()), cards=draw(st.integers(7, 9)))
            for rank in draw(st.lists(ranks, max_size=2))
        ]
        teams.append(draft)
    return teams


@settings(max_examples=400, deadline=None)
@given(drafts(), st.integers(1, 3))
def test_counting_first_finds_what_noting_places_finds(teams: list[_Draft], decks: int) -> None:
    assert _counts_fit(teams, decks) == (not _overuse_problems(teams, decks))


CODES = st.sampled_from(DECK).flatmap(
    lambda card: st.sampled_from(
        [
            card.code,
            card.code.upper(),
            card.code.lower(),
            str(card),
            f"{card.rank.label}{card.suit.value}",
        ]
    )
)


@given(st.lists(CODES, max_size=12))
def test_a_list_of_exact_codes_reads_as_the_same_codes_spelt_out(codes: list[str]) -> None:
    assert parse_cards(codes) == parse_cards(" ".join(codes))
    assert parse_cards([*codes, "  As "]) == parse_cards(" ".join(codes) + " As")  # slow path
    read = parse_cards(codes)
    assert parse_cards(read) is read


@given(st.lists(st.sampled_from(DECK), max_size=4), st.sampled_from(["", "went out", "(2♣)"]))
def test_a_terms_text_is_its_cards_then_its_note(cards: list[Card], note: str) -> None:
    term = Term("t", 0, note, tuple(cards))
    assert term.text == " ".join([*(str(c) for c in cards), *([note] if note else [])])


@pytest.mark.parametrize("card", DECK)
def test_dollars_and_trancas_are_the_red_and_black_threes(card: Card) -> None:
    three = card.rank is Rank.THREE
    assert is_dollar(card) == (three and card.suit in (Suit.HEARTS, Suit.DIAMONDS))
    assert is_tranca(card) == (three and card.suit in (Suit.SPADES, Suit.CLUBS))


@pytest.mark.parametrize("items", [([1],), (Card("As"), None), (Card("As"), "Zz")])
def test_a_tuple_that_is_not_all_cards_is_read_item_by_item(items: tuple[object, ...]) -> None:
    with pytest.raises(InvalidCardError, match=r"^card [12] "):
        parse_cards(items)  # type: ignore[arg-type]
