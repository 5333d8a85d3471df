"""A match's deck over the API: teach it from a deck spread photo or from the cards confirmed on
a round's photo, see what it learnt, forget it. Every call needs the match's edit key; teaching
takes a turn in the recognition pool, like reading a photo, and stores nothing if it fails."""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field, ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.datastructures import UploadFile as StarletteUploadFile

from cardscore.cards import Card
from cardscore.errors import CardscoreError, Problem
from cardscore.web.api.routes import Key, Store, busy_response, form_photo, photo_bytes
from cardscore.web.decks import DeckStatus, DeckStore, teach
from cardscore.web.photos import BusyError, RecognitionPool, recognizer
from cardscore.web.problems import (
    KEYED_RESPONSES,
    PROBLEM_RESPONSES,
    ProblemError,
    _response,
    validation_problems,
)

if TYPE_CHECKING:  # the vision extra is imported only where a photo is read
    from cardscore.vision.deck import DeckProfile
    from cardscore.vision.learn import ConfirmedExamples, Examples

__all__ = ["DeckOut", "ReadingIn", "router"]

router = APIRouter(prefix="/api", tags=["deck"], responses={**PROBLEM_RESPONSES, **KEYED_RESPONSES})

MAX_CONFIRMED = 208  # cards on one photo: four decks' worth is already more than any table


class DeckOut(BaseModel):
    """What the match's deck learnt so far."""

    learnt: bool = Field(description="Whether the match has a deck (taught at least once).")
    cards: int = Field(0, description="Cards (of 52) with index crops learnt.")
    photos: int = Field(0, description="Photos that taught it, a spread counted.")
    spread: bool = Field(False, description="Whether a deck spread photo taught it.")
    revision: int = Field(0, description="Moves on with every teaching.")
    version: int | None = Field(None, description="The profile's file format version.")
    teach: Literal["every_photo", "corrections"] | None = Field(
        None,
        description="Which photos teach the deck once their round is saved: every photo while "
        "it has learnt nothing, then only photos with a correction (the library's rule, "
        "``cardscore.vision.learn.teach_rule``); ``null`` without recognition on the server.",
    )


class TaughtOut(DeckOut):
    """The deck after a round's photo taught it: which confirmed cards were learnt."""

    taught: list[str] = Field(description="Confirmed cards whose index crops were learnt.")
    missed: list[str] = Field(description="Confirmed cards with no index found where they lie.")


class ConfirmedIn(BaseModel):
    card: str = Field(description="The card as the player confirmed it (``Jd``, ``10♦``…).")
    corners: Annotated[
        list[Annotated[list[float], Field(min_length=2, max_length=2)]],
        Field(min_length=4, max_length=4),
    ] = Field(description="The card's outline as the reading drew it, clockwise from its top left.")


class ReadingIn(BaseModel):
    """The photo's reading as the player confirmed it: the size of the image the corners are
    measured in (the reading's ``image``), and each confirmed card with its outline."""

    width: float = Field(gt=0)
    height: float = Field(gt=0)
    cards: list[ConfirmedIn] = Field(min_length=1, max_length=MAX_CONFIRMED)


def _teach(learnt: bool) -> Any:
    if recognizer() is None:  # no photo is read, none teaches
        return None
    from cardscore.vision.learn import teach_rule

    return teach_rule(learnt)


def _out(status: DeckStatus) -> DeckOut:
    return DeckOut(
        learnt=status.learnt,
        cards=status.cards,
        photos=status.photos,
        spread=status.spread,
        revision=status.revision,
        version=status.version,
        teach=_teach(status.learnt),
    )


async def _editable(store: Any, match_id: str, key: str | None) -> DeckStore:
    decks = DeckStore(store)
    await asyncio.to_thread(decks.require_edit, match_id, key)
    return decks


async def _form_photo(request: Request) -> tuple[StarletteUploadFile, FormData]:
    if recognizer() is None:
        problem = Problem.of("deck_needs_recognition", extra="vision")
        raise ProblemError(501, [problem], "no-recognition")
    return await form_photo(request)


_UPLOAD: dict[int | str, dict[str, Any]] = {413: _response(413, "The photo is too large.")}
_BUSY: dict[int | str, dict[str, Any]] = {
    503: _response(503, "The server is reading other photos: try again after Retry-After.")
}
_NONE: dict[int | str, dict[str, Any]] = {
    501: _response(501, "Recognition is not installed on this server.")
}
_TEACH: dict[int | str, dict[str, Any]] = {
    **_UPLOAD,
    **_BUSY,
    **_NONE,
    409: _response(409, "Other photos taught it meanwhile."),
}


def _body(fields: dict[str, Any]) -> dict[str, Any]:
    properties = {"photo": {"type": "string", "format": "binary"}, **fields}
    schema = {"type": "object", "properties": properties, "required": list(properties)}
    return {
        "requestBody": {"required": True, "content": {"multipart/form-data": {"schema": schema}}}
    }


@router.get("/matches/{match_id}/deck", response_model=DeckOut)
async def read_deck(request: Request, match_id: str, store: Store, key: Key) -> DeckOut:
    """Whether the match has a deck, how many cards it learnt from how many photos."""
    decks = await _editable(store, match_id, key)
    return _out(await asyncio.to_thread(decks.status, match_id))


@router.delete("/matches/{match_id}/deck", response_model=DeckOut)
async def forget_deck(request: Request, match_id: str, store: Store, key: Key) -> DeckOut:
    """Forget what the match's deck learnt: its photos are read as the shipped models read."""
    decks = await _editable(store, match_id, key)
    await asyncio.to_thread(decks.forget, match_id)
    return _out(DeckStatus(False))


@router.post(
    "/matches/{match_id}/deck/spread",
    response_model=DeckOut,
    responses=_TEACH,
    openapi_extra=_body({}),
)
async def teach_spread(request: Request, match_id: str, store: Store, key: Key) -> Any:
    """Teach the deck from one photo of all 52 cards face up in four rows by suit (♠ ♥ ♦ ♣),
    A to K left to right. It may be the first thing a new match is given."""
    decks = await _editable(store, match_id, key)
    photo, _form = await _form_photo(request)
    data, info = await photo_bytes(request, photo)

    def learn(_deck: Any) -> Any:
        from cardscore.vision.image_io import load_image
        from cardscore.vision.learn import spread_examples

        return spread_examples(load_image(data).image)

    pool: RecognitionPool = request.app.state.photo_pool
    try:
        async with pool.turn(info.width * info.height):
            status = await run_in_threadpool(teach, decks, match_id, learn, spread=True)
    except BusyError:
        return busy_response()
    return _out(status)


def _reading(text: Any, language: str) -> ReadingIn:
    if not isinstance(text, str):
        raise CardscoreError([Problem.of("deck_reading_field", field="reading")])
    try:
        return ReadingIn.model_validate(json.loads(text))
    except json.JSONDecodeError as error:
        raise ProblemError(400, f"the body is not valid JSON: {error}", "invalid-request") from None
    except ValidationError as error:
        status, problems = validation_problems(
            [{**e, "loc": ("reading", *e["loc"])} for e in error.errors()], language
        )
        raise ProblemError(status, problems, "invalid-request") from None


@router.post(
    "/matches/{match_id}/deck/photos",
    response_model=TaughtOut,
    responses=_TEACH,
    openapi_extra=_body({"reading": {"type": "string", "description": "`ReadingIn` as JSON."}}),
)
async def teach_photo(request: Request, match_id: str, store: Store, key: Key) -> Any:
    """Teach the deck from a round's photo and the cards the player confirmed on it (the
    reading as corrected): only those cards' index crops are learnt, each as the card
    confirmed. The photo may be the one read or a smaller copy of it: the corners are scaled
    from the ``width``×``height`` they were measured in."""
    from cardscore.web.i18n import choose_language

    decks = await _editable(store, match_id, key)
    photo, form = await _form_photo(request)
    language = choose_language(request.headers.get("accept-language"))
    reading = _reading(form.get("reading"), language)
    problems: list[str] = []
    cards: list[Card] = []
    for n, given in enumerate(reading.cards):
        try:
            cards.append(Card(given.card))
        except CardscoreError as error:
            # Placed as the request's fields are (as a validation error would say it).
            problems.extend(p.at(f"reading.cards.{n}") for p in error.problems)
    if problems:
        raise CardscoreError(problems)
    data, info = await photo_bytes(request, photo)
    sx, sy = info.width / reading.width, info.height / reading.height
    outcome: list[ConfirmedExamples] = []

    def learn(deck: DeckProfile | None) -> Examples:
        from cardscore.vision.learn import Confirmed, confirmed_examples

        confirmed = [
            Confirmed(card, tuple((x * sx, y * sy) for x, y in given.corners))
            for card, given in zip(cards, reading.cards, strict=True)
        ]
        outcome.append(confirmed_examples(data, confirmed, deck=deck))
        return outcome[-1].examples

    pool: RecognitionPool = request.app.state.photo_pool
    try:
        async with pool.turn(info.width * info.height):
            status = await run_in_threadpool(teach, decks, match_id, learn)
    except BusyError:
        return busy_response()
    taught, missed = outcome[-1].taught, outcome[-1].missed
    return TaughtOut(
        **_out(status).model_dump(),
        taught=[c.code for c in taught],
        missed=[c.code for c in missed],
    )
