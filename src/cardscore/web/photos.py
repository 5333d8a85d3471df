"""The photo flow's hook into recognition (:mod:`cardscore.vision`, the ``vision`` extra).

The web app does not import recognition statically: when it is installed, photo uploads are read
into a Tranca draft (melds, piles, dollars, each card with where it lies, so the page can draw
them over the photo for correction); when it is not, uploads are only checked.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from functools import cache
from typing import Any

__all__ = ["recognizer"]

_NEEDS = ("onnxruntime", "cv2")  # the vision extra (cardscore.vision itself is always here)


@cache
def recognizer() -> Callable[[bytes], dict[str, Any]] | None:
    """``read(photo_bytes) -> recognition as JSON`` when recognition is installed, else ``None``."""
    try:
        if any(importlib.util.find_spec(name) is None for name in _NEEDS):
            return None
    except (ImportError, ValueError):
        return None
    vision = importlib.import_module("cardscore.vision")

    def read(data: bytes) -> dict[str, Any]:
        result: dict[str, Any] = vision.recognize(data).as_dict()
        return result

    return read
