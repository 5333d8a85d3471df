"""At the table: a whole Tranca match kept on a phone in Portuguese, followed live on another.

The keeper creates the match from the form and enters every round on a 390×844 phone; one
round is entered with no connection and saved when it returns. A second browser holds the
share link and sees every save by itself (no reload), to the winner.
"""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Server
from tests.web.test_browser import ARTEFACTS, browser  # noqa: F401  (the module's Chromium)

PHONE = {"viewport": {"width": 390, "height": 844}, "locale": "pt-BR", "is_mobile": True}
CLEAN = "AH KH QH JH TH 9H 8H"


def totals(page: Any) -> list[int]:
    text: str = page.inner_text("#totals tbody")
    return [int(v.replace(".", "")) for v in text.split()]


def test_a_whole_match_in_portuguese_followed_live_and_one_round_offline(
    browser: Any,  # noqa: F811
    server: Server,
) -> None:
    keeper_context = browser.new_context(base_url=server.url, has_touch=True, **PHONE)
    follower_context = browser.new_context(base_url=server.url, has_touch=True, **PHONE)
    keeper = keeper_context.new_page()
    follower = follower_context.new_page()
    for page in (keeper, follower):
        page.set_default_timeout(20_000)
    try:
        keeper.goto("/tranca/new")
        assert "Nova partida de Tranca" in keeper.inner_text("h1")
        keeper.check("input[name=players][value='2']")
        keeper.fill("input[name=team0_player0]", "Ana")
        keeper.fill("input[name=team1_player0]", "Caio")
        keeper.fill("input[name=target]", "1000")
        keeper.click("#new-tranca button[type=submit]")
        keeper.wait_for_selector("#round-form fieldset.team-entry")
        follower.goto(keeper.input_value("#share-url"))
        assert follower.locator("#round-form").count() == 0  # the share link only reads

        ana = keeper.locator("fieldset.team-entry").nth(0)

        def enter_round() -> None:
            ana.locator("input.meld").first.fill(CLEAN)
            ana.locator("input.went-out").check()
            keeper.click("#save-round")

        def both_show(version: int) -> None:
            for name, page in (("keeper", keeper), ("follower", follower)):
                try:
                    page.wait_for_function(f"() => MATCH.version >= {version}")
                except Exception as error:
                    shown = page.evaluate("MATCH.version")
                    raise AssertionError(f"the {name} shows {shown}, not {version}") from error

        enter_round()
        both_show(2)
        assert totals(follower) == totals(keeper) == [375, 0]
        assert "nunca pegou" not in follower.inner_text("#history")  # Caio took the morto
        assert "bateu" in follower.inner_text("#history")

        keeper_context.set_offline(True)
        enter_round()
        keeper.wait_for_selector("#pending")
        assert "Sem conexão" in keeper.inner_text("#messages")
        assert totals(follower) == [375, 0]  # not saved yet
        keeper.screenshot(path=str(ARTEFACTS / "table-offline-pt-BR.png"))
        keeper_context.set_offline(False)
        both_show(3)
        keeper.wait_for_selector("#pending", state="detached")
        assert totals(follower) == [750, 0]

        enter_round()
        both_show(4)
        for page in (keeper, follower):
            page.wait_for_selector("#winner")
            assert "Ana venceu!" in page.inner_text("#winner")
        assert totals(follower) == [1125, 0]
        assert "1.125" in follower.inner_text("#totals")  # as Portuguese writes it
        follower.screenshot(path=str(ARTEFACTS / "table-follower-pt-BR.png"), full_page=True)
    finally:
        keeper_context.close()
        follower_context.close()
