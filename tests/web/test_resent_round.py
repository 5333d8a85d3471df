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
