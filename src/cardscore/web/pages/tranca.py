"""Creating a Tranca match (the match page itself is :mod:`.match`)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from cardscore.web.i18n import translator
from cardscore.web.pages.forms import create_match
from cardscore.web.pages.render import language_of, posted_form, render

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


@router.get("/tranca/new", response_class=HTMLResponse)
def tranca_new(request: Request) -> HTMLResponse:
    return render(request, "tranca_new.html", values={}, problems=[])


@router.post("/tranca/new", response_class=HTMLResponse)
async def tranca_create(request: Request) -> Response:
    fields = await posted_form(request)
    language = language_of(request)
    t = translator(language)
    players = fields.get("players", "4").strip()
    team_size, teams_count = _TEAM_SIZES.get(players, (0, 2))
    teams = []
    for team in range(teams_count):
        names = [fields.get(f"team{team}_player{p}", "").strip() for p in range(team_size)]
        names = [n for n in names if n]
        # A team with no name of its own is called by its players, when that fits.
        joined = " & ".join(names)
        default = joined if 0 < len(joined) <= _NAME_MAX else f"{t('tranca.team')} {team + 1}"
        teams.append(
            {"name": fields.get(f"team{team}_name", "").strip() or default, "players": names}
        )
    target = fields.get("target", "").strip().replace(".", "").replace(",", "") or None
    # The count is a choice (Literal), which lax mode does not read from text.
    count = int(players) if players.isdigit() else players
    data = {"game": "tranca", "players": count, "teams": teams, "target": target}
    answer = create_match(request, data)
    if isinstance(answer, Response):
        return answer
    return render(request, "tranca_new.html", 422, values=fields, problems=answer)


# Players → (players in a team, teams); an unknown count is the model's to refuse.
_TEAM_SIZES = {"2": (1, 2), "3": (1, 3), "4": (2, 2), "6": (3, 2)}
_NAME_MAX = 40


@router.get("/tranca/play", response_class=HTMLResponse)
def tranca_play(request: Request) -> HTMLResponse:
    """Play a round against the computer (the page calls ``/api/tranca/play``)."""
    return render(request, "tranca_play.html", values={}, problems=[])
