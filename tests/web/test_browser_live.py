"""Two browsers at one table: one phone saves, the other follows on the share link; both pages
update by themselves (no reload), on a server with two workers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import need
from tests.web.conftest import GONGZHU, Server, bearer
from tests.web.test_browser import CHROMIUM, FLAGS

ALL = "23456789TJQKAPGD"  # every scoring card in one pile (a hand must place all sixteen)


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    need(Path(CHROMIUM).exists(), f"browser tests need Chromium at {CHROMIUM}")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        need(False, "browser tests need playwright (pip install -e '.[dev]')")
        raise
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield launched
        launched.close()


def _phone(chromium: Any, url: str, locale: str, **options: Any) -> Any:
    context = chromium.new_context(
        base_url=url, viewport={"width": 390, "height": 844}, locale=locale, **options
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def _totals(page: Any) -> list[str]:
    return [t.strip() for t in page.locator("#totals tbody td").all_inner_texts()]


def test_a_follower_sees_each_save_live_without_reloading(chromium: Any, tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'live.sqlite3'}", workers=2).start()
    try:
        created = httpx.post(f"{server.url}/api/matches", json=GONGZHU).json()
        editor = _phone(chromium, server.url, "en-US")
        follower = _phone(chromium, server.url, "pt-BR")
        editor.goto(f"/m/{created['id']}/{created['edit_key']}")
        follower.goto(f"/m/{created['id']}/{created['share_key']}")
        for page in (editor, follower):  # a reload would lose this
            page.evaluate("window.stayed = true")

        editor.fill("input[name=pile0]", ALL)
        editor.click("#save-round")
        for page in (editor, follower):
            page.wait_for_selector('#history details.round[data-number="1"]')
            assert _totals(page) == ["800", "0", "0", "0"]
        assert editor.input_value("input[name=pile0]") == ""  # ready for the next hand

        # Another phone saves through the API: both pages follow, and the editor's next save
        # names the new version (no conflict).
        saved = httpx.post(
            f"{server.url}/api/matches/{created['id']}/rounds",
            json={"version": 2, "round": {"piles": ["", ALL, "", ""]}},
            headers=bearer(created["edit_key"]),
        )
        assert saved.status_code == 201
        for page in (editor, follower):
            page.wait_for_selector('#history details.round[data-number="2"]')
            assert _totals(page) == ["800", "800", "0", "0"]
        editor.fill("input[name=pile2]", ALL)
        editor.click("#save-round")
        for page in (editor, follower):
            page.wait_for_selector('#history details.round[data-number="3"]')
        assert editor.locator("#messages li").count() == 0  # no 409
        for page in (editor, follower):
            assert page.evaluate("window.stayed") is True
            assert page.evaluate("MATCH.version") == 4
    finally:
        server.stop()


def test_older_rounds_page_in_and_stay_through_live_updates(chromium: Any, tmp_path: Path) -> None:
    from cardscore.web.pages.match import SHOWN

    server = Server(f"sqlite:///{tmp_path / 'paged.sqlite3'}").start()
    try:
        created = httpx.post(f"{server.url}/api/matches", json=GONGZHU).json()
        rounds = SHOWN + 5
        for version in range(1, rounds + 1):
            piles = ["", "", "", ""]
            piles[version % 4] = ALL
            saved = httpx.post(
                f"{server.url}/api/matches/{created['id']}/rounds",
                json={"version": version, "round": {"piles": piles}},
                headers=bearer(created["edit_key"]),
            )
            assert saved.status_code == 201, saved.text
        reader = _phone(chromium, server.url, "pt-BR")
        reader.goto(f"/m/{created['id']}/{created['share_key']}")
        reader.evaluate("window.stayed = true")
        assert reader.locator("details.round").count() == SHOWN
        reader.click("a.older")
        reader.wait_for_selector('details.round[data-number="1"]')
        assert reader.locator("details.round").count() == rounds
        assert reader.locator("a.older").count() == 0
        piles = [ALL, "", "", ""]
        saved = httpx.post(
            f"{server.url}/api/matches/{created['id']}/rounds",
            json={"version": rounds + 1, "round": {"piles": piles}},
            headers=bearer(created["edit_key"]),
        )
        assert saved.status_code == 201
        reader.wait_for_selector(f'details.round[data-number="{rounds + 1}"]')
        assert reader.locator("details.round").count() == rounds + 1  # the older ones stayed
        assert reader.evaluate("window.stayed") is True
    finally:
        server.stop()


def test_a_refresh_caught_by_a_lost_connection_holds_back_nothing(
    chromium: Any, tmp_path: Path
) -> None:
    """A page request in flight when the connection goes may never settle (Chromium's offline
    mode, like a phone leaving its network, leaves it hanging). When the connection returns, the
    page asks again at once, and follows every later save, before any time-out."""
    server = Server(f"sqlite:///{tmp_path / 'lost.sqlite3'}").start()
    try:
        created = httpx.post(f"{server.url}/api/matches", json=GONGZHU).json()
        # The service worker would fetch the page for it, out of page.route's reach.
        page = _phone(chromium, server.url, "en-US", service_workers="block")
        page.set_default_timeout(12_000)  # under match.js's 20 s bound on a request
        held: list[Any] = []

        def hold_first_refresh(route: Any) -> None:
            if route.request.headers.get("x-cardscore-refresh") == "1" and not held:
                held.append(route)  # never answered
            else:
                route.continue_()

        page.route(f"**/m/{created['id']}/**", hold_first_refresh)
        page.goto(f"/m/{created['id']}/{created['edit_key']}")
        edit = bearer(created["edit_key"])
        rounds = f"{server.url}/api/matches/{created['id']}/rounds"
        body = {"version": 1, "round": {"piles": [ALL, "", "", ""]}}
        assert httpx.post(rounds, json=body, headers=edit).status_code == 201
        for _ in range(60):
            if held:
                break
            page.wait_for_timeout(250)
        assert held, "the save was announced and the page asked for itself again"
        assert page.evaluate("MATCH.version") == 1

        page.context.set_offline(True)
        page.wait_for_timeout(300)
        page.context.set_offline(False)
        page.wait_for_selector('#history details.round[data-number="1"]')
        body = {"version": 2, "round": {"piles": ["", ALL, "", ""]}}
        assert httpx.post(rounds, json=body, headers=edit).status_code == 201
        page.wait_for_selector('#history details.round[data-number="2"]')
        assert page.evaluate("MATCH.version") == 3
    finally:
        server.stop()
