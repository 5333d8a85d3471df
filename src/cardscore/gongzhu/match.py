"""A Gong Zhu match: hands of four piles, running totals, and an end at a losing limit.

>>> m = Match(("Ann", "Bo", "Cy", "Di"), limit=-300)
>>> _ = m.play_hand(["TJQKP", "G", "D", "23456789A"])
>>> m.totals
{'Ann': -200, 'Bo': 100, 'Cy': 50, 'Di': -100}
>>> _ = m.play_hand(["P", "23456789TJQKA", "G", "D"])
>>> m.is_over, m.winner, m.losers
(True, 'Bo', ('Ann',))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardscore.cards import Card
from cardscore.errors import CardscoreError, IllegalMoveError, Problem
from cardscore.gongzhu.rules import Rules
from cardscore.gongzhu.scoring import PileScore, score_hand
from cardscore.matches import JsonMatch, sole_leader

__all__ = ["HandResult", "Match"]

DEFAULT_LIMIT = -1000


@dataclass(frozen=True, slots=True)
class HandResult:
    """One finished hand: each player's pile score and the totals after it."""

    number: int
    scores: tuple[PileScore, ...]
    totals: tuple[int, ...]

    @property
    def piles(self) -> tuple[str, ...]:
        """The four piles in pile notation."""
        return tuple(score.pile for score in self.scores)


@dataclass
class Match(JsonMatch):
    """Hands played in order until some player's total reaches ``limit`` (default −1000).

    The winner is the player with the highest total when the match ends.
    """

    players: tuple[str, ...]
    limit: int = DEFAULT_LIMIT
    rules: Rules = field(default_factory=Rules)
    hands: list[HandResult] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.players = tuple(self.players)
        if len(self.players) != 4 or len(set(self.players)) != 4:
            raise CardscoreError(Problem.of("four_names", names=repr(self.players)))
        if not isinstance(self.limit, int) or self.limit >= 0:
            raise CardscoreError(Problem.of("limit_not_negative", limit=repr(self.limit)))

    @property
    def totals(self) -> dict[str, int]:
        last = self.hands[-1].totals if self.hands else (0,) * 4
        return dict(zip(self.players, last, strict=True))

    @property
    def is_over(self) -> bool:
        return any(total <= self.limit for total in self.totals.values())

    @property
    def leader(self) -> str | None:
        """The sole highest total so far (``None`` on a tie or before any hand)."""
        return sole_leader(self.totals) if self.hands else None

    @property
    def winner(self) -> str | None:
        """The highest total once the match is over (``None`` before, or on a tie for first)."""
        return self.leader if self.is_over else None

    @property
    def losers(self) -> tuple[str, ...]:
        return tuple(p for p, t in self.totals.items() if t <= self.limit)

    def play_hand(self, piles: Sequence[Iterable[Card] | str]) -> HandResult:
        """Score four piles (cards or pile strings, in player order) and add the hand."""
        if self.is_over:
            losers = ", ".join(self.losers)
            raise IllegalMoveError(Problem.of("match_over_limit", losers=losers, limit=self.limit))
        scores = score_hand(piles, self.rules)
        previous = tuple(self.totals.values())
        totals = tuple(t + s.total for t, s in zip(previous, scores, strict=True))
        result = HandResult(len(self.hands) + 1, scores, totals)
        self.hands.append(result)
        return result

    add = play_hand

    def replace(self, index: int, piles: Sequence[Iterable[Card] | str]) -> HandResult:
        """Replace hand ``index`` (0 for the first) and recompute every total after it; all or
        nothing (an edit that ends the match before its last hand is refused)."""
        if not 0 <= index < len(self.hands):
            raise IllegalMoveError(Problem.of("no_such_round", index=index, n=len(self.hands)))
        every: list[Sequence[Iterable[Card] | str]] = [hand.piles for hand in self.hands]
        every[index] = piles
        again = Match(self.players, self.limit, self.rules)
        for number, hand in enumerate(every, start=1):
            if again.is_over:
                left = len(every) - number + 1
                raise IllegalMoveError(
                    Problem.of(
                        "edit_ends_match",
                        round=number - 1,
                        winner=str(again.winner),
                        total=max(again.totals.values()),
                        n=left,
                    )
                )
            again.play_hand(hand)
        self.hands = again.hands
        return self.hands[index]

    def undo(self) -> HandResult:
        """Take back the last hand."""
        if not self.hands:
            raise IllegalMoveError(Problem.of("no_hand_to_undo"))
        return self.hands.pop()

    def as_dict(self) -> dict[str, Any]:
        return {
            "names": list(self.players),
            "limit": self.limit,
            "rules": self.rules.as_dict(),
            "hands": [list(hand.piles) for hand in self.hands],
        }

    @classmethod
    def from_json(cls, text: str | Mapping[str, Any]) -> Match:
        data = cls.read(text)
        match = cls(
            tuple(data.get("names", ())),
            data.get("limit", DEFAULT_LIMIT),
            Rules.from_mapping(data.get("rules")),
        )
        problems: list[Problem] = []
        for number, piles in enumerate(data.get("hands", []), start=1):
            try:
                match.play_hand(piles)
            except CardscoreError as error:
                problems.extend(p.at(f"hand {number}") for p in error.problems)
        if problems:
            raise CardscoreError(problems)
        return match
