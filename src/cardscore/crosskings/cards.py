"""The 36 Cross Kings cards (A–8 and K of each suit) as bits of a 36-bit mask.

Card ``suit.index * 9 + r`` is bit ``r`` of its suit's 9 bits: ``r`` 0 for the ace (aces are
low), 1–7 for 2–8, 8 for the king. The C solver uses the same numbering.

>>> card_number(Card("As")), card_number(Card("8s")), card_number(Card("Kc"))
(0, 7, 35)
>>> cards_of(mask_of(parse_cards("2S 3S 4S KH")))
(Card('2s'), Card('3s'), Card('4s'), Card('Kh'))
"""

from __future__ import annotations

from collections.abc import Iterable

from cardscore.cards import Card, Rank, Suit, full_deck, parse_cards
from cardscore.errors import ImpossibleTableError, InvalidCardError, Problem

__all__ = [
    "CARDS",
    "RANKS",
    "card_number",
    "cards_of",
    "is_king",
    "mask_of",
    "parse_hand",
]

RANKS: tuple[Rank, ...] = (
    Rank.ACE,
    Rank.TWO,
    Rank.THREE,
    Rank.FOUR,
    Rank.FIVE,
    Rank.SIX,
    Rank.SEVEN,
    Rank.EIGHT,
    Rank.KING,
)
"""The ranks in play, in run order (ace low), the king last."""

_POSITION = {rank: r for r, rank in enumerate(RANKS)}
CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in RANKS)
"""All 36 cards, by card number."""


def card_number(card: Card) -> int:
    """The card's bit (0…35); an error for a 9, 10, J or Q, which Cross Kings leaves out."""
    position = _POSITION.get(card.rank)
    if position is None:
        raise InvalidCardError(Problem.of("not_crosskings_card", code=card.code, card=str(card)))
    return card.suit.index * 9 + position


def is_king(card: Card) -> bool:
    return card.rank is Rank.KING


def mask_of(cards: Iterable[Card]) -> int:
    """The cards as a mask; an error naming every card not in play or given twice."""
    mask, problems = 0, list[str]()
    seen: set[Card] = set()
    for card in cards:
        try:
            bit = 1 << card_number(card)
        except InvalidCardError as error:
            problems.extend(error.problems)
            continue
        if card in seen:
            problems.append(Problem.of("card_twice", card=str(card)))
        seen.add(card)
        mask |= bit
    if problems:
        raise ImpossibleTableError(problems)
    return mask


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a mask, by suit then rank (ace low, king last)."""
    return tuple(CARDS[i] for i in range(36) if mask >> i & 1)


def parse_hand(cards: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Read cards in any notation and check they can be one Cross Kings hand."""
    parsed = parse_cards(cards)
    mask_of(parsed)
    return parsed


assert len(full_deck(RANKS)) == 36
