"""Tranca matches: rounds are ``cardscore tranca score`` documents, checked across all teams."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardscore.errors import CardscoreError
from cardscore.tranca import Match, RoundScore, parse_round, score_round
from cardscore.web.games.base import RoundSummary, Summary, breakdown_dict

__all__ = ["TrancaAdapter", "score_document"]


def _scored(score: RoundScore) -> dict[str, Any]:
    return {
        **score.as_dict(),
        "breakdowns": [breakdown_dict(team.name, team.breakdown) for team in score.teams],
    }


def score_document(document: Mapping[str, Any]) -> dict[str, Any]:
    """Score one round document: each team's terms (with reasons) and total."""
    return _scored(score_round(parse_round(document)))


def _names(config: Mapping[str, Any]) -> list[str]:
    return [str(team["name"]) for team in config["teams"]]


def _match(config: Mapping[str, Any]) -> Match:
    return Match(
        teams=list(config["teams"]), players=int(config["players"]), target=config.get("target")
    )


def _side(value: Any) -> str | None:
    if value is None:
        return None
    return str(getattr(value, "name", value))


class TrancaAdapter:
    name = "tranca"

    def new_config(self, request: Mapping[str, Any]) -> dict[str, Any]:
        players = int(request["players"])
        teams = [
            {
                "name": str(team["name"]).strip(),
                "players": [str(p) for p in team.get("players", [])],
            }
            for team in request["teams"]
        ]
        expected = players if players in (2, 3) else 2
        problems = []
        if len(teams) != expected:
            problems.append(f"{players} players make {expected} teams, not {len(teams)}")
        names = [team["name"] for team in teams]
        if len(set(names)) != len(names):
            problems.append(f"team names must differ: {names!r}")
        if problems:
            raise CardscoreError(problems)
        config = {"players": players, "teams": teams, "target": request.get("target")}
        _match(config)  # the library's own checks
        return config

    def check_rounds(
        self, config: Mapping[str, Any], documents: Sequence[Mapping[str, Any]]
    ) -> list[dict[str, Any]]:
        match = _match(config)
        names = _names(config)
        checked: list[dict[str, Any]] = []
        for number, document in enumerate(documents, start=1):
            try:
                round_ = parse_round({"players": config["players"], **document})
                given = [team.name for team in round_.teams]
                if given != names:
                    raise CardscoreError(
                        f"the round's teams are {given!r}; the match's are {names!r}"
                    )
                match.add_round(round_)
            except CardscoreError as error:
                raise type(error)(f"round {number}: {p}" for p in error.problems) from None
            checked.append(round_.as_dict())
        return checked

    def summary(self, config: Mapping[str, Any], documents: Sequence[Mapping[str, Any]]) -> Summary:
        match = _match(config)
        names = _names(config)
        totals = [0] * len(names)
        rounds: list[RoundSummary] = []
        for number, document in enumerate(documents, start=1):
            round_ = parse_round(document)
            match.add_round(round_)
            score = score_round(round_)
            points = [team.total for team in score.teams]
            totals = [t + p for t, p in zip(totals, points, strict=True)]
            rounds.append(
                {
                    "number": number,
                    "points": points,
                    "totals": list(totals),
                    "detail": _scored(score),
                }
            )
        best = max(totals)
        leaders = [n for n, t in zip(names, totals, strict=True) if t == best]
        winner = _side(match.winner)
        stats = match.stats() if callable(match.stats) else match.stats
        return {
            "sides": names,
            "rounds": rounds,
            "totals": totals,
            "leader": leaders[0] if rounds and len(leaders) == 1 else None,
            "winner": winner,
            "over": winner is not None,
            "target": int(match.target),
            "stats": dict(stats) if isinstance(stats, Mapping) else {"stats": stats},
        }
