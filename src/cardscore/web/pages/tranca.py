"""Creating a Tranca match (the match page itself is :mod:`.match`)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from cardscore.errors import CardscoreError
from cardscore.web.pages.render import posted_form, render, store_of

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


# --- Tranca -------------------------------------------------------------------------------

_TEAM_SIZES = {2: 1, 3: 1, 4: 2, 6: 3}


@router.get("/tranca/new", response_class=HTMLResponse)
def tranca_new(request: Request) -> HTMLResponse:
    return render(request, "tranca_new.html", values={}, problems=[])


@router.post("/tranca/new", response_class=HTMLResponse)
async def tranca_create(request: Request) -> Response:
    fields = await posted_form(request)
    problems: list[str] = []
    try:
        players = int(fields.get("players", "4"))
    except ValueError:
        players = 0
    if players not in _TEAM_SIZES:
        problems.append("players: choose 2, 3, 4 or 6")
        players = 4
    teams_count = players if players in (2, 3) else 2
    teams = []
    for team in range(teams_count):
        names = [
            fields.get(f"team{team}_player{p}", "").strip() for p in range(_TEAM_SIZES[players])
        ]
        names = [n for n in names if n]
        name = fields.get(f"team{team}_name", "").strip() or " & ".join(names) or f"Team {team + 1}"
        teams.append({"name": name[:40], "players": [n[:40] for n in names]})
    target_text = fields.get("target", "").strip()
    target = None
    if target_text:
        try:
            target = int(target_text)
        except ValueError:
            problems.append(f"target: {target_text!r} is not a whole number")
    if not problems:
        try:
            created = store_of(request).create(
                "tranca", {"players": players, "teams": teams, "target": target}
            )
        except CardscoreError as error:
            problems.extend(error.problems)
        else:
            return RedirectResponse(f"/m/{created.id}/{created.edit_key}", status_code=303)
    return render(request, "tranca_new.html", 422, values=fields, problems=problems)
