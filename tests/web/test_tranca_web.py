"""A Tranca match through the API and the pages: typed rounds, checks, totals, winner, stats."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import bearer, new_match

ANA, CAIO = "Ana & Bia", "Caio & Duda"
MATCH = {
    "game": "tranca",
    "players": 4,
    "teams": [
        {"name": ANA, "players": ["Ana", "Bia"]},
        {"name": CAIO, "players": ["Caio", "Duda"]},
    ],
    "target": 1000,
}
# The Tranca scoring document's sample table, made legal: it scores 410.
SEED_TEAM = {
    "name": ANA,
    "melds": [
        ["4H", "5H", "6H", "7H", "8H", "9H", "2C"],
        ["4S", "5S", "6S", "7S", "8S", "9S"],
        ["5C", "6C", "7C", "8C", "9C", "2D"],
    ],
    "dollars": ["3H", "3D", "3D"],
    "hand": ["AS", "2D", "9H", "3C", "7D"],
    "took_morto": False,
    "went_out": True,
}
QUIET = {"name": CAIO, "melds": [["KS", "KD", "KC"]], "took_morto": True, "went_out": False}
CLEAN = ["AH", "KH", "QH", "JH", "TH", "9H", "8H"]


def team(
    name: str, out: bool, melds: list[list[str]] | None = None, **extra: Any
) -> dict[str, Any]:
    return {"name": name, "melds": melds or [], "took_morto": True, "went_out": out, **extra}


def winning_round(winner: str) -> dict[str, Any]:
    other = CAIO if winner == ANA else ANA
    sides = {winner: team(winner, True, [CLEAN]), other: team(other, False)}
    return {"teams": [sides[ANA], sides[CAIO]]}


@pytest.fixture
def match(client: TestClient) -> dict[str, Any]:
    response = client.post("/api/matches", json=MATCH)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def post_round(client: TestClient, match: dict[str, Any], version: int, round_: Any) -> Any:
    return client.post(
        f"/api/matches/{match['id']}/rounds",
        json={"version": version, "round": round_},
        headers=bearer(match["edit_key"]),
    )


def test_stateless_scoring_of_the_seed_sample(client: TestClient) -> None:
    response = client.post("/api/tranca/score", json={"players": 4, "teams": [SEED_TEAM, QUIET]})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["teams"][0]["total"] == 410
    ana = body["breakdowns"][0]
    assert ana["total"] == sum(term["points"] for term in ana["terms"]) == 410
    terms = {term["term"]: term["points"] for term in body["teams"][0]["terms"]}
    assert terms["morto"] == -100
    assert terms["final_move"] == 100


def test_the_seed_table_is_refused_with_every_reason(client: TestClient) -> None:
    impossible = {**SEED_TEAM, "dollars": ["3H", "3D", "3H", "3H"]}
    response = client.post("/api/tranca/score", json={"players": 4, "teams": [impossible, QUIET]})
    assert response.status_code == 422
    assert response.headers["content-type"] == "application/problem+json"
    assert any("3♥" in p["message"] for p in response.json()["problems"])


def test_a_match_to_the_winner_with_undo_edit_and_stats(
    client: TestClient, match: dict[str, Any]
) -> None:
    first = post_round(client, match, 1, {"teams": [SEED_TEAM, QUIET]})
    assert first.status_code == 201, first.text
    state = first.json()
    assert state["rounds"][0]["points"][0] == 410
    assert state["leader"] == ANA
    assert state["rounds"][0]["document"]["teams"][0]["melds"][0][0] == "4h"  # canonical codes
    state = post_round(client, match, 2, winning_round(CAIO)).json()
    assert state["winner"] is None
    undone = client.post(
        f"/api/matches/{match['id']}/undo", json={"version": 3}, headers=bearer(match["edit_key"])
    ).json()
    assert len(undone["rounds"]) == 1
    assert undone["version"] == 4
    state = post_round(client, match, 4, winning_round(ANA)).json()
    totals_before_edit = state["totals"]
    state = post_round(client, match, 5, winning_round(ANA)).json()
    assert state["winner"] == ANA
    assert state["over"]
    assert state["totals"][0] >= 1000
    late = post_round(client, match, 6, winning_round(CAIO))
    assert late.status_code == 422
    assert "over" in late.json()["problems"][0]["message"]
    # Editing round 1 recomputes every total after it.
    edited = client.put(
        f"/api/matches/{match['id']}/rounds/1",
        json={"version": 6, "round": {"teams": [team(ANA, False), team(CAIO, True, [CLEAN])]}},
        headers=bearer(match["edit_key"]),
    )
    assert edited.status_code == 200, edited.text
    after = edited.json()
    assert after["rounds"][1]["points"] == state["rounds"][1]["points"]
    assert after["totals"] != totals_before_edit
    stats = {t["name"]: t for t in after["stats"]["teams"]}
    assert stats[ANA]["clean_canastras"] == 2
    assert stats[CAIO]["went_out"] == 1


def test_an_impossible_round_is_refused_whole(client: TestClient, match: dict[str, Any]) -> None:
    both_out = {"teams": [team(ANA, True, [CLEAN]), team(CAIO, True, [CLEAN])]}
    response = post_round(client, match, 1, both_out)
    assert response.status_code == 422
    problems = [p["message"] for p in response.json()["problems"]]
    assert all(p.startswith("round 1: ") for p in problems)
    wrong_teams = post_round(
        client, match, 1, {"teams": [team(CAIO, True, [CLEAN]), team(ANA, False)]}
    )
    assert wrong_teams.status_code == 422
    assert "order" in wrong_teams.json()["detail"]
    state = client.get(f"/api/matches/{match['id']}", headers=bearer(match["share_key"])).json()
    assert state["rounds"] == []
    assert state["version"] == 1


def test_bad_match_settings_are_problems(client: TestClient) -> None:
    odd = {**MATCH, "players": 6}
    response = client.post("/api/matches", json=odd)
    assert response.status_code == 422
    assert "players" in response.json()["detail"]
    assert client.post("/api/matches", json={**MATCH, "players": 5}).status_code == 422


def test_match_created_from_the_form_and_shown_with_breakdown_chart_and_stats(
    client: TestClient,
) -> None:
    page = client.get("/tranca/new", headers={"Accept-Language": "pt-BR"}).text
    token = re.search(r'name="csrf" value="([^"]+)"', page)
    assert token
    assert "Nova partida de Tranca" in page
    created = client.post(
        "/tranca/new",
        data={
            "csrf": token.group(1),
            "players": "4",
            "team0_player0": "Ana",
            "team0_player1": "Bia",
            "team1_name": "Caio & Duda",
            "team1_player0": "Caio",
            "team1_player1": "Duda",
        },
        follow_redirects=False,
    )
    assert created.status_code == 303, created.text
    match_id, key = created.headers["location"].split("/")[2:4]
    state = client.get(f"/api/matches/{match_id}", headers=bearer(key)).json()
    assert state["sides"] == [ANA, CAIO]
    assert state["target"] == 3500
    post_round(client, {"id": match_id, "edit_key": key}, 1, {"teams": [SEED_TEAM, QUIET]})
    html = client.get(created.headers["location"], headers={"Accept-Language": "pt-BR"}).text
    assert "canastras sujas" in html
    assert "410" in html
    assert "<polyline" in html
    assert 'id="stats"' in html
    assert "rodadas ganhas" in html


def test_the_players_table_counts_the_rounds_their_team_won(
    client: TestClient, match: dict[str, Any]
) -> None:
    for version, round_ in enumerate(
        [{"teams": [SEED_TEAM, QUIET]}, winning_round(CAIO), winning_round(ANA)], start=1
    ):
        assert post_round(client, match, version, round_).status_code == 201
    url = f"/m/{match['id']}/{match['edit_key']}"
    for language, heading in [("en", "rounds won"), ("pt-BR", "rodadas ganhas")]:
        html = client.get(url, headers={"Accept-Language": language}).text
        table = re.search(r'<table class="stats" id="player-stats">(.*?)</table>', html, re.S)
        assert table
        headings = re.findall(r"<th>([^<]*)</th>", table.group(1))
        assert headings[1] == heading
        rows = re.findall(
            r"<tr><th>(\w+) <span.*?</th><td class=\"num\">(\d+)</td>", table.group(1)
        )
        assert rows == [("Ana", "2"), ("Bia", "2"), ("Caio", "1"), ("Duda", "1")]


def test_the_form_reports_every_problem(client: TestClient) -> None:
    token = re.search(r'name="csrf" value="([^"]+)"', client.get("/tranca/new").text)
    assert token
    refused = client.post(
        "/tranca/new",
        data={
            "csrf": token.group(1),
            "players": "4",
            "team0_name": "Same",
            "team1_name": "Same",
            "target": "lots",
        },
    )
    assert refused.status_code == 422
    assert "target" in refused.text


@pytest.mark.parametrize(
    ("players", "teams", "target"),
    [
        (2, [["Ana"], ["Caio"]], 3500),
        (3, [["Ana"], ["Caio"], ["Eva"]], 3500),
        (6, [["Ana", "Bia", "Cris"], ["Dan", "Eli", "Fred"]], 5000),
    ],
)
def test_every_table_size(
    client: TestClient, players: int, teams: list[list[str]], target: int
) -> None:
    names = [" & ".join(t) for t in teams]
    created = client.post(
        "/api/matches",
        json={
            "game": "tranca",
            "players": players,
            "teams": [{"name": n, "players": t} for n, t in zip(names, teams, strict=True)],
        },
    )
    assert created.status_code == 201, created.text
    match = created.json()
    sides = [team(n, i == 0, [CLEAN] if i == 0 else None) for i, n in enumerate(names)]
    sides[0]["went_out_player"] = teams[0][-1]
    for side in sides[2:]:
        side["took_morto"] = False  # there are two mortos
    state = post_round(client, match, 1, {"teams": sides}).json()
    assert state["target"] == target
    assert state["totals"][0] == 375
    assert state["rounds"][0]["document"]["decks"] == (3 if players == 6 else 2)
    players_stats = {p["name"]: p for p in state["stats"]["players"]}
    assert players_stats[teams[0][-1]]["went_out"] == 1


def test_a_player_who_is_not_in_the_team_is_refused(
    client: TestClient, match: dict[str, Any]
) -> None:
    sides = [team(ANA, True, [CLEAN], went_out_player="Zé"), team(CAIO, False)]
    response = post_round(client, match, 1, {"teams": sides})
    assert response.status_code == 422
    assert "'Zé' is not among the team's players" in response.json()["detail"]


def test_the_scoring_endpoint_refuses_what_is_not_a_round(client: TestClient) -> None:
    for body in ([1, 2], "round", {"players": 4}):
        response = client.post("/api/tranca/score", json=body)
        assert response.status_code == 422, body
        assert response.json()["problems"]


def play_to_the_end(client: TestClient, match: dict[str, Any], winner: str, rounds: int) -> None:
    for version in range(1, rounds + 1):
        response = post_round(client, match, version, winning_round(winner))
        assert response.status_code == 201, response.text
    assert response.json()["winner"] == (winner if rounds >= 3 else None)


def test_standings_count_matches_and_rounds_won_over_the_matches_given(
    client: TestClient,
) -> None:
    """Three matches of the same table (Bia changes partner), one still under way, and one
    match of strangers that this browser does not hold: only the matches given are counted."""
    ana_bia = new_match(client, MATCH)
    play_to_the_end(client, ana_bia, ANA, 3)  # 3 × 375 ≥ 1,000: Ana & Bia win in 3 rounds
    caio_duda = new_match(client, MATCH)
    play_to_the_end(client, caio_duda, CAIO, 3)
    swapped = {
        **MATCH,
        "teams": [
            {"name": "Ana & Caio", "players": ["Ana", "Caio"]},
            {"name": "Bia & Duda", "players": ["Bia", "Duda"]},
        ],
    }
    under_way = new_match(client, swapped)
    round_ = {"teams": [team("Ana & Caio", False), team("Bia & Duda", True, [CLEAN])]}
    assert post_round(client, under_way, 1, round_).status_code == 201
    strangers = new_match(client, MATCH)
    play_to_the_end(client, strangers, CAIO, 3)

    keys = [
        {"id": ana_bia["id"], "key": ana_bia["edit_key"]},
        {"id": caio_duda["id"], "key": caio_duda["share_key"]},  # a share link counts too
        {"id": under_way["id"], "key": under_way["edit_key"]},
        {"id": ana_bia["id"], "key": ana_bia["share_key"]},  # the same match twice: once
        {"id": strangers["id"], "key": ana_bia["edit_key"]},  # a key that does not open it
        {"id": "nosuchmatch", "key": "nokey"},
    ]
    response = client.post("/api/standings", json={"matches": keys})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["skipped"] == [strangers["id"], "nosuchmatch"]
    [tranca_] = body["games"]
    assert (tranca_["game"], tranca_["matches"], tranca_["finished"]) == ("tranca", 3, 2)
    sides = {s["name"]: s for s in tranca_["sides"]}
    assert sides[ANA] == {"name": ANA, "played": 2, "won": 1, "rounds": 6, "rounds_won": 3}
    assert sides[CAIO] == {"name": CAIO, "played": 2, "won": 1, "rounds": 6, "rounds_won": 3}
    assert sides["Bia & Duda"] == {
        "name": "Bia & Duda",
        "played": 1,
        "won": 0,
        "rounds": 1,
        "rounds_won": 1,
    }
    players = {p["name"]: (p["played"], p["won"]) for p in tranca_["players"]}
    assert players == {"Ana": (3, 1), "Bia": (3, 1), "Caio": (3, 1), "Duda": (3, 1)}
    rounds = {p["name"]: (p["rounds"], p["rounds_won"]) for p in tranca_["players"]}
    assert rounds == {"Ana": (7, 3), "Bia": (7, 4), "Caio": (7, 3), "Duda": (7, 4)}  # as teams
    # Each match's own statistics agree on the rounds won.
    state = client.get(f"/api/matches/{ana_bia['id']}", headers=bearer(ana_bia["edit_key"]))
    per_match = {t["name"]: t["rounds_won"] for t in state.json()["stats"]["teams"]}
    assert per_match == {ANA: 3, CAIO: 0}


def test_standings_of_gongzhu_and_tranca_are_kept_apart(client: TestClient) -> None:
    tranca_match = new_match(client, MATCH)
    play_to_the_end(client, tranca_match, ANA, 3)
    gongzhu = new_match(client)  # Ann, Bo, Cy, Di
    response = client.post(
        f"/api/matches/{gongzhu['id']}/rounds",
        json={"version": 1, "round": {"piles": ["TJQKP", "G", "D", "23456789A"]}},
        headers=bearer(gongzhu["edit_key"]),
    )
    assert response.status_code == 201, response.text
    keys = [{"id": m["id"], "key": m["edit_key"]} for m in (tranca_match, gongzhu)]
    games = {
        g["game"]: g for g in client.post("/api/standings", json={"matches": keys}).json()["games"]
    }
    assert sorted(games) == ["gongzhu", "tranca"]
    assert games["gongzhu"]["players"] == []  # Gong Zhu's sides are the players
    bo = next(s for s in games["gongzhu"]["sides"] if s["name"] == "Bo")
    assert bo == {"name": "Bo", "played": 1, "won": 0, "rounds": 1, "rounds_won": 1}  # +100
    assert games["tranca"]["sides"][0]["name"] == ANA  # ranked by matches won


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"matches": "x"},
        {"matches": [{"id": "a"}]},
        {"matches": [{"id": "a", "key": "b"}] * 101},
    ],
)
def test_standings_refuse_a_bad_request_with_a_problem(client: TestClient, body: Any) -> None:
    response = client.post("/api/standings", json=body)
    assert response.status_code == 422
    assert response.headers["content-type"] == "application/problem+json"


def tally_side(name: str, **numbers: Any) -> dict[str, Any]:
    return {"name": name, "took_morto": True, "went_out": False, **numbers}


# The seed's sample table (SEED_TEAM, QUIET) counted by hand: 4-9♥+2♣ 50 (dirty), 4-9♠ 40,
# 5-9♣+2♦ 45; hand A♠ 2♦ 9♥ 7♦ 40 and a tranca; K♠K♦K♣ 30.
SEED_TALLY = {
    "tally": True,
    "teams": [
        tally_side(
            ANA,
            table_points=135,
            dirty_canastras=1,
            dollars=3,
            trancas=1,
            hand_points=40,
            took_morto=False,
            went_out=True,
        ),
        tally_side(CAIO, table_points=30),
    ],
}


def test_a_match_mixes_quick_entry_and_card_rounds(
    client: TestClient, match: dict[str, Any]
) -> None:
    scored = client.post("/api/tranca/score", json={"players": 4, **SEED_TALLY})
    assert scored.status_code == 200, scored.text
    by_cards = client.post("/api/tranca/score", json={"players": 4, "teams": [SEED_TEAM, QUIET]})
    assert [t["total"] for t in scored.json()["teams"]] == [410, 30]
    assert [t["total"] for t in by_cards.json()["teams"]] == [410, 30]
    first = post_round(client, match, 1, {"teams": [SEED_TEAM, QUIET]})
    assert first.status_code == 201, first.text
    second = post_round(client, match, 2, SEED_TALLY)
    assert second.status_code == 201, second.text
    state = second.json()
    assert [r["points"] for r in state["rounds"]] == [[410, 30], [410, 30]]
    assert state["totals"] == [820, 60]
    assert state["rounds"][1]["document"]["tally"] is True
    stats = {t["name"]: t for t in state["stats"]["teams"]}
    assert stats[ANA]["dirty_canastras"] == 2
    assert stats[ANA]["trancas"] == 2
    # A card round can be edited into a tally and back; the totals follow.
    quick = {
        "tally": True,
        "teams": [
            tally_side(ANA),
            tally_side(CAIO, table_points=35, clean_canastras=1, went_out=True),
        ],
    }
    edited = client.put(
        f"/api/matches/{match['id']}/rounds/1",
        json={"version": 3, "round": quick},
        headers=bearer(match["edit_key"]),
    )
    assert edited.status_code == 200, edited.text
    assert edited.json()["totals"] == [410, 30 + 335]
    page = client.get(match["edit_url"])
    assert page.status_code == 200
    assert 'id="quick-entry"' in page.text


def test_an_implausible_tally_is_refused_whole_in_either_language(
    client: TestClient, match: dict[str, Any]
) -> None:
    bad = {
        "tally": True,
        "teams": [tally_side(ANA, table_points=12, dollars=5), tally_side(CAIO, went_out=True)],
    }
    response = post_round(client, match, 1, bad)
    assert response.status_code == 422
    codes = [p["code"] for p in response.json()["problems"]]
    assert codes == ["tally_points_step", "out_without_canastra", "tally_dollars_overcount"]
    portuguese = client.post(
        f"/api/matches/{match['id']}/rounds",
        json={"version": 1, "round": bad},
        headers={**bearer(match["edit_key"]), "Accept-Language": "pt-BR"},
    )
    messages = [p["message"] for p in portuguese.json()["problems"]]
    assert any("múltiplo de 5" in m for m in messages)
    state = client.get(f"/api/matches/{match['id']}", headers=bearer(match["share_key"]))
    assert state.json()["rounds"] == []
