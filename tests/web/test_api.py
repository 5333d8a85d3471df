"""The JSON API on a Gong Zhu match: rounds, running totals, undo, edit, winner, problems."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from cardscore.gongzhu import Match
from tests.web.conftest import bearer, messages, new_match


def add(client: TestClient, match: dict[str, Any], version: int, piles: list[str]) -> Any:
    return client.post(
        f"/api/matches/{match['id']}/rounds",
        json={"version": version, "round": {"piles": piles}},
        headers=bearer(match["edit_key"]),
    )


def test_create_returns_keys_and_links(client: TestClient) -> None:
    match = new_match(client)
    assert match["version"] == 1
    assert match["game"] == "gongzhu"
    assert match["edit_key"] != match["share_key"]
    assert len(match["edit_key"]) >= 40
    assert match["edit_url"].endswith(f"/m/{match['id']}/{match['edit_key']}")
    assert match["share_url"].endswith(f"/m/{match['id']}/{match['share_key']}")


def test_rounds_totals_and_winner_match_the_library(client: TestClient) -> None:
    hands = [
        ["TJQKP", "G", "D", "23456789A"],
        ["A", "P", "G", "D23456789TJQK"],
        ["23456789TJQKAPG", "", "", "D"],
    ]
    reference = Match(("Ann", "Bo", "Cy", "Di"))
    match = new_match(client)
    for version, piles in enumerate(hands, start=1):
        response = add(client, match, version, piles)
        assert response.status_code == 201, response.text
        reference.play_hand(piles)
    state = response.json()
    assert state["version"] == 4
    assert state["totals"] == list(reference.totals.values())
    assert [r["totals"] for r in state["rounds"]] == [list(h.totals) for h in reference.hands]
    assert state["rounds"][0]["detail"]["breakdowns"][0]["terms"][0]["name"] == "hearts"
    read = client.get(f"/api/matches/{match['id']}", headers=bearer(match["share_key"])).json()
    assert read["access"] == "read"
    assert read["totals"] == state["totals"]


def test_match_ends_at_the_limit_and_refuses_more_hands(client: TestClient) -> None:
    match = new_match(client, {"game": "gongzhu", "players": ["A", "B", "C", "D"], "limit": -300})
    add(client, match, 1, ["TJQKP", "G", "D", "23456789A"])
    state = add(client, match, 2, ["P", "23456789TJQKA", "G", "D"]).json()
    assert state["over"]
    assert state["winner"] == "B"
    refused = add(client, match, 3, ["P", "23456789TJQKA", "G", "D"])
    assert refused.status_code == 422
    assert "the match is over" in refused.json()["problems"][0]["message"]


def test_undo_and_edit_recompute_totals(client: TestClient) -> None:
    match = new_match(client)
    add(client, match, 1, ["P", "23456789TJQKA", "G", "D"])  # -100 200 100 50
    add(client, match, 2, ["G", "23456789TJQKA", "P", "D"])  # 100 200 -100 50
    edited = client.put(
        f"/api/matches/{match['id']}/rounds/1",
        json={"version": 3, "round": {"piles": ["23456789TJQKA", "P", "G", "D"]}},
        headers=bearer(match["edit_key"]),
    )
    assert edited.status_code == 200, edited.text
    assert edited.json()["totals"] == [300, 100, 0, 100]
    undone = client.post(
        f"/api/matches/{match['id']}/undo", json={"version": 4}, headers=bearer(match["edit_key"])
    )
    assert undone.json()["totals"] == [200, -100, 100, 50]
    assert undone.json()["version"] == 5
    empty = new_match(client)
    nothing = client.post(
        f"/api/matches/{empty['id']}/undo", json={"version": 1}, headers=bearer(empty["edit_key"])
    )
    assert nothing.status_code == 422
    assert messages(nothing) == ["there is no round to undo"]


def test_prefer_return_minimal_answers_with_what_changed(client: TestClient) -> None:
    match = new_match(client)
    minimal = {**bearer(match["edit_key"]), "Prefer": "return=minimal"}
    url = f"/api/matches/{match['id']}"
    add(client, match, 1, ["P", "23456789TJQKA", "G", "D"])
    second = client.post(
        url + "/rounds",
        json={"version": 2, "round": {"piles": ["G", "23456789TJQKA", "P", "D"]}},
        headers=minimal,
    )
    assert second.status_code == 201, second.text
    assert second.headers["preference-applied"] == "return=minimal"
    saved = second.json()
    assert "stats" not in saved
    assert (saved["version"], saved["totals"]) == (3, [0, 400, 0, 100])
    assert [r["number"] for r in saved["rounds"]] == [2]  # only the new round
    assert saved["rounds"][0]["document"] == {"piles": ["G", "23456789TJQKA", "P", "D"]}
    edited = client.put(
        url + "/rounds/1",
        json={"version": 3, "round": {"piles": ["23456789TJQKA", "P", "G", "D"]}},
        headers=minimal,
    ).json()
    assert [r["number"] for r in edited["rounds"]] == [1, 2]  # the edit and the totals after it
    assert edited["rounds"][1]["totals"] == edited["totals"] == [300, 100, 0, 100]
    undone = client.post(url + "/undo", json={"version": 4}, headers=minimal).json()
    assert (undone["rounds"], undone["totals"], undone["version"]) == ([], [200, -100, 100, 50], 5)
    whole = client.get(url, headers=bearer(match["edit_key"])).json()
    assert whole["totals"] == undone["totals"]
    assert len(whole["rounds"]) == 1


def test_impossible_round_names_every_problem_and_stores_nothing(client: TestClient) -> None:
    match = new_match(client)
    response = add(client, match, 1, ["PX", "P", "Z", ""])
    assert response.status_code == 422
    assert response.headers["content-type"] == "application/problem+json"
    body = response.json()
    assert body["status"] == 422
    assert len(body["problems"]) == 2
    assert any("'X'" in p["message"] for p in body["problems"])
    assert any("'Z'" in p["message"] for p in body["problems"])
    state = client.get(f"/api/matches/{match['id']}", headers=bearer(match["edit_key"])).json()
    assert state["rounds"] == []
    assert state["version"] == 1


def test_a_card_in_two_piles_is_refused(client: TestClient) -> None:
    match = new_match(client)
    response = add(client, match, 1, ["P", "P23456789TJQKA", "G", "D"])
    assert response.status_code == 422
    assert messages(response) == ["hand 1: Q♠ is in piles 1 and 2; one deck holds only one"]


def test_stale_version_is_a_409_naming_the_current_version(client: TestClient) -> None:
    match = new_match(client)
    assert add(client, match, 1, ["P", "23456789TJQKA", "G", "D"]).status_code == 201
    stale = add(client, match, 1, ["G", "23456789TJQKA", "P", "D"])
    assert stale.status_code == 409
    body = stale.json()
    assert body["current_version"] == 2
    assert "reload" in body["detail"]
    assert (
        len(
            client.get(f"/api/matches/{match['id']}", headers=bearer(match["edit_key"])).json()[
                "rounds"
            ]
        )
        == 1
    )


def test_bad_requests_are_problem_bodies(client: TestClient) -> None:
    bad_json = client.post(
        "/api/matches", content=b"{nope", headers={"content-type": "application/json"}
    )
    assert bad_json.status_code == 400
    assert "not valid JSON" in bad_json.json()["problems"][0]["message"]
    wrong = client.post("/api/matches", json={"game": "gongzhu", "players": ["A"], "limit": 5})
    assert wrong.status_code == 422
    assert len(wrong.json()["problems"]) == 2  # too few players and a positive limit
    assert client.post("/api/matches", json={"game": "chess"}).status_code == 422
    missing = client.get("/api/matches/nope", headers=bearer("x"))
    assert missing.status_code == 404
    assert missing.json()["title"] == "Not Found"
    assert client.get("/api/nothing-here").headers["content-type"] == "application/problem+json"


def test_stateless_gongzhu_scoring(client: TestClient) -> None:
    response = client.post("/api/gongzhu/score", json={"piles": ["23456789TJQKAPGD", "", "", ""]})
    assert response.json()["scores"][0]["total"] == 800
    cards = client.post(
        "/api/gongzhu/score",
        json={
            "piles": ["AH QS JD 10C", "2h 3h 4h 5h 6h 7h 8h 9h 10h jh qh kh", "", ""],
            "notation": "cards",
        },
    )
    assert cards.json()["scores"][0]["total"] == -100
    assert client.post("/api/gongzhu/score", json={"piles": ["?"] * 4}).status_code == 422


def test_openapi_documents_problem_bodies(client: TestClient) -> None:
    spec = client.get("/api/openapi.json").json()
    assert "Problem" in spec["components"]["schemas"]
    responses = spec["paths"]["/api/matches/{match_id}/rounds"]["post"]["responses"]
    assert {"201", "409", "422", "403"} <= set(responses)
