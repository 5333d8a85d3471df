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


_CODE = ("adapter", "match_in", "round_in", "pages", "api", "match_context")
_FOLDERS = ("templates", "static", "i18n")


@dataclass(frozen=True)
class WebGame:
    """A registered game's web parts (:class:`~cardscore.registry.Web`), imported."""

    name: str
    title: str
    web: Web
    adapter: GameAdapter | None = None
    match_in: Any = None
    round_in: Any = None
    pages: Any = None
    api: Any = None
    match_context: Any = None
    templates: Path | None = None
    static: Path | None = None
    i18n: Path | None = None

    @classmethod
    def of(cls, game: Game, web: Web) -> WebGame:
        parts = {f: load(getattr(web, f)) for f in _CODE if getattr(web, f)}
        parts.update({f: folder(getattr(web, f)) for f in _FOLDERS if getattr(web, f)})
        if "adapter" in parts:
            parts["adapter"] = parts["adapter"]()
        return cls(game.name, game.title, web, **parts)


@lru_cache(maxsize=8)
def _imported(registered: tuple[Game, ...]) -> tuple[WebGame, ...]:
    return tuple(WebGame.of(game, game.web) for game in registered if game.web is not None)


def web_games() -> tuple[WebGame, ...]:
    """Every registered game the web app offers, in the registry's order."""
    return _imported(games())


def adapters() -> dict[str, GameAdapter]:
    """The games that can keep a match here, by name."""
    return {game.name: game.adapter for game in web_games() if game.adapter is not None}


def get_adapter(name: str) -> GameAdapter | None:
    return adapters().get(name)
