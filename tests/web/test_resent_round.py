"""A round sent again after its answer was lost is acknowledged, not refused as a conflict.

On a bad connection (or when the page is left while saving) the phone cannot tell whether a
save reached the server; it sends the round again with the version it had. The server then
finds the match one version on with that very round last: the save is answered again, and
nothing is stored twice. Any other round at that version is still a conflict.
"""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.web.conftest import bearer, new_match

FIRST = {"piles": ["P", "23456789TJQKA", "G", "D"]}
OTHER = {"piles": ["23456789TJQKA", "P", "G", "D"]}


def test_a_round_sent_twice_is_saved_once(client: TestClient) -> None:
    match = new_match(client)
    url = f"/api/matches/{match['id']}"
    key = bearer(match["edit_key"])
    version = client.get(url, headers=key).json()["version"]
    saved = client.post(url + "/rounds", json={"version": version, "round": FIRST}, headers=key)
    assert saved.status_code == 201, saved.text
    again = client.post(url + "/rounds", json={"version": version, "round": FIRST}, headers=key)
    assert again.status_code == 201, again.text
    assert again.json()["version"] == saved.json()["version"] == version + 1
    assert len(client.get(url, headers=key).json()["rounds"]) == 1

    other = client.post(url + "/rounds", json={"version": version, "round": OTHER}, headers=key)
    assert other.status_code == 409
    assert len(client.get(url, headers=key).json()["rounds"]) == 1
    # The round before the last one, sent again, is no longer the last save: a conflict.
    client.post(url + "/rounds", json={"version": version + 1, "round": OTHER}, headers=key)
    late = client.post(url + "/rounds", json={"version": version, "round": FIRST}, headers=key)
    assert late.status_code == 409
    assert len(client.get(url, headers=key).json()["rounds"]) == 2


TRANCA = {"game": "tranca", "players": 2, "teams": [{"name": "Ana"}, {"name": "Bia"}]}
# As a phone sends it: unsorted cards in their own case, keys the store writes otherwise.
WENT_OUT = {
    "teams": [
        {
            "name": "Ana",
            "melds": [["AS", "KS", "QS", "JS", "TS", "9S", "8S"]],
            "took_morto": True,
            "went_out": True,
        },
        {"name": "Bia", "took_morto": True, "went_out": False},
    ]
}


def test_a_round_stored_in_its_canonical_form_sent_twice_is_saved_once(
    client: TestClient,
) -> None:
    """A Tranca round is stored as its canonical document, not as sent: the round sent again
    is recognised by what it means, not by its spelling."""
    match = new_match(client, TRANCA)
    url = f"/api/matches/{match['id']}"
    key = bearer(match["edit_key"])
    version = client.get(url, headers=key).json()["version"]
    saved = client.post(url + "/rounds", json={"version": version, "round": WENT_OUT}, headers=key)
    assert saved.status_code == 201, saved.text
    stored = client.get(url, headers=key).json()["rounds"][0]["document"]
    assert stored != WENT_OUT  # the case this test is about: stored otherwise than sent
    again = client.post(url + "/rounds", json={"version": version, "round": WENT_OUT}, headers=key)
    assert again.status_code == 201, again.text
    assert again.json()["version"] == version + 1
    assert len(client.get(url, headers=key).json()["rounds"]) == 1


def test_a_replaced_round_sent_twice_is_acknowledged_once(client: TestClient) -> None:
    """An edit whose answer was lost, sent again, is answered again; sent after another change,
    it is a conflict."""
    match = new_match(client, TRANCA)
    url = f"/api/matches/{match['id']}"
    key = bearer(match["edit_key"])
    version = client.get(url, headers=key).json()["version"]
    client.post(url + "/rounds", json={"version": version, "round": WENT_OUT}, headers=key)
    edited = {"teams": [{**WENT_OUT["teams"][0], "went_out": False}, WENT_OUT["teams"][1]]}
    body = {"version": version + 1, "round": edited}
    first = client.put(url + "/rounds/1", json=body, headers=key)
    assert first.status_code == 200, first.text
    again = client.put(url + "/rounds/1", json=body, headers=key)
    assert again.status_code == 200, again.text
    assert again.json()["version"] == first.json()["version"] == version + 2
    assert again.json()["totals"] == first.json()["totals"]

    client.post(url + "/undo", json={"version": version + 2}, headers=key)
    late = client.put(url + "/rounds/1", json=body, headers=key)
    assert late.status_code == 409
