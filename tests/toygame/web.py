"""Toy's web parts: the match adapter, request schemas, pages and API router."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from cardscore.errors import CardscoreError
from cardscore.matches import sole_leader
from cardscore.web.games.base import Checked, Defaults, RoundSummary, Summary
from cardscore.web.pages.render import render
from tests.toygame import hand_points

__all__ = ["ToyAdapter", "ToyMatchIn", "ToyRoundIn", "api", "pages"]


class ToyMatchIn(BaseModel):
    """A Toy match between two players."""

    model_config = ConfigDict(extra="forbid", strict=True)
    game: Literal["toy"]
    players: list[str] = Field(min_length=2, max_length=2)
    target: int = Field(50, ge=1, le=1000)


class ToyRoundIn(BaseModel):
    """A Toy round: each player's hand, in the match's order."""

    model_config = ConfigDict(extra="forbid", strict=True)
    hands: list[str] = Field(min_length=2, max_length=2)


class ToyAdapter(Defaults):
    name = "toy"

    def new_config(self, request: Mapping[str, Any]) -> dict[str, Any]:
        return {"players": list(request["players"]), "target": int(request.get("target", 50))}

    def check_rounds(
        self, config: Mapping[str, Any], documents: Sequence[Mapping[str, Any]]
    ) -> Checked:
        checked: list[dict[str, Any]] = []
        for number, document in enumerate(documents, start=1):
            hands = document.get("hands")
            if not isinstance(hands, list) or len(hands) != 2:
                raise CardscoreError(f"round {number}: 'hands' is a list of two hands")
            try:
                [hand_points(hand) for hand in hands]
            except CardscoreError as error:
                raise CardscoreError(f"round {number}: {p}" for p in error.problems) from None
            checked.append({"hands": list(hands)})
        return Checked(checked, self.summary(config, checked))

    def summary(self, config: Mapping[str, Any], documents: Sequence[Mapping[str, Any]]) -> Summary:
        sides = list(config["players"])
        totals = [0, 0]
        rounds: list[RoundSummary] = []
        for number, document in enumerate(documents, start=1):
            points = [hand_points(hand) for hand in document["hands"]]
            totals = [t + p for t, p in zip(totals, points, strict=True)]
            rounds.append({"number": number, "points": points, "totals": totals, "detail": {}})
        by_side = dict(zip(sides, totals, strict=True))
        winner = sole_leader(by_side, reaching=config["target"])
        return {
            "sides": sides,
            "rounds": rounds,
            "totals": totals,
            "leader": sole_leader(by_side) if rounds else None,
            "winner": winner,
            "over": winner is not None,
            "target": config["target"],
            "stats": {},
        }


pages = APIRouter(include_in_schema=False)


@pages.get("/toy", response_class=HTMLResponse)
def toy_page(request: Request) -> HTMLResponse:
    return render(request, "toy.html")


api = APIRouter(prefix="/api/toy", tags=["scoring"])


class HandIn(BaseModel):
    cards: str = Field(max_length=120)


@api.post("/score")
def score(body: HandIn) -> dict[str, int]:
    """A hand's points."""
    return {"points": hand_points(body.cards)}
