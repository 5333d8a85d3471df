"""Tranca matches: rounds are ``cardscore tranca score`` documents, checked across all teams.

The match itself (team order, players, target, the end of the match, edits that would end it
early) is :class:`cardscore.tranca.Match`'s business; this adapter replays the stored rounds
through it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from cardscore.errors import CardscoreError
from cardscore.tranca import Match, Round, RoundScore, Team, parse_round, score_round
from cardscore.web.games.base import Checked, Defaults, RoundSummary, Summary, breakdown_dict

__all__ = ["TrancaAdapter", "score_document"]


def _scored(score: RoundScore) -> dict[str, Any]:
    return {
        **score.as_dict(),
        "breakdowns": [breakdown_dict(team.name, team.breakdown) for team in score.teams],
    }


def score_document(document: Mapping[str, Any]) -> dict[str, Any]:
    """Score one round document: each team's terms (with reasons) and total.

    Raises :class:`~cardscore.errors.CardscoreError` naming every problem.
    """
    return _scored(score_round(parse_round(document)))


def _match(config: Mapping[str, Any]) -> Match:
    teams = [Team(team["name"], tuple(team.get("players", ()))) for team in config["teams"]]
    return Match(teams, players=int(config["players"]), target=config.get("target"))


@lru_cache(maxsize=8192)
def _parse_text(text: str) -> tuple[Round, dict[str, Any]]:
    round_ = parse_round(json.loads(text))
    return round_, round_.as_dict()


def _parsed(config: Mapping[str, Any], document: Mapping[str, Any]) -> tuple[Round, dict[str, Any]]:
    """The checked round of a document (a round in a match need not repeat the player count).

    Rounds are immutable, so a match's stored rounds are parsed once per process, not on every
    save: replaying a match then costs only the scoring. Returns the round and its canonical
    document (shared: callers must not change it).
    """
    data = {"players": config["players"], **document}
    try:
        text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError):
        round_ = parse_round(data)  # not JSON (never from the API): let the parser say why
        return round_, round_.as_dict()
    return _parse_text(text)


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
        try:
            config["target"] = _match(config).target
        except ValueError as error:  # CardscoreError is one; Team refuses a blank name
            raise CardscoreError(getattr(error, "problems", None) or str(error)) from None
        return config

    def check_rounds(
        self, config: Mapping[str, Any], documents: Sequence[Mapping[str, Any]]
    ) -> Checked:
        return self._play(config, documents, checking=True)

    def summary(self, config: Mapping[str, Any], documents: Sequence[Mapping[str, Any]]) -> Summary:
        return self._play(config, documents, checking=False).summary

    @staticmethod
    def _play(
        config: Mapping[str, Any], documents: Sequence[Mapping[str, Any]], *, checking: bool
    ) -> Checked:
        """One pass over the rounds: check each (naming its number) and sum up the match."""
        match = _match(config)
        checked: list[dict[str, Any]] = []
        rounds: list[RoundSummary] = []
        for number, document in enumerate(documents, start=1):
            try:
                round_, canonical = _parsed(config, document)
                record = match.add_round(round_)
            except CardscoreError as error:
                if not checking:
                    raise
                raise CardscoreError(f"round {number}: {p}" for p in error.problems) from None
            if checking:
                checked.append(canonical)
            rounds.append(
                {
                    "number": record.number,
                    "points": [record.scores[name] for name in match.names],
                    "totals": [record.totals[name] for name in match.names],
                    "detail": _scored(record.score),
                }
            )
        totals = [match.totals[name] for name in match.names]
        best = max(totals)
        leaders = [n for n, t in zip(match.names, totals, strict=True) if t == best]
        summary: Summary = {
            "sides": list(match.names),
            "rounds": rounds,
            "totals": totals,
            "leader": leaders[0] if rounds and len(leaders) == 1 else None,
            "winner": match.winner,
            "over": match.is_over,
            "target": match.target,
            "stats": match.stats().as_dict(),
        }
        return Checked(checked, summary)
