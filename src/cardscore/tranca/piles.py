"""Closed canastras seen as a pile: a rank, clean or dirty, and a card count — no suits.

The photo convention: a pile lying horizontally is clean, vertically dirty. A dirty pile of
``cards`` cards holds one 2 among them; a pile of 2s is the canastra of 2s (``clean`` ignored).

>>> pile = Pile(Rank.KING, clean=False)
>>> str(pile), pile.card_points, pile.bonus, pile.rank_counts()
('pile of 7 K (dirty: 6 K and a 2)', 70, 100, {Rank.KING: 6, Rank.TWO: 1})
>>> Pile.from_dict({"pile": "2", "cards": 8}).as_dict()
{'pile': '2', 'clean': True, 'cards': 8}
>>> pile_problems({"pile": "2", "clean": False})
('pile 2 cannot be dirty: a canastra of 2s is its own kind (leave out "clean")',)
>>> pile_problems({"pile": "3", "cards": 5})
('pile 3 is no canastra: 3s never go in melds', 'a pile is a closed canastra of at least 7 cards, not 5')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cardscore.cards import Card, Rank, Suit
from cardscore.errors import InvalidNotationError, Problem
from cardscore.tranca.melds import CanastraKind
from cardscore.tranca.rules import CANASTRA_SIZE, EDGE_RANKS, TrancaRules, card_points

__all__ = ["Pile", "parse_rank", "pile_problems"]

_DEFAULT_RULES = TrancaRules()
_PILE_KEYS = ("pile", "clean", "cards")
_RANK_WORDS: dict[str, Rank] = (
    {rank.value.lower(): rank for rank in Rank}
    | {"10": Rank.TEN}
    | {rank.name.lower(): rank for rank in Rank}
)


def parse_rank(text: object) -> Rank:
    """A rank from ``K``, ``k``, ``10``, ``T`` or ``king``.

    >>> parse_rank("10"), parse_rank("ace")
    (Rank.TEN, Rank.ACE)
    """
    if isinstance(text, Rank):
        return text
    rank = _RANK_WORDS.get(str(text).strip().lower()) if isinstance(text, str | int) else None
    if rank is None or isinstance(text, bool):
        raise InvalidNotationError(Problem.of("not_a_rank", token=str(text)))
    return rank


# What one card of each rank counts (a suit changes nothing): scoring asks for every pile.
_RANK_POINTS: dict[Rank, int] = {rank: card_points(Card(rank, Suit.SPADES)) for rank in Rank}


def pile_problems(data: object, rules: TrancaRules = _DEFAULT_RULES) -> tuple[Problem, ...]:
    """Every reason ``data`` (a pile's JSON object) is no closed canastra (empty if it is one)."""
    if not isinstance(data, Mapping):
        return (Problem.of("not_a_pile", value=repr(data)),)
    problems: list[Problem] = []
    unknown = sorted(str(k) for k in data if k not in _PILE_KEYS)
    if unknown:
        problems.append(Problem.of("pile_unknown_keys", keys=", ".join(map(repr, unknown))))
    rank: Rank | None = None
    if "pile" not in data:
        problems.append(Problem.of("pile_rank_missing"))
    else:
        try:
            rank = parse_rank(data["pile"])
        except InvalidNotationError as error:
            problems.extend(error.problems)
    clean = data.get("clean", True)
    if not isinstance(clean, bool):
        problems.append(Problem.of("not_a_bool", key="clean", value=repr(clean)))
    elif rank is Rank.TWO and clean is False:
        problems.append(Problem.of("dirty_twos_pile"))
    cards = data.get("cards", CANASTRA_SIZE)
    if rank is Rank.THREE:
        problems.append(Problem.of("threes_pile"))
    elif rank is not None and rank is not Rank.TWO and not rules.allows_set_of(rank):
        edges = ", ".join(r.label for r in sorted(EDGE_RANKS))
        problems.append(Problem.of("pile_not_edge", rank=rank.label, edges=edges))
    if not isinstance(cards, int) or isinstance(cards, bool):
        problems.append(Problem.of("not_a_whole_number", key="cards", value=repr(cards)))
    elif cards < CANASTRA_SIZE:
        problems.append(Problem.of("pile_too_small", cards=cards))
    return tuple(problems)


@dataclass(frozen=True, slots=True)
class Pile:
    """A closed canastra of one rank whose cards' suits are not known."""

    rank: Rank
    clean: bool = True
    cards: int = CANASTRA_SIZE

    def __post_init__(self) -> None:
        problems = pile_problems(self.as_dict())
        if problems:
            raise InvalidNotationError(problems)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], rules: TrancaRules = _DEFAULT_RULES) -> Pile:
        """Read ``{"pile": "K", "clean": true, "cards": 7}`` (``clean`` and ``cards`` optional)."""
        problems = pile_problems(data, rules)
        if problems:
            raise InvalidNotationError(problems)
        return cls(parse_rank(data["pile"]), data.get("clean", True), data.get("cards", 7))

    @property
    def canastra(self) -> CanastraKind:
        if self.rank is Rank.TWO:
            return CanastraKind.TWOS
        return CanastraKind.CLEAN if self.clean else CanastraKind.DIRTY

    @property
    def size(self) -> int:
        return self.cards

    def rank_counts(self) -> dict[Rank, int]:
        """How many cards of each rank the pile holds (a dirty pile's 2 counts among the 2s)."""
        if self.canastra is CanastraKind.DIRTY:
            return {self.rank: self.cards - 1, Rank.TWO: 1}
        return {self.rank: self.cards}

    @property
    def card_points(self) -> int:
        return sum(_RANK_POINTS[rank] * n for rank, n in self.rank_counts().items())

    @property
    def bonus(self) -> int:
        return self.canastra.bonus

    def as_dict(self) -> dict[str, Any]:
        return {"pile": self.rank.value, "clean": self.clean, "cards": self.cards}

    def __str__(self) -> str:
        label = self.rank.label
        if self.canastra is CanastraKind.TWOS:
            return f"pile of {self.cards} 2s"
        if self.clean:
            return f"pile of {self.cards} {label} (clean)"
        return f"pile of {self.cards} {label} (dirty: {self.cards - 1} {label} and a 2)"
