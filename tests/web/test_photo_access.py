"""Photos under a match need its edit key; reading photos is bounded (503 with Retry-After)."""

from __future__ import annotations

import asyncio
import io
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from PIL import Image

from cardscore.web.app import create_app
from cardscore.web.photos import BusyError, RecognitionPool
from cardscore.web.settings import Settings
from tests.web.conftest import bearer, new_match


def _jpeg(width: int = 64, height: int = 48) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), "white").save(buffer, "JPEG")
    return buffer.getvalue()


def _match_photo_paths(client: TestClient) -> list[str]:
    """Every endpoint the API declares under a match that reads a photo (the deck's, which
    learn from one, are tests/web/test_deck_web.py's)."""
    paths = client.get("/api/openapi.json").json()["paths"]
    under = [p for p in paths if p.startswith("/api/matches/{match_id}/")]
    return [p for p in under if "photo" in p and "/deck/" not in p]


def test_every_photo_endpoint_under_a_match_needs_the_edit_key(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardscore.web.api import routes

    read: list[bytes] = []
    monkeypatch.setattr(
        routes, "recognizer", lambda: lambda data, **_: read.append(data) or {"n": 1}
    )
    match = new_match(client)
    paths = _match_photo_paths(client)
    assert paths  # the Tranca page's photo button posts to one
    for path in paths:
        url = path.replace("{match_id}", match["id"])
        files = {"photo": ("t.jpg", _jpeg(), "image/jpeg")}
        assert client.post(url, files=files).status_code == 401
        for key in (match["share_key"], "guess", new_match(client)["edit_key"]):
            refused = client.post(url, files=files, headers=bearer(key))
            assert refused.status_code == 403, (path, refused.text)
        assert read == []  # nothing was recognized for them
        ok = client.post(url, files=files, headers=bearer(match["edit_key"]))
        assert ok.status_code == 200, ok.text
        assert ok.json()["recognized"] == {"n": 1}
    assert client.post("/api/matches/nope/photos", headers=bearer("x")).status_code == 404


def test_recognition_beyond_the_pool_is_told_to_come_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardscore.web.api import routes

    release = threading.Event()

    def slow_read(_data: bytes, **_options: Any) -> dict[str, Any]:
        release.wait(30)
        return {"cards": []}

    monkeypatch.setattr(routes, "recognizer", lambda: slow_read)
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'p.sqlite3'}", recognitions=1, recognition_queue=0
    )
    with TestClient(create_app(settings)) as client:
        pool: RecognitionPool = client.app.state.photo_pool  # type: ignore[attr-defined]
        files = {"photo": ("t.jpg", _jpeg(), "image/jpeg")}
        answers: list[int] = []
        first = threading.Thread(
            target=lambda: answers.append(client.post("/api/photos", files=files).status_code)
        )
        first.start()
        deadline = time.monotonic() + 30
        while pool.running < 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        busy = client.post("/api/photos", files=files)
        assert busy.status_code == 503
        assert busy.headers["retry-after"] == str(routes.RETRY_AFTER_S)
        assert "try again" in busy.json()["problems"][0]["message"]
        release.set()
        first.join(30)
        assert answers == [200]
        assert pool.running == 0
        assert client.post("/api/photos", files=files).status_code == 200


def test_the_pool_caps_photos_and_pixels_at_once() -> None:
    async def scenario() -> list[str]:
        pool = RecognitionPool(slots=2, pixels=100, queue=1, wait_s=5)
        log: list[str] = []

        async def read(name: str, pixels: int, hold: asyncio.Event) -> None:
            try:
                async with pool.turn(pixels):
                    log.append(f"{name} in")
                    await hold.wait()
                log.append(f"{name} out")
            except BusyError:
                log.append(f"{name} busy")

        a, b, c = asyncio.Event(), asyncio.Event(), asyncio.Event()
        first = asyncio.create_task(read("a", 80, a))
        await asyncio.sleep(0.01)
        second = asyncio.create_task(read("b", 50, b))  # 80 + 50 > 100: waits
        await asyncio.sleep(0.01)
        await read("c", 30, c)  # no room either, and the queue (1) is full: busy at once
        a.set()
        await asyncio.sleep(0.01)
        b.set()
        await asyncio.gather(first, second)
        huge = asyncio.Event()
        huge.set()
        await read("huge", 10**9, huge)  # larger than the budget: read alone
        return log

    assert asyncio.run(scenario()) == [
        "a in",
        "c busy",
        "a out",
        "b in",
        "b out",
        "huge in",
        "huge out",
    ]
