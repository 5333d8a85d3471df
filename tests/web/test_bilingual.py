"""Everything a Portuguese-speaking user sees is in Portuguese; the forms check what the API does.

Every page is rendered in pt-BR with its richest content (a played round with every kind of
reason, poker hands and odds, errors); its visible text must hold no English word the app could
have written and no raw catalogue key.
"""

from __future__ import annotations

import html
import itertools
import json
import re
from html.parser import HTMLParser
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardscore.web.charts import totals_chart
from cardscore.web.i18n import messages
from tests.web.conftest import bearer
from tests.web.conftest import messages as said

PT = {"Accept-Language": "pt-BR"}
# Words only the English texts of the app use (catalogue, library reasons, problems, HTTP).
ENGLISH = re.compile(
    r"\b(the|and|with|without|never|taken|went out|pile of|cards?|to move|left|hearts|"
    r"doubles|alone|worth|instead|round|match|changed|reload|Not Found|Pair of|Two pair|"
    r"Three of a kind|Four of a kind|Straight|High card|kickers?|high|over|is not|must be|"
    r"winner|wins|Save|Check|Undo|Team|Player|Target|Score|Result|History|Statistics)\b"
)
# A catalogue key shown as it is: "undo_confirm", "term.pig", "poker.hand.pair"…
RAW_KEY = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b|\b[a-z]+\.[a-z_.]+\b")
ALLOWED = {"Full house", "Flush", "Royal flush", "Straight flush", "kicker"}


class _Text(HTMLParser):
    """The text a person reads: the body's text and the attributes shown (title, placeholder…)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skip = 0
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.skip += 1
            self._in_script = tag == "script" and ("id", "i18n-data") in attrs
        for name, value in attrs:
            if name in ("title", "aria-label", "alt") and value:
                self.parts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.skip -= 1
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts.append(data)
        elif not self.skip:
            self.parts.append(data)


def shown(page: str) -> tuple[str, dict[str, str]]:
    """The page's visible text, and the texts it gives its script (id="i18n-data")."""
    parser = _Text()
    parser.feed(page)
    text = " ".join(parser.parts)
    script = json.loads(html.unescape("".join(parser.scripts))) if parser.scripts else {}
    return text, script


def english_in(text: str, names: tuple[str, ...] = ()) -> list[str]:
    for name in names:  # the players' own names are theirs
        text = text.replace(name, " ")
    for fine in ALLOWED:
        text = text.replace(fine, " ")
    text = re.sub(r"https?://\S+|/[\w/.-]+", " ", text)  # addresses
    text = re.sub(r"\{\w+\}", " ", text)  # a text's placeholders
    return sorted({m.group(0) for m in ENGLISH.finditer(text)} | set(RAW_KEY.findall(text)))


def csrf(client: TestClient, path: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', client.get(path, headers=PT).text)
    assert found
    return found.group(1)


NAMES = ("Ana", "Bia", "Caio", "Duda", "Ann", "Bo", "Cy", "Di")


@pytest.fixture
def pages(client: TestClient) -> dict[str, str]:
    """Every page in pt-BR, with content: name → HTML."""
    out = {
        path: client.get(path, headers=PT).text
        for path in ("/", "/tranca/new", "/tranca/play", "/gongzhu")
    }
    out["/poker"] = client.get("/poker", headers=PT).text
    out["/crosskings"] = client.get("/crosskings", headers=PT).text
    # The API's operations are described in English, marked so (lang="en"); the rest is not.
    docs = client.get("/api/docs", headers=PT).text
    out["/api/docs"] = re.sub(r'<div lang="en">.*?</div>\s*</main>', "</main>", docs, flags=re.S)
    out["404"] = client.get("/no/such/page", headers={**PT, "Accept": "text/html"}).text
    out["no match"] = client.get("/m/nothing/none", headers={**PT, "Accept": "text/html"}).text
    token = csrf(client, "/gongzhu")
    piles = {"pile0": "23456789TJQKAPGD", "pile1": "", "pile2": "", "pile3": ""}
    out["gongzhu scored"] = client.post("/gongzhu", data={"csrf": token, **piles}, headers=PT).text
    piles = {"pile0": "PGD23456789TJQKA", "pile1": "", "pile2": "", "pile3": "", "csrf": token}
    out["gongzhu house"] = client.post(
        "/gongzhu", data={**piles, "pig_plus_with_all_hearts": "1"}, headers=PT
    ).text
    hands = {"hand0": "As Ad Kc Kd 2h", "hand1": "Qs Qd Qc 7d 2c", "hand2": "Jh Js Jd 5c 5s"}
    out["poker ranked"] = client.post(
        "/poker", data={"csrf": token, "action": "rank", **hands}, headers=PT
    ).text
    out["poker odds"] = client.post(
        "/poker",
        data={"csrf": token, "action": "draw", "hand": "8s 8h Kc 5d 2h", "discard": "Kc 5d 2h"},
        headers=PT,
    ).text
    tranca = client.post(
        "/api/matches",
        json={
            "game": "tranca",
            "players": 4,
            "teams": [
                {"name": "Ana & Bia", "players": ["Ana", "Bia"]},
                {"name": "Caio & Duda", "players": ["Caio", "Duda"]},
            ],
        },
    ).json()
    clean = ["AH", "KH", "QH", "JH", "TH", "9H", "8H"]
    round_ = {
        "teams": [
            {"name": "Ana & Bia", "melds": [clean], "piles": [{"pile": "K", "clean": False}],
             "dollars": ["3H", "3D"], "took_morto": True, "went_out": True},
            {"name": "Caio & Duda", "melds": [["QS", "QD", "QC"]], "dollars": ["3H"],
             "hand": {"Caio": ["9C", "3C"]}, "piles": [{"pile": "2", "cards": 7}],
             "took_morto": False, "went_out": False},
        ]
    }  # fmt: skip
    saved = client.post(
        f"/api/matches/{tranca['id']}/rounds",
        json={"version": tranca["version"], "round": round_},
        headers=bearer(tranca["edit_key"]),
    )
    assert saved.status_code in (200, 201), saved.text
    out["tranca match"] = client.get(f"/m/{tranca['id']}/{tranca['edit_key']}", headers=PT).text
    out["tranca shared"] = client.get(f"/m/{tranca['id']}/{tranca['share_key']}", headers=PT).text
    gongzhu = client.post(
        "/api/matches", json={"game": "gongzhu", "players": ["Ann", "Bo", "Cy", "Di"]}
    ).json()
    client.post(
        f"/api/matches/{gongzhu['id']}/rounds",
        json={"version": gongzhu["version"], "round": {"piles": ["TJQKP", "G", "D", "23456789A"]}},
        headers=bearer(gongzhu["edit_key"]),
    )
    out["gongzhu match"] = client.get(f"/m/{gongzhu['id']}/{gongzhu['edit_key']}", headers=PT).text
    crosskings = client.post("/api/matches", json={"game": "crosskings", "level": 0})
    if crosskings.status_code == 201:
        made = crosskings.json()
        out["crosskings match"] = client.get(f"/m/{made['id']}/{made['edit_key']}", headers=PT).text
    return out


def test_every_page_in_portuguese_holds_no_english_and_no_raw_key(pages: dict[str, str]) -> None:
    found = {}
    for name, page in pages.items():
        assert 'lang="pt-BR"' in page, name
        text, script = shown(page)
        words = english_in(text, NAMES) + english_in(" ".join(script.values()))
        words += [key for key, value in script.items() if value == key]  # a key with no text
        if words:
            found[name] = words
    assert not found, json.dumps(found, ensure_ascii=False)


def test_numbers_read_as_portuguese_writes_them(pages: dict[str, str]) -> None:
    odds, _ = shown(pages["poker odds"])
    assert "28,71%" in odds
    assert "16.215" in odds
    ranked, _ = shown(pages["poker ranked"])
    assert "Full house, valetes com cincos" in ranked
    assert "de 7.462" in ranked
    tranca, _ = shown(pages["tranca match"])
    assert "nunca pegou" in tranca
    assert "bateu" in tranca
    assert "monte de 7 K (sujo: 6 K e um 2)" in tranca
    assert "monte de 7 duques" in tranca


def test_the_reasons_cover_every_reason_the_library_gives() -> None:
    """Each library reason pattern has its text in both catalogues."""
    from cardscore.web.i18n import text

    keys = {key for _, key in text._DETAILS}
    for language in ("en", "pt-BR"):
        assert keys <= set(messages(language))


def test_chart_end_labels_never_overlap() -> None:
    svg = totals_chart(["Ana", "Bia", "Caio"], [[100, 100, 100], [250, 250, 250]], None)
    ys = sorted(float(y) for y in re.findall(r'<text x="251" y="([\d.]+)"', svg))
    assert len(ys) == 3
    assert all(b - a >= 11 for a, b in itertools.pairwise(ys))
    long = totals_chart(["X" * 40, "Y"], [[5, 1]], None)
    assert "X" * 40 in long  # the whole name in its title
    assert "X" * 13 + "…" in long


def new_form(client: TestClient, path: str, fields: dict[str, str], language: str) -> Any:
    token = csrf(client, path.replace("/new", "/new" if "tranca" in path else ""))
    return client.post(
        path,
        data={"csrf": token, **fields},
        headers={"Accept-Language": language},
        follow_redirects=False,
    )


def test_a_gongzhu_limit_that_is_no_number_is_a_clear_problem(client: TestClient) -> None:
    fields = {"player0": "Ann", "player1": "Bo", "player2": "Cy", "player3": "Di"}
    english = new_form(client, "/gongzhu/new", {**fields, "limit": "abc"}, "en")
    assert english.status_code == 422
    assert "Losing limit: &#34;abc&#34; is not a whole number" in english.text
    assert "invalid literal" not in english.text
    portuguese = new_form(client, "/gongzhu/new", {**fields, "limit": "abc"}, "pt-BR")
    assert "Limite de derrota: &#34;abc&#34; não é um número inteiro" in portuguese.text
    # The API refuses what the form refuses.
    api = client.post("/api/matches", json={"game": "gongzhu", "players": list("ABCD"), "limit": 5})
    form = new_form(client, "/gongzhu/new", {**fields, "limit": "5"}, "en")
    assert api.status_code == form.status_code == 422
    assert "Losing limit: must be at most -1, not 5" in form.text


@pytest.mark.parametrize("target", ["50", "1000000000"])
def test_a_tranca_target_the_api_refuses_the_form_refuses(client: TestClient, target: str) -> None:
    teams = [{"name": "A", "players": []}, {"name": "B", "players": []}]
    api = client.post(
        "/api/matches", json={"game": "tranca", "players": 2, "teams": teams, "target": int(target)}
    )
    fields = {"players": "2", "team0_name": "A", "team1_name": "B", "target": target}
    form = new_form(client, "/tranca/new", fields, "pt-BR")
    assert api.status_code == form.status_code == 422
    assert "Meta: deve ser no" in form.text


def test_names_over_the_limit_are_refused_not_cut(client: TestClient) -> None:
    forty, longer = "N" * 40, "M" * 41
    fields = {"players": "2", "team0_player0": forty, "team1_player0": longer}
    refused = new_form(client, "/tranca/new", fields, "en")
    assert refused.status_code == 422
    assert "Team 2 · Player 1: is 41 characters long; at most 40 fit: shorten it" in refused.text
    accepted = new_form(client, "/tranca/new", {**fields, "team1_player0": "Bo"}, "en")
    assert accepted.status_code == 303
    page = client.get(accepted.headers["location"]).text
    assert f'<th title="{forty}">' in page  # the whole name, cut only on screen (CSS ellipsis)


def test_the_api_answers_problems_in_the_language_asked(client: TestClient) -> None:
    missing = client.get("/api/matches/nothing", headers={**PT, **bearer("k")})
    assert missing.status_code == 404
    assert said(missing) == ["não existe a partida 'nothing'"]
    assert said(client.get("/api/matches/nothing", headers=bearer("k"))) == [
        "there is no match 'nothing'"
    ]
    made = client.post(
        "/api/matches", json={"game": "gongzhu", "players": ["Ann", "Bo", "Cy", "Di"]}
    ).json()
    stale = client.post(
        f"/api/matches/{made['id']}/rounds",
        json={"version": made["version"] + 5, "round": {"piles": ["P", "23456789TJQKA", "G", "D"]}},
        headers={**PT, **bearer(made["edit_key"])},
    )
    assert stale.status_code == 409
    (message,) = said(stale)
    assert message.startswith(f"a partida '{made['id']}' mudou desde que você a abriu")
    assert english_in(message) == []
    nothing = client.post(
        f"/api/matches/{made['id']}/undo",
        json={"version": made["version"]},
        headers={**PT, **bearer(made["edit_key"])},
    )
    assert said(nothing) == ["não há rodada para desfazer"]


# Sample values as the web app writes each of its own problems.
SAMPLES = {
    "problem.photo_large": {"a": "8,000,000"},
    "problem.too_many_pixels": {"a": "40,000,000"},
    "problem.image_too_big": {"a": "9000", "b": "9000", "c": "40,000,000"},
    "problem.unreadable_image": {"a": "jpeg"},
    "problem.conflict": {"a": "'abc'", "b": "3", "c": "4"},
}


def _fields(template: str) -> set[str]:
    import string

    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_problem_code_reads_in_portuguese() -> None:
    """Every code of the library's catalogue and every problem of the web app's own, as the
    pages and the API say them in pt-BR: not the English text, no placeholder left."""
    from cardscore.errors import Problem, catalogue
    from cardscore.web.i18n.text import problem_text

    same = []
    for code, template in catalogue("en").items():
        if "{message}" in template:
            continue  # a class's own code around a plain text (the text is the message)
        params: dict[str, str | int] = dict.fromkeys(_fields(template) - {"where"}, 2)
        if "where" in _fields(template):  # a template that places the problem itself
            problem = Problem.of(code, **params, where="team 'A', meld 1")
        else:
            problem = Problem.of(code, **params).at("team 'A', meld 1")
        portuguese = problem_text(problem, "pt-BR")
        assert not re.search(r"\{[a-z_]+(:[^}]*)?\}", portuguese), code
        assert portuguese.startswith("dupla 'A', jogo 1"), portuguese
        if portuguese == problem_text(problem, "en"):
            same.append(code)
    assert not same
    english, portuguese_texts = messages("en"), messages("pt-BR")
    for key, template in english.items():
        if not key.startswith("problem.") or key.startswith("problem.where_"):
            continue
        values = SAMPLES.get(key, {"a": "'x1'", "b": "12", "c": "13"})
        text = template.format(**values)
        if key == "problem.image_too_big":
            text = text.replace(" pixels;", " = 100 pixels;")
        if key == "problem.unreadable_image":
            text += ": broken data"
        values = {k: v.replace(",", ".") for k, v in values.items()}  # pt-BR thousands
        assert problem_text(text, "pt-BR") == portuguese_texts[key].format(**values), key


def test_the_api_says_what_its_request_models_refuse_in_portuguese(client: TestClient) -> None:
    body = {"game": "gongzhu", "players": ["A", "B", "C", "N" * 41], "limit": 5}
    refused = client.post("/api/matches", json=body, headers=PT)
    assert refused.status_code == 422
    assert sorted(said(refused)) == [
        "gongzhu.limit: deve ser no máximo -1, não 5",
        "gongzhu.players.3: tem 41 caracteres; cabem no máximo 40: encurte",
    ]
    english = client.post("/api/matches", json=body)
    assert [p["code"] for p in english.json()["problems"]] == ["invalid_request"] * 2
    bad = client.post(
        "/api/matches", content=b"{", headers={**PT, "Content-Type": "application/json"}
    )
    assert bad.status_code == 400
    assert said(bad)[0].startswith("o corpo não é JSON válido")
