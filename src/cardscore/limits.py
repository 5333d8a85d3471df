"""How large an input may be: rules of input size, shared by the library and the web API.

Nothing in a real game comes near these; they bound what a request can make the scorer do (and
how long its error can be), so that no single round, however malformed, costs much.

>>> round_size_problems({"teams": [{"name": "A", "melds": [["AH", "AS", "AD"]] * 40}]})
['team 1: 40 melds; a round has at most 36 per team']
>>> round_size_problems({"teams": [{"name": "A", "hand": ["AH"] * 200}]})
['the round lists 200 cards; at most 162 (three decks) fit in a round']
>>> round_size_problems({"teams": [{"name": "A", "melds": [["AH", "AS", "AD"]]}]})
[]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardscore.errors import Problem

__all__ = [
    "MAX_CARDS_PER_ROUND",
    "MAX_MELDS_PER_TEAM",
    "MAX_PILE_TEXT",
    "MAX_PROBLEMS",
    "MAX_PROBLEM_CHARS",
    "MAX_TALLY_COUNT",
    "MAX_TALLY_POINTS",
    "MAX_TEAMS",
    "round_size_problems",
]

MAX_TEAMS = 6
"""Teams (or players) in a round."""
MAX_CARDS_PER_ROUND = 162
"""Cards a round may list in all (melds, dollars, hands): three decks of 54."""
MAX_MELDS_PER_TEAM = 36
"""Melds of one team: a meld has three cards or more, so three decks make at most 54; no table
has more than a few dozen."""
MAX_PILE_TEXT = 64
"""Characters in one Gong Zhu pile as text (13 cards in pile notation, or 52 in codes)."""
MAX_TALLY_COUNT = 23
"""Any count of a quick-entry (tally) team: canastras, dollars, trancas; 23 canastras of 7 cards
already take every card of three decks."""
MAX_TALLY_POINTS = 1260
"""Table or hand points of a quick-entry team: three decks without their 3s hold 3 × 420."""
MAX_PROBLEMS = 50
"""Problems an error lists; the rest are counted in one last line."""
MAX_PROBLEM_CHARS = 500
"""Characters of one problem's message (a long quoted input is cut)."""


def _count(value: Any) -> int:
    """Cards in a list of cards (or a mapping of lists, as hands by player)."""
    if isinstance(value, list):
        return len(value)
    if isinstance(value, Mapping):
        return sum(len(v) if isinstance(v, list) else 1 for v in value.values())
    return 0


def round_size_problems(data: Any) -> list[Problem]:
    """What makes a round too large to check (counted before anything is parsed)."""
    if not isinstance(data, Mapping) or not isinstance(data.get("teams"), list):
        return []
    teams = data["teams"]
    if len(teams) > MAX_TEAMS:
        return [Problem.of("round_too_many_teams", n=len(teams), limit=MAX_TEAMS)]
    problems: list[Problem] = []
    cards = 0
    for number, team in enumerate(teams, start=1):
        if not isinstance(team, Mapping):
            continue
        melds = team.get("melds")
        if isinstance(melds, list):
            if len(melds) > MAX_MELDS_PER_TEAM:
                problems.append(
                    Problem.of(
                        "team_too_many_melds", team=number, n=len(melds), limit=MAX_MELDS_PER_TEAM
                    )
                )
            cards += sum(_count(meld) for meld in melds)
        cards += _count(team.get("dollars")) + _count(team.get("hand"))
    if cards > MAX_CARDS_PER_ROUND:
        problems.append(Problem.of("round_too_many_cards", n=cards, limit=MAX_CARDS_PER_ROUND))
    return problems
