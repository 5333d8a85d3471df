"""A request's cost is bounded: oversized rounds are refused before parsing, error bodies are
capped, and the computer's Cross Kings moves cannot be replaced."""

from __future__ import annotations

import json
import re

from fastapi.testclient import TestClient

from cardscore.limits import MAX_CARDS_PER_ROUND, MAX_MELDS_PER_TEAM, MAX_PROBLEMS
from tests.web.conftest import bearer, messages, new_match

TRANCA = {"game": "tranca", "players": 4, "teams": [{"name": "Ana"}, {"name": "Bia"}]}


def _round(**ana: object) -> dict[str, object]:
    return {
        "players": 4,
        "teams": [
            {"name": "Ana", "took_morto": True, "went_out": True, **ana},
            {"name": "Bia", "took_morto": False, "went_out": False},
        ],
    }


def test_thirty_thousand_melds_are_refused_before_parsing(client: TestClient) -> None:
    flood = _round(melds=[["4H", "4S", "4D"]] * 30_000)
    scored = client.post("/api/tranca/score", json=flood)
    assert scored.status_code == 422
    assert len(scored.content) < 2_000
    assert messages(scored) == [
        f"team 1: 30000 melds; a round has at most {MAX_MELDS_PER_TEAM} per team",
        f"the round lists 90000 cards; at most {MAX_CARDS_PER_ROUND} (three decks) fit in a round",
    ]
    match = new_match(client, TRANCA)
    url = f"/api/matches/{match['id']}"
    saved = client.post(
        url + "/rounds", json={"version": 1, "round": flood}, headers=bearer(match["edit_key"])
    )
    assert saved.status_code == 422
    assert client.get(url, headers=bearer(match["edit_key"])).json()["version"] == 1


def test_a_round_may_list_at_most_three_decks(client: TestClient) -> None:
    too_many = client.post("/api/tranca/score", json=_round(hand=["5H"] * 163))
    assert too_many.status_code == 422
    assert "163 cards" in messages(too_many)[0]
    assert too_many.json()["problems"][0]["code"] == "round_too_many_cards"


def test_error_bodies_are_capped(client: TestClient) -> None:
    # 150 cards that are not cards: one problem each, within the size limits.
    bad = client.post("/api/tranca/score", json=_round(hand=[f"Z{i}" for i in range(150)]))
    assert bad.status_code == 422
    problems = messages(bad)
    assert len(problems) == MAX_PROBLEMS + 1
    hidden = re.fullmatch(r"… and (\d+) more problems", problems[-1])
    assert hidden
    assert int(hidden.group(1)) >= 150 - MAX_PROBLEMS  # one per card at least
    long_name = client.post(
        "/api/tranca/score", json={"players": 4, "teams": [{"name": "A", "x" * 100_000: 1}]}
    )
    assert long_name.status_code == 422
    assert all(len(p) <= 500 for p in messages(long_name))
    assert len(long_name.content) < 5_000


def test_a_gong_zhu_pile_is_bounded(client: TestClient) -> None:
    match = new_match(client)
    answer = client.post(
        f"/api/matches/{match['id']}/rounds",
        json={"version": 1, "round": {"piles": ["P" * 100_000, "", "", ""]}},
        headers=bearer(match["edit_key"]),
    )
    assert answer.status_code == 422
    assert messages(answer) == ["hand 1: pile 1 has 100000 characters; at most 64"]


def test_the_computers_cross_kings_moves_cannot_be_replaced(client: TestClient) -> None:
    created = client.post("/api/matches", json={"game": "crosskings", "level": 1, "seed": 5})
    game = created.json()
    url = f"/api/matches/{game['id']}"
    key = bearer(game["edit_key"])
    state = client.get(url, headers=key).json()
    first = state["stats"]["legal_moves"][0]
    played = client.post(
        url + "/rounds", json={"version": 1, "round": {"move": first}}, headers=key
    )
    assert played.status_code == 201
    after = client.get(url, headers=key).json()
    assert [r["detail"]["player"] for r in after["rounds"]] == [1, 2]
    # Any legal cell for the computer's move, or another for the player's: both refused.
    for number, move in ((2, after["stats"]["legal_moves"][0]), (1, first)):
        replaced = client.put(
            f"{url}/rounds/{number}", json={"version": 2, "round": {"move": move}}, headers=key
        )
        assert replaced.status_code == 422, replaced.text
        assert "cannot be replaced" in messages(replaced)[0]
    assert json.dumps(client.get(url, headers=key).json()) == json.dumps(after)
