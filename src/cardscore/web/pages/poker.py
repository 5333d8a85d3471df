"""Five-card draw: rank and compare hands, exact draw odds."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from cardscore.errors import CardscoreError
from cardscore.web.pages.photo import posted_photo, reading_notes
from cardscore.web.pages.render import posted_form, render

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


@router.get("/poker", response_class=HTMLResponse)
def poker_page(request: Request) -> HTMLResponse:
    return render(request, "poker.html", values={}, ranked=None, odds=None, problems=[])


@router.post("/poker", response_class=HTMLResponse)
async def poker_answer(request: Request) -> HTMLResponse:
    from cardscore.web.api.poker import DrawIn, draw, rank_hands

    fields = await posted_form(request)
    ranked = odds = None
    try:
        if fields.get("action") == "draw":
            odds = draw(
                DrawIn(hand=fields.get("hand", "")[:120], discard=fields.get("discard", "")[:120])
            )
        else:
            hands = [fields.get(f"hand{i}", "")[:120] for i in range(6)]
            ranked = rank_hands([h for h in hands if h.strip()] or [""])
    except CardscoreError as error:
        return render(
            request,
            "poker.html",
            422,
            values=fields,
            ranked=None,
            odds=None,
            problems=error.problems,
        )
    return render(request, "poker.html", values=fields, ranked=ranked, odds=odds, problems=[])


@router.post("/poker/photo", response_class=HTMLResponse)
async def poker_photo(request: Request) -> HTMLResponse:
    """The hands read from a photo (each player's five cards in a row), ranked."""
    from cardscore.web.api.poker import rank_hands

    read = await posted_photo(request)
    if read.result is None:
        return render(
            request, "poker.html", 422, values={}, ranked=None, odds=None, problems=read.problems
        )
    from cardscore.vision.hands import rows_of_cards

    notes = reading_notes(request, read.result)
    try:
        rows = rows_of_cards(read.result, 5)
        hands = [" ".join(seen.card.code for seen in row) for row in rows]
        ranked = rank_hands(hands)
    except CardscoreError as error:
        return render(
            request,
            "poker.html",
            422,
            values={},
            ranked=None,
            odds=None,
            problems=error.problems,
            notes=notes,
        )
    values = {f"hand{i}": hand for i, hand in enumerate(hands)}
    return render(
        request, "poker.html", values=values, ranked=ranked, odds=None, problems=[], notes=notes
    )
