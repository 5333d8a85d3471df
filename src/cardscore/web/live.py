"""Live matches: every open page hears of a save within a second, on any worker or instance.

A save tells the :class:`Hub` of its own process at once (the store calls :meth:`Hub.publish`
after the commit). Other processes hear of it from the database:

- PostgreSQL: the save's transaction sends ``NOTIFY cardscore_match`` with ``"<match id>
  <version>"`` (delivered on commit); each process keeps one ``LISTEN`` connection open in a
  thread (:class:`PostgresListener`).
- SQLite (several workers on one file): each process reads the versions of the matches its
  pages follow, a few times a second, while any page follows one (:class:`VersionPoller`;
  one indexed query whatever the number of followers). On PostgreSQL the poller runs too, slowly,
  in case the ``LISTEN`` connection drops.

A page follows a match with server-sent events (``GET /api/matches/{id}/events`` with
``Accept: text/event-stream``): an ``event: version`` with the match's version now, then one per
change. The same URL without that header answers ``{"version": n}`` at once, for clients that
poll instead.

>>> hub = Hub()
>>> hub.version("m1") is None
True
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
from collections.abc import AsyncIterator, Iterable
from typing import Annotated

from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy import Engine, Table, bindparam, select, text
from sqlalchemy.engine import make_url

from cardscore.web.models import MatchRow
from cardscore.web.problems import KEYED_RESPONSES, PROBLEM_RESPONSES

__all__ = [
    "CHANNEL",
    "NOTIFY",
    "Hub",
    "PostgresListener",
    "VersionPoller",
    "router",
]

_log = logging.getLogger("cardscore.web.live")

CHANNEL = "cardscore_match"
NOTIFY = text(f"SELECT pg_notify('{CHANNEL}', :payload)")
"""Sent inside a save's transaction on PostgreSQL (the payload is ``"<match id> <version>"``)."""

_MATCHES: Table = MatchRow.__table__  # type: ignore[assignment]
_SELECT_VERSIONS = select(_MATCHES.c.id, _MATCHES.c.version).where(
    _MATCHES.c.id.in_(bindparam("ids", expanding=True))
)

KEEP_ALIVE_S = 15.0
"""A comment line this often keeps proxies and phones from closing a quiet stream."""
STREAM_S = 300.0
"""A stream ends after this; the browser reconnects at once (so no worker holds one forever)."""
RETRY_MS = 1000
"""How soon a browser reconnects after a stream ends or drops."""


class Hub:
    """The matches this process's pages follow and the newest version heard of each.

    Followers live on the event loop; :meth:`publish` may be called from any thread.
    """

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._followers: dict[str, set[asyncio.Event]] = {}
        self._versions: dict[str, int] = {}

    def followed(self) -> list[str]:
        """The matches some page in this process follows now."""
        return list(self._followers)

    def version(self, match_id: str) -> int | None:
        return self._versions.get(match_id)

    def publish(self, match_id: str, version: int) -> None:
        """Tell the followers of ``match_id`` that it is at ``version`` (from any thread)."""
        loop = self._loop
        if loop is None or match_id not in self._followers:
            return
        with contextlib.suppress(RuntimeError):  # the loop closed: nobody is left to tell
            loop.call_soon_threadsafe(self._wake, match_id, version)

    def _wake(self, match_id: str, version: int) -> None:
        if version <= self._versions.get(match_id, 0):
            return  # old news (a poll and a notification of the same save)
        self._versions[match_id] = version
        for event in self._followers.get(match_id, ()):
            event.set()

    @contextlib.asynccontextmanager
    async def follow(self, match_id: str, version: int) -> AsyncIterator[asyncio.Event]:
        """An event set whenever ``match_id`` moves past the version last heard."""
        self._loop = asyncio.get_running_loop()
        event = asyncio.Event()
        self._followers.setdefault(match_id, set()).add(event)
        self._wake(match_id, version)
        try:
            yield event
        finally:
            followers = self._followers.get(match_id, set())
            followers.discard(event)
            if not followers:
                self._followers.pop(match_id, None)
                self._versions.pop(match_id, None)


class VersionPoller:
    """Reads the followed matches' versions every ``interval`` seconds while some are followed."""

    def __init__(self, engine: Engine, hub: Hub, interval: float) -> None:
        self.engine = engine
        self.hub = hub
        self.interval = interval
        self._task: asyncio.Task[None] | None = None

    def ensure_running(self) -> None:
        """Start polling (on the running loop) unless it already runs."""
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            ids = self.hub.followed()
            if not ids:
                return  # started again by the next follower
            try:
                rows = await asyncio.to_thread(self._versions, ids)
            except Exception:  # the database is away for a moment: the next poll retries
                _log.warning("reading match versions failed", exc_info=True)
                continue
            for match_id, version in rows:
                self.hub.publish(match_id, version)

    def _versions(self, ids: Iterable[str]) -> list[tuple[str, int]]:
        with self.engine.connect() as connection:
            rows = connection.execute(_SELECT_VERSIONS, {"ids": list(ids)})
            return [(row.id, row.version) for row in rows]

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


class PostgresListener:
    """One ``LISTEN`` connection in a thread, passing each save's notification to the hub."""

    def __init__(self, engine: Engine, hub: Hub) -> None:
        url = make_url(engine.url).set(drivername="postgresql")
        self.conninfo = url.render_as_string(hide_password=False)
        self.hub = hub
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.listening = threading.Event()

    def ensure_running(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="cardscore-listen", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self.conninfo, autocommit=True) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    while not self._stop.is_set():
                        for note in connection.notifies(timeout=1.0):
                            match_id, _, version = note.payload.partition(" ")
                            if version.isdigit():
                                self.hub.publish(match_id, int(version))
            except Exception:  # the server restarted or the network dropped: listen again
                self.listening.clear()
                _log.warning("LISTEN %s failed; retrying in 1 s", CHANNEL, exc_info=True)
                self._stop.wait(1.0)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)


class Live:
    """The hub and whatever tells it of other processes' saves, for one app."""

    def __init__(self, engine: Engine) -> None:
        self.hub = Hub()
        postgres = engine.dialect.name == "postgresql"
        # With LISTEN the poller is only a safety net; on SQLite it is how workers hear.
        self.poller = VersionPoller(engine, self.hub, 2.0 if postgres else 0.2)
        self.listener = PostgresListener(engine, self.hub) if postgres else None

    def ensure_running(self) -> None:
        self.poller.ensure_running()
        if self.listener is not None:
            self.listener.ensure_running()

    async def stop(self) -> None:
        await self.poller.stop()
        if self.listener is not None:
            await asyncio.to_thread(self.listener.stop)


router = APIRouter(prefix="/api", responses=PROBLEM_RESPONSES)
_bearer = HTTPBearer(auto_error=False, description="The match's edit or share key.")


def _event(version: int) -> str:
    return f"id: {version}\nevent: version\ndata: {json.dumps({'version': version})}\n\n"


async def _stream(live: Live, match_id: str, version: int) -> AsyncIterator[str]:
    yield f"retry: {RETRY_MS}\n"
    async with live.hub.follow(match_id, version) as changed:
        live.ensure_running()
        sent = version
        yield _event(version)
        ends = time.monotonic() + STREAM_S
        while time.monotonic() < ends:
            try:
                await asyncio.wait_for(changed.wait(), KEEP_ALIVE_S)
            except TimeoutError:
                yield ": keep-alive\n\n"
                continue
            changed.clear()
            now = live.hub.version(match_id) or sent
            if now > sent:
                sent = now
                yield _event(now)


@router.get(
    "/matches/{match_id}/events",
    tags=["matches"],
    responses={
        **KEYED_RESPONSES,
        200: {
            "description": "With `Accept: text/event-stream`: server-sent events, an "
            '`event: version` (`data: {"version": n}`) now and after every change. '
            'Otherwise `{"version": n}` at once (for polling).',
            "content": {"text/event-stream": {}},
        },
    },
)
async def match_events(
    request: Request,
    match_id: str,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    key: Annotated[
        str | None,
        Query(description="The key, for browsers' EventSource (which cannot send headers)."),
    ] = None,
    accept: Annotated[str | None, Header()] = None,
) -> Response:
    """Follow a match: its version now, then each new one as it is saved (on any server)."""
    from cardscore.web.store import MatchStore

    store: MatchStore = request.app.state.store
    live: Live = request.app.state.live
    given = credentials.credentials if credentials is not None else key
    _access, version = await asyncio.to_thread(store.peek, match_id, given)
    if "text/event-stream" not in (accept or ""):
        return JSONResponse({"version": version})
    return StreamingResponse(
        _stream(live, match_id, version),
        media_type="text/event-stream",
        # No proxy may hold events back (nginx buffers unless told).
        headers={"X-Accel-Buffering": "no"},
    )
