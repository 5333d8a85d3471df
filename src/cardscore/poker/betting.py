"""Betting rules, action records and pots for five-card draw.

Pots are built from what each player put in over the whole hand: one main pot and a side pot
for each all-in level, each open only to the players who put in at least that much and did not
fold.

**Odd chips.** When a pot does not split evenly, the odd chips go one at a time to the tied
winners in seat order starting left of the button (the first seat to act after the draw).

>>> pots = build_pots([50, 100, 100, 30], folded=[False, False, False, True])
>>> [(p.amount, p.eligible) for p in pots]
[(180, (0, 1, 2)), (100, (1, 2))]
>>> split_pot(101, winners=(2, 0), order=(1, 2, 3, 0))
{2: 51, 0: 50}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from cardscore.cards import Card
from cardscore.errors import CardscoreError, Problem

__all__ = [
    "Action",
    "ActionKind",
    "Limit",
    "Pot",
    "Rules",
    "build_pots",
    "split_pot",
]


class Limit(Enum):
    """How much a player may bet."""

    FIXED = "fixed"
    """Bets and raises of one fixed size: the small bet before the draw, the big bet after."""
    NO_LIMIT = "no-limit"
    """Any amount up to the whole stack; a raise at least matches the previous bet or raise."""


@dataclass(frozen=True, slots=True)
class Rules:
    """Stakes and structure of a game.

    >>> Rules()
    Rules(limit=Limit.NO_LIMIT, ante=0, small_blind=1, big_blind=2, small_bet=2, big_bet=4, max_bets=4)
    >>> Rules(limit=Limit.FIXED, ante=1, small_blind=0, big_blind=0).min_bet(after_draw=True)
    4
    """

    limit: Limit = Limit.NO_LIMIT
    ante: int = 0
    small_blind: int = 1
    big_blind: int = 2
    small_bet: int = 2
    """Fixed limit: the size of bets and raises before the draw (no limit: the minimum bet
    when there is no big blind)."""
    big_bet: int = 4
    """Fixed limit: the size of bets and raises after the draw."""
    max_bets: int = 4
    """Fixed limit: bets allowed in one round, the opening bet (or big blind) included."""

    def __post_init__(self) -> None:
        problems = [
            f"{name} must be a whole number ≥ 0, not {getattr(self, name)!r}"
            for name in ("ante", "small_blind", "big_blind", "small_bet", "big_bet")
            if not isinstance(getattr(self, name), int) or getattr(self, name) < 0
        ]
        if not isinstance(self.limit, Limit):
            problems.append(Problem.of("bad_limit", limit=repr(self.limit)))
        if self.ante == self.small_blind == self.big_blind == 0:
            problems.append(Problem.of("no_forced_bets"))
        if self.small_blind > self.big_blind:
            problems.append(Problem.of("blinds_order"))
        if self.small_bet < 1 or self.big_bet < 1 or self.max_bets < 1:
            problems.append(Problem.of("bet_sizes"))
        if problems:
            raise CardscoreError(problems)

    def min_bet(self, *, after_draw: bool) -> int:
        """The smallest opening bet (fixed limit: the only one) in a round."""
        if self.limit is Limit.FIXED:
            return self.big_bet if after_draw else self.small_bet
        return self.big_blind or self.small_bet

    def as_dict(self) -> dict[str, Any]:
        return {
            "limit": self.limit.value,
            "ante": self.ante,
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "small_bet": self.small_bet,
            "big_bet": self.big_bet,
            "max_bets": self.max_bets,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        return cls(**{**data, "limit": Limit(data.get("limit", "no-limit"))})

    def __repr__(self) -> str:
        inner = ", ".join(
            f"{k}={'Limit.' + v.upper().replace('-', '_') if k == 'limit' else v}"
            for k, v in self.as_dict().items()
        )
        return f"Rules({inner})"


class ActionKind(Enum):
    ANTE = "ante"
    SMALL_BLIND = "small blind"
    BIG_BLIND = "big blind"
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    DRAW = "draw"

    @property
    def forced(self) -> bool:
        """Posted by the dealer, not chosen by the player."""
        return self in (ActionKind.ANTE, ActionKind.SMALL_BLIND, ActionKind.BIG_BLIND)


@dataclass(frozen=True, slots=True)
class Action:
    """One thing that happened in a hand: the record every action method returns.

    ``amount`` is the chips this action put in; ``total`` the player's total in the betting
    round afterwards (what a raise raised *to*).
    """

    seat: int
    kind: ActionKind
    amount: int = 0
    total: int = 0
    all_in: bool = False
    discards: tuple[Card, ...] = ()
    drawn: tuple[Card, ...] = field(default=(), compare=True)

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"seat": self.seat, "kind": self.kind.value}
        if self.kind is not ActionKind.DRAW:
            data |= {"amount": self.amount, "total": self.total}
            if self.all_in:
                data["all_in"] = True
        else:
            data |= {"discards": [c.code for c in self.discards]}
            data |= {"drawn": [c.code for c in self.drawn]}
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Action:
        return cls(
            seat=data["seat"],
            kind=ActionKind(data["kind"]),
            amount=data.get("amount", 0),
            total=data.get("total", 0),
            all_in=data.get("all_in", False),
            discards=tuple(Card(c) for c in data.get("discards", ())),
            drawn=tuple(Card(c) for c in data.get("drawn", ())),
        )

    def __str__(self) -> str:
        if self.kind is ActionKind.DRAW:
            n = len(self.discards)
            return "stands pat" if n == 0 else f"draws {n}"
        text = {
            ActionKind.FOLD: "folds",
            ActionKind.CHECK: "checks",
            ActionKind.CALL: f"calls {self.amount}",
            ActionKind.BET: f"bets {self.amount}",
            ActionKind.RAISE: f"raises to {self.total}",
        }.get(self.kind, f"posts the {self.kind.value} ({self.amount})")
        return text + (" (all in)" if self.all_in else "")


@dataclass(frozen=True, slots=True)
class Pot:
    """Chips and the seats that can win them."""

    amount: int
    eligible: tuple[int, ...]


def build_pots(contributions: Sequence[int], folded: Sequence[bool]) -> list[Pot]:
    """Main and side pots from each seat's total contribution to the hand.

    Levels are the amounts the players still in put in. A folded player's chips stay in the
    pot (folding forfeits them): those above the top level join the last pot, and when no one
    still in put a chip in, they make one pot for the players still in.

    >>> build_pots([10, 0], folded=[True, False])
    [Pot(amount=10, eligible=(1,))]
    """
    levels = sorted({c for c, out in zip(contributions, folded, strict=True) if not out and c})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in contributions)
        eligible = tuple(
            seat
            for seat, (c, out) in enumerate(zip(contributions, folded, strict=True))
            if not out and c >= level
        )
        if amount:
            pots.append(Pot(amount, eligible))
        previous = level
    rest = sum(max(0, c - previous) for c in contributions)
    if rest and pots:
        pots[-1] = Pot(pots[-1].amount + rest, pots[-1].eligible)
    elif rest:
        pots.append(Pot(rest, tuple(seat for seat, out in enumerate(folded) if not out)))
    return pots


def split_pot(amount: int, winners: Sequence[int], order: Sequence[int]) -> dict[int, int]:
    """Share ``amount`` among ``winners``; odd chips one each in ``order`` (left of button
    first)."""
    ranked = sorted(winners, key=order.index)
    share, odd = divmod(amount, len(ranked))
    return {seat: share + (1 if i < odd else 0) for i, seat in enumerate(ranked)}
