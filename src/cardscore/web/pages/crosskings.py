"""Cross Kings against the computer: a new game, and the board with move values."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup

from cardscore.errors import CardscoreError
from cardscore.web.pages.render import posted_form, render, store_of
from cardscore.web.store import Snapshot

__all__ = ["board_context", "router"]

router = APIRouter(include_in_schema=False)


@router.get("/crosskings", response_class=HTMLResponse)
def crosskings_page(request: Request) -> HTMLResponse:
    return render(request, "crosskings.html", values={}, problems=[])


@router.post("/crosskings", response_class=HTMLResponse)
async def crosskings_create(request: Request) -> Response:
    fields = await posted_form(request)
    try:
        level = int(fields.get("level", "2"))
        created = store_of(request).create("crosskings", {"level": level})
    except (CardscoreError, ValueError) as error:
        problems = error.problems if isinstance(error, CardscoreError) else [str(error)]
        return render(request, "crosskings.html", 422, values=fields, problems=problems)
    return RedirectResponse(f"/m/{created.id}/{created.edit_key}", status_code=303)


def board_context(snapshot: Snapshot) -> dict[str, Any]:
    """The board with, on the player's turn, every legal move's exact value when it is quick."""
    from cardscore.crosskings import Board, analyse
    from cardscore.web.games.crosskings import game_of

    game = game_of(snapshot.config, snapshot.documents)
    analysis = None
    if not game.is_over and game.to_move == 1 and game.cards_left <= _ANALYSIS_CARDS:
        try:
            analysis = analyse(game, timeout=_ANALYSIS_SECONDS)
        except TimeoutError:
            analysis = None
    return {
        "board": Markup(Board(game, analysis).svg()),
        "analysis": analysis.as_dict() if analysis else None,
        "your_turn": not game.is_over and game.to_move == 1,
    }


_ANALYSIS_SECONDS = 0.5
_ANALYSIS_CARDS = 14  # earlier, the exact search rarely finishes within the time above
