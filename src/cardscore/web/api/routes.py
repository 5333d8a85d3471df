"""The API's routes: matches (create, read, add/edit/undo rounds), stateless scoring, photos."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, File, Request, Response, UploadFile
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.concurrency import run_in_threadpool

from cardscore.errors import CardscoreError
from cardscore.web.api.schemas import (
    GongzhuHandIn,
    MatchCreated,
    MatchIn,
    MatchOut,
    PhotoOut,
    RoundWrite,
    StandingsIn,
    StandingsOut,
    VersionIn,
)
from cardscore.web.games import get_adapter
from cardscore.web.photos import recognizer
from cardscore.web.problems import PROBLEM_RESPONSES, ProblemError, _response
from cardscore.web.security import check_image
from cardscore.web.standings import standings
from cardscore.web.store import MatchStore, Snapshot

__all__ = ["match_out", "router"]

router = APIRouter(prefix="/api", responses=PROBLEM_RESPONSES)
_bearer = HTTPBearer(
    auto_error=False,
    description="The match's edit key (read and write) or share key (read only).",
)

_KEYED: dict[int | str, dict[str, Any]] = {
    401: _response(401, "No key was given."),
    403: _response(403, "The key does not open this match, or only reads it."),
    404: _response(404, "There is no such match or round."),
}
_WRITE: dict[int | str, dict[str, Any]] = {
    **_KEYED,
    409: _response(409, "The match changed since the client's version."),
}


_RECOGNITIONS = asyncio.Semaphore(2)


def _store(request: Request) -> MatchStore:
    store: MatchStore = request.app.state.store
    return store


def _key(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> str | None:
    return credentials.credentials if credentials is not None else None


Store = Annotated[MatchStore, Depends(_store)]
Key = Annotated[str | None, Depends(_key)]


def match_out(snapshot: Snapshot) -> MatchOut:
    adapter = get_adapter(snapshot.game)
    if adapter is None:
        raise ProblemError(422, f"game {snapshot.game!r} is not installed on this server")
    summary = snapshot.summary or adapter.summary(snapshot.config, snapshot.documents)
    rounds: list[dict[str, Any]] = [
        {**r, "document": d} for r, d in zip(summary["rounds"], snapshot.documents, strict=True)
    ]
    return MatchOut.model_validate(
        {
            "id": snapshot.id,
            "game": snapshot.game,
            "version": snapshot.version,
            "access": snapshot.access,
            "config": adapter.public_config(snapshot.config),
            **summary,
            "rounds": rounds,
        }
    )


@router.get("/health", tags=["server"])
def health() -> dict[str, str]:
    """Liveness check."""
    return {"status": "ok"}


@router.post("/matches", status_code=201, tags=["matches"])
def create_match(body: MatchIn, store: Store, request: Request) -> MatchCreated:
    """Create a match; the answer holds its edit key (keep it) and its share key."""
    created = store.create(body.game, body.model_dump())
    base = str(request.base_url).rstrip("/")
    return MatchCreated(
        id=created.id,
        game=created.game,
        version=created.version,
        edit_key=created.edit_key,
        share_key=created.share_key,
        edit_url=f"{base}/m/{created.id}/{created.edit_key}",
        share_url=f"{base}/m/{created.id}/{created.share_key}",
    )


def _answer(snapshot: Snapshot, status: int = 200) -> Response:
    # Serialised by Pydantic in one step: FastAPI's own path (validate again, then
    # jsonable_encoder over every term of every round) costs more than the save itself.
    return Response(match_out(snapshot).model_dump_json(), status, media_type="application/json")


@router.get("/matches/{match_id}", tags=["matches"], responses=_KEYED, response_model=MatchOut)
def read_match(match_id: str, store: Store, key: Key) -> Response:
    """The match with every round's score, running totals, leader, winner and statistics."""
    return _answer(store.read(match_id, key))


@router.post(
    "/matches/{match_id}/rounds",
    status_code=201,
    tags=["matches"],
    responses=_WRITE,
    response_model=MatchOut,
)
def add_round(match_id: str, body: RoundWrite, store: Store, key: Key) -> Response:
    """Add a round, checked against the whole match and saved whole or not at all."""
    return _answer(store.add_round(match_id, key, body.version, body.round), 201)


@router.put(
    "/matches/{match_id}/rounds/{number}",
    tags=["matches"],
    responses=_WRITE,
    response_model=MatchOut,
)
def edit_round(match_id: str, number: int, body: RoundWrite, store: Store, key: Key) -> Response:
    """Replace a past round; the totals after it are recomputed."""
    return _answer(store.edit_round(match_id, key, body.version, number, body.round))


@router.post(
    "/matches/{match_id}/undo", tags=["matches"], responses=_WRITE, response_model=MatchOut
)
def undo(match_id: str, body: VersionIn, store: Store, key: Key) -> Response:
    """Take back the last round."""
    return _answer(store.undo(match_id, key, body.version))


@router.post("/standings", tags=["matches"])
def match_standings(body: StandingsIn, store: Store) -> StandingsOut:
    """Matches and rounds won by each team and player, over the matches given (each with its
    edit or share key: the ones a browser keeps). Matches that cannot be opened are skipped."""
    counted: list[tuple[str, dict[str, Any], Any]] = []
    skipped: list[str] = []
    seen: set[str] = set()
    for entry in body.matches:
        if entry.id in seen:
            continue
        try:
            snapshot = store.read(entry.id, entry.key)
        except ProblemError:
            skipped.append(entry.id)
            continue
        adapter = get_adapter(snapshot.game)
        if adapter is None:
            skipped.append(entry.id)
            continue
        seen.add(entry.id)
        counted.append(
            (snapshot.game, snapshot.config, adapter.summary(snapshot.config, snapshot.documents))
        )
    return StandingsOut(games=standings(counted), skipped=skipped)


@router.post("/gongzhu/score", tags=["scoring"])
def score_gongzhu_hand(body: GongzhuHandIn) -> dict[str, Any]:
    """Score the four piles of a Gong Zhu hand (no storage)."""
    from cardscore.gongzhu import Rules, score_hand
    from cardscore.web.games.gongzhu import _piles

    piles = _piles({"piles": body.piles, "notation": body.notation})
    rules = Rules(**body.rules.model_dump())
    return {"scores": [s.as_dict() for s in score_hand(piles, rules)]}


@router.post(
    "/photos",
    tags=["photos"],
    responses={413: _response(413, "The photo is too large."), 503: _response(503, "")},
)
async def upload_photo(request: Request, photo: Annotated[UploadFile, File()]) -> PhotoOut:
    """Check a photo of a table (type sniffed, bytes and pixels limited) and recognize it.

    ``recognized`` holds the cards, groups and a Tranca draft (``tranca``: melds, piles,
    dollars) when recognition is installed on the server.
    """
    limit: int = request.app.state.settings.max_upload_bytes
    data = await photo.read(limit + 1)
    if len(data) > limit:
        raise ProblemError(413, f"the photo is larger than {limit:,} bytes")
    if not data:
        raise CardscoreError("the photo is empty")
    info = check_image(data, request.app.state.settings.max_upload_pixels)
    read = recognizer()
    recognized = None
    if read is not None:
        async with _RECOGNITIONS:  # recognition is CPU-heavy: a queue, not a pile-up
            recognized = await run_in_threadpool(read, data)
    return PhotoOut(format=info.format, width=info.width, height=info.height, recognized=recognized)
