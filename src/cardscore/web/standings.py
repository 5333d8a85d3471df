"""Matches and rounds won across several matches: the standings of a table that meets often.

Counted over the matches the caller holds keys for (the ones a browser keeps), never over the
whole database: a match is private to its links. Sides and players are matched by name, game by
game (a Gong Zhu win is not a Tranca win); a Tranca player wins a match when their team does.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from cardscore.matches import sole_leader
from cardscore.web.games import Summary

__all__ = ["round_winner", "standings"]


def round_winner(points: list[int]) -> int | None:
    """The side that scored most in a round, or None on a tie for the most.

    >>> round_winner([375, -15]), round_winner([0, 0]), round_winner([10, 40, 40])
    (0, None, None)
    """
    return sole_leader(dict(enumerate(points)))


def _tally(table: dict[str, dict[str, Any]], name: str, **counts: int) -> None:
    row = table.setdefault(name, {"name": name, **dict.fromkeys(counts, 0)})
    for key, value in counts.items():
        row[key] += value


def _ranked(table: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(table.values(), key=lambda r: (-r["won"], r["played"] - r["won"], r["name"]))


def standings(matches: Iterable[tuple[str, dict[str, Any], Summary]]) -> list[dict[str, Any]]:
    """Per game: matches (and finished ones), and per side and per player the matches and
    rounds played and won. ``matches`` holds (game, config, summary).

    A match still under way counts as played, not won; rows are ranked by matches won.

    >>> ana = {"sides": ["Ana", "Caio"], "winner": "Ana", "rounds": [{"points": [375, 0]}]}
    >>> caio = {"sides": ["Ana", "Caio"], "winner": None, "rounds": [{"points": [0, 90]}]}
    >>> [game] = standings([("tranca", {}, ana), ("tranca", {}, caio)])
    >>> game["matches"], game["finished"], game["sides"][0]
    (2, 1, {'name': 'Ana', 'played': 2, 'won': 1, 'rounds': 2, 'rounds_won': 1})
    """
    games: dict[str, dict[str, Any]] = {}
    for game, config, summary in matches:
        entry = games.setdefault(
            game, {"game": game, "matches": 0, "finished": 0, "sides": {}, "players": {}}
        )
        entry["matches"] += 1
        entry["finished"] += summary["winner"] is not None
        winners = [round_winner(r["points"]) for r in summary["rounds"]]
        teams = config.get("teams") or []
        for index, side in enumerate(summary["sides"]):
            counts = {
                "played": 1,
                "won": int(summary["winner"] == side),
                "rounds": len(winners),
                "rounds_won": winners.count(index),
            }
            _tally(entry["sides"], side, **counts)
            members = teams[index].get("players", []) if index < len(teams) else []
            for player in members:  # a player wins what their team wins
                _tally(entry["players"], player, **counts)
    return [
        {**entry, "sides": _ranked(entry["sides"]), "players": _ranked(entry["players"])}
        for _, entry in sorted(games.items())
    ]
