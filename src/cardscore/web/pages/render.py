"""What every page shares: the templates, the language, the CSRF token, the forms."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates
from markupsafe import Markup

from cardscore.web.games import adapters
from cardscore.web.i18n import JS_KEYS, LANGUAGES, choose_language, messages, translator
from cardscore.web.problems import ProblemError
from cardscore.web.security import csrf_matches, csrf_signed, new_csrf_token
from cardscore.web.store import MatchStore

__all__ = [
    "CSRF_COOKIE",
    "LANG_COOKIE",
    "error_page",
    "js_text",
    "json_markup",
    "language_of",
    "posted_form",
    "qr_svg",
    "render",
    "store_of",
]

templates = Jinja2Templates(directory=Path(__file__).parent.parent / "templates")
CSRF_COOKIE = "cardscore_csrf"
LANG_COOKIE = "cardscore_lang"


def language_of(request: Request) -> str:
    return choose_language(request.headers.get("accept-language"), request.cookies.get(LANG_COOKIE))


def store_of(request: Request) -> MatchStore:
    store: MatchStore = request.app.state.store
    return store


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
            "games": adapters(),
            "poker": importlib.util.find_spec("cardscore.poker") is not None,
            "path": request.url.path,
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
