"""Gong Zhu card values and house rules (defaults follow the seed exactly)."""

from __future__ import annotations

from dataclasses import dataclass

from cardscore.cards import Card, Rank, Suit

__all__ = ["DOUBLER", "GOAT", "HEART_POINTS", "PIG", "Rules"]

PIG = Card(Rank.QUEEN, Suit.SPADES)
GOAT = Card(Rank.JACK, Suit.DIAMONDS)
DOUBLER = Card(Rank.TEN, Suit.CLUBS)

HEART_POINTS: dict[Rank, int] = {
    Rank.TWO: 0,
    Rank.THREE: 0,
    Rank.FOUR: 0,
    Rank.FIVE: -10,
    Rank.SIX: -10,
    Rank.SEVEN: -10,
    Rank.EIGHT: -10,
    Rank.NINE: -10,
    Rank.TEN: -10,
    Rank.JACK: -20,
    Rank.QUEEN: -30,
    Rank.KING: -40,
    Rank.ACE: -50,
}


@dataclass(frozen=True, slots=True)
class Rules:
    """House rules; the defaults are the seed's.

    ``pig_plus_with_all_hearts``: with all thirteen hearts, the pig counts +100 even without the
    goat (all hearts plus the pig is worth +300).
    ``low_hearts_count_for_doubler``: ♥2–♥4 count as scoring cards for the doubler, so
    ♥2 + ♣10 is 0 (doubled nothing) rather than +50.
    """

    pig_plus_with_all_hearts: bool = False
    low_hearts_count_for_doubler: bool = False
