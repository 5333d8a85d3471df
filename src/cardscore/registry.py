"""The games cardscore knows, declared as data and found by name.

The CLI and the web app both read this registry, so a game added here shows up in both.

>>> [game.name for game in games()]
['tranca', 'gongzhu', 'poker', 'crosskings']
>>> get_game("gongzhu").title
'Gong Zhu (Chinese Hearts)'
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from typing import Any

__all__ = ["Game", "UnknownGameError", "games", "get_game"]


class UnknownGameError(LookupError, ValueError):
    """A game name that is not in the registry."""


@dataclass(frozen=True, slots=True)
class Game:
    """A game: what it is, who plays it, and where its code lives (imported lazily)."""

    name: str
    title: str
    summary: str
    players: tuple[int, ...]
    module: str
    cli: str
    """``module:attribute`` of the game's click command group."""
    actions: tuple[str, ...] = ()
    """What cardscore does for it: ``score``, ``match``, ``play``, ``solve``, ``recognize``."""

    def load_cli(self) -> Any:
        """Import and return the game's click group."""
        module, _, attribute = self.cli.partition(":")
        return getattr(importlib.import_module(module), attribute)


_GAMES: tuple[Game, ...] = (
    Game(
        name="tranca",
        title="Tranca",
        summary="Brazilian canasta: round scoring with canastras, dollars, trancas and morto; "
        "matches to 3,500 or 5,000.",
        players=(2, 3, 4, 6),
        module="cardscore.tranca",
        cli="cardscore.tranca.cli:group",
        actions=("score", "match", "play", "recognize"),
    ),
    Game(
        name="gongzhu",
        title="Gong Zhu (Chinese Hearts)",
        summary="Score the cards each player collected: hearts, the pig, the goat, the doubler.",
        players=(4,),
        module="cardscore.gongzhu",
        cli="cardscore.gongzhu.cli:group",
        actions=("score", "match"),
    ),
    Game(
        name="poker",
        title="Five-card draw",
        summary="Rank poker hands into the 7,462 classes, equities and draw odds; "
        "deal whole hands with betting.",
        players=(2, 3, 4, 5, 6, 7),
        module="cardscore.poker",
        cli="cardscore.poker.cli:group",
        actions=("score", "play"),
    ),
    Game(
        name="crosskings",
        title="Cross Kings",
        summary="The 6×6 grid game with kings wild; exact move evaluation under optimal play.",
        players=(2,),
        module="cardscore.crosskings",
        cli="cardscore.crosskings.cli:group",
        actions=("score", "play", "solve"),
    ),
)


def games(*, available_only: bool = False) -> tuple[Game, ...]:
    """Every registered game, in a stable order (optionally only those whose code is present)."""
    if not available_only:
        return _GAMES
    return tuple(game for game in _GAMES if importlib.util.find_spec(game.module) is not None)


def get_game(name: str) -> Game:
    """The game called ``name``; an error listing the known names otherwise."""
    for game in _GAMES:
        if game.name == name:
            return game
    known = ", ".join(game.name for game in _GAMES)
    raise UnknownGameError(f"unknown game {name!r} (known: {known})")
