"""Server-rendered pages (Jinja2) for phones and laptops; a little vanilla JS does the entry.

Forms that change something carry a CSRF token (double submit: a cookie and a hidden field that
must match); the match page talks to the JSON API with the key from its own URL.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from markupsafe import Markup

from cardscore.errors import CardscoreError
from cardscore.web.api.routes import match_out
from cardscore.web.charts import COLOURS, totals_chart
from cardscore.web.games import adapters
from cardscore.web.i18n import JS_KEYS, LANGUAGES, choose_language, messages, translator
from cardscore.web.photos import recognizer
from cardscore.web.problems import ProblemError
from cardscore.web.security import csrf_matches, new_key
from cardscore.web.store import MatchStore

__all__ = ["error_page", "router"]

router = APIRouter(include_in_schema=False)
templates = Jinja2Templates(directory=Path(__file__).with_name("templates"))
_CSRF_COOKIE = "cardscore_csrf"
_LANG_COOKIE = "cardscore_lang"


def _store(request: Request) -> MatchStore:
    store: MatchStore = request.app.state.store
    return store


def _qr_svg(text: str) -> Markup:
    import qrcode
    import qrcode.image.svg

    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, box_size=8, border=2)
    svg: bytes = image.to_string(encoding="unicode").encode()
    return Markup(svg.decode())


def render(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    language = choose_language(
        request.headers.get("accept-language"), request.cookies.get(_LANG_COOKIE)
    )
    csrf = request.cookies.get(_CSRF_COOKIE) or new_key()
    response = templates.TemplateResponse(
        request,
        template,
        {
            "t": translator(language),
            "lang": language,
            "languages": LANGUAGES,
            "csrf": csrf,
            "games": adapters(),
            "poker": importlib.util.find_spec("cardscore.poker") is not None,
            "path": request.url.path,
            **context,
        },
        status_code=status,
    )
    if request.cookies.get(_CSRF_COOKIE) != csrf:
        response.set_cookie(_CSRF_COOKIE, csrf, httponly=True, samesite="strict")
    return response


async def _form(request: Request) -> dict[str, str]:
    """The posted form, after the CSRF check (403 problem when it fails)."""
    form = await request.form()
    fields = {k: v for k, v in form.items() if isinstance(v, str)}
    if not csrf_matches(request.cookies.get(_CSRF_COOKIE), fields.get("csrf")):
        raise ProblemError(
            403,
            "the form's security token is missing or stale: reload the page and try again",
            "csrf",
        )
    return fields


def error_page(request: Request, status: int, problems: list[str]) -> Response:
    """What a browser sees instead of a problem body (a wrong link, a stale form)."""
    return render(request, "error.html", status, code=status, problems=problems)


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    return render(request, "home.html")


@router.get("/lang/{code}")
def set_language(code: str, next: str = "/") -> Response:
    target = (
        next
        if next.startswith("/") and not next.startswith("//") and not urlsplit(next).netloc
        else "/"
    )
    response = RedirectResponse(target, status_code=303)
    if code in LANGUAGES:
        response.set_cookie(_LANG_COOKIE, code, max_age=365 * 86400, samesite="lax")
    return response


@router.get("/api/docs", response_class=HTMLResponse)
def api_docs(request: Request) -> HTMLResponse:
    """The API's operations, read from its OpenAPI description (no external scripts)."""
    spec = request.app.openapi()
    operations = [
        {
            "method": method.upper(),
            "path": path,
            "summary": operation.get("summary", ""),
            "description": operation.get("description", ""),
            "responses": sorted(operation.get("responses", {})),
            "secured": bool(operation.get("security")),
        }
        for path, methods in spec["paths"].items()
        for method, operation in methods.items()
    ]
    return render(request, "api_docs.html", operations=operations, version=spec["info"]["version"])


# --- Tranca -------------------------------------------------------------------------------

_TEAM_SIZES = {2: 1, 3: 1, 4: 2, 6: 3}


@router.get("/tranca/new", response_class=HTMLResponse)
def tranca_new(request: Request) -> HTMLResponse:
    return render(request, "tranca_new.html", values={}, problems=[])


@router.post("/tranca/new", response_class=HTMLResponse)
async def tranca_create(request: Request) -> Response:
    fields = await _form(request)
    problems: list[str] = []
    try:
        players = int(fields.get("players", "4"))
    except ValueError:
        players = 0
    if players not in _TEAM_SIZES:
        problems.append("players: choose 2, 3, 4 or 6")
        players = 4
    teams_count = players if players in (2, 3) else 2
    teams = []
    for team in range(teams_count):
        names = [
            fields.get(f"team{team}_player{p}", "").strip() for p in range(_TEAM_SIZES[players])
        ]
        names = [n for n in names if n]
        name = fields.get(f"team{team}_name", "").strip() or " & ".join(names) or f"Team {team + 1}"
        teams.append({"name": name[:40], "players": [n[:40] for n in names]})
    target_text = fields.get("target", "").strip()
    target = None
    if target_text:
        try:
            target = int(target_text)
        except ValueError:
            problems.append(f"target: {target_text!r} is not a whole number")
    if not problems:
        try:
            created = _store(request).create(
                "tranca", {"players": players, "teams": teams, "target": target}
            )
        except CardscoreError as error:
            problems.extend(error.problems)
        else:
            return RedirectResponse(f"/m/{created.id}/{created.edit_key}", status_code=303)
    return render(request, "tranca_new.html", 422, values=fields, problems=problems)


# --- Gong Zhu -----------------------------------------------------------------------------


@router.get("/gongzhu", response_class=HTMLResponse)
def gongzhu_page(request: Request) -> HTMLResponse:
    return render(request, "gongzhu.html", values={}, result=None, problems=[])


@router.post("/gongzhu", response_class=HTMLResponse)
async def gongzhu_score(request: Request) -> HTMLResponse:
    from cardscore.gongzhu import Rules, score_hand
    from cardscore.web.games.gongzhu import _piles

    fields = await _form(request)
    piles = [fields.get(f"pile{i}", "") for i in range(4)]
    notation = "cards" if fields.get("notation") == "cards" else "pile"
    rules = Rules(
        pig_plus_with_all_hearts=bool(fields.get("pig_plus_with_all_hearts")),
        low_hearts_count_for_doubler=bool(fields.get("low_hearts_count_for_doubler")),
    )
    try:
        scores = score_hand(_piles({"piles": piles, "notation": notation}), rules)
    except CardscoreError as error:
        return render(
            request, "gongzhu.html", 422, values=fields, result=None, problems=error.problems
        )
    return render(request, "gongzhu.html", values=fields, result=scores, problems=[])


@router.post("/gongzhu/new", response_class=HTMLResponse)
async def gongzhu_create(request: Request) -> Response:
    fields = await _form(request)
    players = [fields.get(f"player{i}", "").strip()[:40] or f"P{i + 1}" for i in range(4)]
    try:
        limit = int(fields.get("limit", "-1000") or "-1000")
        created = _store(request).create("gongzhu", {"players": players, "limit": limit})
    except (CardscoreError, ValueError) as error:
        problems = error.problems if isinstance(error, CardscoreError) else [str(error)]
        return render(request, "gongzhu.html", 422, values=fields, result=None, problems=problems)
    return RedirectResponse(f"/m/{created.id}/{created.edit_key}", status_code=303)


# --- Five-card draw ----------------------------------------------------------------------


@router.get("/poker", response_class=HTMLResponse)
def poker_page(request: Request) -> HTMLResponse:
    return render(request, "poker.html", values={}, ranked=None, odds=None, problems=[])


@router.post("/poker", response_class=HTMLResponse)
async def poker_answer(request: Request) -> HTMLResponse:
    from cardscore.web.api.poker import DrawIn, draw, rank_hands

    fields = await _form(request)
    ranked = odds = None
    try:
        if fields.get("action") == "draw":
            odds = draw(
                DrawIn(hand=fields.get("hand", "")[:120], discard=fields.get("discard", "")[:120])
            )
        else:
            hands = [fields.get(f"hand{i}", "")[:120] for i in range(6)]
            ranked = rank_hands([h for h in hands if h.strip()] or [""])
    except CardscoreError as error:
        return render(
            request,
            "poker.html",
            422,
            values=fields,
            ranked=None,
            odds=None,
            problems=error.problems,
        )
    return render(request, "poker.html", values=fields, ranked=ranked, odds=odds, problems=[])


# --- Cross Kings --------------------------------------------------------------------------


@router.get("/crosskings", response_class=HTMLResponse)
def crosskings_page(request: Request) -> HTMLResponse:
    return render(request, "crosskings.html", values={}, problems=[])


@router.post("/crosskings", response_class=HTMLResponse)
async def crosskings_create(request: Request) -> Response:
    fields = await _form(request)
    try:
        level = int(fields.get("level", "2"))
        created = _store(request).create("crosskings", {"level": level})
    except (CardscoreError, ValueError) as error:
        problems = error.problems if isinstance(error, CardscoreError) else [str(error)]
        return render(request, "crosskings.html", 422, values=fields, problems=problems)
    return RedirectResponse(f"/m/{created.id}/{created.edit_key}", status_code=303)


def _crosskings_board(snapshot: Any) -> dict[str, Any]:
    """The board with, on the player's turn, every legal move's exact value when it is quick."""
    from cardscore.crosskings import Board, analyse
    from cardscore.web.games.crosskings import game_of

    game = game_of(snapshot.config, snapshot.documents)
    analysis = None
    if not game.is_over and game.to_move == 1 and game.cards_left <= _ANALYSIS_CARDS:
        try:
            analysis = analyse(game, timeout=_ANALYSIS_SECONDS)
        except TimeoutError:
            analysis = None
    return {
        "board": Markup(Board(game, analysis).svg()),
        "analysis": analysis.as_dict() if analysis else None,
        "your_turn": not game.is_over and game.to_move == 1,
    }


_ANALYSIS_SECONDS = 0.5
_ANALYSIS_CARDS = 14  # earlier, the exact search rarely finishes within the time above


# --- A match ------------------------------------------------------------------------------


@router.get("/m/{match_id}/{key}", response_class=HTMLResponse)
def match_page(request: Request, match_id: str, key: str) -> HTMLResponse:
    snapshot = _store(request).read(match_id, key)
    match = match_out(snapshot)
    base = str(request.base_url).rstrip("/")
    from cardscore.web.security import share_key_for

    share_url = f"{base}/m/{match_id}/{share_key_for(key)}" if snapshot.access == "edit" else None
    page_data: dict[str, Any] = {
        "id": match.id,
        "game": match.game,
        "version": match.version,
        "access": match.access,
        "key": key if snapshot.access == "edit" else None,
        "sides": match.sides,
        "config": match.config,
        "rounds": [r.document for r in match.rounds],
        "stats": match.stats,
        "photo": recognizer() is not None,
        "lang": choose_language(
            request.headers.get("accept-language"), request.cookies.get(_LANG_COOKIE)
        ),
    }
    extra = _crosskings_board(snapshot) if match.game == "crosskings" else {}
    return render(
        request,
        f"match_{match.game}.html",
        **extra,
        match=match,
        colours=COLOURS,
        chart=Markup(totals_chart(match.sides, [r.totals for r in match.rounds], match.target)),
        share_url=share_url,
        share_qr=_qr_svg(share_url) if share_url else None,
        page_data=_json_markup(page_data),
        js_text=_json_markup(_js_text(page_data["lang"])),
    )


def _json_markup(data: Any) -> Markup:
    """JSON safe inside a <script type="application/json"> element."""
    # "<" as a JSON escape: no "</script>" or "<!--" can end or bend the element.
    return Markup(json.dumps(data, ensure_ascii=False).replace("<", "\\u003c"))


def _js_text(language: str) -> dict[str, str]:
    t = translator(language)
    text = {key: t(key) for key in JS_KEYS}
    for table in (messages("en"), messages(language)):
        text.update({k: v for k, v in table.items() if k.startswith("term.")})
    return text
