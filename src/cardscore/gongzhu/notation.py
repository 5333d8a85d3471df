"""The seed's pile notation: ``23456789TJQKA`` for ♥2–♥A, ``P`` ♠Q, ``G`` ♦J, ``D`` ♣10.

It clashes with card codes (``JD`` is ♥J + ♣10 here, ♦J there), so callers choose the notation
explicitly; nothing guesses.

>>> [str(c) for c in parse_pile("TJQKP")]
['10♥', 'J♥', 'Q♥', 'K♥', 'Q♠']
>>> format_pile(parse_pile("DP2A"))
'2APD'
"""

from __future__ import annotations

from collections.abc import Iterable

from cardscore.cards import Card, Rank, Suit
from cardscore.errors import ImpossibleTableError, InvalidNotationError, Problem
from cardscore.gongzhu.rules import DOUBLER, GOAT, PIG

__all__ = ["format_pile", "parse_pile"]

_SYMBOLS: dict[str, Card] = {rank.value: Card(rank, Suit.HEARTS) for rank in Rank} | {
    "P": PIG,
    "G": GOAT,
    "D": DOUBLER,
}
_LETTERS = {card: symbol for symbol, card in _SYMBOLS.items()}
_ORDER = "23456789TJQKAPGD"


def parse_pile(text: str) -> tuple[Card, ...]:
    """Cards of a pile string; spaces are ignored. Every unknown or repeated symbol is reported.

    >>> parse_pile("2x5 5")
    Traceback (most recent call last):
    ...
    cardscore.errors.InvalidNotationError: symbol 2 'x' is not in the pile notation (23456789TJQKA for ♥2–♥A, P ♠Q, G ♦J, D ♣10)
    >>> parse_pile("55")
    Traceback (most recent call last):
    ...
    cardscore.errors.ImpossibleTableError: '5' (5♥) appears 2 times in the pile; there is one of each card
    """
    unknown: list[Problem] = []
    cards: list[Card] = []
    for position, symbol in enumerate(text, start=1):
        if symbol.isspace():
            continue
        card = _SYMBOLS.get(symbol.upper())
        if card is None:
            unknown.append(Problem.of("not_pile_notation", position=position, symbol=symbol))
        else:
            cards.append(card)
    if unknown:
        raise InvalidNotationError(unknown)
    repeated = sorted(
        {c for c in cards if cards.count(c) > 1}, key=lambda c: _ORDER.index(_LETTERS[c])
    )
    if repeated:
        raise ImpossibleTableError(
            Problem.of("pile_repeats", symbol=_LETTERS[c], card=str(c), n=cards.count(c))
            for c in repeated
        )
    return tuple(cards)


def format_pile(cards: Iterable[Card]) -> str:
    """The pile string of the scoring cards among ``cards``, in a fixed order."""
    return "".join(sorted((_LETTERS[c] for c in cards if c in _LETTERS), key=_ORDER.index))
