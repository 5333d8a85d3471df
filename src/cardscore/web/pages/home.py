"""The start page, the language switch and the API's list of operations."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response

from cardscore.web.i18n import LANGUAGES, translator
from cardscore.web.pages.render import LANG_COOKIE, games_of, json_markup, language_of, render

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    t = translator(language_of(request))
    # The script lists kept matches and standings by game: it shows each game's own name.
    names = {game.name: _name(t, game.name, game.title) for game in games_of(request)}
    return render(request, "home.html", game_names=json_markup(names))


def _name(t: Callable[..., str], name: str, title: str) -> str:
    """The game's name in the page's language (its registry title where it has none)."""
    key = f"game.{name}"
    text = t(key)
    return title if text == key else text


@router.get("/lang/{code}")
def set_language(code: str, next: str = "/") -> Response:
    # Only a path on this site: no "//host" or "/\\host" (browsers read "\\" as "/").
    local = next.startswith("/") and not next.startswith("//") and "\\" not in next
    target = next if local and not urlsplit(next).netloc else "/"
    response = RedirectResponse(target, status_code=303)
    if code in LANGUAGES:
        response.set_cookie(LANG_COOKIE, code, max_age=365 * 86400, samesite="lax")
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


_SERVICE_WORKER = Path(__file__).parent.parent / "static" / "sw.js"


@router.get("/sw.js")
def service_worker() -> FileResponse:
    """The service worker, served from the root so that it may keep every page offline."""
    return FileResponse(_SERVICE_WORKER, media_type="text/javascript")
