"""Classifier outputs: class ``i < 52`` is ``Card.from_id(i)``; class 52 means "not an index"."""

from __future__ import annotations

from cardscore.cards import Card

__all__ = ["BACKGROUND", "CLASSES", "card_of"]

BACKGROUND = 52
CLASSES = 53


def card_of(label: int) -> Card | None:
    """The card a class stands for, or None for the background class.

    >>> card_of(Card("Th").id), card_of(BACKGROUND)
    (Card('Th'), None)
    """
    return None if label == BACKGROUND else Card.from_id(label)
