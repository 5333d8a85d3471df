"""The API's routes: matches (create, read, add/edit/undo rounds), stateless scoring, photos."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from types import FunctionType
from typing import Annotated, Any, Union

from fastapi import APIRouter, Depends, File, Header, Request, Response, UploadFile
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, Field, create_model
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.datastructures import UploadFile as StarletteUploadFile

from cardscore.errors import CardscoreError
from cardscore.web.api.schemas import (
    MatchCreated,
    MatchOut,
    PhotoOut,
    RoundWrite,
    SavedOut,
    StandingsIn,
    StandingsOut,
    VersionIn,
)
from cardscore.web.decks import DeckStore, reading_profile
from cardscore.web.games import WebGame, get_adapter
from cardscore.web.photos import BusyError, RecognitionPool, recognizer
from cardscore.web.problems import (
    KEYED_RESPONSES,
    PROBLEM_RESPONSES,
    ProblemError,
    _response,
    problem_response,
)
from cardscore.web.security import ImageInfo, check_image
from cardscore.web.standings import standings
from cardscore.web.store import MatchStore, Snapshot

__all__ = [
    "BUSY",
    "busy_response",
    "form_photo",
    "game_router",
    "match_out",
    "photo_bytes",
    "router",
]

router = APIRouter(prefix="/api", responses=PROBLEM_RESPONSES)
_bearer = HTTPBearer(
    auto_error=False,
    description="The match's edit key (read and write) or share key (read only).",
)

_WRITE: dict[int | str, dict[str, Any]] = {
    **KEYED_RESPONSES,
    409: _response(409, "The match changed since the client's version."),
}


# Dependencies are coroutines: FastAPI runs a plain function in the thread pool, a thread hop
# each, for what is only an attribute read.
async def _store(request: Request) -> MatchStore:
    store: MatchStore = request.app.state.store
    return store


async def _key(
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


def create_match(body: Any, store: Store, request: Request) -> MatchCreated:
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


def _minimal(prefer: str | None) -> bool:
    """Whether the client asked for ``Prefer: return=minimal`` (RFC 7240)."""
    if not prefer:
        return False
    return any(p.strip().lower() == "return=minimal" for p in prefer.replace(";", ",").split(","))


def _changed(snapshot: Snapshot, status: int, prefer: str | None) -> Response:
    """The answer to a change: the whole match, or only what changed when the client prefers.

    A phone that saves a round needs its new version and totals, not every round again: the
    whole match costs more to serialise and send than the save costs to check and store.
    """
    if not _minimal(prefer):
        return _answer(snapshot, status)
    summary = snapshot.summary
    assert summary is not None
    assert snapshot.changed is not None
    start = snapshot.changed
    saved = SavedOut.model_validate(
        {
            "id": snapshot.id,
            "game": snapshot.game,
            "version": snapshot.version,
            "sides": summary["sides"],
            "rounds": [
                {**r, "document": d}
                for r, d in zip(summary["rounds"][start:], snapshot.documents[start:], strict=True)
            ],
            "totals": summary["totals"],
            "leader": summary["leader"],
            "winner": summary["winner"],
            "over": summary["over"],
        }
    )
    return Response(
        saved.model_dump_json(),
        status,
        {"Preference-Applied": "return=minimal"},
        media_type="application/json",
    )


Prefer = Annotated[
    str | None,
    Header(
        description="`return=minimal` answers with only what changed (`SavedOut`: the new "
        "version, totals, winner and the rounds added or replaced) instead of the whole match."
    ),
]
_CHANGED = {"description": "The whole match, or with `Prefer: return=minimal` only what changed."}


@router.get(
    "/matches/{match_id}", tags=["matches"], responses=KEYED_RESPONSES, response_model=MatchOut
)
def read_match(match_id: str, store: Store, key: Key) -> Response:
    """The match with every round's score, running totals, leader, winner and statistics."""
    return _answer(store.read(match_id, key))


def add_round(match_id: str, body: Any, store: Store, key: Key, prefer: Prefer = None) -> Response:
    """Add a round, checked against the whole match and saved whole or not at all."""
    return _changed(store.add_round(match_id, key, body.version, body.round), 201, prefer)


def edit_round(
    match_id: str, number: int, body: Any, store: Store, key: Key, prefer: Prefer = None
) -> Response:
    """Replace a past round; the totals after it are recomputed."""
    return _changed(store.edit_round(match_id, key, body.version, number, body.round), 200, prefer)


@router.post(
    "/matches/{match_id}/undo",
    tags=["matches"],
    responses={**_WRITE, 200: _CHANGED},
    response_model=MatchOut | SavedOut,
)
def undo(match_id: str, body: VersionIn, store: Store, key: Key, prefer: Prefer = None) -> Response:
    """Take back the last round."""
    return _changed(store.undo(match_id, key, body.version), 200, prefer)


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
            snapshot = store.read(entry.id, entry.key, keep=False)  # up to 100: keep none
        except ProblemError:
            skipped.append(entry.id)
            continue
        seen.add(entry.id)
        assert snapshot.summary is not None  # the store always works it out
        counted.append((snapshot.game, snapshot.config, snapshot.summary))
    return StandingsOut(games=standings(counted), skipped=skipped)


_PHOTO_RESPONSES: dict[int | str, dict[str, Any]] = {
    413: _response(413, "The photo is too large."),
    503: _response(503, "The server is reading other photos: try again after Retry-After."),
}
RETRY_AFTER_S = 5
BUSY = f"the server is reading other photos: try again in {RETRY_AFTER_S} seconds"


async def form_photo(request: Request) -> tuple[StarletteUploadFile, FormData]:
    """The multipart form's ``photo`` file (one file, few fields), and the form's other fields."""
    form = await request.form(max_files=1, max_fields=10)
    photo = form.get("photo")
    if not isinstance(photo, StarletteUploadFile):
        raise CardscoreError("send the photo as the multipart field 'photo'")
    return photo, form


async def photo_bytes(request: Request, photo: StarletteUploadFile) -> tuple[bytes, ImageInfo]:
    """A photo's bytes, checked: type sniffed, bytes and pixels limited (from its header)."""
    settings = request.app.state.settings
    limit: int = settings.max_upload_bytes
    data = await photo.read(limit + 1)
    if len(data) > limit:
        raise ProblemError(413, f"the photo is larger than {limit:,} bytes")
    if not data:
        raise CardscoreError("the photo is empty")
    return data, check_image(data, settings.max_upload_pixels)  # the header only: cheap


def busy_response() -> Response:
    """503 with Retry-After: no turn in the recognition pool now."""
    return problem_response(
        503,
        [BUSY],
        "busy",
        headers={"Retry-After": str(RETRY_AFTER_S)},
    )


async def _read_photo(
    request: Request,
    photo: StarletteUploadFile,
    deck: Callable[[], Any] | None = None,
    *,
    melds: bool = True,
) -> Response:
    """Check a photo and recognize it, in turn (with the profile ``deck`` gives, if any;
    ``melds`` false: another game's photo, whose fans are no Tranca melds)."""
    data, info = await photo_bytes(request, photo)
    pool: RecognitionPool = request.app.state.photo_pool
    read = recognizer()
    recognized = None
    try:
        if read is not None:
            async with pool.turn(info.width * info.height):
                profile = None if deck is None else await run_in_threadpool(deck)
                recognized = await run_in_threadpool(read, data, deck=profile, melds=melds)
    except BusyError:
        return busy_response()
    out = PhotoOut(format=info.format, width=info.width, height=info.height, recognized=recognized)
    return Response(out.model_dump_json(), media_type="application/json")


@router.post("/photos", tags=["photos"], responses=_PHOTO_RESPONSES, response_model=PhotoOut)
async def upload_photo(request: Request, photo: Annotated[UploadFile, File()]) -> Response:
    """Read a photo of cards without storing anything (poker hands, Gong Zhu piles).

    ``recognized`` holds the cards, groups and a Tranca draft (``tranca``: melds, piles,
    dollars) when recognition is installed on the server. The cards are read as another
    game's (no Tranca meld's rules doubt or mend a fan). Photos are read a few at a time; a
    503 with ``Retry-After`` says to come back.
    """
    return await _read_photo(request, photo, melds=False)


_PHOTO_BODY = {
    "requestBody": {
        "required": True,
        "content": {
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "properties": {"photo": {"type": "string", "format": "binary"}},
                    "required": ["photo"],
                }
            }
        },
    }
}


@router.post(
    "/matches/{match_id}/photos",
    tags=["photos"],
    responses={**KEYED_RESPONSES, **_PHOTO_RESPONSES},
    response_model=PhotoOut,
    openapi_extra=_PHOTO_BODY,
)
async def match_photo(request: Request, match_id: str, store: Store, key: Key) -> Response:
    """Read a photo of a team's table for a round of this match (needs the edit key).

    The key is checked before the upload is read: without it, nothing is parsed or recognized.
    """
    access, _version = await asyncio.to_thread(store.peek, match_id, key)
    if access != "edit":
        raise ProblemError(
            403,
            "the share link only reads this match; use the edit link to add photos",
            "read-only",
        )
    photo, _form = await form_photo(request)
    decks = DeckStore(store)
    # The match's photos are read with what its deck learnt (cardscore.web.decks).
    return await _read_photo(request, photo, lambda: reading_profile(decks, match_id))


def game_router(games: Sequence[WebGame]) -> APIRouter:
    """The operations whose bodies depend on the games: creating a match (one schema per game
    that keeps matches, told apart by ``game``) and writing a round (documented per game)."""
    built = APIRouter(prefix="/api", responses=PROBLEM_RESPONSES)
    models = [game.match_in for game in games if game.match_in is not None]
    if models:
        body: Any = Annotated[Union[tuple(models)], Field(discriminator="game")]  # noqa: UP007
        built.add_api_route(
            "/matches",
            _typed(create_match, body),
            methods=["POST"],
            status_code=201,
            tags=["matches"],
        )
    write = _round_write([game.round_in for game in games if game.round_in is not None])
    for path, endpoint, method, status in (
        ("/matches/{match_id}/rounds", add_round, "POST", 201),
        ("/matches/{match_id}/rounds/{number}", edit_round, "PUT", 200),
    ):
        built.add_api_route(
            path,
            _typed(endpoint, write),
            methods=[method],
            status_code=status,
            tags=["matches"],
            responses={**_WRITE, status: _CHANGED},
            response_model=MatchOut | SavedOut,
        )
    return built


def _typed(endpoint: Callable[..., Any], body: Any) -> Callable[..., Any]:
    """``endpoint`` with its ``body`` parameter typed ``body`` (FastAPI reads the annotation)."""
    typed = FunctionType(
        endpoint.__code__,
        endpoint.__globals__,
        endpoint.__name__,
        endpoint.__defaults__,
        endpoint.__closure__,
    )
    typed.__kwdefaults__ = endpoint.__kwdefaults__
    typed.__doc__ = endpoint.__doc__
    typed.__annotations__ = {**endpoint.__annotations__, "body": body}
    return typed


def _round_write(models: Sequence[type[BaseModel]]) -> type[RoundWrite]:
    """:class:`RoundWrite` whose ``round`` documents each game's round (checked by the game)."""
    if not models:
        return RoundWrite
    described: dict[str, Any] = {"anyOf": [m.model_json_schema() for m in models]}
    field = RoundWrite.model_fields["round"]
    round_type: Any = dict[str, Any]
    documented = Field(description=field.description, json_schema_extra=described)
    return create_model("RoundWrite", __base__=RoundWrite, round=(round_type, documented))
