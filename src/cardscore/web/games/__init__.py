"""What the web app knows about each game, behind one small interface (:class:`GameAdapter`).

Storage, versions, keys and pages are shared; a game only says how to check its match settings
and rounds and how to summarise a match (scores per round, running totals, winner, statistics).
A game whose package is not installed is simply not offered.
"""

from __future__ import annotations

import importlib.util
from functools import cache

from cardscore.web.games.base import Checked, GameAdapter, Summary

__all__ = ["Checked", "GameAdapter", "Summary", "adapters", "get_adapter"]


@cache
def adapters() -> dict[str, GameAdapter]:
    """The games that can keep a match here, by name (only those whose package is present)."""
    found: dict[str, GameAdapter] = {}
    if importlib.util.find_spec("cardscore.tranca") is not None:
        from cardscore.web.games.tranca import TrancaAdapter

        found["tranca"] = TrancaAdapter()
    from cardscore.web.games.gongzhu import GongzhuAdapter

    found["gongzhu"] = GongzhuAdapter()
    if importlib.util.find_spec("cardscore.crosskings") is not None:
        from cardscore.web.games.crosskings import CrossKingsAdapter

        found["crosskings"] = CrossKingsAdapter()
    return found


def get_adapter(name: str) -> GameAdapter | None:
    return adapters().get(name)
