"""The registry: every reference in it resolves, and reading it imports no front end or game."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cardscore.registry import Game, folder, games, load
from tests.conftest import need_module


@pytest.mark.parametrize("game", games(), ids=lambda game: game.name)
def test_every_reference_resolves(game: Game) -> None:
    assert load(game.cli).name == game.name
    assert load(f"{game.module}:__name__") == game.module
    if game.web is None:
        return
    need_module("fastapi", "the web extra is not installed (pip install '.[web]')")
    from cardscore.web.games import WebGame

    web = WebGame.of(game, game.web)
    if web.adapter is not None:
        assert web.adapter.name == game.name
        assert web.match_in.model_fields["game"].annotation.__args__ == (game.name,)
        assert web.round_in is not None
        template = game.web.match_template or f"match_{game.name}.html"
        assert (folder("cardscore.web:templates") / template).is_file()
    assert web.pages is not None
    assert any(route.path == game.web.start for route in web.pages.routes)
    from cardscore.web.i18n import LANGUAGES, messages

    for language in LANGUAGES:  # the home page's link and blurb are said in every language
        assert messages(language)[game.web.link]
        assert messages(language)[game.web.blurb]


def test_reading_the_registry_imports_no_game_and_no_front_end() -> None:
    code = (
        "import sys, cardscore.registry as r; r.games(); r.get_game('poker');"
        "print(' '.join(sorted(sys.modules)))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    heavy = ("click", "numpy", "fastapi", "pydantic", "cardscore.web", "cardscore.cli")
    games_code = tuple(game.module for game in games())
    assert [m for m in loaded if m.startswith(heavy) or m.startswith(games_code)] == []
