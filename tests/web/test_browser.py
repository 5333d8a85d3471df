"""A real browser (Debian's Chromium driven by Playwright) keeps matches through the pages.

Screenshots of the main pages go to ``test-artefacts/`` (kept by CI, ignored by git).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
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


@contextmanager
def changed(page: Any) -> Iterator[None]:
    """The block changes the match (a save, an undo, a move): wait until the page shows it
    (saves update the page in place, without a reload)."""
    before = page.evaluate("MATCH.version")
    yield
    page.wait_for_function(f"() => MATCH.version > {before}")


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
        with changed(page):
            page.click("#save-round")

    enter(["TJQKP", "G", "D", "23456789A"])
    assert page.inner_text("#totals tbody").split() == ["-200", "100", "50", "-100"]
    # A mistake is refused with its reasons and nothing is saved.
    for i, pile in enumerate(["PP", "23456789TJQKA", "G", "D"]):
        page.fill(f"#round-form input[name=pile{i}]", pile)
    page.click("#save-round")
    page.wait_for_selector("#messages li")
    assert "appears 2 times" in page.inner_text("#messages")
    # Undo, then play on to the limit.
    page.on("dialog", lambda dialog: dialog.accept())
    with changed(page):
        page.click("#undo")
    assert page.inner_text("#totals tbody").split() == ["0", "0", "0", "0"]
    enter(["TJQKP", "G", "D", "23456789A"])
    enter(["P", "23456789TJQKA", "G", "D"])
    assert "Bo wins!" in page.inner_text("#winner")
    shot(page, "gongzhu-match")

    share_url = page.input_value("#share-url")
    page.goto(share_url)
    assert page.locator("#round-form").count() == 0
    assert "Bo wins!" in page.inner_text("#winner")
    page.goto("/")  # the start page remembers the match this browser keeps, and who won it
    page.wait_for_selector("#standings table")
    rows = {
        r.locator("th").inner_text(): r.locator("td").all_inner_texts()
        for r in page.locator("#standings tr").all()[1:]
    }
    assert rows["Bo"] == ["1", "1", "2"]  # played, won, rounds won (all hearts win round 2)
    assert rows["Ann"] == ["1", "0", "0"]
    assert page.inner_text("#standings tr >> nth=0 >> th >> nth=0") == "Gong Zhu"  # not "gongzhu"
    assert "Matches counted: 1," in page.inner_text("#standings-note")
    assert page.inner_text("#my-matches a").startswith("Gong Zhu: Ann × Bo")
    shot(page, "home-standings")
    page.click("#my-matches a")
    assert page.url == edit_url  # the share link opened later did not replace the edit link
    page.click("text=Português (Brasil)")
    assert "Bo venceu!" in page.inner_text("#winner")
    shot(page, "gongzhu-match-pt-BR")
    page.goto("/")
    page.wait_for_selector("#standings table")
    assert "Partidas contadas: 1," in page.inner_text("#standings-note")
    assert page.inner_text("#standings tr >> nth=0 >> th >> nth=0") == "Gong Zhu"


def test_tranca_match_typed_and_tapped_to_the_winner(page: Any) -> None:
    page.goto("/tranca/new")
    page.check("input[name=players][value='4']")
    for field, value in {
        "team0_player0": "Ana",
        "team0_player1": "Bia",
        "team1_player0": "Caio",
        "team1_player1": "Duda",
        "target": "1000",
    }.items():
        page.fill(f"input[name={field}]", value)
    assert page.is_hidden("fieldset.team[data-team='2']")  # four players: two pairs
    shot(page, "tranca-new")
    page.click("#new-tranca button[type=submit]")
    page.wait_for_selector("#round-form fieldset.team-entry")
    ana, caio = (
        page.locator("fieldset.team-entry").nth(0),
        page.locator("fieldset.team-entry").nth(1),
    )

    # Round 1, Ana & Bia: one meld typed, one tapped on the card picker.
    ana.locator("input.meld").first.fill("4H 5H 6H 7H 8H 9H 2C")
    ana.locator("button.add-meld").click()
    ana.locator("input.meld").nth(1).focus()
    for card in ("4S", "5S", "6S", "7S", "8S", "9S"):
        page.click(f"#picker button[data-card='{card}']")
    ana.locator("button.add-meld").click()
    ana.locator("input.meld").nth(2).fill("5C 6C 7C 8C 9C 2D")
    ana.locator("input.dollars").fill("3H 3D 3D")
    ana.locator("input.hand").first.fill("AS 2D 9H 3C 7D")  # Ana's hand (Bia's stays empty)
    ana.locator("input.took-morto").uncheck()
    ana.locator("input.went-out").check()
    caio.locator("input.meld").first.fill("KS KD KC")

    # A reload in the middle of the entry keeps the draft.
    page.reload()
    page.wait_for_selector("#round-form fieldset.team-entry")
    assert ana.locator("input.meld").nth(1).input_value() == "4S 5S 6S 7S 8S 9S"
    assert not ana.locator("input.took-morto").is_checked()
    page.click("#check-round")
    page.wait_for_selector("#preview table")
    assert "410" in page.inner_text("#preview table >> nth=0")
    shot(page, "tranca-entry")
    with changed(page):
        page.click("#save-round")
    assert page.inner_text("#totals tbody").split()[0] == "410"
    assert ana.locator("input.meld").first.input_value() == ""  # the draft is gone once saved

    # A mistake is refused with its reasons and nothing is lost.
    ana.locator("input.meld").first.fill("AH KH")
    ana.locator("input.went-out").check()
    page.click("#save-round")
    page.wait_for_selector("#messages li")
    assert "at least 3" in page.inner_text("#messages")
    page.click("#clear-draft")

    # Round 2: Caio & Duda go out with a clean canastra.
    caio.locator("input.meld").first.fill("AH KH QH JH TH 9H 8H")
    caio.locator("input.went-out").check()
    with changed(page):
        page.click("#save-round")
    totals = [int(v.replace(",", "")) for v in page.inner_text("#totals tbody").split()]
    assert totals[1] > 0

    # Correct a card in round 1 (the 2♦ in hand was a 4♦): totals recompute.
    first = page.locator("details.round[data-number='1']")
    if first.get_attribute("open") is None:  # it stays as the reader left it across saves
        first.locator("summary").click()
    page.click("details.round[data-number='1'] button.edit-round")
    assert "1" in page.inner_text("#entry-title")
    hand = ana.locator("input.hand").first
    hand.fill(hand.input_value().replace("2d", "4d").replace("2D", "4D"))
    with changed(page):
        page.click("#save-round")
    corrected = [int(v.replace(",", "")) for v in page.inner_text("#totals tbody").split()]
    assert corrected[0] == totals[0] + 5  # a 4 costs 5 in hand, a 2 costs 10

    # Undo round 2, then Ana & Bia win.
    page.on("dialog", lambda dialog: dialog.accept())
    with changed(page):
        page.click("#undo")
    assert len(page.locator("details.round").all()) == 1
    for _ in range(3):
        if page.locator("#winner").count():
            break
        ana.locator("input.meld").first.fill("AH KH QH JH TH 9H 8H")
        ana.locator("input.went-out").check()
        with changed(page):
            page.click("#save-round")
    assert "Ana & Bia wins!" in page.inner_text("#winner")
    assert page.locator("#stats").count() == 1
    match_id, key = page.url.split("/")[-2:]
    state = page.request.get(
        f"/api/matches/{match_id}", headers={"Authorization": f"Bearer {key}"}
    ).json()
    players = {p["name"]: p for p in state["stats"]["players"]}
    assert players["Ana"]["trancas"] == 1  # the 3♣ in her hand in round 1
    assert players["Bia"]["trancas"] == 0
    shot(page, "tranca-match")
    share_url = page.input_value("#share-url")
    page.goto(share_url)
    assert page.locator("#round-form").count() == 0
    shot(page, "tranca-shared")


def photo_draft(seen: dict[str, Any], codes: list[str | None]) -> tuple[list[str], list[str], str]:
    """Melds (as typed), closed canastras' ranks and dollars that the photo's cards make, each
    card as corrected (None: deleted), in the groups recognition found."""
    melds, piles, dollars = [], [], []
    for group in seen["groups"]:
        cards = [c for c in (codes[i] for i in group["positions"]) if c]
        if not cards:
            continue
        if group["kind"] == "meld":
            melds.append(" ".join(cards))
        elif group["kind"] == "dollar":
            dollars.extend(cards)
        elif group["kind"] == "pile":
            piles.append(cards[0][:-1].upper())
    return melds, piles, " ".join(dollars)


def test_tranca_match_typed_and_photographed_to_the_winner(page: Any, shared: Path) -> None:
    """The issue's scenario: create a match, two typed rounds, one photographed round (a real
    photo, the cards read drawn over it and corrected), correct a card, undo, reach the winner."""
    from cardscore.web.photos import recognizer

    need(recognizer() is not None, "the photo flow needs recognition (pip install '.[vision]')")
    photo = shared / "data" / "real-photos" / "train_01.jpg"
    read = recognizer()
    assert read is not None
    seen = read(
        photo.read_bytes()
    )  # what recognition makes of it (its accuracy is tested elsewhere)

    page.goto("/tranca/new")
    page.check("input[name=players][value='2']")
    page.fill("input[name=team0_player0]", "Ana")
    page.fill("input[name=team1_player0]", "Caio")
    page.fill("input[name=target]", "1000")
    page.click("#new-tranca button[type=submit]")
    page.wait_for_selector("#round-form fieldset.team-entry")
    ana = page.locator("fieldset.team-entry").nth(0)
    caio = page.locator("fieldset.team-entry").nth(1)

    def totals() -> list[int]:
        return [int(v.replace(",", "")) for v in page.inner_text("#totals tbody").split()]

    def save() -> None:
        with changed(page):
            page.click("#save-round")

    # Round 1, typed: Ana goes out with a clean canastra; Caio holds 9♣ 2♦.
    ana.locator("input.meld").first.fill("AH KH QH JH TH 9H 8H")
    ana.locator("input.went-out").check()
    caio.locator("input.meld").first.fill("KS KD KC")
    caio.locator("input.hand").fill("9C 2D")
    save()
    after_one = totals()
    assert after_one[0] == 375  # as in the stateless scoring of the same table
    # Round 2, typed: Caio goes out.
    caio.locator("input.meld").first.fill("AS KS QS JS TS 9S 8S")
    caio.locator("input.went-out").check()
    save()
    after_two = totals()
    assert after_two[1] > after_one[1]
    assert len(page.locator("details.round").all()) == 2

    # Round 3, photographed: Ana's table is read from a real photo and drawn over it.
    ana.locator("input.photo").set_input_files(str(photo))
    page.wait_for_selector(".photo-view svg polygon", timeout=120_000)
    shot(page, "tranca-photo")
    assert page.locator(".photo-view svg polygon").count() == len(seen["cards"])
    flagged = sum(1 for card in seen["cards"] if card["flagged"])
    assert page.locator(".photo-view svg polygon.flagged").count() == flagged
    codes: list[str | None] = [card["card"] for card in seen["cards"]]

    def check_fields() -> None:
        """Ana's melds, closed canastras and dollars are what the photo's cards make now."""
        melds, piles, dollars = photo_draft(seen, codes)
        assert [i.input_value() for i in ana.locator("input.meld").all()] == (melds or [""])
        assert [s.input_value() for s in ana.locator(".pile-rank").all()] == piles
        assert ana.locator("input.dollars").input_value() == dollars

    check_fields()
    assert photo_draft(seen, codes)[0] == [" ".join(m) for m in seen["tranca"]["melds"]]
    # Tap a card on the photo (an unsure one first, if any): the picker replaces it.
    order = sorted(range(len(codes)), key=lambda i: not seen["cards"][i]["flagged"])
    first = order[0]
    outlines = page.locator(".photo-view svg polygon")
    svg = page.locator(".photo-view svg")

    def tap(position: int) -> None:
        """Tap the middle of a card on the photo, as a finger would."""
        box = svg.bounding_box()
        card, image = seen["cards"][position], seen["image"]
        x, y = (
            card["x"] * box["width"] / image["width"],
            card["y"] * box["height"] / image["height"],
        )
        svg.click(position={"x": x, "y": y})

    tap(first)
    assert page.is_visible("#picker-replace")
    suits = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
    shown = str(codes[first])[:-1].upper().replace("T", "10") + suits[str(codes[first])[-1].lower()]
    assert shown in page.inner_text("#picker-replace")  # the card tapped, as the picker shows it
    if seen["cards"][first]["alternative"]:
        assert page.is_visible("#picker-replace button.replace-maybe")
    new = "QH" if str(codes[first]).upper() != "QH" else "JH"
    page.click("#picker button[data-suit='H']")  # the suit row first, then the rank
    page.click(f"#picker button[data-card='{new}']")
    codes[first] = new[0] + new[1].lower()
    assert page.is_hidden("#picker-replace")
    assert "corrected" in (outlines.nth(first).get_attribute("class") or "")
    assert (
        page.locator(".photo-view svg polygon.flagged").count()
        == flagged - seen["cards"][first]["flagged"]
    )
    check_fields()
    # A reload in the middle of the entry keeps the photo (a small copy), its outlines and the
    # correction, and the photo still takes corrections.
    page.reload()
    page.wait_for_selector(".photo-view svg polygon")
    image = page.locator(".photo-view img")
    assert (image.get_attribute("src") or "").startswith("data:image/jpeg")
    side = "img => img.decode().then(() => Math.max(img.naturalWidth, img.naturalHeight))"
    assert image.evaluate(side) == 1280  # the photo is 3000 × 2000
    assert page.locator(".photo-view svg polygon").count() == len(seen["cards"])
    assert "corrected" in (outlines.nth(first).get_attribute("class") or "")
    assert page.locator(".photo-view svg text").nth(first).text_content() == codes[first]
    assert (
        page.locator(".photo-view svg polygon.flagged").count()
        == flagged - seen["cards"][first]["flagged"]
    )
    check_fields()
    if len(codes) > 1:  # and another one is not a card at all: deleted from the fields
        second = order[1]
        tap(second)
        page.click("#picker-replace button.replace-delete")
        codes[second] = None
        assert "deleted" in (outlines.nth(second).get_attribute("class") or "")
        check_fields()
    shot(page, "tranca-photo-corrected")
    # These photos show poker tables and recognition is weak: the user corrects every card read
    # into the clubs canastra really on the table, and the round is saved from the corrections.
    for meld in ana.locator("input.meld").all():
        meld.fill("")
    ana.locator("input.meld").first.fill("AC KC QC JC TC 9C 8C")
    ana.locator("input.dollars").fill("")
    while ana.locator(".pile-row").count():
        ana.locator(".pile-row button.remove").first.click()
    ana.locator("input.went-out").check()
    save()
    assert page.locator(".photo-view").count() == 0  # the photo went with the saved round
    kept = page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('cardscore-photos'))")
    assert kept == []
    after_three = totals()
    assert after_three[0] == after_two[0] + 375
    assert len(page.locator("details.round").all()) == 3
    assert page.locator("#winner").count() == 0  # 1,000 is not reached yet

    # Correct a card in round 1 (Caio's 2♦ was a 4♦): the totals recompute.
    first = page.locator("details.round[data-number='1']")
    if first.get_attribute("open") is None:  # it stays as the reader left it across saves
        first.locator("summary").click()
    page.click("details.round[data-number='1'] button.edit-round")
    assert "1" in page.inner_text("#entry-title")
    hand = caio.locator("input.hand")
    assert "2D" in hand.input_value().upper()
    hand.fill(hand.input_value().upper().replace("2D", "4D"))
    save()
    corrected = totals()
    assert corrected == [after_three[0], after_three[1] + 5]  # a 4 costs 5 in hand, a 2 costs 10

    # A round saved for the wrong team is undone: the totals are back where they were.
    caio.locator("input.meld").first.fill("AD KD QD JD TD 9D 8D")
    caio.locator("input.went-out").check()
    save()
    assert totals() != corrected
    page.on("dialog", lambda dialog: dialog.accept())
    with changed(page):
        page.click("#undo")
    assert totals() == corrected
    assert len(page.locator("details.round").all()) == 3

    # Round 4: Ana goes out again and passes 1,000.
    ana.locator("input.meld").first.fill("AD KD QD JD TD 9D 8D")
    ana.locator("input.went-out").check()
    save()
    assert totals()[0] >= 1000
    assert "Ana wins!" in page.inner_text("#winner")
    shot(page, "tranca-photo-match-won")
    share_url = page.input_value("#share-url")
    page.goto(share_url)
    assert "Ana wins!" in page.inner_text("#winner")
    assert len(page.locator("details.round").all()) == 4


def test_a_jumbo_index_or_blurred_photo_tells_the_players_what_to_do(
    page: Any, tmp_path: Path
) -> None:
    """A photo of a jumbo-index deck (Brazil's naipe grande) is read less surely: the page says
    so beside the cards it read, in the players' words; a usual deck's photo does not. A
    blurred photo is sharpened, and the page asks for a steadier one."""
    from dataclasses import replace

    import cv2

    from cardscore.web.i18n import messages
    from cardscore.web.photos import recognizer
    from tests.render_tables import DESIGNS, render_table

    need(recognizer() is not None, "the photo flow needs recognition (pip install '.[vision]')")
    note = messages("en")["photo_jumbo"]
    page.goto("/tranca/new")
    page.check("input[name=players][value='2']")
    page.fill("input[name=team0_player0]", "Ana")
    page.fill("input[name=team1_player0]", "Caio")
    page.click("#new-tranca button[type=submit]")
    page.wait_for_selector("#round-form fieldset.team-entry")
    ana = page.locator("fieldset.team-entry").nth(0)
    for index in (None, 0.26):
        design = DESIGNS[0] if index is None else replace(DESIGNS[0], index=index)
        photo = tmp_path / f"table-{index}.png"
        cv2.imwrite(str(photo), render_table(216, design).image)
        ana.locator("input.photo").set_input_files(str(photo))
        if index is None:
            page.locator("#messages li", has_text="tap any card").wait_for(timeout=120_000)
            assert note not in page.inner_text("#messages")
        else:
            page.locator("#messages li", has_text=note).wait_for(timeout=120_000)
    blurred = tmp_path / "blurred.png"
    cv2.imwrite(str(blurred), cv2.GaussianBlur(render_table(216, DESIGNS[0]).image, (0, 0), 2.5))
    ana.locator("input.photo").set_input_files(str(blurred))
    steadier = messages("en")["photo_shaken"]
    page.locator("#messages li", has_text=steadier).wait_for(timeout=120_000)
    assert note not in page.inner_text("#messages")


def test_poker_page_in_a_browser(page: Any) -> None:
    page.goto("/poker")
    page.fill("#poker-rank input[name=hand0]", "As Ad Kc Kd 2h")
    page.fill("#poker-rank input[name=hand1]", "Ks Kh Qc Qd Ah")
    page.click("#poker-rank button[type=submit]")
    assert "wins" in page.inner_text("#poker-ranked tr >> nth=0")
    page.fill("#poker-draw input[name=hand]", "8s 8h Kc 5d 2h")
    page.fill("#poker-draw input[name=discard]", "Kc 5d 2h")
    page.click("#poker-draw button[type=submit]")
    assert "28.71%" in page.inner_text("#poker-odds")
    shot(page, "poker")


def test_poker_and_gongzhu_photo_buttons_in_a_browser(page: Any, tmp_path: Path) -> None:
    """A phone's photo on the poker page: the hands it shows, ranked, typed into the form to
    correct; on the Gong Zhu page: the pile's score."""
    import cv2

    from cardscore.cards import parse_cards
    from cardscore.web.photos import recognizer
    from tests.render_tables import DESIGNS, render_rows

    need(recognizer() is not None, "the photo buttons need recognition (pip install '.[vision]')")
    hands = ["Ah Kh Qh Jh Th", "2c 2d 9s 9h 4c"]
    photo = tmp_path / "hands.png"
    cv2.imwrite(str(photo), render_rows([list(parse_cards(h)) for h in hands], DESIGNS[0]))
    page.goto("/poker")
    page.set_input_files("#poker-photo input[type=file]", str(photo))
    page.click("#poker-photo button[type=submit]")
    page.wait_for_selector("#poker-ranked")
    assert "wins" in page.inner_text("#poker-ranked tr >> nth=0")
    assert page.input_value("#poker-rank input[name=hand1]") == hands[1]
    assert "Read 10 cards" in page.inner_text("#photo-notes")
    shot(page, "poker-photo")
    pile = tmp_path / "pile.png"
    cv2.imwrite(str(pile), render_rows([list(parse_cards("Qs Jd Tc Ah Kh"))], DESIGNS[0]))
    page.goto("/gongzhu")
    page.set_input_files("#gongzhu-photo input[type=file]", str(pile))
    page.click("#gongzhu-photo button[type=submit]")
    page.wait_for_selector("#gongzhu-photo-result")
    assert page.inner_text("#gongzhu-photo-result strong.total").strip()


def test_crosskings_against_the_computer_in_a_browser(page: Any) -> None:
    page.goto("/crosskings")
    page.select_option("#crosskings-new select[name=level]", "1")
    page.click("#crosskings-new button[type=submit]")
    page.wait_for_selector("#board svg")
    for _ in range(3):
        # The legal cells are marked by a script once the page is parsed: wait for them.
        page.wait_for_selector("#board g.cell.legal")
        legal = page.locator("#board g.cell.legal")
        assert legal.count() > 0
        with changed(page):
            legal.first.click()
    assert len(page.inner_text("#history").split(".")) > 6  # 3 moves each
    shot(page, "crosskings")
