"""Gong Zhu scoring without storage (the scorer page's JSON twin)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from cardscore.web.api.schemas import GongzhuHandIn
from cardscore.web.problems import PROBLEM_RESPONSES

__all__ = ["router"]

router = APIRouter(prefix="/api", responses=PROBLEM_RESPONSES)


@router.post("/gongzhu/score", tags=["scoring"])
def score_gongzhu_hand(body: GongzhuHandIn) -> dict[str, Any]:
    """Score the four piles of a Gong Zhu hand (no storage)."""
    from cardscore.gongzhu import Rules, score_hand

    rules = Rules.from_mapping(body.rules.model_dump())
    scores = score_hand(body.piles, rules, cards=body.notation == "cards")
    return {"scores": [score.as_dict() for score in scores]}
