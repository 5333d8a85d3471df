"""Cross Kings against the computer: a new game, and the board with move values."""

from __future__ import annotations

import html
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from markupsafe import Markup

from cardscore.web.i18n import translator
from cardscore.web.i18n.text import number
from cardscore.web.pages.forms import create_match
from cardscore.web.pages.render import posted_form, render
from cardscore.web.store import Snapshot

__all__ = ["board_context", "router"]

router = APIRouter(include_in_schema=False)


@router.get("/crosskings", response_class=HTMLResponse)
def crosskings_page(request: Request) -> HTMLResponse:
    return render(request, "crosskings.html", values={}, problems=[])


@router.post("/crosskings", response_class=HTMLResponse)
async def crosskings_create(request: Request) -> Response:
    fields = await posted_form(request)
    data = {"game": "crosskings", "level": fields.get("level", "2")}
    answer = create_match(request, data)
    if isinstance(answer, Response):
        return answer
    return render(request, "crosskings.html", 422, values=fields, problems=answer)


def board_context(snapshot: Snapshot, language: str = "en") -> dict[str, Any]:
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
        "board": Markup(_status_in(Board(game, analysis).svg(), game, analysis, language)),
        "analysis": analysis.as_dict() if analysis else None,
        "your_turn": not game.is_over and game.to_move == 1,
    }


def _status_in(svg: str, game: Any, analysis: Any, language: str) -> str:
    """The board's last line (whose turn, the scores, the cards left) in ``language``."""
    t = translator(language)
    p1, p2 = number(game.p1.score(), language), number(game.p2.score(), language)
    if game.is_over:
        status = t("crosskings.status_over", p1=p1, p2=p2)
    else:
        left = number(game.cards_left, language)
        status = t("crosskings.status", player=game.to_move, p1=p1, p2=p2, left=left)
        if analysis is not None:
            status += t("crosskings.status_best", cell=analysis.best.cell)
    # The status is the board's last text element (cardscore.crosskings.svg draws it last).
    head, _, tail = svg.rpartition("</text>")
    start = head.rindex(">") + 1
    return f"{head[:start]}{html.escape(status)}</text>{tail}"


_ANALYSIS_SECONDS = 0.5
_ANALYSIS_CARDS = 14  # earlier, the exact search rarely finishes within the time above
