"""A match's page, for its edit link (entry, undo, edits) or its share link (read only).

The page shows the latest :data:`SHOWN` rounds; ``?from=N`` shows round N onwards (the "older
rounds" link asks for :data:`OLDER` more), so a 1,000-round match is no heavier than a short one.
Its parts marked ``data-live`` are what changes with a save: the page's script fetches the page
again when the match's events say it changed and swaps those parts in (see ``match.js``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated, Any, cast

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse
from markupsafe import Markup

from cardscore.web.api.routes import match_out
from cardscore.web.charts import COLOURS, totals_chart
from cardscore.web.games import Summary
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

__all__ = ["OLDER", "SHOWN", "router"]

router = APIRouter(include_in_schema=False)

SHOWN = 25
"""Rounds a match page shows at first (the latest)."""
OLDER = 50
"""Rounds the "older rounds" link adds."""


@router.get("/m/{match_id}/{key}", response_class=HTMLResponse)
def match_page(
    request: Request,
    match_id: str,
    key: str,
    first: Annotated[int | None, Query(alias="from", ge=1)] = None,
) -> HTMLResponse:
    snapshot = store_of(request).read(match_id, key)
    summary = snapshot.summary
    assert summary is not None  # the store always works it out
    count = len(snapshot.documents)
    start = max(0, count - SHOWN) if first is None else min(first - 1, count)
    # Only the rounds shown go through the answer model and the template.
    shown = replace(
        snapshot,
        documents=snapshot.documents[start:],
        summary=cast(Summary, {**summary, "rounds": summary["rounds"][start:]}),
    )
    match = match_out(shown)
    base = str(request.base_url).rstrip("/")
    share_key = share_key_for(key) if snapshot.access == "edit" else key
    share_url = f"{base}/m/{match_id}/{share_key}" if snapshot.access == "edit" else None
    page_data: dict[str, Any] = {
        "id": match.id,
        "game": match.game,
        "version": match.version,
        "access": match.access,
        "key": key if snapshot.access == "edit" else None,
        "sides": match.sides,
        "config": match.config,
        "first": start + 1,
        "count": count,
        "over": match.over,
        "documents": {str(r.number): r.document for r in match.rounds},
        "stats": match.stats,
        "photo": recognizer() is not None,
        "lang": language_of(request),
        # The share key follows (read only): the edit key stays out of another URL.
        "events": f"/api/matches/{match_id}/events?key={share_key}",
    }
    game = next(game for game in games_of(request) if game.name == match.game)
    extra: dict[str, Any] = (
        game.match_context(snapshot, page_data["lang"]) if game.match_context else {}
    )
    older = max(1, start + 1 - OLDER) if start > 0 else None
    return render(
        request,
        game.web.match_template or f"match_{game.name}.html",
        **extra,
        match=match,
        older=older,
        colours=COLOURS,
        chart=Markup(
            totals_chart(
                match.sides,
                [r["totals"] for r in summary["rounds"]],
                match.target,
                translator(page_data["lang"])("chart.label"),
            )
        ),
        share_url=share_url,
        share_qr=qr_svg(share_url) if share_url else None,
        page_data=json_markup(page_data),
        js_text=json_markup(js_text(page_data["lang"])),
    )
