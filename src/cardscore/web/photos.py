"""The photo flow's hook into recognition (:mod:`cardscore.vision`, the ``vision`` extra).

The web app does not import recognition statically: when it is installed, photo uploads are read
into a Tranca draft (melds, piles, dollars, each card with where it lies, so the page can draw
them over the photo for correction); when it is not, uploads are only checked. Every reading
waits for a turn in the app's :class:`RecognitionPool`, so a crowd of uploads queues (or is told
to come back) instead of taking the server's memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import importlib.util
from collections.abc import AsyncIterator, Callable
from functools import cache
from typing import Any

__all__ = ["BusyError", "RecognitionPool", "recognizer"]

_NEEDS = ("onnxruntime", "cv2")  # the vision extra (cardscore.vision itself is always here)


@cache
def recognizer() -> Callable[..., dict[str, Any]] | None:
    """``read(photo_bytes[, deck], melds=True) -> recognition as JSON`` when recognition is
    installed, else ``None``; ``deck``: a :class:`~cardscore.vision.deck.DeckProfile` to read
    with; ``melds`` false: another game's photo, whose fans are no Tranca melds."""
    try:
        if any(importlib.util.find_spec(name) is None for name in _NEEDS):
            return None
    except (ImportError, ValueError):
        return None

    def read(data: bytes, deck: Any = None, melds: bool = True) -> dict[str, Any]:
        # Imported at the first photo, not here: every match page asks whether photos can be
        # read, and OpenCV and NumPy would make a new worker's first page that much slower.
        vision = importlib.import_module("cardscore.vision")
        result: dict[str, Any] = vision.recognize(data, deck=deck, melds=melds).as_dict()
        return result

    return read


class BusyError(Exception):
    """No turn to read a photo now (the answer is 503 with Retry-After)."""


class RecognitionPool:
    """Reading photos, bounded: at most ``slots`` at once, their pixels together at most
    ``pixels`` (recognition's memory grows with pixels), and at most ``queue`` waiting for a
    turn; one more, or one that waited ``wait_s``, is :class:`BusyError`.

    A photo larger than ``pixels`` counts as ``pixels``: it is read alone.
    """

    def __init__(self, slots: int, pixels: int, queue: int, wait_s: float = 30.0) -> None:
        self.slots = slots
        self.pixels = pixels
        self.queue = queue
        self.wait_s = wait_s
        self._running = 0
        self._reading = 0
        self._waiting = 0
        self._turn = asyncio.Condition()

    @property
    def running(self) -> int:
        return self._running

    def _free(self, cost: int) -> bool:
        return self._running < self.slots and self._reading + cost <= self.pixels

    @contextlib.asynccontextmanager
    async def turn(self, pixels: int) -> AsyncIterator[None]:
        """Wait for a turn to read a photo of ``pixels`` pixels (raises :class:`BusyError`)."""
        cost = min(pixels, self.pixels)
        async with self._turn:
            if not self._free(cost):
                if self._waiting >= self.queue:
                    raise BusyError
                self._waiting += 1
                try:
                    await asyncio.wait_for(
                        self._turn.wait_for(lambda: self._free(cost)), self.wait_s
                    )
                except TimeoutError:
                    raise BusyError from None
                finally:
                    self._waiting -= 1
            self._running += 1
            self._reading += cost
        try:
            yield
        finally:
            async with self._turn:
                self._running -= 1
                self._reading -= cost
                self._turn.notify_all()
