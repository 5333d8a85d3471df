"""What every game's match shares: the sole leader, and the small protocol front ends rely on.

A match adds rounds, replaces one (recomputing every total after it), undoes the last, and
says its totals, its leader, its winner and whether it is over; it goes to JSON and back.
The web app and the CLI keep any game's match through this protocol alone.

>>> sole_leader({"Ana": 120, "Bia": 80}), sole_leader({"Ana": 120, "Bia": 120})
('Ana', None)
>>> sole_leader({"Ana": 3000, "Bia": 2000}, reaching=3500) is None
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Protocol, Self, TypeVar, runtime_checkable

from cardscore.errors import CardscoreError, Problem

__all__ = ["JsonMatch", "Match", "sole_leader"]

K = TypeVar("K")


def sole_leader(totals: Mapping[K, int], reaching: int | None = None) -> K | None:
    """The one key with the highest total; ``None`` on a tie for the highest, when there are no
    totals, or when the highest is below ``reaching``."""
    if not totals:
        return None
    best = max(totals.values())
    if reaching is not None and best < reaching:
        return None
    leaders = [key for key, total in totals.items() if total == best]
    return leaders[0] if len(leaders) == 1 else None


class JsonMatch:
    """What both games' matches share for JSON: ``to_json`` from ``as_dict``, and reading."""

    def as_dict(self) -> dict[str, Any]:
        raise NotImplementedError

    def to_json(self) -> str:
        """The match as JSON; ``from_json`` rebuilds it (and checks every round again)."""
        return json.dumps(self.as_dict(), ensure_ascii=False)

    @staticmethod
    def read(text: str | Mapping[str, Any]) -> Mapping[str, Any]:
        """The match's JSON object, from its text or as already read."""
        try:
            data = json.loads(text) if isinstance(text, str) else text
        except json.JSONDecodeError as error:
            raise CardscoreError(Problem.of("not_json", error=str(error))) from None
        if not isinstance(data, Mapping):
            raise CardscoreError(Problem.of("match_not_object"))
        return data


@runtime_checkable
class Match(Protocol):
    """The protocol of :class:`cardscore.tranca.Match` and :class:`cardscore.gongzhu.Match`."""

    @property
    def totals(self) -> dict[str, int]: ...

    @property
    def leader(self) -> str | None:
        """The sole highest total so far (``None`` on a tie or before any round)."""

    @property
    def winner(self) -> str | None: ...

    @property
    def is_over(self) -> bool: ...

    def add(self, round_: Any) -> Any:
        """Check and add the next round; returns its record."""

    def replace(self, index: int, round_: Any) -> Any:
        """Replace round ``index`` (0 for the first), recomputing every total after it."""

    def undo(self) -> Any:
        """Take back the last round; returns its record."""

    def to_json(self) -> str: ...

    @classmethod
    def from_json(cls, text: str) -> Self: ...
