"""The same app on PostgreSQL: migrations, a match through the API, keys and versions."""

from __future__ import annotations

from fastapi.testclient import TestClient

from cardscore.web import migrate
from cardscore.web.app import create_app
from cardscore.web.db import make_engine
from cardscore.web.settings import Settings
from tests.web.conftest import bearer, new_match


def test_migrations_and_a_match_on_postgresql(postgres_url: str) -> None:
    url = postgres_url
    engine = make_engine(url)
    migrate.upgrade(engine)
    migrate.upgrade(engine)
    assert migrate.current_revision(engine) == migrate.head_revision()
    engine.dispose()
    with TestClient(create_app(Settings(database_url=url))) as client:
        match = new_match(client)
        url_ = f"/api/matches/{match['id']}"
        hands = [["P", "23456789TJQKA", "G", "D"], ["G", "23456789TJQKA", "P", "D"]]
        for version, piles in enumerate(hands, start=1):
            added = client.post(
                url_ + "/rounds",
                json={"version": version, "round": {"piles": piles}},
                headers=bearer(match["edit_key"]),
            )
            assert added.status_code == 201, added.text
        assert added.json()["totals"] == [0, 400, 0, 100]
        stale = client.post(
            url_ + "/rounds",
            json={"version": 1, "round": {"piles": ["P", "23456789TJQKA", "G", "D"]}},
            headers=bearer(match["edit_key"]),
        )
        assert stale.status_code == 409
        assert stale.json()["current_version"] == 3
        share = client.post(url_ + "/undo", json={"version": 3}, headers=bearer(match["share_key"]))
        assert share.status_code == 403
        undone = client.post(url_ + "/undo", json={"version": 3}, headers=bearer(match["edit_key"]))
        assert undone.json()["totals"] == [-100, 200, 100, 50]  # the first hand alone
