"""The Gong Zhu scorer (four piles) and creating a Gong Zhu match."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from cardscore.errors import CardscoreError
from cardscore.web.pages.forms import create_match
from cardscore.web.pages.photo import posted_photo, reading_notes
from cardscore.web.pages.render import posted_form, render

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


@router.get("/gongzhu", response_class=HTMLResponse)
def gongzhu_page(request: Request) -> HTMLResponse:
    return render(request, "gongzhu.html", values={}, result=None, problems=[])


@router.post("/gongzhu", response_class=HTMLResponse)
async def gongzhu_score(request: Request) -> HTMLResponse:
    from cardscore.gongzhu import Rules, score_hand

    fields = await posted_form(request)
    piles = [fields.get(f"pile{i}", "") for i in range(4)]
    notation = "cards" if fields.get("notation") == "cards" else "pile"
    rules = Rules(
        pig_plus_with_all_hearts=bool(fields.get("pig_plus_with_all_hearts")),
        low_hearts_count_for_doubler=bool(fields.get("low_hearts_count_for_doubler")),
    )
    try:
        scores = score_hand(piles, rules, cards=notation == "cards")
    except CardscoreError as error:
        return render(
            request, "gongzhu.html", 422, values=fields, result=None, problems=error.problems
        )
    return render(request, "gongzhu.html", values=fields, result=scores, problems=[])


@router.post("/gongzhu/photo", response_class=HTMLResponse)
async def gongzhu_photo(request: Request) -> HTMLResponse:
    """One player's pile read from a photo (the collected cards spread out), scored."""
    from cardscore.gongzhu import Rules, score_pile

    read = await posted_photo(request)
    if read.result is None:
        return render(request, "gongzhu.html", 422, values={}, result=None, problems=read.problems)
    rules = Rules(
        pig_plus_with_all_hearts=bool(read.fields.get("pig_plus_with_all_hearts")),
        low_hearts_count_for_doubler=bool(read.fields.get("low_hearts_count_for_doubler")),
    )
    score = score_pile(tuple(seen.card for seen in read.result.cards), rules)
    return render(
        request,
        "gongzhu.html",
        values={},
        result=None,
        photo_score=score,
        problems=[],
        notes=reading_notes(request, read.result),
    )


@router.post("/gongzhu/new", response_class=HTMLResponse)
async def gongzhu_create(request: Request) -> Response:
    fields = await posted_form(request)
    players = [fields.get(f"player{i}", "").strip() or f"P{i + 1}" for i in range(4)]
    limit = fields.get("limit", "").strip().replace(".", "").replace(",", "") or "-1000"
    data = {"game": "gongzhu", "players": players, "limit": limit}
    answer = create_match(request, data)
    if isinstance(answer, Response):
        return answer
    return render(request, "gongzhu.html", 422, values=fields, result=None, problems=answer)
