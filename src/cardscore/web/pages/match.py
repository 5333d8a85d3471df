"""A match's page, for its edit link (entry, undo, edits) or its share link (read only)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from markupsafe import Markup

from cardscore.web.api.routes import match_out
from cardscore.web.charts import COLOURS, totals_chart
from cardscore.web.i18n import translator
from cardscore.web.pages.render import (
    games_of,
    js_text,
    json_markup,
    language_of,
    qr_svg,
    render,
    store_of,
)
from cardscore.web.photos import recognizer
from cardscore.web.security import share_key_for

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


@router.get("/m/{match_id}/{key}", response_class=HTMLResponse)
def match_page(request: Request, match_id: str, key: str) -> HTMLResponse:
    snapshot = store_of(request).read(match_id, key)
    match = match_out(snapshot)
    base = str(request.base_url).rstrip("/")
    share_url = f"{base}/m/{match_id}/{share_key_for(key)}" if snapshot.access == "edit" else None
    page_data: dict[str, Any] = {
        "id": match.id,
        "game": match.game,
        "version": match.version,
        "access": match.access,
        "key": key if snapshot.access == "edit" else None,
        "sides": match.sides,
        "config": match.config,
        "rounds": [r.document for r in match.rounds],
        "stats": match.stats,
        "photo": recognizer() is not None,
        "lang": language_of(request),
    }
    game = next(game for game in games_of(request) if game.name == match.game)
    extra: dict[str, Any] = (
        game.match_context(snapshot, page_data["lang"]) if game.match_context else {}
    )
    return render(
        request,
        game.web.match_template or f"match_{game.name}.html",
        **extra,
        match=match,
        colours=COLOURS,
        chart=Markup(
            totals_chart(
                match.sides,
                [r.totals for r in match.rounds],
                match.target,
                translator(page_data["lang"])("chart.label"),
            )
        ),
        share_url=share_url,
        share_qr=qr_svg(share_url) if share_url else None,
        page_data=json_markup(page_data),
        js_text=json_markup(js_text(page_data["lang"])),
    )
