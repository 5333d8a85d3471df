"""The match page's deck in a real browser (Chromium, Playwright): a round's photo with a
card corrected on it teaches the deck once the round is saved (after a reload, from the copy
kept with the draft), a deck spread photo teaches all 52 cards, and the deck can be forgotten.
The photos are tests/render_tables.py's: photographed from a seat (far edge 0.55), the
shipped models read seed 53's far K♠ as K♣ (tests/test_vision_deck_confirmed.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import need, need_module
from tests.web.conftest import Server
from tests.web.test_browser import ARTEFACTS, browser  # noqa: F401  (the module's Chromium)

cv2 = need_module("cv2", "needs the vision extra (opencv)")
need_module("onnxruntime", "needs the vision extra (onnxruntime)")

from tests.render_tables import DESIGNS, render_table, spread  # noqa: E402

TRANCA = {"game": "tranca", "players": 2, "teams": [{"name": "Ana"}, {"name": "Caio"}]}


@pytest.fixture
def phone(browser: Any, server: Server) -> Iterator[Any]:  # noqa: F811
    context = browser.new_context(
        base_url=server.url, viewport={"width": 360, "height": 740}, locale="en-US"
    )
    opened = context.new_page()
    opened.set_default_timeout(20_000)
    yield opened
    context.close()


def test_a_corrected_photo_and_a_spread_teach_the_deck(
    phone: Any, server: Server, tmp_path: Path
) -> None:
    from cardscore.web.photos import recognizer

    need(recognizer() is not None, "the deck needs recognition (pip install '.[vision]')")
    table, deck = tmp_path / "table.png", tmp_path / "spread.png"
    cv2.imwrite(str(table), render_table(53, DESIGNS[0], keystone=0.55).image)
    cv2.imwrite(str(deck), spread(DESIGNS[0]))
    created = httpx.post(f"{server.url}/api/matches", json=TRANCA).json()
    page = phone
    page.goto(created["edit_url"])
    status = page.locator("#deck-status")
    assert page.is_visible("#deck")
    page.wait_for_function(
        "() => document.querySelector('#deck-status').textContent.includes('Nothing')"
    )

    ana = page.locator("fieldset.team-entry").nth(0)
    ana.locator("input.photo").set_input_files(str(table))
    page.wait_for_selector(".photo-view svg polygon", timeout=120_000)
    labels = [t.text_content() for t in page.locator(".photo-view svg text").all()]
    # The K♠ the shipped models read as a K♣ (the table holds no K♣): the player fixes it.
    shown = "Kc"
    assert labels.count(shown) == 1
    wrong = labels.index(shown)
    # Tap it on the photo and make it the K♠ it is.
    outline = page.locator(".photo-view svg polygon").nth(wrong).bounding_box()
    svg = page.locator(".photo-view svg")
    box = svg.bounding_box()
    svg.click(
        position={
            "x": outline["x"] + outline["width"] / 2 - box["x"],
            "y": outline["y"] + outline["height"] / 2 - box["y"],
        }
    )
    page.click("#picker button[data-suit='S']")
    page.click("#picker button[data-card='KS']")
    assert page.locator(".photo-view svg text").nth(wrong).text_content() == "Ks"
    # A reload keeps the photo (its copy) and the correction: that copy teaches the deck.
    page.reload()
    page.wait_for_selector(".photo-view svg polygon")
    before = page.evaluate("MATCH.version")
    page.click("#save-round")
    page.wait_for_function(f"() => MATCH.version > {before}")
    page.wait_for_function(
        "() => document.querySelector('#deck-status').textContent.includes('from 1 photo')",
        timeout=120_000,
    )
    # The round taught each card it shows whose index lies where its outline says (a far
    # card's may not: one at most here); the deck counts each different card once (the
    # table's different cards), the K♣ as the K♠ it was made.
    different = len(set(labels) - {shown} | {"Ks"})
    learnt = httpx.get(
        f"{server.url}/api/matches/{created['id']}/deck",
        headers={"Authorization": f"Bearer {created['edit_key']}"},
    ).json()
    assert learnt["photos"] == 1
    assert different - 1 <= learnt["cards"] <= different
    assert status.text_content() == f"Learnt {learnt['cards']} cards from 1 photo."
    messages = page.inner_text("#deck-messages")
    taught = re.search(r"learnt (\d+) cards from this round", messages)
    assert taught is not None
    assert len(labels) - (different - learnt["cards"]) == int(taught.group(1))
    # The page names the confirmed cards that taught nothing, as the picker writes them.
    missed = re.search(
        r"Not learnt \(no index found where the photo shows them\): (.+?)\. ", messages
    )
    names = missed.group(1).split() if missed else []
    assert int(taught.group(1)) + len(names) == len(labels)
    assert all(re.fullmatch(r"(10|[2-9AJQK])[♠♥♦♣]", name) for name in names), names
    assert "K♠" not in names

    page.locator("#deck-spread").set_input_files(str(deck))
    page.wait_for_function(
        "() => document.querySelector('#deck-status').textContent.includes('52 cards')",
        timeout=300_000,
    )
    assert status.text_content() == "Learnt 52 cards from 2 photos."
    ARTEFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / "tranca-deck.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#deck-forget")
    page.wait_for_function(
        "() => document.querySelector('#deck-status').textContent.includes('Nothing')"
    )
    assert page.is_hidden("#deck-forget")
