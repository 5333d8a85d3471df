"""Server-rendered pages: languages, the Gong Zhu scorer, a match page with chart and history."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from fastapi.testclient import TestClient

from tests.web.conftest import bearer, new_match


def csrf(client: TestClient, path: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', client.get(path).text)
    assert found
    return found.group(1)


def test_language_follows_the_browser_and_can_be_switched(client: TestClient) -> None:
    assert "Settle card games" in client.get("/").text
    portuguese = client.get("/", headers={"Accept-Language": "pt-BR,pt;q=0.9,en;q=0.5"}).text
    assert 'lang="pt-BR"' in portuguese
    assert "Placar de jogos de cartas" in portuguese
    switched = client.get("/lang/pt-BR?next=/gongzhu", follow_redirects=False)
    assert switched.status_code == 303
    assert switched.headers["location"] == "/gongzhu"
    assert "Monte 1" in client.get("/gongzhu").text  # the cookie now wins over the browser
    client.get("/lang/en")
    assert "Pile 1" in client.get("/gongzhu", headers={"Accept-Language": "pt-BR"}).text


def test_language_switch_never_redirects_off_site(client: TestClient) -> None:
    for target in (
        "https://evil.example/",
        "//evil.example/x",
        "/\\evil.example",
        "javascript:alert(1)",
    ):
        response = client.get("/lang/en", params={"next": target}, follow_redirects=False)
        assert response.headers["location"] == "/"


def test_every_page_text_is_translated() -> None:
    from cardscore.web.i18n import messages

    assert set(messages("en")) == set(messages("pt-BR"))


def test_gongzhu_scorer_page_shows_the_breakdown(client: TestClient) -> None:
    token = csrf(client, "/gongzhu")
    page = client.post(
        "/gongzhu",
        data={"csrf": token, "pile0": "23456789TJQKAPGD", "pile1": "", "pile2": "", "pile3": ""},
    )
    assert page.status_code == 200
    assert '<strong class="total">800</strong>' in page.text
    assert "doubler" in page.text
    bad = client.post(
        "/gongzhu", data={"csrf": token, "pile0": "PP", "pile1": "", "pile2": "", "pile3": ""}
    )
    assert bad.status_code == 422
    assert "appears 2 times" in bad.text


def test_gongzhu_match_from_the_form_to_the_match_page(client: TestClient) -> None:
    token = csrf(client, "/gongzhu")
    created = client.post(
        "/gongzhu/new",
        data={
            "csrf": token,
            "player0": "Ann",
            "player1": "Bo",
            "player2": "Cy",
            "player3": "Di",
            "limit": "-300",
        },
        follow_redirects=False,
    )
    assert created.status_code == 303
    page_url = created.headers["location"]
    match_id, key = page_url.split("/")[2:4]
    for version, piles in enumerate(
        [["TJQKP", "G", "D", "23456789A"], ["P", "23456789TJQKA", "G", "D"]], start=1
    ):
        response = client.post(
            f"/api/matches/{match_id}/rounds",
            json={"version": version, "round": {"piles": piles}},
            headers=bearer(key),
        )
        assert response.status_code == 201
    page = client.get(page_url).text
    assert 'id="winner"' in page
    assert "Bo wins!" in page
    assert page.count("<polyline") == 4  # one line per player in the chart
    assert page.count('class="round"') == 2
    assert "Edit this round" in page
    assert "<svg" in page.split('id="share"')[1]  # the share link's QR code


def test_a_missing_match_is_a_problem_not_a_crash(client: TestClient) -> None:
    match = new_match(client)
    assert client.get(f"/m/{match['id']}x/{match['edit_key']}").status_code == 404


def test_browsers_get_an_error_page_and_api_clients_a_problem(client: TestClient) -> None:
    match = new_match(client)
    page = client.get(f"/m/{match['id']}/wrong-key", headers={"Accept": "text/html"})
    assert page.status_code == 403
    assert page.headers["content-type"].startswith("text/html")
    assert "does not open match" in page.text
    api = client.get(f"/api/matches/{match['id']}", headers={"Accept": "text/html", **bearer("x")})
    assert api.headers["content-type"] == "application/problem+json"


def test_api_docs_need_nothing_from_outside(client: TestClient) -> None:
    page = client.get("/api/docs")
    assert page.status_code == 200
    assert "POST /api/matches/{match_id}/rounds" in page.text
    assert "http" not in page.text.split("<main>")[1].replace("/api/openapi.json", "")


def test_a_match_page_leaves_recognition_unimported(tmp_path: Path) -> None:
    """A new worker's first match page only asks whether photos can be read: OpenCV, NumPy and
    the recognizer load at the first photo (in a fresh process: other tests import them)."""
    script = f"""
import sys
from fastapi.testclient import TestClient
from cardscore.web.app import create_app
from cardscore.web.settings import Settings
client = TestClient(create_app(Settings(database_url="sqlite:///{tmp_path}/db.sqlite3")))
body = {{"game": "tranca", "players": 4, "teams": [{{"name": "A"}}, {{"name": "B"}}]}}
created = client.post("/api/matches", json=body).json()
page = client.get(f"/m/{{created['id']}}/{{created['edit_key']}}")
assert page.status_code == 200, page.text
print(sorted(m for m in ("cv2", "numpy", "cardscore.vision") if m in sys.modules))
"""
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"
