"""Five-card draw in the browser and the API: rank, compare, draw odds."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from cardscore import poker


def test_rank_and_compare_agree_with_the_library(client: TestClient) -> None:
    hands = ["As Ad Kc Kd 2h", "Ah Ac Ks Kh 2d", "Qs Qh Jc Jd 9h"]
    body = client.post("/api/poker/rank", json={"hands": hands}).json()
    assert body["winners"] == poker.winners(hands) == [0, 1]
    assert [h["rank"] for h in body["hands"]] == [poker.evaluate(h).rank for h in hands]
    assert body["hands"][0]["category"] == "two pair"


def test_royal_flush_is_class_one(client: TestClient) -> None:
    body = client.post("/api/poker/rank", json={"hands": ["As Ks Qs Js Ts"]}).json()
    assert body["hands"][0]["rank"] == 1


def test_impossible_hands_name_every_problem(client: TestClient) -> None:
    response = client.post("/api/poker/rank", json={"hands": ["As Ks Qs Js", "As Xx 2c 3c 4c"]})
    assert response.status_code == 422
    problems = [p["message"] for p in response.json()["problems"]]
    assert any(p.startswith("hand 1:") for p in problems)
    assert any("'Xx'" in p for p in problems)
    twice = client.post("/api/poker/rank", json={"hands": ["As Ks Qs Js 9s", "As Kd Qd Jd 9d"]})
    assert twice.status_code == 422
    assert "A♠ is in hands 1 and 2" in twice.json()["problems"][0]["message"]


def test_draw_odds_match_the_library(client: TestClient) -> None:
    body = client.post(
        "/api/poker/draw-odds", json={"hand": "8s 8h Kc 5d 2h", "discard": "Kc 5d 2h"}
    ).json()
    expected = poker.draw_odds("8s 8h Kc 5d 2h", discard="Kc 5d 2h")
    assert body["draws"] == expected.draws == 16215
    assert body["improve"] == pytest.approx(0.2871, abs=1e-4)
    bad = client.post("/api/poker/draw-odds", json={"hand": "8s 8h", "discard": "Kc"})
    assert bad.status_code == 422
    assert len(bad.json()["problems"]) == 2


def test_poker_page(client: TestClient) -> None:
    page = client.get("/poker", headers={"Accept-Language": "pt-BR"}).text
    token = re.search(r'name="csrf" value="([^"]+)"', page)
    assert token
    assert "Pôquer fechado" in page
    ranked = client.post(
        "/poker",
        data={
            "csrf": token.group(1),
            "action": "rank",
            "hand0": "As Ad Kc Kd 2h",
            "hand1": "Ks Kh Qc Qd Ah",
        },
    )
    assert ranked.status_code == 200
    assert "Two pair, aces and kings" in ranked.text
    odds = client.post(
        "/poker",
        data={
            "csrf": token.group(1),
            "action": "draw",
            "hand": "8s 8h Kc 5d 2h",
            "discard": "Kc 5d 2h",
        },
    )
    assert "28.71%" in odds.text
    assert "/poker" in client.get("/").text


def test_draw_odds_refuse_the_draws_the_dealer_refuses(client: TestClient) -> None:
    four = client.post(
        "/api/poker/draw-odds", json={"hand": "Kh Qh Jh 2c 3c", "discard": "Qh Jh 2c 3c"}
    )
    assert four.status_code == 422
    (problem,) = four.json()["problems"]
    assert problem["code"] == "throw_four_no_ace"
    assert (
        problem["message"] == "four cards may be thrown only when the card kept is an ace (kept K♥)"
    )
    ace = client.post(
        "/api/poker/draw-odds", json={"hand": "Ah Kd 7c 5s 3h", "discard": "Kd 7c 5s 3h"}
    )
    assert ace.status_code == 200
