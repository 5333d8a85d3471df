"""The games cardscore knows, each declared once, as data, and found by name.

One :class:`Game` entry names everything the front ends need: the CLI's command group, and the
web app's match adapter, request schemas, pages, API router, templates, static files and text
(:class:`Web`). The CLI, the web app's routes, its home page, its OpenAPI description and its
match page are all built by looping over :func:`games`, so a game added here shows up in every
one of them. Code is named by ``"module:attribute"`` strings and folders by ``"package:folder"``
strings, imported only when a front end asks (:func:`load`, :func:`folder`): reading the registry
imports no game, web, numpy or click code, so ``cardscore --help`` stays fast.

>>> [game.name for game in games()]
['tranca', 'gongzhu', 'poker', 'crosskings']
>>> get_game("gongzhu").title
'Gong Zhu (Chinese Hearts)'
>>> get_game("poker").web.start, get_game("poker").web.adapter is None
('/poker', True)

A game outside cardscore joins with :func:`register` (see docs/adding-a-game.md):

>>> register(Game(name="snap", title="Snap", summary="Say snap.", players=(2,),
...               module="snap", cli="snap.cli:group"))
Game(name='snap', ...)
>>> [game.name for game in games()][-1], unregister("snap").title
('snap', 'Snap')
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pathlib is imported when a folder is asked for, not at start-up
    from pathlib import Path

__all__ = [
    "Game",
    "UnknownGameError",
    "Web",
    "folder",
    "games",
    "get_game",
    "load",
    "register",
    "unregister",
]


class UnknownGameError(LookupError, ValueError):
    """A game name that is not in the registry."""


def load(reference: str) -> Any:
    """The object a ``"module:attribute"`` reference names, imported now.

    >>> load("cardscore.registry:get_game") is get_game
    True
    """
    module, _, attribute = reference.partition(":")
    return getattr(importlib.import_module(module), attribute)


def folder(reference: str) -> Path:
    """The folder a ``"package:folder"`` reference names (a folder inside an installed package).

    >>> folder("cardscore.web:templates").name
    'templates'
    """
    from importlib.resources import files
    from pathlib import Path

    package, _, name = reference.partition(":")
    return Path(str(files(package).joinpath(name)))


@dataclass(frozen=True, slots=True)
class Web:
    """What the web app offers of a game; everything but ``start``, ``link``, ``blurb`` optional.

    ``start``: the game's own page, linked from the home page with the text under the
    translation keys ``link`` and ``blurb``. A game that keeps matches names its ``adapter`` (a
    :class:`cardscore.web.games.GameAdapter` class), the Pydantic models of a new match
    (``match_in``, with ``game: Literal[name]``: one arm of ``POST /api/matches``) and of a
    round (``round_in``: documentation; the adapter checks rounds), its match page's template
    (``match_template``, by default ``match_<name>.html``) and ``match_context``, a function
    ``(snapshot, language) -> dict`` of what else that page shows. ``pages`` and ``api``:
    FastAPI routers (pages; stateless API operations). ``templates``, ``static`` (served under
    ``/static/<name>/``) and ``i18n`` (``en.json``, ``pt_BR.json``): folders the game brings.
    """

    start: str
    link: str
    blurb: str
    pages: str | None = None
    api: str | None = None
    adapter: str | None = None
    match_in: str | None = None
    round_in: str | None = None
    match_template: str | None = None
    match_context: str | None = None
    templates: str | None = None
    static: str | None = None
    i18n: str | None = None


@dataclass(frozen=True, slots=True)
class Game:
    """A game: what it is, who plays it, and where each front end finds its code."""

    name: str
    title: str
    summary: str
    players: tuple[int, ...]
    module: str
    """The game's package (its library: rules, scoring, matches)."""
    cli: str
    """``module:attribute`` of the game's click command group (``cardscore <name> …``)."""
    actions: tuple[str, ...] = ()
    """What cardscore does for it: ``score``, ``match``, ``play``, ``solve``, ``recognize``."""
    help: str = ""
    """The help of ``cardscore <name>``: the CLI prints it without importing the game."""
    commands: tuple[tuple[str, str], ...] = ()
    """Each CLI command's name and first help paragraph, listed without importing the game."""
    web: Web | None = None
    """What the web app offers of it (``None``: nothing)."""

    def load_cli(self) -> Any:
        """Import and return the game's click group."""
        return load(self.cli)


_PAGES = "cardscore.web.pages"
_SCHEMAS = "cardscore.web.api.schemas"

_GAMES: list[Game] = [
    Game(
        name="tranca",
        title="Tranca",
        summary="Brazilian canasta: round scoring with canastras, dollars, trancas and morto; "
        "matches to 3,500 or 5,000.",
        players=(2, 3, 4, 6),
        module="cardscore.tranca",
        cli="cardscore.tranca.cli:group",
        actions=("score", "match", "play", "recognize"),
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
                "play",
                "Play Tranca against the computer (you sit at seat 1; partners and opponents "
                "are computer).",
            ),
            (
                "score",
                "Score one round: every team's terms and total (ROUND.json, or - for stdin).",
            ),
        ),
        web=Web(
            start="/tranca/new",
            link="tranca.new",
            blurb="tranca.blurb",
            pages=f"{_PAGES}.tranca:router",
            api="cardscore.web.api.tranca:router",
            adapter="cardscore.web.games.tranca:TrancaAdapter",
            match_in=f"{_SCHEMAS}:TrancaMatchIn",
            round_in=f"{_SCHEMAS}:TrancaRoundIn",
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
        web=Web(
            start="/gongzhu",
            link="gongzhu.title",
            blurb="gongzhu.blurb",
            pages=f"{_PAGES}.gongzhu:router",
            api="cardscore.web.api.gongzhu:router",
            adapter="cardscore.web.games.gongzhu:GongzhuAdapter",
            match_in=f"{_SCHEMAS}:GongzhuMatchIn",
            round_in=f"{_SCHEMAS}:GongzhuRoundIn",
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
        web=Web(
            start="/poker",
            link="poker.title",
            blurb="poker.blurb",
            pages=f"{_PAGES}.poker:router",
            api="cardscore.web.api.poker:router",
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
        web=Web(
            start="/crosskings",
            link="crosskings.title",
            blurb="crosskings.blurb",
            pages=f"{_PAGES}.crosskings:router",
            adapter="cardscore.web.games.crosskings:CrossKingsAdapter",
            match_in=f"{_SCHEMAS}:CrossKingsMatchIn",
            round_in=f"{_SCHEMAS}:CrossKingsMoveIn",
            match_context=f"{_PAGES}.crosskings:board_context",
        ),
    ),
]


def games() -> tuple[Game, ...]:
    """Every registered game, in a stable order (cardscore's own first, then as registered)."""
    return tuple(_GAMES)


def get_game(name: str) -> Game:
    """The game called ``name``; an error listing the known names otherwise."""
    for game in _GAMES:
        if game.name == name:
            return game
    known = ", ".join(game.name for game in _GAMES)
    raise UnknownGameError(f"unknown game {name!r} (known: {known})")


def register(game: Game) -> Game:
    """Add ``game`` to the registry (every front end built afterwards offers it).

    A name already taken is refused: a game replaces another only by being unregistered first.
    """
    if any(known.name == game.name for known in _GAMES):
        raise ValueError(f"a game called {game.name!r} is registered already")
    _GAMES.append(game)
    return game


def unregister(name: str) -> Game:
    """Take the game called ``name`` out of the registry; it is returned."""
    game = get_game(name)
    _GAMES.remove(game)
    return game
