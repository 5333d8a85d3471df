"""Tranca scoring without storage (the round-entry page's "Check" button uses it)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Request

from cardscore.web.api.schemas import TRANCA_ROUND_EXAMPLE
from cardscore.web.api.tranca_play import router as play_router
from cardscore.web.problems import PROBLEM_RESPONSES

__all__ = ["router"]

router = APIRouter(prefix="/api", responses=PROBLEM_RESPONSES)


@router.post("/tranca/score", tags=["scoring"])
def score_tranca_round(
    request: Request,
    body: Annotated[dict[str, Any], Body(json_schema_extra={"example": TRANCA_ROUND_EXAMPLE})],
) -> dict[str, Any]:
    """Score one Tranca round: every team's terms (with reasons, in the language of
    ``Accept-Language``) and total, or every problem."""
    from cardscore.web.games.tranca import score_document
    from cardscore.web.i18n import choose_language
    from cardscore.web.i18n.text import with_details

    language = choose_language(request.headers.get("accept-language"))
    return with_details(score_document(body), language)


router.include_router(play_router)  # /api/tranca/play: a round against the computer
