"""The interface between the web app and a game's scoring package."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, Protocol, TypedDict

from cardscore.breakdown import Breakdown

__all__ = [
    "Checked",
    "Defaults",
    "GameAdapter",
    "Played",
    "Replayed",
    "RoundSummary",
    "Summary",
    "breakdown_dict",
]


def breakdown_dict(side: str, breakdown: Breakdown) -> dict[str, Any]:
    """A side's breakdown with every term's reason, as the pages and the API show it."""
    return {
        "side": side,
        "total": breakdown.total,
        "terms": [{"name": t.name, "points": t.points, "detail": t.text} for t in breakdown],
    }


class RoundSummary(TypedDict):
    number: int
    points: list[int]
    """Points of each side (team or player) in this round, in the match's order."""
    totals: list[int]
    """Running totals after this round."""
    detail: dict[str, Any]
    """The game's own account of the round (breakdowns with every term)."""


class Summary(TypedDict):
    sides: list[str]
    rounds: list[RoundSummary]
    totals: list[int]
    leader: str | None
    winner: str | None
    over: bool
    target: int
    stats: dict[str, Any]


class Checked(NamedTuple):
    """Rounds that passed every check, in canonical form, and the match they make."""

    documents: list[dict[str, Any]]
    summary: Summary


class Played(Protocol):
    """A match's checked rounds, kept in memory between changes so that a new round costs only
    its own check and score (not a replay of the whole match).

    ``add`` changes the object: the store owns it while it works on a change and drops it when
    the change fails.
    """

    @property
    def documents(self) -> list[dict[str, Any]]:
        """The checked rounds, canonical, in order (callers must not change them)."""
        ...

    def add(self, document: Mapping[str, Any]) -> None:
        """Check the next round against the match and add it (and any reply to it).

        Raises CardscoreError naming every problem (prefixed by the round's number); the
        object is then unusable.
        """
        ...

    def summary(self) -> Summary:
        """Scores, running totals, winner and statistics (new lists: later changes leave it be)."""
        ...


class GameAdapter(Protocol):
    name: str
    replaceable: bool
    """Whether a past round may be replaced (not where the computer played some of them)."""
    rules: str
    """The edition of how this adapter checks and scores: change it when a stored match would
    now be scored differently, and stored results are worked out again on their next read
    (a new cardscore release does that for every game)."""

    def new_config(self, request: Mapping[str, Any]) -> dict[str, Any]:
        """Check a new match's settings; return what to store. Raises CardscoreError."""
        ...

    def check_rounds(
        self, config: Mapping[str, Any], documents: Sequence[Mapping[str, Any]]
    ) -> Checked:
        """Check a whole match's rounds in order: their canonical documents and the summary.

        Raises CardscoreError naming every problem (prefixed by the round's number).
        """
        ...

    def summary(self, config: Mapping[str, Any], documents: Sequence[Mapping[str, Any]]) -> Summary:
        """Scores, running totals, winner and statistics of checked rounds."""
        ...

    def public_config(self, config: Mapping[str, Any]) -> dict[str, Any]:
        """What of the settings anyone with a key may see."""
        ...

    def reply(
        self, config: Mapping[str, Any], documents: Sequence[Mapping[str, Any]]
    ) -> list[dict[str, Any]]:
        """The rounds after a new one is added (a computer opponent answers here)."""
        ...

    def undo(self, documents: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """The rounds after taking back the last one."""
        ...

    def open(self, config: Mapping[str, Any], documents: Sequence[Mapping[str, Any]]) -> Played:
        """Check a whole match's rounds (as :meth:`check_rounds`) and keep them for more."""
        ...


class Defaults:
    """The usual answers to the optional parts of :class:`GameAdapter`."""

    replaceable = True
    rules = "1"

    def public_config(self, config: Mapping[str, Any]) -> dict[str, Any]:
        return dict(config)

    def reply(
        self, config: Mapping[str, Any], documents: Sequence[Mapping[str, Any]]
    ) -> list[dict[str, Any]]:
        return [dict(d) for d in documents]

    def undo(self, documents: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        return [dict(d) for d in documents[:-1]]

    def open(
        self: GameAdapter, config: Mapping[str, Any], documents: Sequence[Mapping[str, Any]]
    ) -> Played:
        return Replayed(self, config, self.check_rounds(config, documents))


class Replayed:
    """:class:`Played` for a game without a cheaper way: every new round re-checks the match."""

    def __init__(self, game: GameAdapter, config: Mapping[str, Any], checked: Checked) -> None:
        self._game = game
        self._config = config
        self._checked = checked

    @property
    def documents(self) -> list[dict[str, Any]]:
        return self._checked.documents

    def add(self, document: Mapping[str, Any]) -> None:
        rounds = self._game.reply(self._config, [*self._checked.documents, document])
        self._checked = self._game.check_rounds(self._config, rounds)

    def summary(self) -> Summary:
        return self._checked.summary
