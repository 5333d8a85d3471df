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

from tests.conftest import need
from tests.web.conftest import Server, bearer, sqlite_url
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
    need(name in site, f"{name}: that game is not installed")
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
    """In pt-BR on a small phone: with no connection the page says what happened and the round
    waits on the phone (a reload too) until it is saved; Save is disabled and says so while in
    flight."""
    page = open_page(browser, site, "tranca-match", "360x740", "pt-BR")
    try:
        before = page.inner_text("#totals tbody")
        start = page.evaluate("MATCH.version")
        ana = page.locator("fieldset.team-entry").nth(0)
        ana.locator("input.meld").first.fill("AS KS QS JS TS 9S 8S")
        ana.locator("input.went-out").check()
        page.context.set_offline(True)
        page.click("#save-round")
        page.wait_for_selector("#messages li")
        assert "Sem conexão" in page.inner_text("#messages")
        assert "Esperando para salvar: 1" in page.inner_text("#pending")
        assert not page.is_disabled("#save-round")
        page.context.set_offline(False)
        page.reload()  # the round waited on the phone: it is saved once the page is back
        page.wait_for_selector("#round-form fieldset.team-entry")
        page.wait_for_function(
            f"() => MATCH.version > {start}"
            " || document.querySelector('#pending li:not([data-state=waiting])')",
            timeout=30_000,
        )
        assert page.evaluate("MATCH.version") > start, page.inner_text("#pending")
        page.wait_for_selector("#pending", state="detached")
        assert page.inner_text("#totals tbody") != before
        before = page.inner_text("#totals tbody")
        ana.locator("input.meld").first.fill("AS KS QS JS TS 9S 8S")
        ana.locator("input.went-out").check()

        held: list[Any] = []
        page.route("**/api/matches/*/rounds", lambda route: held.append(route))
        page.click("#save-round")
        page.wait_for_function("() => document.getElementById('save-round').disabled")
        assert page.inner_text("#save-round") == "Salvando…"
        assert "busy" in (page.get_attribute("#save-round", "class") or "")
        while not held:
            page.wait_for_timeout(50)
        version = page.evaluate("MATCH.version")
        held[0].continue_()
        page.wait_for_function(f"() => MATCH.version > {version}")
        assert page.inner_text("#totals tbody") != before
        # Saved: the entry starts afresh.
        page.wait_for_function("() => document.querySelector('input.meld').value === ''")
    finally:
        page.context.close()


def test_a_tranca_round_whose_answer_was_lost_is_saved_once(
    browser: Any,  # noqa: F811
    site: dict[str, str],
) -> None:
    """The server stores the round but the phone never hears back (the connection drops on the
    way back): the round waits on the phone, and when it is sent again it is acknowledged, not
    shown as a conflict, and stored once. Tranca keeps a round's canonical form, not the
    phone's spelling, so the server must know it by what it means."""
    with httpx.Client(base_url=site["_url"]) as client:
        teams = [{"name": "Ana"}, {"name": "Bia"}]
        made = client.post(
            "/api/matches", json={"game": "tranca", "players": 2, "teams": teams}
        ).json()
        site["lost-answer"] = f"/m/{made['id']}/{made['edit_key']}"
        page = open_page(browser, site, "lost-answer", "360x740", "pt-BR")
        try:
            page.wait_for_selector("#round-form fieldset.team-entry")
            ana = page.locator("fieldset.team-entry").nth(0)
            ana.locator("input.meld").first.fill("as ks qs js ts 9s 8s")
            ana.locator("input.went-out").check()
            held: list[Any] = []
            page.route("**/api/matches/*/rounds", lambda route: held.append(route))
            start = page.evaluate("MATCH.version")
            page.click("#save-round")
            while not held:
                page.wait_for_timeout(50)
            assert held[0].fetch().status == 201  # the server stores it...
            # ...the page hears of the new version from the live channel first...
            page.wait_for_function(f"() => MATCH.version > {start}")
            held[0].abort("internetdisconnected")  # ...and the answer never arrives
            page.wait_for_selector("#pending")
            assert "Esperando para salvar: 1" in page.inner_text("#pending")
            page.unroute("**/api/matches/*/rounds")
            page.reload()  # the waiting round is sent again as the page opens
            page.wait_for_selector("#pending", state="detached")
            assert not page.inner_text("#messages").strip()
            url = f"/api/matches/{made['id']}"
            stored = client.get(url, headers=bearer(made["edit_key"])).json()
            assert len(stored["rounds"]) == 1
            assert stored["version"] == made["version"] + 1
        finally:
            page.context.close()


def test_rounds_saved_offline_wait_in_order_and_a_conflict_is_shown(
    browser: Any,  # noqa: F811
    site: dict[str, str],
) -> None:
    """Offline, two hands wait on the phone, marked; back online they are saved in order with
    the version check. A hand whose match changed meanwhile is shown as a conflict, kept until
    the user saves it anyway."""
    hearts = "23456789TJQKA"
    hands = [[hearts, "P", "G", "D"], ["P", hearts, "G", "D"], ["G", "D", hearts, "P"]]
    with httpx.Client(base_url=site["_url"]) as client:
        made = client.post(
            "/api/matches", json={"game": "gongzhu", "players": ["Ann", "Bo", "Cy", "Di"]}
        ).json()
        site["queue"] = f"/m/{made['id']}/{made['edit_key']}"
        page = open_page(browser, site, "queue", "360x740", "pt-BR")
        try:

            def enter(piles: list[str]) -> None:
                for i, pile in enumerate(piles):
                    page.fill(f"#round-form input[name=pile{i}]", pile)
                page.click("#save-round")

            page.context.set_offline(True)
            enter(hands[0])
            page.wait_for_selector("#pending")
            assert "Sem conexão: a rodada fica guardada neste celular" in page.inner_text(
                "#messages"
            )
            enter(hands[1])
            page.wait_for_function(
                "() => document.querySelectorAll('#pending > ul > li').length === 2"
            )
            assert "Esperando para salvar: 2" in page.inner_text("#pending")
            page.screenshot(path=str(ARTEFACTS / "phone" / "offline-queue-pt-BR.png"))
            assert page.evaluate("MATCH.version") == 1  # nothing saved yet
            page.context.set_offline(False)
            page.wait_for_function("() => MATCH.version === 3", timeout=30_000)
            page.wait_for_selector("#pending", state="detached")
            state = client.get(f"/api/matches/{made['id']}", headers=bearer(made["edit_key"]))
            assert [r["document"]["piles"] for r in state.json()["rounds"]] == hands[:2]

            # A hand entered offline while another phone saves one: a conflict, kept.
            page.context.set_offline(True)
            enter(hands[2])
            page.wait_for_selector("#pending")
            other = client.post(
                f"/api/matches/{made['id']}/rounds",
                json={"version": 3, "round": {"piles": hands[0]}},
                headers=bearer(made["edit_key"]),
            )
            assert other.status_code == 201
            page.context.set_offline(False)
            page.wait_for_selector("#pending li[data-state=conflict]", timeout=30_000)
            assert "a partida mudou" in page.inner_text("#pending")
            page.click("#pending button.pending-save")
            page.wait_for_selector("#pending", state="detached")
            state = client.get(f"/api/matches/{made['id']}", headers=bearer(made["edit_key"]))
            assert [r["document"]["piles"] for r in state.json()["rounds"]] == [
                hands[0],
                hands[1],
                hands[0],
                hands[2],
            ]
        finally:
            page.context.close()


def test_installable_and_a_visited_page_opens_without_the_server(
    browser: Any,  # noqa: F811
    tmp_path: Any,
) -> None:
    """The app is installable (a manifest with 192 and 512 px icons, a service worker), and a
    match page seen once opens again with the server gone: its entry works offline."""
    live = Server(sqlite_url(tmp_path)).start()
    try:
        with httpx.Client(base_url=live.url) as client:
            manifest = client.get("/static/manifest.webmanifest").json()
            sizes = {icon["sizes"] for icon in manifest["icons"]}
            assert {"192x192", "512x512"} <= sizes
            for icon in manifest["icons"]:
                assert client.get(icon["src"]).headers["content-type"] == "image/png"
            assert manifest["display"] == "standalone"
            assert client.get("/sw.js").headers["content-type"].startswith("text/javascript")
            made = client.post(
                "/api/matches", json={"game": "gongzhu", "players": ["Ann", "Bo", "Cy", "Di"]}
            ).json()
        url = f"{live.url}/m/{made['id']}/{made['edit_key']}"
        context = browser.new_context(viewport={"width": 360, "height": 740}, locale="pt-BR")
        page = context.new_page()
        page.goto(url)
        assert page.get_attribute("link[rel=manifest]", "href") == "/static/manifest.webmanifest"
        page.evaluate("async () => { await navigator.serviceWorker.ready; }")
        page.reload()  # now through the service worker, which keeps the page
        page.wait_for_selector("#round-form")
        live.stop()
        page.reload()
        page.wait_for_selector("#round-form")
        assert "Gong Zhu" in page.inner_text("h1")
        assert page.evaluate("getComputedStyle(document.body).margin") == "0px"  # its CSS too
        context.close()
    finally:
        live.stop()


def test_the_camera_photo_is_downsized_before_upload_with_progress(
    browser: Any,  # noqa: F811
    site: dict[str, str],
    tmp_path: Any,
) -> None:
    """The photo input opens the rear camera; a 12 MP photo leaves the phone at most 3,072 px
    on its longest side, and the page says what is happening meanwhile."""
    from cardscore.web.photos import recognizer

    need(recognizer() is not None, "the photo flow needs recognition (pip install '.[vision]')")
    import cv2
    import numpy as np

    height, width = 3000, 4000  # a 12 MP phone photo (a smooth picture: a small file)
    ramp = np.linspace(0, 255, width, dtype=np.uint8)
    image = np.dstack([np.tile(ramp, (height, 1))] * 3)
    photo = tmp_path / "table.jpg"
    cv2.imwrite(str(photo), image)
    page = open_page(browser, site, "tranca-match", "390x844", "pt-BR")
    try:
        page.evaluate("() => { MATCH.photo = true; }")
        page.evaluate("() => document.querySelector('#clear-draft').click()")  # fields anew
        photo_input = page.locator("fieldset.team-entry input.photo").first
        assert photo_input.get_attribute("capture") == "environment"
        answers: list[Any] = []
        page.on("response", lambda r: answers.append(r) if r.url.endswith("/photos") else None)
        page.evaluate(
            """() => {
              window.seen = [];
              const box = document.getElementById("messages");
              new MutationObserver(() => window.seen.push(box.innerText))
                .observe(box, { childList: true, subtree: true, characterData: true });
            }"""
        )
        photo_input.set_input_files(str(photo))
        # Recognition answers (no cards on this picture), or says it is not installed.
        page.wait_for_function(
            "() => window.seen.length && !/Preparando|Enviando|Lendo/.test(window.seen.at(-1))",
            timeout=60_000,
        )
        said = " | ".join(page.evaluate("() => window.seen"))
        assert "Preparando a foto" in said
        assert "Enviando a foto" in said or "Lendo a foto" in said  # the upload's progress
        (answer,) = answers
        recognized = answer.json()["recognized"]
        # What the server received, as recognition measured it.
        size = recognized["image"]["width"], recognized["image"]["height"]
        assert max(size) == 3072
        assert size[0] / size[1] == pytest.approx(width / height, abs=0.01)
    finally:
        page.context.close()


@pytest.mark.parametrize(("size", "language"), [("360x740", "pt-BR"), ("390x844", "en")])
def test_quick_entry_fits_a_phone_and_saves_a_tally_round(
    browser: Any,  # noqa: F811
    site: dict[str, str],
    size: str,
    language: str,
) -> None:
    """The numbers of a round counted on paper: fields for a thumb, checked, saved, scored."""
    with httpx.Client(base_url=site["_url"]) as client:
        made = client.post(
            "/api/matches",
            json={"game": "tranca", "players": 4, "target": 3000,
                  "teams": [{"name": LONG, "players": ["Ana", "Bia"]},
                            {"name": "Caio & Duda", "players": ["Caio", "Duda"]}]},
        ).json()  # fmt: skip
    width, height = VIEWPORTS[size]
    context = browser.new_context(
        viewport={"width": width, "height": height}, locale=LOCALES[language],
        has_touch=True, is_mobile=True, device_scale_factor=2,
    )  # fmt: skip
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(site["_url"] + f"/m/{made['id']}/{made['edit_key']}")
        page.click("#quick-entry")
        page.wait_for_selector("fieldset.team-entry.tally input.tally-n")
        assert page.locator("#picker").is_hidden()
        measured = page.evaluate(_MEASURE)
        folder = ARTEFACTS / "phone"
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / f"quick-entry-{size}-{language}.png"), full_page=True)
        assert measured["scrollWidth"] <= measured["width"], measured["wide"]
        assert not measured["small"], measured["small"]
        ours, theirs = page.locator("fieldset.team-entry").all()
        # The seed's sample table counted by hand (it scores 410), against a quiet table of 30.
        for key, value in {"table_points": 135, "dirty_canastras": 1, "dollars": 3,
                           "trancas": 1, "hand_points": 40}.items():  # fmt: skip
            ours.locator(f"input[data-key={key}]").fill(str(value))
        ours.locator("input.took-morto").uncheck()
        ours.locator("input.went-out").check()
        theirs.locator("input[data-key=table_points]").fill("30")
        page.click("#save-round")
        page.wait_for_function(
            "() => document.querySelectorAll('#history details.round').length === 1"
        )
        with httpx.Client(base_url=site["_url"]) as client:
            state = client.get(
                f"/api/matches/{made['id']}", headers=bearer(made["share_key"])
            ).json()
        assert state["totals"] == [410, 30]
        assert state["rounds"][0]["document"]["tally"] is True
        # The next round is a quick entry again, empty.
        assert (
            page.locator("fieldset.team-entry.tally input[data-key=dollars]").first.input_value()
            == ""
        )
    finally:
        context.close()
