"""A real browser (Debian's Chromium driven by Playwright) keeps matches through the pages.

Screenshots of the main pages go to ``test-artefacts/`` (kept by CI, ignored by git).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import need
from tests.web.conftest import ROOT, Server

ARTEFACTS = ROOT / "test-artefacts"
CHROMIUM = os.environ.get("CARDSCORE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-default-apps",
    "--disable-sync",
    "--no-first-run",
    "--metrics-recording-only",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    need(
        Path(CHROMIUM).exists(),
        f"browser tests need Chromium at {CHROMIUM} (apt-get install chromium)",
    )
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        need(False, "browser tests need playwright (pip install -e '.[dev]')")
        raise
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any, server: Server) -> Iterator[Any]:
    context = browser.new_context(
        base_url=server.url, viewport={"width": 390, "height": 844}, locale="en-US"
    )
    opened = context.new_page()
    opened.set_default_timeout(15_000)
    yield opened
    context.close()


def shot(page: Any, name: str) -> None:
    ARTEFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / f"{name}.png"), full_page=True)


def test_gongzhu_scorer_and_match_in_a_browser(page: Any) -> None:
    page.goto("/")
    shot(page, "home")
    page.click("text=Gong Zhu")
    page.fill("input[name=pile0]", "23456789TJQKAPGD")
    page.click("#gongzhu-score button[type=submit]")
    assert page.inner_text("#gongzhu-result .total") == "800"
    shot(page, "gongzhu-scorer")

    for i, name in enumerate(["Ann", "Bo", "Cy", "Di"]):
        page.fill(f"#gongzhu-new input[name=player{i}]", name)
    page.fill("#gongzhu-new input[name=limit]", "-300")
    page.click("#gongzhu-new button[type=submit]")
    page.wait_for_selector("#round-form")
    edit_url = page.url

    def enter(piles: list[str]) -> None:
        for i, pile in enumerate(piles):
            page.fill(f"#round-form input[name=pile{i}]", pile)
        with page.expect_navigation():
            page.click("#save-round")

    enter(["TJQKP", "G", "D", "56789"])
    assert page.inner_text("#totals tbody").split() == ["-200", "100", "50", "-50"]
    # A mistake is refused with its reasons and nothing is saved.
    for i, pile in enumerate(["PP", "", "", ""]):
        page.fill(f"#round-form input[name=pile{i}]", pile)
    page.click("#save-round")
    page.wait_for_selector("#messages li")
    assert "appears 2 times" in page.inner_text("#messages")
    # Undo, then play on to the limit.
    page.on("dialog", lambda dialog: dialog.accept())
    with page.expect_navigation():
        page.click("#undo")
    assert page.inner_text("#totals tbody").split() == ["0", "0", "0", "0"]
    enter(["TJQKP", "G", "D", "56789"])
    enter(["P", "", "", ""])
    assert "Bo wins!" in page.inner_text("#winner")
    shot(page, "gongzhu-match")

    share_url = page.input_value("#share-url")
    page.goto(share_url)
    assert page.locator("#round-form").count() == 0
    assert "Bo wins!" in page.inner_text("#winner")
    page.goto(edit_url)
    page.click("text=Português (Brasil)")
    assert "Bo venceu!" in page.inner_text("#winner")
    shot(page, "gongzhu-match-pt-BR")
