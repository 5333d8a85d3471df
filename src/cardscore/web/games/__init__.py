"""What the web app knows about each game: the registry's :class:`~cardscore.registry.Web`
entries, imported (:class:`WebGame`).

Storage, versions, keys and pages are shared; a game that keeps matches only says how to check
its match settings and rounds and how to summarise a match (scores per round, running totals,
winner, statistics), behind one small interface (:class:`GameAdapter`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from cardscore.registry import Game, Web, folder, games, load
from cardscore.web.games.base import Checked, GameAdapter, Summary

__all__ = ["Checked", "GameAdapter", "Summary", "WebGame", "adapters", "get_adapter", "web_games"]


@dataclass(frozen=True)
class WebGame:
    """A registered game's web parts, imported."""

    name: str
    title: str
    web: Web
    adapter: GameAdapter | None
    match_in: Any
    """The Pydantic model of a new match (one arm of ``POST /api/matches``), or None."""
    round_in: Any
    pages: Any
    api: Any
    match_context: Any
    templates: Path | None
    static: Path | None
    i18n: Path | None


def _optional(reference: str | None, get: Any) -> Any:
    return None if reference is None else get(reference)


@lru_cache(maxsize=8)
def _imported(registered: tuple[Game, ...]) -> tuple[WebGame, ...]:
    found: list[WebGame] = []
    for game in registered:
        web = game.web
        if web is None:
            continue
        adapter = _optional(web.adapter, load)
        found.append(
            WebGame(
                name=game.name,
                title=game.title,
                web=web,
                adapter=None if adapter is None else adapter(),
                match_in=_optional(web.match_in, load),
                round_in=_optional(web.round_in, load),
                pages=_optional(web.pages, load),
                api=_optional(web.api, load),
                match_context=_optional(web.match_context, load),
                templates=_optional(web.templates, folder),
                static=_optional(web.static, folder),
                i18n=_optional(web.i18n, folder),
            )
        )
    return tuple(found)


def web_games() -> tuple[WebGame, ...]:
    """Every registered game the web app offers, in the registry's order."""
    return _imported(games())


def adapters() -> dict[str, GameAdapter]:
    """The games that can keep a match here, by name."""
    return {game.name: game.adapter for game in web_games() if game.adapter is not None}


def get_adapter(name: str) -> GameAdapter | None:
    return adapters().get(name)
