"""Gong Zhu card values and house rules (defaults follow the seed exactly)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from cardscore.cards import Card, Rank, Suit
from cardscore.errors import CardscoreError, Problem

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

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any] | None) -> Rules:
        """Rules from ``{"pig_plus_with_all_hearts": true, ...}`` (a missing key is off).

        The keys are the fields' names, as the CLI's options are; every problem is reported.

        >>> Rules.from_mapping({"low_hearts_count_for_doubler": True})
        Rules(pig_plus_with_all_hearts=False, low_hearts_count_for_doubler=True)
        >>> Rules.from_mapping({"pig": 1})
        Traceback (most recent call last):
        ...
        cardscore.errors.CardscoreError: unknown key 'pig' (known: pig_plus_with_all_hearts, low_hearts_count_for_doubler)
        """
        names = [f.name for f in fields(cls)]
        problems = [
            Problem.of("unknown_key", key=str(key), known=", ".join(names))
            for key in data or {}
            if key not in names
        ]
        values = {name: (data or {}).get(name, False) for name in names}
        problems += [
            Problem.of("not_a_bool", key=name, value=repr(value))
            for name, value in values.items()
            if not isinstance(value, bool)
        ]
        if problems:
            raise CardscoreError(problems)
        return cls(**values)

    def as_dict(self) -> dict[str, bool]:
        return {f.name: getattr(self, f.name) for f in fields(self)}
