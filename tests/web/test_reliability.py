"""A real server: nothing acknowledged is lost on SIGKILL; concurrent saves never lose updates."""

from __future__ import annotations

import threading
import time
from typing import Any

import httpx
import pytest

from cardscore.cards import Card
from tests.web.conftest import Server, bearer

HEARTS = "23456789TJQKA"


def hand(k: int) -> list[str]:
    """One heart to one player, every other scoring card to the next: a different hand for each
    k below 52 (4 and 13 are coprime)."""
    piles = ["", "", "", ""]
    piles[k % 4] = HEARTS[k % 13]
    piles[(k + 1) % 4] = HEARTS.replace(HEARTS[k % 13], "") + "PGD"
    return piles


def create(http: httpx.Client, limit: int = -100_000) -> dict[str, Any]:
    response = http.post(
        "/api/matches", json={"game": "gongzhu", "players": ["A", "B", "C", "D"], "limit": limit}
    )
    assert response.status_code == 201
    created: dict[str, Any] = response.json()
    return created


def read(http: httpx.Client, match: dict[str, Any]) -> dict[str, Any]:
    response = http.get(f"/api/matches/{match['id']}", headers=bearer(match["edit_key"]))
    assert response.status_code == 200, response.text
    state: dict[str, Any] = response.json()
    return state


def test_sigkill_mid_stream_loses_nothing_acknowledged(any_database_url: str) -> None:
    server = Server(any_database_url).start()
    streams = 3
    with httpx.Client(base_url=server.url, timeout=10) as http:
        matches = [create(http) for _ in range(streams)]
    acknowledged: list[list[list[str]]] = [[] for _ in range(streams)]
    stop = threading.Event()

    def stream(index: int) -> None:
        match = matches[index]
        with httpx.Client(base_url=server.url, timeout=10) as http:
            version = 1
            while not stop.is_set():
                piles = hand(len(acknowledged[index]) + 7 * index)
                try:
                    response = http.post(
                        f"/api/matches/{match['id']}/rounds",
                        json={"version": version, "round": {"piles": piles}},
                        headers=bearer(match["edit_key"]),
                    )
                except httpx.HTTPError:
                    return  # the server died with this request in flight: not acknowledged
                assert response.status_code == 201, response.text
                acknowledged[index].append(piles)
                version += 1

    threads = [threading.Thread(target=stream, args=(i,)) for i in range(streams)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 30
    while sum(map(len, acknowledged)) < 60 and time.monotonic() < deadline:
        time.sleep(0.01)
    server.kill()
    stop.set()
    for thread in threads:
        thread.join(timeout=30)
    assert sum(map(len, acknowledged)) >= 60, "the server was too slow to test anything"

    restarted = Server(server.database_url).start()
    try:
        with httpx.Client(base_url=restarted.url, timeout=10) as http:
            for index, match in enumerate(matches):
                state = read(http, match)
                stored = [r["document"]["piles"] for r in state["rounds"]]
                sent = acknowledged[index]
                # Every acknowledged round is there, in order; at most the one in flight more.
                assert stored[: len(sent)] == sent
                assert len(stored) - len(sent) in (0, 1)
                if len(stored) > len(sent):
                    assert stored[-1] == hand(len(sent) + 7 * index)
                # No half-saved change: the version moved exactly once per stored round.
                assert state["version"] == 1 + len(stored)
                assert [r["number"] for r in state["rounds"]] == list(range(1, len(stored) + 1))
    finally:
        restarted.stop()


# Cards a hand may hold: not the red 3s (dollars are laid down, never held).
HOLDABLE = [c.code for c in map(Card.from_id, range(52)) if c.code not in ("3h", "3d")]


def tranca_round(k: int) -> dict[str, Any]:
    """A Tranca round nobody went out of, told apart by the one card team A holds (k < 50)."""
    held = HOLDABLE[k]
    return {
        "teams": [
            {"name": "A", "hand": [held], "took_morto": False, "went_out": False},
            {"name": "B", "took_morto": False, "went_out": False},
        ]
    }


@pytest.mark.parametrize(
    ("game", "workers"),
    # Tranca saves check only the new round against the match each process keeps: two
    # processes, each with its own kept matches, take turns on the same match.
    [("gongzhu", 1), ("gongzhu", 2), ("tranca", 2)],
)
def test_concurrent_clients_never_lose_an_update(
    any_database_url: str, game: str, workers: int
) -> None:
    server = Server(any_database_url, workers=workers).start()
    clients, rounds_each = 6, 8
    if game == "tranca":

        def round_of(k: int) -> Any:
            return tranca_round(k)

        def key_of(document: dict[str, Any]) -> Any:
            return document["teams"][0]["hand"]

        new = {"game": "tranca", "players": 2, "teams": [{"name": "A"}, {"name": "B"}]}
    else:

        def round_of(k: int) -> Any:
            return {"piles": hand(k)}

        def key_of(document: dict[str, Any]) -> Any:
            return document["piles"]

        new = {"game": "gongzhu", "players": ["A", "B", "C", "D"], "limit": -100_000}
    try:
        with httpx.Client(base_url=server.url, timeout=30) as http:
            response = http.post("/api/matches", json=new)
            assert response.status_code == 201, response.text
            match = response.json()
        saved: list[list[list[str]]] = [[] for _ in range(clients)]
        conflicts = [0] * clients
        barrier = threading.Barrier(clients)

        def phone(index: int) -> None:
            with httpx.Client(base_url=server.url, timeout=30) as http:
                barrier.wait()
                while len(saved[index]) < rounds_each:
                    version = read(http, match)["version"]
                    round_ = round_of(index * rounds_each + len(saved[index]))  # k < 48: unique
                    response = http.post(
                        f"/api/matches/{match['id']}/rounds",
                        json={"version": version, "round": round_},
                        headers=bearer(match["edit_key"]),
                    )
                    if response.status_code == 409:
                        body = response.json()
                        assert body["current_version"] > version
                        assert body["problems"]
                        conflicts[index] += 1
                        continue
                    assert response.status_code == 201, response.text
                    saved[index].append(key_of(response.json()["rounds"][-1]["document"]))

        threads = [threading.Thread(target=phone, args=(i,)) for i in range(clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        with httpx.Client(base_url=server.url, timeout=30) as http:
            state = read(http, match)
        stored = [key_of(r["document"]) for r in state["rounds"]]
        assert len(stored) == clients * rounds_each == state["version"] - 1
        for index in range(clients):
            mine = [p for p in stored if p in saved[index]]
            assert mine == saved[index]  # every acknowledged save is there, in its order
        assert sum(conflicts) > 0, "the clients never collided: the test proved nothing"
    finally:
        server.stop()


def test_same_version_at_once_exactly_one_wins(any_database_url: str) -> None:
    server = Server(any_database_url).start()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as http:
            match = create(http)
        clients = 8
        barrier = threading.Barrier(clients)
        statuses: list[int] = []

        def phone(index: int) -> None:
            with httpx.Client(base_url=server.url, timeout=30) as http:
                barrier.wait()
                response = http.post(
                    f"/api/matches/{match['id']}/rounds",
                    json={"version": 1, "round": {"piles": hand(index)}},
                    headers=bearer(match["edit_key"]),
                )
                statuses.append(response.status_code)

        threads = [threading.Thread(target=phone, args=(i,)) for i in range(clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert sorted(statuses) == [201] + [409] * (clients - 1)
    finally:
        server.stop()
