"""The FastAPI application: API, pages, static files, security headers, problem bodies."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cardscore._version import __version__
from cardscore.web import migrate
from cardscore.web.api.deck import router as deck_router
from cardscore.web.api.routes import game_router
from cardscore.web.api.routes import router as api_router
from cardscore.web.db import make_engine
from cardscore.web.games import web_games
from cardscore.web.live import Live
from cardscore.web.live import router as live_router
from cardscore.web.pages import error_page
from cardscore.web.pages import router as pages_router
from cardscore.web.photos import RecognitionPool
from cardscore.web.play_store import PlayStore
from cardscore.web.problems import install_problem_handlers
from cardscore.web.security import BodyLimitMiddleware
from cardscore.web.settings import Settings
from cardscore.web.store import MatchStore

__all__ = ["create_app"]

_STATIC = Path(__file__).with_name("static")
_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),  # page URLs carry a match's key
    (b"x-frame-options", b"DENY"),
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
        b"script-src 'self'; frame-ancestors 'none'",
    ),
]


class _SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        # Pages and answers hold a match's state (and its page URL a key): never cache them.
        dynamic = not scope.get("path", "").startswith("/static/")

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                extra = [(b"cache-control", b"no-store")] if dynamic else []
                message["headers"] = [*message.get("headers", []), *_HEADERS, *extra]
            await send(message)

        await self.app(scope, receive, with_headers)


def _is_upload(path: str) -> bool:
    """Photo uploads (stateless, or under a match, a deck spread too) get the larger limit."""
    return path.startswith("/api/photos") or (
        path.startswith("/api/matches/") and path.endswith(("/photos", "/deck/spread"))
    )


def create_app(settings: Settings | None = None) -> FastAPI:
    """The app for ``settings`` (default: from the environment, see :mod:`.settings`)."""
    settings = settings or Settings.from_env()
    engine = make_engine(settings.database_url)
    live = Live(engine)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
        await live.stop()
        engine.dispose()

    if settings.migrate:
        migrate.upgrade(engine)
    app = FastAPI(
        title="cardscore",
        version=__version__,
        description="Keep card-game matches and score rounds with the reasoning behind every "
        "point. Errors are RFC 9457 problem bodies listing every problem.",
        docs_url=None,  # Swagger UI would load scripts from a CDN; /api/docs is ours (pages.py)
        redoc_url=None,
        openapi_url="/api/openapi.json",
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.engine = engine
    app.state.store = MatchStore(engine)
    app.state.play_store = PlayStore(engine)
    app.state.live = live
    app.state.photo_pool = RecognitionPool(
        settings.recognitions, settings.recognition_pixels, settings.recognition_queue
    )
    app.state.store.listeners.append(live.hub.publish)
    install_problem_handlers(app, html=error_page)
    app.state.games = games = web_games()  # the pages offer what the routes serve
    app.include_router(api_router)
    app.include_router(deck_router)
    app.include_router(live_router)
    app.include_router(game_router(games))
    for game in games:
        if game.api is not None:
            app.include_router(game.api)
    app.include_router(pages_router)
    for game in games:
        if game.pages is not None:
            app.include_router(game.pages)
        if game.static is not None:  # before "/static": the first mount that matches serves
            app.mount(f"/static/{game.name}", StaticFiles(directory=game.static))
    app.mount("/static", StaticFiles(directory=_STATIC), name="static")
    app.add_middleware(_SecurityHeaders)
    app.add_middleware(
        BodyLimitMiddleware,
        default=settings.max_body_bytes,
        uploads=settings.max_upload_bytes + 64 * 1024,
        is_upload=_is_upload,
    )
    return app
