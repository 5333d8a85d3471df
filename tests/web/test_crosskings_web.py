"""Cross Kings against the computer: the deal stays hidden, moves are checked, the bot answers."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from cardscore import crosskings
from tests.web.conftest import bearer


def new_game(client: TestClient, level: int = 1, seed: int = 5) -> dict[str, Any]:
    response = client.post(
        "/api/matches", json={"game": "crosskings", "level": level, "seed": seed}
    )
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def play(client: TestClient, game: dict[str, Any], version: int, cell: str) -> Any:
    return client.post(
        f"/api/matches/{game['id']}/rounds",
        json={"version": version, "round": {"move": cell}},
        headers=bearer(game["edit_key"]),
    )


def test_a_whole_game_against_the_computer_matches_the_library(client: TestClient) -> None:
    game = new_game(client)
    reference = crosskings.Game.deal(seed=5)
    state = client.get(f"/api/matches/{game['id']}", headers=bearer(game["edit_key"])).json()
    assert state["stats"]["legal_moves"] == list(reference.legal_moves)
    while not state["over"]:
        cell = state["stats"]["legal_moves"][-1]
        response = play(client, game, state["version"], cell)
        assert response.status_code == 201, response.text
        state = response.json()
        moves = [r["detail"]["move"].split("=")[0] for r in state["rounds"]]
        assert moves[-2 if len(moves) % 2 == 0 else -1] == cell
        if not state["over"]:
            assert state["stats"]["to_move"] == 1  # the computer has answered
    final = reference.replay(r["detail"]["move"].split("=")[0] for r in state["rounds"])
    assert final.is_over
    assert state["totals"] == [final.p1.score(), final.p2.score()]
    winner = None if final.score == 0 else ("P1" if final.score > 0 else "P2")
    assert state["winner"] == winner


def test_the_deal_is_never_shown(client: TestClient) -> None:
    game = new_game(client)
    deal = crosskings.Game.deal(seed=5)
    state = client.get(f"/api/matches/{game['id']}", headers=bearer(game["share_key"])).json()
    assert state["config"] == {"level": 1}
    page = client.get(f"/m/{game['id']}/{game['edit_key']}").text
    hidden = [str(deal.cards[c]) for c in crosskings.FACE_DOWN]
    board = page.split('id="board"')[1].split("</svg>")[0]
    shown = set(re.findall(r">([^<>]+)</text>", board))
    assert not shown & set(hidden) - {
        str(deal.cards[c]) for c in range(36) if c not in crosskings.FACE_DOWN
    }


def test_illegal_moves_and_card_choices_are_refused(client: TestClient) -> None:
    game = new_game(client)
    bad = play(client, game, 1, "a1")
    assert bad.status_code == 422
    assert "move 1 'a1'" in bad.json()["problems"][0]["message"]
    # Naming a card for a face-down cell does not choose it: only the cell counts.
    state = client.get(f"/api/matches/{game['id']}", headers=bearer(game["edit_key"])).json()
    deal = crosskings.Game.deal(seed=5)
    cell = state["stats"]["legal_moves"][0]
    taken = play(client, game, 1, f"{cell}=Kh").json()
    assert taken["rounds"][0]["detail"]["move"] == deal.move(cell).moves[0].notation


def test_undo_goes_back_to_your_turn(client: TestClient) -> None:
    game = new_game(client)
    state = play(client, game, 1, "d3").json()
    assert len(state["rounds"]) == 2
    undone = client.post(
        f"/api/matches/{game['id']}/undo",
        json={"version": state["version"]},
        headers=bearer(game["edit_key"]),
    ).json()
    assert undone["rounds"] == []
    assert undone["stats"]["to_move"] == 1


def test_the_page_shows_exact_move_values_late_in_the_game(client: TestClient) -> None:
    token = re.search(r'name="csrf" value="([^"]+)"', client.get("/crosskings").text)
    assert token
    created = client.post(
        "/crosskings", data={"csrf": token.group(1), "level": "0"}, follow_redirects=False
    )
    assert created.status_code == 303
    url = created.headers["location"]
    match_id, key = url.split("/")[2:4]
    state = client.get(f"/api/matches/{match_id}", headers=bearer(key)).json()
    while state["stats"]["cards_left"] > 12 and not state["over"]:
        state = play(
            client,
            {"id": match_id, "edit_key": key},
            state["version"],
            state["stats"]["legal_moves"][0],
        ).json()
    page = client.get(url).text
    if not state["over"]:
        assert "best " in page.split('id="board"')[1]  # the board names the best move
