"""A match's page, for its edit link (entry, undo, edits) or its share link (read only).

The page shows the latest :data:`SHOWN` rounds; ``?from=N`` shows round N onwards (the "older
rounds" link asks for :data:`OLDER` more), so a 1,000-round match is no heavier than a short one.
Its parts marked ``data-live`` are what changes with a save: the page's script fetches the page
again when the match's events say it changed and swaps those parts in (see ``match.js``). Those
refreshes (``X-Cardscore-Refresh: 1``) come from every open page at once, so the page of a match
at a version is rendered once and kept (:class:`Rendered`); they carry no form token.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Annotated, Any, cast

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import HTMLResponse
from markupsafe import Markup
from starlette.concurrency import run_in_threadpool

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

__all__ = ["OLDER", "SHOWN", "Rendered", "router"]

router = APIRouter(include_in_schema=False)

SHOWN = 25
"""Rounds a match page shows at first (the latest)."""
OLDER = 50
"""Rounds the "older rounds" link adds."""


class Rendered:
    """Match pages as rendered for live refreshes, by (match, key, language, address, version).

    A match at a version never changes, so neither does its page: fifty phones following one
    match cost one rendering per save, not fifty. Those that ask while it is being rendered wait
    for that one rendering, unless it began before the version they heard of. Only pages a key
    opened are kept, under that key.
    """

    def __init__(self, size: int = 128) -> None:
        self.size = size
        self._pages: OrderedDict[tuple[str, ...], bytes] = OrderedDict()
        self._rendering: dict[tuple[str, ...], asyncio.Future[tuple[bytes, int]]] = {}

    def get(self, key: tuple[str, ...]) -> bytes | None:
        page = self._pages.get(key)
        if page is not None:
            self._pages.move_to_end(key)
        return page

    def put(self, key: tuple[str, ...], page: bytes) -> None:
        self._pages[key] = page
        while len(self._pages) > self.size:
            self._pages.popitem(last=False)

    async def once(
        self,
        place: tuple[str, ...],
        render: Callable[[], Awaitable[tuple[bytes, int]]],
        at_least: int = 0,
    ) -> bytes:
        """The page rendered now, at version ``at_least`` or later.

        Whoever is already rendering the same place answers too, if the version they read is
        recent enough: one that began before the save that was heard of would show the match
        without it, and the page would wait for an announcement that already came.
        """
        while (waiting := self._rendering.get(place)) is not None:
            page, version = await asyncio.shield(waiting)
            if version >= at_least:
                return page
        future: asyncio.Future[tuple[bytes, int]] = asyncio.get_running_loop().create_future()
        self._rendering[place] = future
        try:
            page, version = await render()
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: no "never retrieved" warning when nobody waits
            raise
        finally:
            self._rendering.pop(place, None)
        future.set_result((page, version))
        self.put((*place, str(version)), page)
        return page


def _rendered(request: Request) -> Rendered:
    state = request.app.state
    if not hasattr(state, "rendered_pages"):
        state.rendered_pages = Rendered()
    rendered: Rendered = state.rendered_pages
    return rendered


@router.get("/m/{match_id}/{key}", response_class=HTMLResponse)
async def match_page(
    request: Request,
    match_id: str,
    key: str,
    first: Annotated[int | None, Query(alias="from", ge=1)] = None,
    refresh: Annotated[str | None, Header(alias="x-cardscore-refresh")] = None,
    heard: Annotated[int | None, Header(alias="x-cardscore-version")] = None,
) -> HTMLResponse:
    if refresh != "1" or first is not None:
        return (await run_in_threadpool(_match_page, request, match_id, key, first))[0]
    # A live refresh: the page as kept, for the version the match's events announced (no
    # database read at all) or, without one, for the version the match is at now.
    rendered = _rendered(request)
    place = (match_id, key, language_of(request), str(request.base_url))
    if heard is None:
        _access, wanted = await run_in_threadpool(store_of(request).peek, match_id, key)
    else:
        wanted = heard
    page = rendered.get((*place, str(wanted)))
    if page is not None:
        return HTMLResponse(page)

    async def render() -> tuple[bytes, int]:
        response, version = await run_in_threadpool(
            _match_page, request, match_id, key, None, csrf=""
        )
        return bytes(response.body), version

    return HTMLResponse(await rendered.once(place, render, wanted))


def _match_page(
    request: Request, match_id: str, key: str, first: int | None, **more: Any
) -> tuple[HTMLResponse, int]:
    """The page and the version it shows."""
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
    page = render(
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
        **more,
    )
    return page, snapshot.version
