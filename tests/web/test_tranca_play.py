"""Play Tranca in the browser: the API plays whole rounds, refuses with the engine's reasons,
never leaks a hidden card, and the finished round goes into a new match; one phone test."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from cardscore.tranca.actions import parse_action
from cardscore.tranca.game import TrancaState, suit_sorted
from cardscore.web.api.tranca_play import YOU, PlayGame
from cardscore.web.games.tranca import score_document
from tests.web.conftest import Server, bearer, messages
from tests.web.test_browser import browser, page, shot  # noqa: F401  (the module's Chromium)
from tests.web.test_phone import _MEASURE as MEASURE


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/tranca/play", json=body)
    assert response.status_code == 201, response.text
    view: dict[str, Any] = response.json()
    return view


def act(client: httpx.Client, game: str, **body: Any) -> Any:
    return client.post(f"/api/tranca/play/{game}/act", json=body)


def hinted_move(client: httpx.Client, game: str) -> dict[str, Any]:
    """The engine's hint, as the page would send it."""
    response = act(client, game, action="hint")
    assert response.status_code == 200, response.text
    action = parse_action(response.json()["hint"])
    return {
        "action": action.kind.value,
        "cards": [c.code for c in action.cards],
        "meld": action.meld,
    }


def server_state(client: TestClient, game: str) -> TrancaState:
    """The game as the database keeps it (replayed from its record)."""
    stored = client.app.state.play_store.load(game)  # type: ignore[attr-defined]
    return PlayGame.from_document(stored.document).state


def visible_codes(state: TrancaState) -> Counter[str]:
    """Every card seat 1 may see: its hand, the pile, the tables (with dollars)."""
    seen = state.observation(YOU)
    cards = [*seen.hand, *seen.pile]
    for team in range(state.teams):
        cards += [c for meld in seen.melds[team] for c in meld.cards] + list(seen.dollars[team])
    return Counter(c.code for c in cards)


def codes_in(view: dict[str, Any]) -> Counter[str]:
    found: Counter[str] = Counter()
    for key in ("hand", "teams", "top"):
        text = json.dumps(view[key])
        found.update(w for w in re.findall(r'"([2-9TJQKA][shdc])"', text))
    return found


@pytest.mark.parametrize(("players", "level"), [(2, 0), (4, 1)])
def test_a_whole_round_is_played_scored_and_saved_into_a_match(
    client: TestClient, players: int, level: int
) -> None:
    view = new_game(client, players=players, level=level, seed=11)
    assert (view["players"], view["level"], view["to_act"]) == (players, level, YOU)
    game = view["id"]
    for _ in range(400):
        if view["over"]:
            break
        assert view["to_act"] == YOU, view
        assert view["actions"], view
        move = hinted_move(client, game)
        assert move["action"] in view["actions"]  # the hint is one of the offered kinds
        response = act(client, game, **move)
        assert response.status_code == 200, response.text
        view = response.json()
        assert view["log"], "the user's own move is listed first"
    assert view["over"]
    assert view["actions"] == []
    assert view["result"] is not None
    result = view["result"]
    # The breakdown is the scorer's own for the engine's round JSON.
    assert result["round"] == server_state(client, game).round_dict()
    assert result["breakdowns"] == score_document(result["round"])["breakdowns"]
    again = client.post("/api/tranca/score", json=result["round"])
    totals = [b["total"] for b in result["breakdowns"]]
    assert again.status_code == 200
    assert [b["total"] for b in again.json()["breakdowns"]] == totals
    # After the round: no move, hint or undo past the end changes anything.
    for body in ({"action": "draw"}, {"action": "hint"}, {"action": "undo"}):
        refused = act(client, game, **body)
        assert refused.status_code == 422
        assert messages(refused) == ["the round is over"]
    assert server_state(client, game).is_over
    # "Save into a new match": the same two calls the page makes.
    created = client.post("/api/matches", json=result["match"])
    assert created.status_code == 201, created.text
    match = created.json()
    saved = client.post(
        f"/api/matches/{match['id']}/rounds",
        json={"version": match["version"], "round": result["round"]},
        headers=bearer(match["edit_key"]),
    )
    assert saved.status_code == 201, saved.text
    read = client.get(f"/api/matches/{match['id']}", headers=bearer(match["edit_key"])).json()
    assert [r["points"] for r in read["rounds"]] == [totals]


def test_a_refused_move_names_the_engines_reason_and_changes_nothing(client: TestClient) -> None:
    view = new_game(client, seed=5)
    game = view["id"]
    assert view["phase"] == "draw or take"
    assert "draw" in view["actions"]
    card = view["hand"][0]
    before = client.get(f"/api/tranca/play/{game}").json()
    record = server_state(client, game).as_dict()
    refused = act(client, game, action="discard", cards=[card])
    assert refused.status_code == 422
    assert messages(refused) == ["turn (6): You must first draw from the stock or take the pile"]
    not_held = next(c for c in ("As", "Ah", "Ad", "Ac", "Ks") if c not in view["hand"])
    refused = act(client, game, action="meld", cards=[not_held, not_held, not_held])
    assert refused.status_code == 422
    assert messages(refused)
    for body in ({"action": "undo"}, {"action": "meld", "cards": ["Zz"]}):
        assert act(client, game, **body).status_code == 422
    assert client.get(f"/api/tranca/play/{game}").json() == before
    assert server_state(client, game).as_dict() == record
    pt = {"Accept-Language": "pt-BR"}
    undo = client.post(f"/api/tranca/play/{game}/act", json={"action": "undo"}, headers=pt)
    assert messages(undo) == ["não há jogada sua para desfazer"]
    early = client.post(
        f"/api/tranca/play/{game}/act", json={"action": "discard", "cards": [card]}, headers=pt
    )
    assert messages(early) == ["vez (6): You precisa primeiro comprar do monte ou pegar o lixo"]
    assert view["pile"] == 0  # seat 1 plays first
    take = client.post(f"/api/tranca/play/{game}/act", json={"action": "take"}, headers=pt)
    assert messages(take)[0].endswith(": o lixo está vazio")  # the engine's reason, translated
    missing = client.get("/api/tranca/play/nothing-here")
    assert missing.status_code == 404
    assert messages(missing) == ["there is no game 'nothing-here' (it may have been dropped)"]


def test_undo_takes_back_the_users_move_and_the_computers_after_it(client: TestClient) -> None:
    view = new_game(client, seed=8, level=1)
    game = view["id"]
    drawn = act(client, game, action="draw").json()
    assert drawn["can_undo"]
    assert len(drawn["hand"]) == len(view["hand"]) + 1
    card = drawn["hand"][0]
    discarded = act(client, game, action="discard", cards=[card]).json()
    history = server_state(client, game).history
    since = max(i for i, (seat, _) in enumerate(history) if seat == YOU)
    # One line per action since the user's discard: theirs, then every computer action.
    assert discarded["to_act"] == YOU
    assert len(discarded["log"]) == len(history) - since
    assert (
        discarded["log"][0]
        == f"You discarded {card[0].replace('T', '10')}"
        + {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}[card[1]]
    )
    assert sum(" discarded " in line for line in discarded["log"]) == 4  # each seat once
    undone = act(client, game, action="undo")
    assert undone.status_code == 200
    assert undone.json()["hand"] == drawn["hand"]
    assert undone.json()["phase"] == drawn["phase"]


def test_no_hidden_card_reaches_the_browser(client: TestClient) -> None:
    view = new_game(client, seed=21, level=1)
    game = view["id"]
    keys = set(view)
    symbols = re.compile("[♠♥♦♣]")
    computer_draws = 0
    for _ in range(40):  # some turns in, with melds, takes and red 3s on the table
        if view["over"]:
            break
        view = act(client, game, **hinted_move(client, game)).json()
        state = server_state(client, game)
        assert set(view) == keys  # nothing new appears (no hands, stock or mortos)
        # Every card code in the view is one seat 1 may see, at most as often as it may.
        assert not codes_in(view) - visible_codes(state)
        assert view["hand"] == [c.code for c in suit_sorted(state.hand(YOU))]
        assert view["hand_sizes"] == state.sizes
        assert (view["stock"], view["mortos"]) == (state.stock_size, state.mortos_left)
        # A computer's drawn card is never named; the user's own is.
        for line in view["log"]:
            if re.fullmatch(r"(Bia|Caio|Duda) drew.*", line):
                computer_draws += 1
                assert not symbols.search(line.split(";")[0]), line
    assert computer_draws > 0


def test_the_page_is_linked_from_the_tranca_page_in_both_languages(client: TestClient) -> None:
    assert 'href="/tranca/play"' in client.get("/tranca/new").text
    english = client.get("/tranca/play").text
    portuguese = client.get("/tranca/play", headers={"Accept-Language": "pt-BR"}).text
    assert "Play Tranca" in english
    assert "Take the pile" in english
    # Start waits for the page's script: tapped before, it would reload the page instead.
    assert 'id="play-start" disabled' in english
    assert "Jogar Tranca" in portuguese
    assert "Pegar o lixo" in portuguese
    pt = new_game(client, seed=3, players=2)
    assert "You" in pt["names"]
    view = client.post(
        "/api/tranca/play", json={"seed": 3, "players": 2}, headers={"Accept-Language": "pt-BR"}
    ).json()
    assert view["names"][YOU] == "Você"


def test_playing_on_a_phone(page: Any) -> None:  # noqa: F811
    page.goto("/tranca/new")
    page.click("#play-link")
    page.check("input[name=players][value='4']")
    page.click("#play-start")
    page.wait_for_selector("#play-hand button.play-card")
    assert page.locator("#play-hand button").count() == 11
    page.click("#play-actions button[data-action=draw]")
    page.wait_for_function("() => document.querySelectorAll('#play-hand button').length === 12")
    # Discarding two cards at once is refused with the engine's reason, and nothing changes.
    page.click("#play-hand button >> nth=0")
    page.click("#play-hand button >> nth=1")
    page.click("#play-actions button[data-action=discard]")
    page.wait_for_selector("#play-problems:not([hidden])")
    assert page.locator("#play-hand button").count() == 12
    page.click("#play-hand button >> nth=1")  # unselect: one card left selected
    page.click("#play-actions button[data-action=discard]")
    page.wait_for_function("() => document.querySelectorAll('#play-log li').length >= 4")
    assert page.locator("#play-hand button").count() == 11
    assert page.locator("#play-problems").is_hidden()
    # After drawing, the hint names cards (a meld, an add or a discard): they come selected.
    page.click("#play-actions button[data-action=draw]")
    page.wait_for_function("() => document.querySelectorAll('#play-hand button').length === 12")
    page.click("#play-actions button[data-action=hint]")
    page.wait_for_selector("#play-hint:not([hidden])")
    assert page.locator("#play-hand button[aria-pressed=true]").count() >= 1
    shot(page, "tranca-play")
    measured = page.evaluate(MEASURE)
    assert measured["scrollWidth"] <= measured["width"], measured
    assert measured["small"] == [], measured  # every control a fingertip (44 px)
    assert measured["wide"] == [], measured


def test_playing_in_portuguese_on_the_smallest_phone(browser: Any, server: Server) -> None:  # noqa: F811
    context = browser.new_context(
        base_url=server.url, viewport={"width": 360, "height": 740}, locale="pt-BR"
    )
    tab = context.new_page()
    tab.set_default_timeout(15_000)
    try:
        tab.goto("/tranca/play")
        tab.check("input[name=players][value='2']")
        tab.select_option("select[name=level]", "0")
        tab.click("#play-start")
        tab.wait_for_selector("#play-hand button.play-card")
        tab.click("#play-actions button[data-action=draw]")
        tab.wait_for_function("() => document.querySelectorAll('#play-hand button').length === 12")
        assert tab.inner_text("#play-log li >> nth=0").startswith("Você comprou ")
        tab.click("#play-hand button >> nth=0")
        tab.click("#play-actions button[data-action=discard]")
        tab.wait_for_function("() => document.querySelectorAll('#play-log li').length >= 2")
        log = tab.locator("#play-log li").all_inner_texts()
        assert log[0].startswith("Você descartou "), log
        assert all(" drew" not in line and " discarded" not in line for line in log), log
        measured = tab.evaluate(MEASURE)
        assert measured["scrollWidth"] <= measured["width"], measured
        assert measured["small"] == [], measured
    finally:
        context.close()


def test_a_finished_round_is_saved_into_a_match_from_the_page(page: Any, server: Server) -> None:  # noqa: F811
    """A round played to its end over HTTP, reopened by its address (as after a reload): the
    page shows the breakdown and "save into a new match" opens a match holding the round."""
    with httpx.Client(base_url=server.url, timeout=30) as http:
        view = http.post("/api/tranca/play", json={"players": 2, "level": 0, "seed": 4}).json()
        game = view["id"]
        while not view["over"]:
            action = parse_action(
                http.post(f"/api/tranca/play/{game}/act", json={"action": "hint"}).json()["hint"]
            )
            body = {"action": action.kind.value, "cards": [c.code for c in action.cards]}
            view = http.post(
                f"/api/tranca/play/{game}/act", json={**body, "meld": action.meld}
            ).json()
    totals = [b["total"] for b in view["result"]["breakdowns"]]
    page.goto(f"/tranca/play#{game}")
    page.wait_for_selector("#play-result:not([hidden])")
    assert page.locator("#play-breakdowns h3").all_inner_texts() == [
        f"{b['side']}: {b['total']}" for b in view["result"]["breakdowns"]
    ]
    assert page.locator("#play-actions button:enabled").count() == 0
    page.click("#play-save")
    page.wait_for_selector("#play-match:not([hidden])")
    page.click("#play-match")
    page.wait_for_load_state()
    match_id = page.url.split("/m/")[1].split("/")[0]
    key = page.url.rsplit("/", 1)[1].split("?")[0].split("#")[0]
    with httpx.Client(base_url=server.url, timeout=30) as http:
        match = http.get(f"/api/matches/{match_id}", headers=bearer(key)).json()
    assert [r["points"] for r in match["rounds"]] == [totals]


def test_a_move_from_a_tab_the_game_has_left_is_refused_and_the_tab_catches_up(
    browser: Any,  # noqa: F811
    server: Server,
) -> None:
    """Two tabs on one game (as two phones): a move made on the older view answers 409, the
    tab says so and shows the game as it is now, and the next move is played."""
    context = browser.new_context(base_url=server.url, viewport={"width": 390, "height": 844})
    first, second = context.new_page(), context.new_page()
    try:
        for tab in (first, second):
            tab.set_default_timeout(15_000)
        first.goto("/tranca/play")
        first.check("input[name=players][value='2']")
        first.select_option("select[name=level]", "0")
        first.click("#play-start")
        first.wait_for_selector("#play-hand button.play-card")
        second.goto(first.url)  # the address names the game
        second.wait_for_selector("#play-hand button.play-card")
        assert second.locator("#play-hand button").count() == 11
        first.click("#play-actions button[data-action=draw]")
        first.wait_for_function(
            "() => document.querySelectorAll('#play-hand button').length === 12"
        )
        second.click("#play-actions button[data-action=draw]")  # its view is one move old
        second.wait_for_selector("#play-problems:not([hidden])")
        assert "the game moved on" in second.inner_text("#play-problems")
        second.wait_for_function(
            "() => document.querySelectorAll('#play-hand button').length === 12"
        )
        assert sorted(second.locator("#play-hand button").all_inner_texts()) == sorted(
            first.locator("#play-hand button").all_inner_texts()
        )
        assert second.locator("#play-actions button[data-action=draw]").is_disabled()
        second.click("#play-hand button >> nth=0")
        second.click("#play-actions button[data-action=discard]")
        second.wait_for_function("() => document.querySelectorAll('#play-log li').length >= 2")
        assert second.inner_text("#play-log li >> nth=0").startswith("You discarded ")
        assert second.locator("#play-problems").is_hidden()
    finally:
        context.close()
