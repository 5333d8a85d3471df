"""Keys, CSRF, size limits, photo checks and headers."""

from __future__ import annotations

import io
import re
import struct
import zlib

import pytest
from fastapi.testclient import TestClient
from PIL import Image

from cardscore.web.app import create_app
from cardscore.web.settings import Settings
from tests.conftest import need_module
from tests.web.conftest import bearer, new_match

ROUND = {"version": 1, "round": {"piles": ["P", "23456789TJQKA", "G", "D"]}}


def test_share_key_reads_but_cannot_write(client: TestClient) -> None:
    match = new_match(client)
    url = f"/api/matches/{match['id']}"
    assert client.get(url, headers=bearer(match["share_key"])).json()["access"] == "read"
    for method, path, body in [
        ("POST", "/rounds", ROUND),
        ("PUT", "/rounds/1", ROUND),
        ("POST", "/undo", {"version": 1}),
    ]:
        response = client.request(method, url + path, json=body, headers=bearer(match["share_key"]))
        assert response.status_code == 403, (method, path)
        assert "share link only reads" in response.json()["problems"][0]["message"]
    assert client.get(url, headers=bearer(match["edit_key"])).json()["rounds"] == []


def test_missing_or_wrong_keys_are_refused(client: TestClient) -> None:
    match = new_match(client)
    other = new_match(client)
    url = f"/api/matches/{match['id']}"
    assert client.get(url).status_code == 401
    assert client.get(url, headers=bearer("guess")).status_code == 403
    assert client.get(url, headers=bearer(other["edit_key"])).status_code == 403
    assert (
        client.post(url + "/rounds", json=ROUND, headers=bearer(other["edit_key"])).status_code
        == 403
    )
    assert client.get(f"/m/{match['id']}/{other['share_key']}").status_code == 403


def test_the_share_page_has_no_edit_controls_and_does_not_leak_the_edit_key(
    client: TestClient,
) -> None:
    match = new_match(client)
    share_page = client.get(f"/m/{match['id']}/{match['share_key']}").text
    assert match["edit_key"] not in share_page
    assert 'id="round-form"' not in share_page
    edit_page = client.get(f"/m/{match['id']}/{match['edit_key']}").text
    assert 'id="round-form"' in edit_page
    assert match["share_url"] in edit_page


def _csrf(client: TestClient, path: str) -> str:
    page = client.get(path).text
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found
    return found.group(1)


def test_form_posts_need_the_csrf_token(client: TestClient) -> None:
    token = _csrf(client, "/gongzhu")
    fields = {"pile0": "TJQKP", "pile1": "23456789A", "pile2": "G", "pile3": "D"}
    ok = client.post("/gongzhu", data={**fields, "csrf": token})
    assert ok.status_code == 200
    assert "-200" in ok.text
    for bad in ({**fields}, {**fields, "csrf": "forged"}):
        refused = client.post("/gongzhu", data=bad)
        assert refused.status_code == 403
        assert "security token" in refused.json()["detail"]
    # A cross-site form carries no cookie: the token alone is not enough.
    client.cookies.clear()
    assert client.post("/gongzhu", data={**fields, "csrf": token}).status_code == 403


def test_bodies_over_the_limit_are_refused_before_parsing(database_url: str) -> None:
    app = create_app(
        Settings(database_url=database_url, max_body_bytes=2000, max_upload_bytes=5000)
    )
    with TestClient(app) as client:
        big = client.post(
            "/api/gongzhu/score",
            content=b"[" + b"1," * 5000 + b"1]",
            headers={"content-type": "application/json"},
        )
        assert big.status_code == 413
        assert big.json()["status"] == 413

        def chunks() -> object:  # no Content-Length: counted while it streams
            for _ in range(10):
                yield b" " * 500

        streamed = client.post(
            "/api/gongzhu/score", content=chunks(), headers={"content-type": "application/json"}
        )
        assert streamed.status_code == 413
        photo = client.post(
            "/api/photos", files={"photo": ("p.jpg", b"\xff\xd8\xff" + b"0" * 9000)}
        )
        assert photo.status_code == 413


def _png_bomb(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims a huge image (zeros compress to almost nothing)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    raw = zlib.compress(b"\x00" * (width + 1) * 16, 9)
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")


def test_photos_are_sniffed_and_pixel_limited(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardscore.web.api import routes

    monkeypatch.setattr(routes, "recognizer", lambda: None)  # the checks alone
    buffer = io.BytesIO()
    Image.new("RGB", (64, 48), "white").save(buffer, "JPEG")
    ok = client.post("/api/photos", files={"photo": ("t.jpg", buffer.getvalue(), "image/jpeg")})
    assert ok.status_code == 200
    assert ok.json()["width"] == 64
    assert ok.json()["format"] == "JPEG"
    bomb = _png_bomb(100_000, 100_000)
    assert len(bomb) < 20_000
    refused = client.post("/api/photos", files={"photo": ("b.png", bomb, "image/png")})
    assert refused.status_code == 422
    assert "pixels" in refused.json()["problems"][0]["message"]
    fake = client.post("/api/photos", files={"photo": ("x.jpg", b"<html>hi</html>", "image/jpeg")})
    assert fake.status_code == 422
    assert "not a JPEG, PNG, WebP or HEIC" in fake.json()["problems"][0]["message"]
    broken = client.post(
        "/api/photos", files={"photo": ("y.png", b"\x89PNG\r\n\x1a\nxx", "image/png")}
    )
    assert broken.status_code == 422


def test_a_heic_photo_is_accepted_and_its_size_read_from_its_header(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    pillow_heif = need_module("pillow_heif", "needs the vision extra (pillow-heif)")
    from cardscore.web.api import routes

    monkeypatch.setattr(routes, "recognizer", lambda: None)  # the checks alone
    buffer = io.BytesIO()
    heif = pillow_heif.from_bytes(mode="RGB", size=(96, 64), data=bytes(96 * 64 * 3))
    heif.save(buffer, quality=50, enc_params={"preset": "ultrafast"})
    files = {"photo": ("IMG_0001.HEIC", buffer.getvalue(), "image/heic")}
    ok = client.post("/api/photos", files=files)
    assert ok.status_code == 200, ok.text
    assert (ok.json()["format"], ok.json()["width"], ok.json()["height"]) == ("HEIC", 96, 64)
    cut = buffer.getvalue()[:60]  # the brand, no image
    broken = client.post("/api/photos", files={"photo": ("cut.heic", cut, "image/heic")})
    assert broken.status_code == 422
    assert "the HEIC image cannot be read" in broken.json()["problems"][0]["message"]


def test_security_headers(client: TestClient) -> None:
    headers = client.get("/").headers
    assert headers["referrer-policy"] == "no-referrer"  # page URLs carry keys
    assert headers["x-content-type-options"] == "nosniff"
    assert "script-src 'self'" in headers["content-security-policy"]
    assert headers["cache-control"] == "no-store"
    assert "cache-control" not in client.get("/static/app.css").headers


def test_keys_are_stored_hashed(client: TestClient) -> None:
    from sqlalchemy import text

    match = new_match(client)
    engine = client.app.state.engine  # type: ignore[attr-defined]
    with engine.connect() as connection:
        row = connection.execute(text("SELECT * FROM matches")).mappings().one()
    assert match["edit_key"] not in str(dict(row))
    assert match["share_key"] not in str(dict(row))


def test_photos_go_to_recognition_when_it_is_installed(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardscore.web.api import routes

    buffer = io.BytesIO()
    Image.new("RGB", (40, 30), "white").save(buffer, "PNG")
    seen: list[bytes] = []

    def fake_read(data: bytes, deck: object = None, melds: bool = True) -> dict[str, object]:
        assert not melds  # a stateless photo is another game's: no Tranca meld rules
        seen.append(data)
        return {"tranca": {"melds": [["Ah", "Kh", "Qh"]], "piles": [], "dollars": []}}

    monkeypatch.setattr(routes, "recognizer", lambda: fake_read)
    response = client.post("/api/photos", files={"photo": ("t.png", buffer.getvalue())})
    assert response.json()["recognized"]["tranca"]["melds"] == [["Ah", "Kh", "Qh"]]
    assert seen == [buffer.getvalue()]
    # A bomb never reaches recognition.
    client.post("/api/photos", files={"photo": ("b.png", _png_bomb(100_000, 100_000))})
    assert len(seen) == 1


def test_names_cannot_inject_markup(client: TestClient) -> None:
    evil = "</script><script>alert(1)</script>"
    match = new_match(client, {"game": "gongzhu", "players": [evil[:40], "<b>Bo", "Cy", "Di"]})
    page = client.get(f"/m/{match['id']}/{match['edit_key']}").text
    assert "<script>alert(1)" not in page
    assert "<b>Bo" not in page
    data = page.split('id="match-data">')[1].split("</script>")[0]
    import json

    assert json.loads(data)["sides"][1] == "<b>Bo"


def test_csrf_tokens_are_signed_by_the_server(client: TestClient) -> None:
    """A cookie another site planted (with the same value in its form) is not enough: the
    token must carry the server's signature."""
    fields = {"pile0": "TJQKP", "pile1": "23456789A", "pile2": "G", "pile3": "D"}
    client.cookies.clear()
    client.cookies.set("cardscore_csrf", "planted")
    assert client.post("/gongzhu", data={**fields, "csrf": "planted"}).status_code == 403
    # A well-formed token signed with another secret fails too.
    from cardscore.web.security import new_csrf_token

    foreign = new_csrf_token("another server's secret")
    client.cookies.set("cardscore_csrf", foreign)
    assert client.post("/gongzhu", data={**fields, "csrf": foreign}).status_code == 403
    # The page replaces an unsigned cookie with a signed token, which then works.
    token = _csrf(client, "/gongzhu")
    assert token not in {"planted", foreign}
    assert client.post("/gongzhu", data={**fields, "csrf": token}).status_code == 200


def test_servers_sharing_a_secret_accept_each_others_forms(database_url: str) -> None:
    one = TestClient(create_app(Settings(database_url=database_url, secret="club")))
    two = TestClient(create_app(Settings(database_url=database_url, secret="club")))
    three = TestClient(create_app(Settings(database_url=database_url, secret="other")))
    token = _csrf(one, "/gongzhu")
    fields = {"pile0": "TJQKP", "pile1": "23456789A", "pile2": "G", "pile3": "D", "csrf": token}
    for client, status in ((two, 200), (three, 403)):
        client.cookies.set("cardscore_csrf", token)
        assert client.post("/gongzhu", data=fields).status_code == status
