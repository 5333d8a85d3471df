"""Five-card draw without storage: rank and compare hands, exact draw odds."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from cardscore.web.problems import PROBLEM_RESPONSES

__all__ = ["DrawIn", "HandsIn", "draw", "rank_hands", "router"]

router = APIRouter(prefix="/api/poker", responses=PROBLEM_RESPONSES, tags=["scoring"])
Cards = Annotated[str, StringConstraints(max_length=120)]


class HandsIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    hands: list[Cards] = Field(
        min_length=1, max_length=10, examples=[["As Ad Kc Kd 2h", "Ks Kh Qc Qd Ah"]]
    )


class DrawIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    hand: Cards = Field(examples=["8s 8h Kc 5d 2h"])
    discard: Cards = Field("", examples=["Kc 5d 2h"])
    dead: Cards = ""


def rank_hands(hands: list[str]) -> dict[str, Any]:
    """Every hand's class and the winners; a card in two hands is an error (one deck)."""
    from cardscore.poker import showdown

    return showdown(hands).as_dict()


def draw(body: DrawIn) -> dict[str, Any]:
    from cardscore.poker import draw_odds

    odds = draw_odds(body.hand, discard=body.discard, dead=body.dead)
    return {**odds.as_dict(), "expected_percentile": odds.expected_percentile}


@router.post("/rank")
def rank_endpoint(body: HandsIn) -> dict[str, Any]:
    """Each hand's class (1 = royal flush … 7,462), its category and the winners (indices)."""
    return rank_hands(body.hands)


@router.post("/draw-odds")
def draw_endpoint(body: DrawIn) -> dict[str, Any]:
    """Exact odds of every final hand after discarding ``discard`` from ``hand``."""
    return draw(body)
