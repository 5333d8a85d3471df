"""Tranca matches: rounds are ``cardscore tranca score`` documents, checked across all teams.

The match itself (team order, players, target, the end of the match, edits that would end it
early) is :class:`cardscore.tranca.Match`'s business; this adapter plays the stored rounds
through it once and keeps the match (:class:`TrancaPlayed`), so that a new round costs only its
own check and score, statistics included.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from cardscore.errors import CardscoreError
from cardscore.tranca import Match, Round, RoundScore, Team, score_round
from cardscore.tranca.stats import RunningStats
from cardscore.tranca.tally import TallyRound, read_round
from cardscore.web.games.base import (
    Checked,
    Defaults,
    Played,
    RoundSummary,
    Summary,
    breakdown_dict,
)

__all__ = ["TrancaAdapter", "TrancaPlayed", "score_document"]


def _scored(score: RoundScore) -> dict[str, Any]:
    return {
        **score.as_dict(),
        "breakdowns": [breakdown_dict(team.name, team.breakdown) for team in score.teams],
    }


def score_document(document: Mapping[str, Any]) -> dict[str, Any]:
    """Score one round document: each team's terms (with reasons) and total.

    A document with ``"tally": true`` is a quick-entry round (numbers per team). Raises
    :class:`~cardscore.errors.CardscoreError` naming every problem.
    """
    return _scored(score_round(read_round(document)))


def _match(config: Mapping[str, Any]) -> Match:
    teams = [Team(team["name"], tuple(team.get("players", ()))) for team in config["teams"]]
    return Match(teams, players=int(config["players"]), target=config.get("target"))


@lru_cache(maxsize=8192)
def _parse_text(text: str) -> tuple[Round | TallyRound, dict[str, Any]]:
    round_ = read_round(json.loads(text))
    return round_, round_.as_dict()


def _parsed(
    config: Mapping[str, Any], document: Mapping[str, Any]
) -> tuple[Round | TallyRound, dict[str, Any]]:
    """The checked round of a document (a round in a match need not repeat the player count).

    Rounds are immutable, so a match's stored rounds are parsed once per process, not on every
    save: replaying a match then costs only the scoring. Returns the round and its canonical
    document (shared: callers must not change it).
    """
    data = {"players": config["players"], **document}
    try:
        text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError):
        round_ = read_round(data)  # not JSON (never from the API): let the parser say why
        return round_, round_.as_dict()
    return _parse_text(text)


class TrancaPlayed:
    """A Tranca match's checked rounds with their scores and statistics (see :class:`Played`).

    >>> played = TrancaPlayed({"players": 2, "teams": [{"name": "Ana"}, {"name": "Bia"}],
    ...                        "target": 3500}, [])
    >>> canastra = ["Ah", "Kh", "Qh", "Jh", "Th", "9h", "8h"]
    >>> played.add({"teams": [{"name": "Ana", "melds": [canastra], "took_morto": True,
    ...                        "went_out": True}, {"name": "Bia", "took_morto": True,
    ...                                            "went_out": False}]})
    >>> summary = played.summary()
    >>> summary["totals"], summary["leader"], summary["stats"]["teams"][0]["clean_canastras"]
    ([375, 0], 'Ana', 1)
    """

    def __init__(self, config: Mapping[str, Any], documents: Sequence[Mapping[str, Any]]) -> None:
        self._config = config
        self._match = _match(config)
        self._documents: list[dict[str, Any]] = []
        self._rounds: list[RoundSummary] = []
        self._stats = RunningStats(self._match.teams)
        for document in documents:
            self.add(document)

    @property
    def documents(self) -> list[dict[str, Any]]:
        return self._documents

    def add(self, document: Mapping[str, Any]) -> None:
        match = self._match
        try:
            round_, canonical = _parsed(self._config, document)
            record = match.add_round(round_)
        except CardscoreError as error:
            number = len(self._rounds) + 1
            raise CardscoreError(p.at(f"round {number}") for p in error.problems) from None
        self._documents.append(canonical)
        self._rounds.append(
            {
                "number": record.number,
                "points": [record.scores[name] for name in match.names],
                "totals": [record.totals[name] for name in match.names],
                "detail": _scored(record.score),
            }
        )
        self._stats.add(round_, record.score)

    def summary(self) -> Summary:
        match = self._match
        return {
            "sides": list(match.names),
            "rounds": list(self._rounds),
            "totals": [match.totals[name] for name in match.names],
            "leader": match.leader,
            "winner": match.winner,
            "over": match.is_over,
            "target": match.target,
            "stats": self._stats.stats().as_dict(),
        }


class TrancaAdapter(Defaults):
    name = "tranca"

    def new_config(self, request: Mapping[str, Any]) -> dict[str, Any]:
        config = {
            "players": request["players"],
            "teams": [
                {
                    "name": str(t["name"]).strip(),
                    "players": [str(p).strip() for p in t.get("players", [])],
                }
                for t in request["teams"]
            ],
            "target": request.get("target"),
        }
        config["target"] = _match(config).target  # a bad team or target is a CardscoreError
        return config

    def open(self, config: Mapping[str, Any], documents: Sequence[Mapping[str, Any]]) -> Played:
        return TrancaPlayed(config, documents)

    def check_rounds(
        self, config: Mapping[str, Any], documents: Sequence[Mapping[str, Any]]
    ) -> Checked:
        played = TrancaPlayed(config, documents)
        return Checked(played.documents, played.summary())

    def summary(self, config: Mapping[str, Any], documents: Sequence[Mapping[str, Any]]) -> Summary:
        return TrancaPlayed(config, documents).summary()
