"""The poker and Gong Zhu pages read a photo: each player's five cards in a row → the hands
ranked, one player's pile spread out → its score. Stateless, bounded like every photo; the
games' own code decides (the same answers as the cards typed)."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from tests.conftest import need

cv2 = pytest.importorskip(
    "cv2", reason="the photo pages need the vision extra (pip install '.[vision]')"
)


def _png(rows: list[str]) -> bytes:
    from cardscore.cards import parse_cards
    from tests.render_tables import DESIGNS, render_rows

    image = render_rows([list(parse_cards(r)) for r in rows], DESIGNS[0])
    ok, data = cv2.imencode(".png", image)
    assert ok
    return bytes(data)


def _token(client: TestClient, path: str, language: str = "en") -> str:
    page = client.get(path, headers={"Accept-Language": language}).text
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found
    return found.group(1)


def test_the_poker_page_ranks_the_hands_a_photo_shows(client: TestClient) -> None:
    from cardscore.web.photos import recognizer

    need(recognizer() is not None, "the photo pages need recognition (pip install '.[vision]')")
    page = client.get("/poker").text
    assert 'action="/poker/photo"' in page
    assert 'enctype="multipart/form-data"' in page
    hands = ["Ah Kh Qh Jh Th", "2c 2d 9s 9h 4c", "5s 6s 7s 8d 9c"]
    token = _token(client, "/poker")
    read = client.post(
        "/poker/photo", data={"csrf": token}, files={"photo": ("hands.png", _png(hands))}
    )
    assert read.status_code == 200, read.text
    typed = client.post(
        "/poker",
        data={"csrf": token, "action": "rank", **{f"hand{i}": h for i, h in enumerate(hands)}},
    )
    table = re.search(r'<table class="breakdown" id="poker-ranked">.*?</table>', read.text, re.S)
    assert table
    assert table.group(0) in typed.text
    for i, hand in enumerate(hands):
        assert f'name="hand{i}" class="cards" value="{hand}"' in read.text
    assert "Read 15 cards from the photo." in read.text
    # Four cards a row are no poker hands: every row is named, nothing is ranked.
    four = client.post(
        "/poker/photo",
        data={"csrf": token},
        files={"photo": ("four.png", _png(["Ah Kh Qh Jh", "2c 2d 9s 9h"]))},
    )
    assert four.status_code == 422
    assert four.text.count("a row of 4 card(s)") == 2
    assert 'id="poker-ranked"' not in four.text


def test_the_gongzhu_page_scores_the_pile_a_photo_shows_in_portuguese(client: TestClient) -> None:
    from cardscore.cards import parse_cards
    from cardscore.gongzhu import Rules, score_pile
    from cardscore.web.photos import recognizer

    need(recognizer() is not None, "the photo pages need recognition (pip install '.[vision]')")
    token = _token(client, "/gongzhu", "pt-BR")
    pile = ["Qs Jd Tc Ah", "Kh 5h 2h 9s"]
    read = client.post(
        "/gongzhu/photo",
        data={"csrf": token, "pig_plus_with_all_hearts": "1"},
        files={"photo": ("pile.png", _png(pile))},
        headers={"Accept-Language": "pt-BR"},
    )
    assert read.status_code == 200, read.text
    expected = score_pile(parse_cards(" ".join(pile)), Rules(pig_plus_with_all_hearts=True))
    section = re.search(r'<section id="gongzhu-photo-result">.*?</section>', read.text, re.S)
    assert section
    assert f"<code>{expected.pile}</code>" in section.group(0)
    total = re.search(r'<strong class="total">([^<]+)</strong>', section.group(0))
    assert total
    assert total.group(1).replace("\u2212", "-").replace(".", "") == str(expected.total)
    assert "8 cartas lidas na foto." in read.text


def test_a_photo_page_checks_its_form_and_its_photo(client: TestClient) -> None:
    """No security token: refused before the photo is read; an empty file: its problem; a
    form of two files: refused as every photo upload is (the form is parsed bounded)."""
    stale = client.post("/poker/photo", files={"photo": ("a.png", b"x")})
    assert stale.status_code == 403
    token = _token(client, "/gongzhu")
    empty = client.post("/gongzhu/photo", data={"csrf": token}, files={"photo": ("a.png", b"")})
    assert empty.status_code in (400, 422)
    assert "the photo is empty" in empty.text
    two = client.post(
        "/poker/photo",
        data={"csrf": token},
        files=[("photo", ("a.png", b"x")), ("photo", ("b.png", b"y"))],
    )
    assert two.status_code == 400
    assert "Too many files" in two.text


def test_a_photo_page_says_when_no_photo_can_be_read(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A busy server (no turn in the recognition pool) and one without recognition: the page
    says which, in its language, and ranks nothing."""
    from cardscore.web.pages import photo as photo_page
    from cardscore.web.photos import RecognitionPool

    token = _token(client, "/poker")
    shot = {"photo": ("hands.png", _png(["Ah Kh Qh Jh Th"]))}
    monkeypatch.setattr(client.app.state, "photo_pool", RecognitionPool(0, 1, 0))  # type: ignore[attr-defined]
    busy = client.post("/poker/photo", data={"csrf": token}, files=shot)
    assert busy.status_code == 422
    assert "the server is reading other photos" in busy.text
    monkeypatch.setattr(photo_page, "recognizer", lambda: None)
    gone = client.post(
        "/poker/photo", data={"csrf": token}, files=shot, headers={"Accept-Language": "pt-BR"}
    )
    assert gone.status_code == 422
    assert "O reconhecimento de fotos não está instalado" in gone.text
    assert 'id="poker-ranked"' not in gone.text
