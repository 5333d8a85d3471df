"""A game is declared once: registering the toy game (tests/toygame: one package, one registry
entry) puts it in the CLI, the API and the pages, and unregistering takes it out again."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardscore import registry
from cardscore.cli import main
from tests.conftest import need_module
from tests.toygame import GAME


@pytest.fixture
def toy() -> Iterator[registry.Game]:
    yield registry.register(GAME)
    registry.unregister(GAME.name)


def test_the_cli_lists_and_runs_it(toy: registry.Game, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games"]) == 0
    assert "toy         Toy — Sum the ranks of your cards" in capsys.readouterr().out
    assert main(["toy", "--help"]) == 0
    assert "score  Score one hand" in capsys.readouterr().out
    assert main(["toy", "score", "Ah Kd 5c"]) == 0
    assert capsys.readouterr().out == "19\n"
    assert main(["toy", "score", "Ah Zz"]) == 2
    assert "Zz" in capsys.readouterr().err


def test_a_game_is_registered_once(toy: registry.Game) -> None:
    with pytest.raises(ValueError, match="'toy' is registered already"):
        registry.register(GAME)


def test_unregistered_it_is_gone(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games"]) == 0
    assert "toy" not in capsys.readouterr().out
    assert main(["toy", "--help"]) == 2


@pytest.fixture
def client(toy: registry.Game, tmp_path: Path) -> Iterator[Any]:
    need_module("fastapi", "the web extra is not installed (pip install '.[web]')")
    from fastapi.testclient import TestClient

    from cardscore.web.app import create_app
    from cardscore.web.settings import Settings

    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'toy.sqlite3'}"))
    with TestClient(app) as test_client:
        yield test_client


def test_the_api_describes_and_serves_it(client: Any) -> None:
    spec = client.get("/api/openapi.json").json()
    body = spec["paths"]["/api/matches"]["post"]["requestBody"]["content"]["application/json"]
    assert body["schema"]["discriminator"]["mapping"]["toy"] == "#/components/schemas/ToyMatchIn"
    rounds = spec["components"]["schemas"]["RoundWrite"]["properties"]["round"]["anyOf"]
    assert "ToyRoundIn" in [schema["title"] for schema in rounds]
    assert "/api/toy/score" in spec["paths"]
    assert client.post("/api/toy/score", json={"cards": "Qh Qd"}).json() == {"points": 24}

    created = client.post("/api/matches", json={"game": "toy", "players": ["Ann", "Bo"]}).json()
    auth = {"Authorization": f"Bearer {created['edit_key']}"}
    saved = client.post(
        f"/api/matches/{created['id']}/rounds",
        json={"version": created["version"], "round": {"hands": ["Kh Kd Ks Kc", "2h"]}},
        headers=auth,
    )
    assert saved.status_code == 201, saved.text
    match = saved.json()
    assert (match["totals"], match["winner"], match["over"]) == ([52, 2], "Ann", True)
    refused = client.post(
        f"/api/matches/{created['id']}/rounds",
        json={"version": match["version"], "round": {"hands": ["Zz", "2h"]}},
        headers=auth,
    )
    assert refused.status_code == 422
    assert "round 2" in refused.text


def test_the_pages_link_and_render_it(client: Any) -> None:
    home = client.get("/").text
    assert '<a class="button" href="/toy">Play Toy</a> Sum the ranks of your cards' in home
    page = client.get("/toy", headers={"Accept-Language": "pt-BR"})
    assert page.status_code == 200
    assert "Ás 1, valete 11, dama 12, rei 13" in page.text
    assert client.get("/static/toy/toy.js").text.startswith("// Toy's page script")

    created = client.post("/api/matches", json={"game": "toy", "players": ["Ann", "Bo"]}).json()
    match_page = client.get(f"/m/{created['id']}/{created['edit_key']}")
    assert match_page.status_code == 200
    assert "<h1>Play Toy</h1>" in match_page.text
    assert "/static/toy/toy.js" in match_page.text


def test_without_it_the_app_has_no_trace_of_it(tmp_path: Path) -> None:
    need_module("fastapi", "the web extra is not installed (pip install '.[web]')")
    from fastapi.testclient import TestClient

    from cardscore.web.app import create_app
    from cardscore.web.settings import Settings

    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'plain.sqlite3'}"))
    with TestClient(app) as client:
        assert client.get("/toy").status_code == 404
        assert 'href="/toy"' not in client.get("/").text
        assert "ToyMatchIn" not in client.get("/api/openapi.json").text
        refused = client.post("/api/matches", json={"game": "toy", "players": ["Ann", "Bo"]})
        assert refused.status_code == 422
