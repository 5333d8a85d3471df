"""Five-card draw without storage: rank and compare hands, exact draw odds."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from cardscore.errors import CardscoreError, ImpossibleTableError
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
    from cardscore.cards import parse_cards
    from cardscore.poker import evaluate

    problems: list[str] = []
    ranked = []
    where: dict[str, list[int]] = {}
    for number, text in enumerate(hands, start=1):
        try:
            cards = parse_cards(text)
            rank = evaluate(cards)
        except CardscoreError as error:
            problems.extend(f"hand {number}: {p}" for p in error.problems)
            continue
        for card in set(cards):
            where.setdefault(card.code, []).append(number)
        ranked.append({**rank.as_dict(), "percentile": rank.percentile})
    problems.extend(
        f"{code} is in hands {' and '.join(map(str, numbers))}; one deck holds only one"
        for code, numbers in sorted(where.items())
        if len(numbers) > 1
    )
    if problems:
        raise ImpossibleTableError(problems)
    best = min(r["rank"] for r in ranked)
    return {"hands": ranked, "winners": [i for i, r in enumerate(ranked) if r["rank"] == best]}


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
