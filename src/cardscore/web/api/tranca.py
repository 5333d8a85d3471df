"""Tranca scoring without storage (the round-entry page's "Check" button uses it)."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Body, Request, Response
from starlette.concurrency import run_in_threadpool

from cardscore.web.api.schemas import TRANCA_ROUND_EXAMPLE
from cardscore.web.api.tranca_play import router as play_router
from cardscore.web.problems import PROBLEM_RESPONSES

__all__ = ["router"]

router = APIRouter(prefix="/api", responses=PROBLEM_RESPONSES)

INLINE_BYTES = 16 * 1024
"""Rounds up to this size (a real one is under 2 kB) are scored on the event loop: handing one
to a worker thread and back costs more than scoring it. Larger ones (the size limits still
bound what they cost) go to the thread pool, so that they never hold up other requests."""


def _scored(body: dict[str, Any], language: str) -> bytes:
    from cardscore.web.games.tranca import score_document
    from cardscore.web.i18n.text import with_details

    scored = with_details(score_document(body), language)
    # As FastAPI's JSON answers are written (compact, UTF-8); the answer is a dict of plain
    # JSON values, so its checking and encoding on the way out would only cost time.
    return json.dumps(scored, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


@router.post("/tranca/score", tags=["scoring"], response_model=dict[str, Any])
async def score_tranca_round(
    request: Request,
    body: Annotated[dict[str, Any], Body(json_schema_extra={"example": TRANCA_ROUND_EXAMPLE})],
) -> Response:
    """Score one Tranca round: every team's terms (with reasons, in the language of
    ``Accept-Language``) and total, or every problem."""
    from cardscore.web.i18n import choose_language

    language = choose_language(request.headers.get("accept-language"))
    if len(await request.body()) <= INLINE_BYTES:
        answer = _scored(body, language)
    else:
        answer = await run_in_threadpool(_scored, body, language)
    return Response(answer, media_type="application/json")


router.include_router(play_router)  # /api/tranca/play: a round against the computer
