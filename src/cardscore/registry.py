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
    help: str = ""
    """The help of ``cardscore <name>``: the CLI prints it without importing the game."""
    commands: tuple[tuple[str, str], ...] = ()
    """Each CLI command's name and first help paragraph, listed without importing the game."""

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
        actions=("score", "match", "recognize"),
        help="Tranca (Brazilian canasta): score rounds and matches from round JSON files.\n\n"
        "A round file lists, per team, its melds, closed piles, dollars, hand, and whether it "
        "took its morto and went out (see the README's Tranca section for the format).",
        commands=(
            (
                "match",
                "Score rounds in order: running totals per round and the winner once the "
                "target is reached.",
            ),
            (
                "score",
                "Score one round: every team's terms and total (ROUND.json, or - for stdin).",
            ),
        ),
    ),
    Game(
        name="gongzhu",
        title="Gong Zhu (Chinese Hearts)",
        summary="Score the cards each player collected: hearts, the pig, the goat, the doubler.",
        players=(4,),
        module="cardscore.gongzhu",
        cli="cardscore.gongzhu.cli:group",
        actions=("score", "match"),
        help="Gong Zhu (Chinese Hearts): score the cards each player collected.",
        commands=(
            (
                "hand",
                "Score the four PILES of one hand (pile notation, '' for a player with none).",
            ),
            ("score", "Score one player's PILE."),
        ),
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
        help="Five-card draw: rank hands, equities and draw odds, play against computer players.",
        commands=(
            (
                "compare",
                'Rank several HANDS (each quoted, e.g. "As Ad Kc Kd 2h") and name the winner(s).',
            ),
            (
                "equity",
                'Equity of each of PLAYERS: hold\'em hole cards or ranges ("AhKh", "QQ+, AKs"), '
                "or with --draw five-card hands that each throw their --discards.",
            ),
            (
                "odds",
                "Exact odds of each final hand when HAND (five cards) throws --discard and draws.",
            ),
            ("play", "Play five-card draw in the terminal against computer players."),
            (
                "rank",
                "Rank 5, 6 or 7 CARDS: prints the class (1 = royal flush … 7462) and the category.",
            ),
        ),
    ),
    Game(
        name="crosskings",
        title="Cross Kings",
        summary="The 6×6 grid game with kings wild; exact move evaluation under optimal play.",
        players=(2,),
        module="cardscore.crosskings",
        cli="cardscore.crosskings.cli:group",
        actions=("score", "play", "solve"),
        help="Cross Kings: the 6×6 grid game with kings wild, and its exact solver.",
        commands=(
            (
                "analyse",
                "Evaluate every legal move of the game in GAME.json exactly (win/draw/loss, margin).",
            ),
            ("deal", "Print a new game record (JSON) for `analyse` or `play --load`."),
            (
                "play",
                "Play against the computer in the terminal: type a cell (c4), `hint`, `undo` or "
                "`quit`.",
            ),
            (
                "score",
                "Score one hand of CARDS (A–8 and K, any notation), kings wild: e.g. 2S 3S 4S KH.",
            ),
        ),
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
