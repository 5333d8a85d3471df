"""Every error the API returns is an RFC 9457 problem body naming every problem found.

Bad input is a 4xx with ``problems`` (one message each); an unexpected failure is a 500 with no
stack trace in the body (it goes to the server log).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from cardscore.errors import CardscoreError
from cardscore.limits import MAX_PROBLEM_CHARS, MAX_PROBLEMS
from cardscore.web.i18n import choose_language, translator
from cardscore.web.i18n.text import problem_text, validation_message

__all__ = [
    "KEYED_RESPONSES",
    "PROBLEM_RESPONSES",
    "Problem",
    "ProblemError",
    "ProblemItem",
    "capped",
    "install_problem_handlers",
    "problem_bytes",
    "problem_response",
]

_log = logging.getLogger("cardscore.web")
MEDIA_TYPE = "application/problem+json"


class ProblemItem(BaseModel):
    """One thing wrong: a stable ``code``, its ``params`` and the ``message`` (in the language of
    ``Accept-Language``: English or Brazilian Portuguese)."""

    code: str = Field(description="Stable, whatever the language (e.g. ``meld_too_short``).")
    params: dict[str, str | int] = Field(default_factory=dict)
    message: str


class Problem(BaseModel):
    """What went wrong: a title, a status, and every problem found (RFC 9457)."""

    type: str = Field("about:blank", description="A URI naming the kind of problem.")
    title: str
    status: int
    detail: str
    problems: list[ProblemItem] = Field(description="One entry per thing wrong with the request.")
    current_version: int | None = Field(
        None, description="On a version conflict (409): the match's version now."
    )


def _item(problem: str, status: int, kind: str | None, language: str) -> dict[str, Any]:
    """A problem as the body lists it; one with no code of its own takes the body's kind."""
    code = getattr(problem, "code", None)
    params = getattr(problem, "params", None)
    if code is None or params is None:
        code = (kind or ("invalid_input" if status == 422 else f"http_{status}")).replace("-", "_")
        params = {}
    return {"code": code, "params": dict(params), "message": problem_text(problem, language)}


def capped(problems: Sequence[str]) -> list[str]:
    """At most :data:`~cardscore.limits.MAX_PROBLEMS` problems, each cut to a readable length
    (an error body stays small whatever the request held).

    >>> capped(["x" * 600])[0][-3:], len(capped(["p"] * 80)), capped(["p"] * 80)[-1]
    ('x …', 51, '… and 30 more problems')
    """
    shown = [
        p if len(p) <= MAX_PROBLEM_CHARS else p[: MAX_PROBLEM_CHARS - 2] + " …"
        for p in problems[:MAX_PROBLEMS]
    ]
    if len(problems) > MAX_PROBLEMS:
        shown.append(f"… and {len(problems) - MAX_PROBLEMS} more problems")
    return shown


def _body(
    status: int,
    problems: Sequence[str],
    kind: str | None = None,
    language: str = "en",
    **extra: Any,
) -> dict[str, Any]:
    problems = capped(problems)
    phrase = HTTPStatus(status).phrase
    items = [_item(p, status, kind, language) for p in problems] or [
        _item(phrase, status, kind, language)
    ]
    body: dict[str, Any] = {
        "type": f"/problems/{kind}" if kind else "about:blank",
        "title": phrase,
        "status": status,
        "detail": "; ".join(item["message"] for item in items),
        "problems": items,
    }
    body.update({k: v for k, v in extra.items() if v is not None})
    return body


def problem_bytes(status: int, *problems: str) -> bytes:
    return json.dumps(_body(status, problems), ensure_ascii=False).encode()


def problem_response(
    status: int,
    problems: Iterable[str],
    kind: str | None = None,
    headers: Mapping[str, str] | None = None,
    language: str = "en",
    **extra: Any,
) -> JSONResponse:
    return JSONResponse(
        _body(status, list(problems), kind, language, **extra),
        status_code=status,
        media_type=MEDIA_TYPE,
        headers=headers,
    )


class ProblemError(Exception):
    """Raise from a route to answer with a problem body."""

    def __init__(
        self, status: int, problems: str | Iterable[str], kind: str | None = None, **extra: Any
    ) -> None:
        self.status = status
        self.problems = [problems] if isinstance(problems, str) else list(problems)
        self.kind = kind
        self.extra = extra
        super().__init__("; ".join(self.problems))


def _location(loc: Sequence[Any]) -> str:
    parts = [str(p) for p in loc if p not in ("body",)]
    return ".".join(parts) or "body"


def validation_problems(errors: Sequence[Any], language: str = "en") -> tuple[int, list[str]]:
    """Messages for Pydantic's errors (in ``language``); malformed JSON is a 400, the rest a 422."""
    problems: list[str] = []
    status = 422
    t = translator(language)
    for error in errors:
        if error.get("type") == "json_invalid":
            status = 400
            ctx = error.get("ctx") or {}
            problems.append(t("problem.not_json", a=ctx.get("error", error.get("msg"))))
        elif language == "en":
            problems.append(f"{_location(error.get('loc', ()))}: {error.get('msg')}")
        else:
            where = _location(error.get("loc", ()))
            problems.append(f"{where}: {validation_message(error, language)}")
    return status, problems


HtmlRenderer = Callable[[Request, int, list[str]], Response]


def install_problem_handlers(app: FastAPI, html: HtmlRenderer | None = None) -> None:
    """Answer every error with a problem body (or, for a browser on a page, ``html``'s page)."""

    def answer(
        request: Request,
        status: int,
        problems: list[str],
        kind: str | None = None,
        headers: Mapping[str, str] | None = None,
        **extra: Any,
    ) -> Response:
        wants_page = "text/html" in request.headers.get("accept", "")
        if html is not None and wants_page and not request.url.path.startswith("/api/"):
            return html(request, status, problems)
        # Messages in the language of Accept-Language (the page's scripts send theirs).
        language = choose_language(request.headers.get("accept-language"))
        return problem_response(status, problems, kind, headers, language, **extra)

    @app.exception_handler(ProblemError)
    async def _problem(request: Request, error: ProblemError) -> Response:
        return answer(request, error.status, error.problems, error.kind, **error.extra)

    @app.exception_handler(CardscoreError)
    async def _cardscore(request: Request, error: CardscoreError) -> Response:
        return answer(request, 422, list(error.problems), "invalid-input")

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, error: RequestValidationError) -> Response:
        language = choose_language(request.headers.get("accept-language"))
        status, problems = validation_problems(error.errors(), language)
        return answer(request, status, problems, "invalid-request")

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, error: StarletteHTTPException) -> Response:
        detail = (
            error.detail if isinstance(error.detail, str) else HTTPStatus(error.status_code).phrase
        )
        # Keep the exception's headers: a 405 says which methods are allowed (RFC 9110).
        return answer(request, error.status_code, [detail], headers=error.headers)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, error: Exception) -> Response:
        _log.exception("unexpected error on %s %s", request.method, request.url.path)
        return answer(request, 500, ["an unexpected error happened; it has been logged"])


def _response(status: int, description: str) -> dict[str, Any]:
    return {"model": Problem, "description": description, "content": {MEDIA_TYPE: {}}}


PROBLEM_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: _response(400, "The body is not valid JSON."),
    413: _response(413, "The body is too large."),
    422: _response(422, "The request is impossible; `problems` names every reason."),
}
KEYED_RESPONSES: dict[int | str, dict[str, Any]] = {
    401: _response(401, "No key was given."),
    403: _response(403, "The key does not open this match, or only reads it."),
    404: _response(404, "There is no such match or round."),
}
"""What an operation on one match, opened by its key, may answer besides its own."""
