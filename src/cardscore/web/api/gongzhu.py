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
    from cardscore.web.games.gongzhu import _piles

    piles = _piles({"piles": body.piles, "notation": body.notation})
    rules = Rules(**body.rules.model_dump())
    return {"scores": [s.as_dict() for s in score_hand(piles, rules)]}
