"""A match's deck in the web app: only its edit key teaches, reads or forgets it; what a
round's photo confirmed (a correction included) is stored with the match, on SQLite and on
PostgreSQL, and the match's next photos are read with it; a deck spread photo can be the
first thing a new match gets; a request that fails stores nothing.

The photos are tests/render_tables.py's (the plain stroke design photographed from a seat,
whose far K♠ the shipped models read as K♣ on seeds 53 and 55; neither table holds a K♣:
tests/test_vision_deck_confirmed.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from tests.conftest import need_module

cv2 = need_module("cv2", "needs the vision extra (opencv)")
need_module("onnxruntime", "needs the vision extra (onnxruntime)")

from cardscore.web.app import create_app  # noqa: E402
from cardscore.web.models import DeckRow  # noqa: E402
from cardscore.web.settings import Settings  # noqa: E402
from tests.render_tables import DESIGNS, render_table, spread  # noqa: E402
from tests.web.conftest import bearer, messages, new_match  # noqa: E402

TRANCA = {"game": "tranca", "players": 2, "teams": [{"name": "A"}, {"name": "B"}]}
PT = {"Accept-Language": "pt-BR"}
PLAIN = DESIGNS[0]


def _png(image: Any) -> bytes:
    ok, data = cv2.imencode(".png", image)
    assert ok
    return bytes(data.tobytes())


def _jpeg(image: Any) -> bytes:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    return bytes(data.tobytes())


def _read(client: TestClient, match: dict[str, Any], image: Any) -> dict[str, Any]:
    answer = client.post(
        f"/api/matches/{match['id']}/photos",
        files={"photo": ("t.png", _png(image), "image/png")},
        headers=bearer(match["edit_key"]),
    )
    assert answer.status_code == 200, answer.text
    recognized: dict[str, Any] = answer.json()["recognized"]
    return recognized


def _teach(
    client: TestClient,
    match: dict[str, Any],
    photo: bytes,
    reading: Any,
    headers: dict[str, str] | None = None,
) -> Any:
    return client.post(
        f"/api/matches/{match['id']}/deck/photos",
        files={"photo": ("p.jpg", photo, "image/jpeg")},
        data={"reading": reading if isinstance(reading, str) else json.dumps(reading)},
        headers={**bearer(match["edit_key"]), **(headers or {})},
    )


def _confirmed(seen: dict[str, Any], fixes: dict[str, str]) -> dict[str, Any]:
    """The reading as a player confirms it: ``fixes`` corrects cards by their code."""
    return {
        "width": seen["image"]["width"],
        "height": seen["image"]["height"],
        "cards": [
            {"card": fixes.get(c["card"], c["card"]), "corners": c["corners"]}
            for c in seen["cards"]
        ],
    }


SEAT = 0.55  # the far edge's width, of the near edge's (render_table's keystone)


def _row(client: TestClient, match_id: str) -> Any:
    engine = client.app.state.engine  # type: ignore[attr-defined]
    with engine.connect() as connection:
        return connection.execute(
            select(DeckRow.__table__).where(DeckRow.__table__.c.match_id == match_id)
        ).one_or_none()


@pytest.fixture
def any_client(any_database_url: str) -> Any:
    with TestClient(create_app(Settings(database_url=any_database_url))) as test_client:
        yield test_client


def test_the_deck_needs_the_edit_key(client: TestClient) -> None:
    match, other = new_match(client, TRANCA), new_match(client, TRANCA)
    base = f"/api/matches/{match['id']}/deck"
    calls = [
        ("GET", base, {}),
        ("DELETE", base, {}),
        ("POST", base + "/spread", {"files": {"photo": ("s.png", b"x", "image/png")}}),
        ("POST", base + "/photos", {"files": {"photo": ("s.png", b"x", "image/png")}}),
    ]
    for method, url, extra in calls:
        assert client.request(method, url, **extra).status_code == 401, url
        for key in (match["share_key"], other["edit_key"], "guess"):
            refused = client.request(method, url, headers=bearer(key), **extra)
            assert refused.status_code == 403, (url, refused.text)
        missing = url.replace(match["id"], "nope")
        assert client.request(method, missing, headers=bearer("x"), **extra).status_code == 404
    assert client.get(base, headers=bearer(match["edit_key"])).json() == {
        "learnt": False,
        "cards": 0,
        "photos": 0,
        "spread": False,
        "revision": 0,
        "version": None,
        "teach": "every_photo",  # while it learnt nothing, every photo teaches
    }
    assert _row(client, match["id"]) is None


def test_a_correction_teaches_the_matchs_next_photos_and_is_stored(any_client: TestClient) -> None:
    """Round trip on SQLite and PostgreSQL: the K♠ corrected on one photo is read right on
    the next photo of the match; forgetting the deck reads it as the shipped models do."""
    client = any_client
    match = new_match(client, TRANCA)
    first = render_table(53, PLAIN, keystone=SEAT)
    seen = _read(client, match, first.image)
    assert "Kc" in [c["card"] for c in seen["cards"]]
    # A smaller copy, as the page keeps with its draft: the corners are scaled to it.
    copy = cv2.resize(first.image, None, fx=0.75, fy=0.75, interpolation=cv2.INTER_AREA)
    taught = _teach(client, match, _jpeg(copy), _confirmed(seen, {"Kc": "Ks"}))
    assert taught.status_code == 200, taught.text
    body = taught.json()
    assert "Ks" in body["taught"]
    assert "Kc" not in body["taught"]
    # The table's 17 cards, read and confirmed: 16 different ones. A far card whose index is
    # not found where its outline says (the far J♦ is too few pixels in the smaller copy) is
    # reported missed and not learnt; the deck counts each card learnt once.
    assert len(body["missed"]) <= 2
    learnt = len(set(body["taught"]))
    assert learnt == 16 - len(set(body["missed"]))
    assert (body["learnt"], body["cards"], body["photos"], body["spread"]) == (
        True,
        learnt,
        1,
        False,
    )
    assert body["revision"] == 1
    assert body["version"] == 1
    assert body["teach"] == "corrections"  # now only corrected photos teach
    key = bearer(match["edit_key"])
    deck = client.get(f"/api/matches/{match['id']}/deck", headers=key).json()
    assert deck == {k: v for k, v in body.items() if k not in ("taught", "missed")}
    row = _row(client, match["id"])
    assert (row.cards, row.photos, row.revision) == (learnt, 1, 1)
    assert len(row.profile) < 1 << 20
    assert len(row.memory) < 2 << 20

    second = render_table(55, PLAIN, keystone=SEAT)
    assert "Ks" in [c["card"] for c in _read(client, match, second.image)["cards"]]
    # Another match (no deck) still reads the shipped models' K♣.
    other = new_match(client, TRANCA)
    assert "Kc" in [c["card"] for c in _read(client, other, second.image)["cards"]]

    gone = client.delete(f"/api/matches/{match['id']}/deck", headers=key)
    assert gone.status_code == 200
    assert (gone.json()["learnt"], gone.json()["teach"]) == (False, "every_photo")
    assert _row(client, match["id"]) is None
    assert "Kc" in [c["card"] for c in _read(client, match, second.image)["cards"]]


def test_a_spread_photo_can_be_the_first_thing_a_new_match_gets(client: TestClient) -> None:
    match = new_match(client, TRANCA)
    learnt = client.post(
        f"/api/matches/{match['id']}/deck/spread",
        files={"photo": ("spread.jpg", _jpeg(spread(PLAIN)), "image/jpeg")},
        headers=bearer(match["edit_key"]),
    )
    assert learnt.status_code == 200, learnt.text
    assert {k: learnt.json()[k] for k in ("learnt", "cards", "photos", "spread")} == {
        "learnt": True,
        "cards": 52,
        "photos": 1,
        "spread": True,
    }
    read = client.get(f"/api/matches/{match['id']}", headers=bearer(match["edit_key"])).json()
    assert read["rounds"] == []
    assert read["version"] == 1
    # Its first round's photo is read with the deck: the far Q♠ the shipped models read as
    # Q♣ from a seat (seed 44, the only Q of that table).
    table = render_table(44, PLAIN, keystone=SEAT).image
    assert "Qs" in [c["card"] for c in _read(client, match, table)["cards"]]
    other = new_match(client, TRANCA)
    assert "Qc" in [c["card"] for c in _read(client, other, table)["cards"]]


def test_a_failed_teaching_stores_nothing(any_client: TestClient) -> None:
    client = any_client
    match = new_match(client, TRANCA)
    table = render_table(53, PLAIN, keystone=SEAT)
    seen = _read(client, match, table.image)
    photo = _jpeg(table.image)
    assert _teach(client, match, photo, _confirmed(seen, {"Kc": "Ks"})).status_code == 200
    before = _row(client, match["id"])
    key = bearer(match["edit_key"])

    not_a_spread = client.post(
        f"/api/matches/{match['id']}/deck/spread",
        files={"photo": ("t.jpg", photo, "image/jpeg")},
        headers={**key, **PT},
    )
    assert not_a_spread.status_code == 422
    assert [p["code"] for p in not_a_spread.json()["problems"]] == ["spread_count"]
    assert "cartas encontradas separadas" in messages(not_a_spread)[0]

    bad_card = _confirmed(seen, {"Kc": "Zz"})
    wrong = [c["card"] for c in seen["cards"]].index("Kc")
    refused = _teach(client, match, photo, bad_card, PT)
    assert refused.status_code == 422
    assert refused.json()["problems"][0]["params"]["where"] == f"reading.cards.{wrong}"
    assert messages(refused)[0].startswith(f"reading.cards.{wrong}: 'Zz' não é")
    no_reading = client.post(
        f"/api/matches/{match['id']}/deck/photos",
        files={"photo": ("p.jpg", photo, "image/jpeg")},
        headers={**key, **PT},
    )
    assert [p["code"] for p in no_reading.json()["problems"]] == ["deck_reading_field"]
    assert "campo" in messages(no_reading)[0]

    nowhere = {"width": 10, "height": 10, "cards": [{"card": "As", "corners": [[0, 0]] * 4}]}
    refused = _teach(client, match, photo, nowhere, PT)
    assert refused.status_code == 422
    assert [p["code"] for p in refused.json()["problems"]] == ["confirmed_not_found"]
    assert "nenhum dos índices" in messages(refused)[0]

    assert _teach(client, match, photo, "{").status_code == 400
    shapeless = _teach(client, match, photo, {"width": 0, "height": 5, "cards": []}, PT)
    assert shapeless.status_code == 422
    assert {m.split(":")[0] for m in messages(shapeless)} == {"reading.width", "reading.cards"}
    empty = client.post(
        f"/api/matches/{match['id']}/deck/spread",
        files={"photo": ("t.jpg", b"", "image/jpeg")},
        headers=key,
    )
    assert empty.status_code == 422

    after = _row(client, match["id"])
    assert (after.revision, after.memory, after.profile) == (
        before.revision,
        before.memory,
        before.profile,
    )


def test_two_teachings_at_once_keep_both(any_client: TestClient) -> None:
    """A write names the revision it learnt on: the one that comes second learns again on
    top of the first instead of overwriting it."""
    from cardscore.vision.learn import DeckMemory
    from cardscore.web.decks import DeckStore

    client = any_client
    match = new_match(client, TRANCA)
    decks = DeckStore(client.app.state.store)  # type: ignore[attr-defined]
    memory = DeckMemory()
    assert decks.save(match["id"], None, memory, b"one", 1) == 1
    assert decks.save(match["id"], None, memory, b"two", 1) is None  # a first teaching too
    assert decks.save(match["id"], 0, memory, b"two", 1) is None  # learnt on a stale deck
    assert decks.save(match["id"], 1, memory, b"two", 1) == 2
    stored = decks.stored(match["id"])
    assert stored is not None
    assert (stored.revision, stored.profile) == (2, b"two")


def test_a_profile_of_other_models_is_learnt_again_from_the_crops_kept(client: TestClient) -> None:
    """After the server's models change, the match's deck is fitted again from its stored
    crops the next time a photo is read: no error, no lost teaching."""
    from cardscore.vision.deck import DeckProfile
    from cardscore.vision.learn import DeckMemory
    from cardscore.web.decks import DeckStore

    match = new_match(client, TRANCA)
    table = render_table(53, PLAIN, keystone=SEAT)
    seen = _read(client, match, table.image)
    assert _teach(client, match, _jpeg(table.image), _confirmed(seen, {"Kc": "Ks"})).is_success
    decks = DeckStore(client.app.state.store)  # type: ignore[attr-defined]
    stored = decks.stored(match["id"])
    assert stored is not None
    good = DeckProfile.from_bytes(stored.profile)
    stale = type(good)(
        good.models, ("0" * 64,) * len(good.models), good.weights, good.biases, good.examples
    )
    memory = DeckMemory.from_bytes(stored.memory)
    assert decks.save(match["id"], stored.revision, memory, stale.to_bytes(), 1) == 2
    assert "Ks" in [
        c["card"]
        for c in _read(client, match, render_table(55, PLAIN, keystone=SEAT).image)["cards"]
    ]
    again = decks.stored(match["id"])
    assert again is not None
    assert again.revision == 3
    assert DeckProfile.from_bytes(again.profile).hashes == good.hashes
    assert DeckMemory.from_bytes(again.memory).photos == 1


def test_a_teaching_that_loses_the_race_learns_again_on_top(
    any_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another teaching lands while this one fits its profile: this one's write is refused
    (the deck moved on), so it learns again from the deck as it is now, and keeps both."""
    import numpy as np

    from cardscore.vision.learn import DeckMemory, Examples
    from cardscore.web import decks as module
    from cardscore.web.decks import DeckStore, teach

    client = any_client
    match = new_match(client, TRANCA)
    store = DeckStore(client.app.state.store)  # type: ignore[attr-defined]
    crops = np.random.default_rng(0).integers(0, 255, (4, 32, 32, 3), dtype=np.uint8)
    ours = Examples(crops, np.array([0, 52, 1, 52]))
    theirs = Examples(crops[:2], np.array([5, 52]))
    real_save = DeckStore.save
    raced: list[int | None] = []

    def racing_save(self: DeckStore, *args: Any) -> int | None:
        if not raced:  # the other teaching, first to write
            raced.append(real_save(self, match["id"], None, DeckMemory().add(theirs), b"p", 1))
        return real_save(self, *args)

    monkeypatch.setattr(module.DeckStore, "save", racing_save)
    status = teach(store, match["id"], lambda _deck: ours)
    assert raced == [1]
    assert (status.revision, status.photos, status.cards) == (2, 2, 3)  # A♠ 2♠ and 6♠ (5)
    stored = store.stored(match["id"])
    assert stored is not None
    kept = DeckMemory.from_bytes(stored.memory).examples.labels.tolist()
    assert kept == [5, 52, 0, 52, 1, 52]  # theirs, then ours


def test_a_teaching_runs_the_models_on_its_new_crops_only(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stored memory keeps the models' outputs: a second teaching runs them on its own
    crops; a memory whose outputs are another models' is run again whole, and stored so."""
    import numpy as np

    from cardscore.vision import learn
    from cardscore.vision.classifier import MODEL_PATHS
    from cardscore.vision.learn import DeckMemory, Embedded, Examples
    from cardscore.web.decks import DeckStore, teach

    match = new_match(client, TRANCA)
    store = DeckStore(client.app.state.store)  # type: ignore[attr-defined]
    crops = np.random.default_rng(1).integers(0, 255, (6, 32, 32, 3), dtype=np.uint8)
    runs: list[int] = []
    real = learn.outputs

    def counted(path: Any, batch: Any, threads: int = 2) -> Any:
        runs.append(len(batch))
        return real(path, batch, threads)

    monkeypatch.setattr(learn, "outputs", counted)
    teach(store, match["id"], lambda _deck: Examples(crops[:4], np.array([0, 52, 1, 52])))
    runs.clear()
    teach(store, match["id"], lambda _deck: Examples(crops[4:], np.array([2, 52])))
    assert runs == [2] * len(MODEL_PATHS)
    stored = store.stored(match["id"])
    assert stored is not None
    memory = DeckMemory.from_bytes(stored.memory)
    assert memory.seen is not None
    assert len(memory.seen) == 6

    # The server's models changed: the outputs kept are refused, every crop is run again.
    old = Embedded(("0" * 64,) * len(MODEL_PATHS), memory.seen.logits, memory.seen.embeddings)
    stale = DeckMemory(memory.examples, memory.photos, False, old)
    assert store.save(match["id"], stored.revision, stale, stored.profile, 1) is not None
    runs.clear()
    teach(store, match["id"], lambda _deck: Examples(crops[:2], np.array([3, 52])))
    assert sorted(runs) == sorted([6] * len(MODEL_PATHS) + [2] * len(MODEL_PATHS))
    again = store.stored(match["id"])
    assert again is not None
    seen = DeckMemory.from_bytes(again.memory).seen
    assert seen is not None
    assert seen.hashes == memory.seen.hashes
