"""Every page on a phone, in both languages: nothing wider than the screen, every target a thumb.

Each main page is opened in Chromium at 360×740 and 390×844 (the smallest common Android
screen and a current iPhone), in English and in Brazilian Portuguese, with the worst content
the app allows (40-character names without spaces, a played round with its breakdown). The
page must not pan sideways, and every button, field, menu and checkbox must be at least 44 px
(a fingertip; WCAG 2.5.5). Screenshots go to ``test-artefacts/phone/`` for a person to look at.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.web.conftest import Server, sqlite_url
from tests.web.test_browser import ARTEFACTS, browser  # noqa: F401  (the module's Chromium)

VIEWPORTS = {"360x740": (360, 740), "390x844": (390, 844)}
LOCALES = {"en": "en-US", "pt-BR": "pt-BR"}
LONG = "Supercalifragilisticexpialidocious12345"[:39] + "X"  # 40 characters, no space
LONG_2 = "Y" + LONG[1:]
TARGET = 44  # px, both ways

# Controls smaller than TARGET, and the page's overflow (what scrolls sideways), in one call.
_MEASURE = """() => {
  const small = [];
  const visible = (el) => el.getClientRects().length && getComputedStyle(el).visibility !== "hidden";
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
    + (el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\\s+/).join(".") : "")
    + (el.name ? `[name=${el.name}]` : "") + " " + JSON.stringify((el.innerText || el.value || "").slice(0, 20));
  const controls = document.querySelectorAll(
    "button, a.button, select, input:not([type=hidden]), summary, header a, #my-matches a");
  for (const el of controls) {
    if (!visible(el)) continue;
    // A checkbox or radio counts with its label (the whole label is the target).
    const target = (el.type === "checkbox" || el.type === "radio") ? el.closest("label") || el : el;
    const box = target.getBoundingClientRect();
    if (box.height < TARGET - 0.5 || box.width < TARGET - 0.5) {
      small.push(`${name(el)} ${Math.round(box.width)}x${Math.round(box.height)}`);
    }
  }
  const wide = [];
  const width = document.documentElement.clientWidth;
  for (const el of document.querySelectorAll("body *")) {
    if (!visible(el)) continue;
    const box = el.getBoundingClientRect();
    if (box.right > width + 0.5 || box.left < -0.5) {
      let inside = false;  // within a box that scrolls on its own (a wide statistics table)
      for (let up = el.parentElement; up; up = up.parentElement) {
        if (["auto", "scroll", "hidden"].includes(getComputedStyle(up).overflowX) && up !== document.body) { inside = true; break; }
      }
      if (!inside) wide.push(`${name(el)} ${Math.round(box.left)}..${Math.round(box.right)}`);
    }
  }
  return { scrollWidth: document.documentElement.scrollWidth, width, small, wide: wide.slice(0, 10) };
}""".replace("TARGET", str(TARGET))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """A server with one match of each game, played a little, under the longest names."""
    live = Server(sqlite_url(tmp_path_factory.mktemp("phone"))).start()
    pages = {
        "_url": live.url,
        "home": "/",
        "tranca-new": "/tranca/new",
        "gongzhu": "/gongzhu",
        "poker": "/poker",
        "crosskings": "/crosskings",
        "api-docs": "/api/docs",
        "not-found": "/no/such/page",
    }
    with httpx.Client(base_url=live.url) as client:
        tranca = client.post(
            "/api/matches",
            json={
                "game": "tranca",
                "players": 4,
                "teams": [
                    {"name": LONG, "players": ["Ana", LONG_2]},
                    {"name": LONG_2, "players": ["Caio", "Duda"]},
                ],
                "target": 3000,
            },
        ).json()
        canastra = ["AH", "KH", "QH", "JH", "TH", "9H", "8H"]
        round_ = {
            "teams": [
                {"name": LONG, "melds": [canastra], "piles": [{"pile": "A", "cards": 7}],
                 "dollars": ["3H"], "took_morto": True, "went_out": True},
                {"name": LONG_2, "melds": [["KS", "KD", "KC"]], "hand": {"Caio": ["9C", "2D"]},
                 "took_morto": False, "went_out": False},
            ]
        }  # fmt: skip
        saved = client.post(
            f"/api/matches/{tranca['id']}/rounds",
            json={"version": tranca["version"], "round": round_},
            headers={"Authorization": f"Bearer {tranca['edit_key']}"},
        )
        assert saved.status_code in (200, 201), saved.text
        pages["tranca-match"] = f"/m/{tranca['id']}/{tranca['edit_key']}"
        pages["tranca-shared"] = f"/m/{tranca['id']}/{tranca['share_key']}"
        gongzhu = client.post(
            "/api/matches", json={"game": "gongzhu", "players": [LONG, LONG_2, "Cy", "Di"]}
        ).json()
        client.post(
            f"/api/matches/{gongzhu['id']}/rounds",
            json={
                "version": gongzhu["version"],
                "round": {"piles": ["TJQKP", "G", "D", "23456789A"]},
            },
            headers={"Authorization": f"Bearer {gongzhu['edit_key']}"},
        )
        pages["gongzhu-match"] = f"/m/{gongzhu['id']}/{gongzhu['edit_key']}"
        crosskings = client.post("/api/matches", json={"game": "crosskings", "level": 0})
        if crosskings.status_code == 201:
            created = crosskings.json()
            pages["crosskings-match"] = f"/m/{created['id']}/{created['edit_key']}"
    yield pages
    live.stop()


# A form submitted first, to show its answer (the poker and Gong Zhu results are pages too).
_SUBMIT = {
    "poker": [("#poker-rank input[name=hand0]", "As Ad Kc Kd 2h"),
              ("#poker-rank input[name=hand1]", "Qs Qd Qc 7d 2c")],
    "gongzhu": [("#gongzhu-score input[name=pile0]", "23456789TJQKAPGD")],
}  # fmt: skip


def open_page(chromium: Any, site: dict[str, str], name: str, size: str, language: str) -> Any:
    width, height = VIEWPORTS[size]
    context = chromium.new_context(
        viewport={"width": width, "height": height},
        locale=LOCALES[language],
        has_touch=True,
        is_mobile=True,
        device_scale_factor=2,
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(site["_url"] + site[name])
    if name in _SUBMIT:
        for selector, value in _SUBMIT[name]:
            page.fill(selector, value)
        with page.expect_navigation():
            page.locator(_SUBMIT[name][0][0]).locator("xpath=ancestor::form").locator(
                "button[type=submit]"
            ).click()
    if name == "tranca-match":
        page.wait_for_selector("#round-form fieldset.team-entry")
    return page


@pytest.mark.parametrize("language", list(LOCALES))
@pytest.mark.parametrize("size", list(VIEWPORTS))
@pytest.mark.parametrize(
    "name",
    [
        "home",
        "tranca-new",
        "tranca-match",
        "tranca-shared",
        "gongzhu",
        "gongzhu-match",
        "poker",
        "crosskings",
        "crosskings-match",
        "api-docs",
        "not-found",
    ],
)
def test_the_page_fits_a_phone_and_a_thumb(
    browser: Any,  # noqa: F811
    site: dict[str, str],
    name: str,
    size: str,
    language: str,
) -> None:
    if name not in site:
        pytest.skip(f"{name}: that game is not installed")
    page = open_page(browser, site, name, size, language)
    try:
        measured = page.evaluate(_MEASURE)
        folder = ARTEFACTS / "phone"
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / f"{name}-{size}-{language}.png"), full_page=True)
        assert measured["scrollWidth"] <= measured["width"], measured["wide"]
        assert not measured["wide"]
        assert not measured["small"], measured["small"]
        if name == "tranca-match":
            check_entry(page, VIEWPORTS[size][1])
    finally:
        page.context.close()


def check_entry(page: Any, height: int) -> None:
    """The picker's buttons do not overlap and Save stays on screen while a field is filled."""
    boxes = [b.bounding_box() for b in page.locator("#picker button:visible").all()]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            apart = (
                a["x"] + a["width"] <= b["x"] + 0.5
                or b["x"] + b["width"] <= a["x"] + 0.5
                or a["y"] + a["height"] <= b["y"] + 0.5
                or b["y"] + b["height"] <= a["y"] + 0.5
            )
            assert apart, (a, b)
    page.locator("fieldset.team-entry input.meld").first.focus()
    page.locator("fieldset.team-entry input.meld").first.scroll_into_view_if_needed()
    save = page.locator("#save-round").bounding_box()
    back = page.locator("#picker button.back").bounding_box()
    assert save["y"] + save["height"] <= height
    assert back["y"] + back["height"] <= height


def test_save_shows_progress_and_a_lost_connection_keeps_the_round(
    browser: Any,  # noqa: F811
    site: dict[str, str],
) -> None:
    """In pt-BR on a small phone: Save is disabled and says so while in flight; with no
    connection the page says what happened, the entry stays (a reload too), and it saves later."""
    page = open_page(browser, site, "tranca-match", "360x740", "pt-BR")
    try:
        before = page.inner_text("#totals tbody")
        ana = page.locator("fieldset.team-entry").nth(0)
        ana.locator("input.meld").first.fill("AS KS QS JS TS 9S 8S")
        ana.locator("input.went-out").check()
        page.context.set_offline(True)
        page.click("#save-round")
        page.wait_for_selector("#messages li")
        assert "Sem conexão" in page.inner_text("#messages")
        assert "sua rodada fica guardada aqui" in page.inner_text("#messages")
        assert not page.is_disabled("#save-round")  # ready to try again
        page.context.set_offline(False)
        page.reload()
        page.wait_for_selector("#round-form fieldset.team-entry")
        assert ana.locator("input.meld").first.input_value() == "AS KS QS JS TS 9S 8S"

        held: list[Any] = []
        page.route("**/api/matches/*/rounds", lambda route: held.append(route))
        page.click("#save-round")
        page.wait_for_function("document.getElementById('save-round').disabled")
        assert page.inner_text("#save-round") == "Salvando…"
        assert "busy" in (page.get_attribute("#save-round", "class") or "")
        while not held:
            page.wait_for_timeout(50)
        held[0].continue_()  # the page refreshes its live parts in place, without a reload
        page.wait_for_function(
            "(before) => document.querySelector('#totals tbody').innerText !== before", arg=before
        )
        # saved: the draft is gone (the form is built anew once the save is answered)
        page.wait_for_function(
            "() => document.querySelector('fieldset.team-entry input.meld').value === ''"
        )
    finally:
        page.context.close()
