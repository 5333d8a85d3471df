"""What every page shares: the templates, the language, the CSRF token, the forms."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates
from jinja2 import BaseLoader, ChoiceLoader, Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from cardscore.web.games import WebGame, web_games
from cardscore.web.i18n import JS_KEYS, LANGUAGES, choose_language, messages, translator
from cardscore.web.i18n.text import formatters
from cardscore.web.photos import recognizer
from cardscore.web.problems import ProblemError
from cardscore.web.security import csrf_matches, csrf_signed, new_csrf_token
from cardscore.web.store import MatchStore

__all__ = [
    "CSRF_COOKIE",
    "LANG_COOKIE",
    "error_page",
    "games_of",
    "js_text",
    "json_markup",
    "language_of",
    "posted_form",
    "qr_svg",
    "render",
    "store_of",
]

_TEMPLATES = Path(__file__).parent.parent / "templates"


class _GameTemplates(BaseLoader):
    """The app's templates, then those of every registered game that brings its own."""

    def get_source(
        self, environment: Environment, template: str
    ) -> tuple[str, str | None, Callable[[], bool] | None]:
        folders = [_TEMPLATES, *(g.templates for g in web_games() if g.templates is not None)]
        return ChoiceLoader([FileSystemLoader(f) for f in folders]).get_source(
            environment, template
        )


templates = Jinja2Templates(
    env=Environment(loader=_GameTemplates(), autoescape=select_autoescape())
)
CSRF_COOKIE = "cardscore_csrf"
LANG_COOKIE = "cardscore_lang"


def language_of(request: Request) -> str:
    return choose_language(request.headers.get("accept-language"), request.cookies.get(LANG_COOKIE))


def store_of(request: Request) -> MatchStore:
    store: MatchStore = request.app.state.store
    return store


def games_of(request: Request) -> tuple[WebGame, ...]:
    """The games the app was built with (the registry's, when it was created)."""
    games: tuple[WebGame, ...] = request.app.state.games
    return games


def qr_svg(text: str) -> Markup:
    import qrcode
    import qrcode.image.svg

    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, box_size=8, border=2)
    svg: bytes = image.to_string(encoding="unicode").encode()
    return Markup(svg.decode())


def render(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    language = language_of(request)
    secret = request.app.state.settings.secret
    kept = request.cookies.get(CSRF_COOKIE)
    csrf = kept if kept and csrf_signed(kept, secret) else new_csrf_token(secret)
    response = templates.TemplateResponse(
        request,
        template,
        {
            "t": translator(language),
            "lang": language,
            "languages": LANGUAGES,
            "csrf": csrf,
            "games": games_of(request),
            "path": request.url.path,
            "photos": recognizer() is not None,
            "notes": [],
            **formatters(language),
            **context,
        },
        status_code=status,
    )
    if request.cookies.get(CSRF_COOKIE) != csrf:
        response.set_cookie(CSRF_COOKIE, csrf, httponly=True, samesite="strict")
    return response


async def posted_form(request: Request) -> dict[str, str]:
    """The posted form, after the CSRF check (403 problem when it fails)."""
    form = await request.form()
    fields = {k: v for k, v in form.items() if isinstance(v, str)}
    secret = request.app.state.settings.secret
    if not csrf_matches(request.cookies.get(CSRF_COOKIE), fields.get("csrf"), secret):
        raise ProblemError(
            403,
            "the form's security token is missing or stale: reload the page and try again",
            "csrf",
        )
    return fields


def error_page(request: Request, status: int, problems: list[str]) -> Response:
    """What a browser sees instead of a problem body (a wrong link, a stale form)."""
    return render(request, "error.html", status, code=status, problems=problems)


def json_markup(data: Any) -> Markup:
    """JSON safe inside a <script type="application/json"> element."""
    # "<" as a JSON escape: no "</script>" or "<!--" can end or bend the element.
    return Markup(json.dumps(data, ensure_ascii=False).replace("<", "\\u003c"))


def js_text(language: str) -> dict[str, str]:
    t = translator(language)
    text = {key: t(key) for key in JS_KEYS}
    for table in (messages("en"), messages(language)):
        text.update({k: v for k, v in table.items() if k.startswith("term.")})
    return text
