"""A photo posted to a stateless page (a showdown's hands, a Gong Zhu pile): checked and
bounded like every photo (its bytes and pixels limited, read in a turn of the app's
:class:`~cardscore.web.photos.RecognitionPool`), then read; nothing is stored.

The page gets the :class:`~cardscore.vision.recognition.Recognition` and decides nothing
itself: the game's own code turns it into hands or a pile.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from fastapi import Request
from starlette.concurrency import run_in_threadpool

from cardscore.web.api.routes import BUSY, form_photo, photo_bytes
from cardscore.web.i18n import translator
from cardscore.web.pages.render import language_of, posted_form
from cardscore.web.photos import BusyError, RecognitionPool, recognizer

if TYPE_CHECKING:
    from cardscore.vision.recognition import Recognition

__all__ = ["PhotoRead", "posted_photo", "reading_notes"]


@dataclass(frozen=True)
class PhotoRead:
    """A posted photo's form fields, and its reading or why there is none (``problems``)."""

    fields: dict[str, str]
    result: Recognition | None
    problems: list[str]


async def posted_photo(request: Request) -> PhotoRead:
    """The posted form (after its CSRF check) and its ``photo`` field read."""
    # The form is parsed once, bounded as every photo's (form_photo); the CSRF check reads it.
    photo, _ = await form_photo(request)
    fields = await posted_form(request)
    data, info = await photo_bytes(request, photo)
    t = translator(language_of(request))
    if recognizer() is None:
        return PhotoRead(fields, None, [t("photo_unavailable")])
    pool: RecognitionPool = request.app.state.photo_pool
    try:
        async with pool.turn(info.width * info.height):
            from cardscore.vision import recognize

            result = await run_in_threadpool(recognize, data)
    except BusyError:
        return PhotoRead(fields, None, [BUSY])
    return PhotoRead(fields, result, [])


def reading_notes(request: Request, result: Recognition) -> list[str]:
    """What the players should know of a reading: the cards to confirm, a jumbo index, a
    blurred photo (in the page's language)."""
    t = translator(language_of(request))
    notes = [t("photo_read_cards", n=len(result.cards))]
    flagged = [c.card.code for c in result.cards if c.flagged]
    if flagged:
        notes.append(t("photo_confirm", cards=" ".join(flagged)))
    if result.jumbo:
        notes.append(t("photo_jumbo"))
    if result.sharpened:
        notes.append(t("photo_shaken"))
    return notes
