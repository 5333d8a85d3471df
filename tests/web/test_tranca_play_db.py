"""Play Tranca keeps its games in the database: any app instance goes on with any game, a
restart loses none, two moves at once give one 409 and change nothing else, the stored record
(with every hidden card) never reaches an answer, and old games are deleted.

Run on SQLite and on PostgreSQL (``CARDSCORE_TEST_POSTGRES_URL``), in-process (two apps on one
database, as two workers) and as two ``cardscore serve`` processes.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from cardscore.tranca.actions import parse_action
from cardscore.tranca.game import TrancaState
from cardscore.web.api.tranca_play import YOU, PlayGame
from cardscore.web.app import create_app
from cardscore.web.db import make_engine
from cardscore.web.models import PlayGameRow, utcnow
from cardscore.web.play_store import (
    ID_CHARS,
    PlayConflictError,
    PlayLimits,
    PlayStore,
    UnknownGameError,
    split_token,
)
from cardscore.web.settings import Settings
from tests.web.conftest import Server, messages
from tests.web.test_tranca_play import codes_in, hinted_move, server_state, visible_codes

Client = TestClient | httpx.Client


def _app(url: str) -> TestClient:
    return TestClient(create_app(Settings(database_url=url)))


@pytest.fixture
def two_apps(any_database_url: str) -> Iterator[tuple[TestClient, TestClient]]:
    """Two app instances (as two workers or two servers) on one database."""
    with _app(any_database_url) as first, _app(any_database_url) as second:
        yield first, second


def _no_leak(view: dict[str, Any], state: TrancaState) -> None:
    """The view names only cards seat 1 may see, and nothing of the stored record."""
    assert not {"deck", "game", "document", "seed", "actions_taken", "hands"} & set(view)
    assert not codes_in(view) - visible_codes(state)


def _play(clients: list[Client], seed: int, moves: int) -> list[dict[str, Any]]:
    """A 4-player level-1 game dealt on the first client, each move on the next client in
    turn (the hint's move); every view answered, without ``id``."""
    view = clients[0].post("/api/tranca/play", json={"players": 4, "level": 1, "seed": seed})
    assert view.status_code == 201, view.text
    views = [view.json()]
    game = views[0]["id"]
    for number in range(moves):
        if views[-1]["over"]:
            break
        client = clients[(number + 1) % len(clients)]
        answer = client.post(f"/api/tranca/play/{game}/act", json=hinted_move(client, game))
        assert answer.status_code == 200, answer.text
        views.append(answer.json())
    return [{k: v for k, v in view.items() if k != "id"} for view in views]


def test_a_game_dealt_on_one_instance_goes_on_on_another_and_survives_a_restart(
    two_apps: tuple[TestClient, TestClient], any_database_url: str
) -> None:
    first, second = two_apps
    # Played across both instances, the game is the one a single instance plays: the same
    # computer moves (each made afresh from the game) and the same views, move by move.
    across = _play([first, second], seed=31, moves=30)
    alone = _play([first], seed=31, moves=30)
    assert across == alone
    assert [v["version"] for v in across] == list(range(1, len(across) + 1))
    assert sum(len(v["log"]) for v in across) > len(across)  # the computer moved in between
    view = first.post("/api/tranca/play", json={"players": 2, "level": 0, "seed": 5}).json()
    game = view["id"]
    drawn = second.post(f"/api/tranca/play/{game}/act", json={"action": "draw"})
    assert drawn.status_code == 200, drawn.text
    assert first.get(f"/api/tranca/play/{game}").json() == drawn.json()
    # A restart: every instance gone, a new one on the same database goes on with the game.
    first.close()
    second.close()
    with _app(any_database_url) as restarted:
        again = restarted.get(f"/api/tranca/play/{game}")
        assert again.status_code == 200
        assert again.json() == drawn.json()
        card = again.json()["hand"][0]
        discarded = restarted.post(
            f"/api/tranca/play/{game}/act", json={"action": "discard", "cards": [card]}
        )
        assert discarded.status_code == 200, discarded.text
        assert discarded.json()["log"][0].startswith("You discarded")
        assert discarded.json()["to_act"] == YOU
        state = server_state(restarted, game)
        assert state.history[1] == (YOU, parse_action(f"discard {card}"))
        _no_leak(discarded.json(), state)


def test_undo_and_the_log_read_the_same_from_every_instance(
    two_apps: tuple[TestClient, TestClient],
) -> None:
    first, second = two_apps
    view = first.post("/api/tranca/play", json={"players": 4, "level": 1, "seed": 8}).json()
    game = view["id"]
    drawn = second.post(f"/api/tranca/play/{game}/act", json={"action": "draw"}).json()
    card = drawn["hand"][0]
    moved = first.post(f"/api/tranca/play/{game}/act", json={"action": "discard", "cards": [card]})
    log = moved.json()["log"]
    assert len(log) > 1
    assert log[0].startswith("You discarded")
    assert second.get(f"/api/tranca/play/{game}").json()["log"] == log  # kept with the game
    undone = second.post(f"/api/tranca/play/{game}/act", json={"action": "undo"}).json()
    assert (undone["hand"], undone["phase"], undone["log"]) == (drawn["hand"], drawn["phase"], [])
    assert first.get(f"/api/tranca/play/{game}").json() == undone


def test_two_moves_at_once_one_is_played_the_other_gets_a_409_and_changes_nothing(
    two_apps: tuple[TestClient, TestClient],
) -> None:
    first, second = two_apps
    view = first.post("/api/tranca/play", json={"players": 2, "level": 0, "seed": 9}).json()
    game = view["id"]
    store: PlayStore = second.app.state.play_store  # type: ignore[attr-defined]
    save = store.save
    won: list[dict[str, Any]] = []

    def first_lands_meanwhile(*args: Any, **kwargs: Any) -> Any:
        # Between the second instance's read and its write, the first plays (another phone).
        won.append(first.post(f"/api/tranca/play/{game}/act", json={"action": "draw"}).json())
        return save(*args, **kwargs)

    store.save = first_lands_meanwhile  # type: ignore[method-assign]
    try:
        lost = second.post(f"/api/tranca/play/{game}/act", json={"action": "draw"})
    finally:
        store.save = save  # type: ignore[method-assign]
    assert lost.status_code == 409
    problem = lost.json()["problems"][0]
    assert problem["code"] == "play_conflict"
    assert problem["message"].startswith("the game moved on since the view")
    assert lost.json()["current_version"] == 2
    # Only the first move happened: one draw, stored once, as the winner was answered.
    now = first.get(f"/api/tranca/play/{game}").json()
    assert now == won[0]
    assert now["version"] == 2
    assert len(now["hand"]) == 12
    assert [a.kind.value for _, a in server_state(first, game).history] == ["draw"]
    # A move sent with the version of a view the game has left: refused the same way, in
    # Portuguese for a Portuguese browser, and the stored game is untouched.
    record = server_state(first, game).as_dict()
    stale = second.post(
        f"/api/tranca/play/{game}/act",
        json={"action": "discard", "cards": [now["hand"][0]], "version": 1},
        headers={"Accept-Language": "pt-BR"},
    )
    assert stale.status_code == 409
    assert stale.json()["problems"][0]["code"] == "play_conflict"
    assert messages(stale) == [
        "o jogo mudou desde a tela em que esta jogada foi feita (outra aba ou um segundo toque): "
        "nada foi feito"
    ]
    assert server_state(first, game).as_dict() == record
    assert first.get(f"/api/tranca/play/{game}").json() == now
    for refusal in (stale, lost):  # a refusal names no card
        assert not re.search(r"\b[2-9TJQKA][shdc]\b", refusal.text)
    current = second.post(
        f"/api/tranca/play/{game}/act",
        json={"action": "discard", "cards": [now["hand"][0]], "version": 2},
    )
    assert current.status_code == 200, current.text
    assert current.json()["version"] == 3


def test_the_store_stores_one_of_two_saves_of_the_same_version(any_database_url: str) -> None:
    """Two stores on their own engines (two processes): both read version 1; the first save
    wins, the second is refused and the stored document is the first's."""
    engines = [make_engine(any_database_url) for _ in range(2)]
    try:
        with _app(any_database_url):
            pass  # migrated
        one, two = PlayStore(engines[0]), PlayStore(engines[1])
        token = one.create("tranca", {"n": 0}, over=False)
        read_one, read_two = one.load(token), two.load(token)
        assert read_one == read_two
        assert read_one.version == 1
        assert one.save(read_one, {"n": 1}, over=False).version == 2
        with pytest.raises(PlayConflictError) as refused:
            two.save(read_two, {"n": 2}, over=True)
        assert (refused.value.sent, refused.value.current) == (1, 2)
        assert two.load(token).document == {"n": 1}
        assert two.load(token).version == 2
    finally:
        for engine in engines:
            engine.dispose()


def test_a_game_opens_only_with_its_whole_token_whose_key_is_stored_hashed(
    client: TestClient,
) -> None:
    view = client.post("/api/tranca/play", json={"players": 2, "level": 0}).json()
    token = view["id"]
    game_id, key = split_token(token)
    assert len(game_id) == ID_CHARS
    assert len(key) >= 32
    other = client.post("/api/tranca/play", json={"players": 2, "level": 0}).json()["id"]
    for wrong in (game_id, game_id + split_token(other)[1], game_id + key[:-1], token + "x"):
        answer = client.get(f"/api/tranca/play/{wrong}")
        assert answer.status_code == 404, wrong
        assert answer.json()["problems"][0]["code"] == "not_found"
        moved = client.post(f"/api/tranca/play/{wrong}/act", json={"action": "draw"})
        assert moved.status_code == 404
    assert client.get(f"/api/tranca/play/{token}").status_code == 200
    engine = client.app.state.engine  # type: ignore[attr-defined]
    with engine.connect() as connection:
        row = connection.execute(
            select(PlayGameRow.__table__).where(PlayGameRow.id == game_id)
        ).one()
    assert key not in json.dumps([str(value) for value in row])
    # The stored record holds the hidden cards (the deck); no answer does.
    assert len(row.document["game"]["deck"]) == 104
    state = PlayGame.from_document(row.document).state
    _no_leak(client.get(f"/api/tranca/play/{token}").json(), state)


def test_old_games_are_deleted_and_the_number_kept_is_bounded(database_url: str) -> None:
    with _app(database_url):
        pass  # migrated
    engine = make_engine(database_url)
    store = PlayStore(engine, PlayLimits(games=3, finished_days=2, idle_days=30))
    start = utcnow()

    def at(days: float) -> Any:
        return start + timedelta(days=days)

    try:
        finished = store.create("tranca", {}, over=True, now=at(0))
        idle = store.create("tranca", {}, over=False, now=at(0))
        played = store.create("tranca", {}, over=False, now=at(0))
        store.save(store.load(played), {"moved": True}, over=False, now=at(29))
        # Day 3: the finished round, untouched for more than 2 days, goes; the others stay.
        day3 = store.create("tranca", {}, over=False, now=at(3))
        with pytest.raises(UnknownGameError):
            store.load(finished)
        store.load(idle)
        # Day 31: the one nobody played for 30 days goes; the one played on day 29 stays.
        day31 = store.create("tranca", {}, over=False, now=at(31))
        with pytest.raises(UnknownGameError):
            store.load(idle)
        assert store.load(played).document == {"moved": True}
        assert store.count() == 3
        # A fourth game: of 3 kept at most, the one left alone longest (day 3's) goes, not the
        # one dealt before it but played on day 29.
        newest = store.create("tranca", {}, over=False, now=at(31.5))
        assert store.count() == 3
        with pytest.raises(UnknownGameError):
            store.load(day3)
        for token in (played, day31, newest):
            store.load(token)
    finally:
        engine.dispose()


def test_two_servers_on_one_database_play_one_game_and_one_of_two_taps_wins(
    any_database_url: str,
) -> None:
    """Two ``cardscore serve`` processes with two workers each (the club deployment): a game
    dealt on one is played on both, survives one being killed, and of two moves sent at once
    with the same version exactly one is played."""
    servers = [Server(any_database_url, workers=2).start() for _ in range(2)]
    clients: list[httpx.Client] = []
    try:
        clients += [httpx.Client(base_url=s.url, timeout=30) for s in servers]
        views = _play(clients, seed=44, moves=12)
        with httpx.Client(base_url=servers[0].url, timeout=30) as local:
            assert views == _play([local], seed=44, moves=12)  # the same as on one server
        game_view = clients[0].post("/api/tranca/play", json={"players": 2, "level": 0}).json()
        game = game_view["id"]
        servers[0].kill()
        clients[0].close()
        servers[0] = Server(any_database_url, workers=2).start()
        clients[0] = httpx.Client(base_url=servers[0].url, timeout=30)
        assert clients[0].get(f"/api/tranca/play/{game}").json() == game_view
        barrier = threading.Barrier(2)
        answers: list[httpx.Response] = []

        def tap(client: httpx.Client) -> None:
            barrier.wait()
            answers.append(
                client.post(f"/api/tranca/play/{game}/act", json={"action": "draw", "version": 1})
            )

        taps = [threading.Thread(target=tap, args=(c,)) for c in clients]
        for thread in taps:
            thread.start()
        for thread in taps:
            thread.join()
        assert sorted(a.status_code for a in answers) == [200, 409]
        played = next(a for a in answers if a.status_code == 200).json()
        for client in clients:
            now = client.get(f"/api/tranca/play/{game}").json()
            assert now == played
            assert now["version"] == 2
            assert len(now["hand"]) == 12
    finally:
        for client in clients:
            client.close()
        for server in servers:
            server.stop()
