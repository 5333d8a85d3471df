"""Whether an array given as BGR (OpenCV's order) holds RGB (PIL's, imageio's, matplotlib's).

An RGB array read as BGR turns red ink blue. The classifier knows hearts and diamonds red, so
it reads them as spades and clubs, or not at all, and often surely enough to pass unflagged:
on the tuning tables a third of the cards came out wrong, a sixth wrong and unflagged. Its
own sureness tells the two orders apart: the index glyphs read are cropped again with red and
blue swapped, and where they read surer so by :data:`SWAP_SUM` or more in all, the array
was RGB. Over 99 tuning tables given as BGR that sum never passed 0.02; given as RGB, it
passed 0.3 on 92 (all 75 that showed three red cards or more).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from cardscore.vision.crops import CropReader
from cardscore.vision.labels import BACKGROUND
from cardscore.vision.readings import Readings

__all__ = ["SWAP_SUM", "ChannelOrderWarning", "looks_rgb"]

# The index glyphs' crops read this much surer in all (their best card's probability, summed)
# with red and blue swapped than as given: the array was RGB.
SWAP_SUM = 0.3


class ChannelOrderWarning(UserWarning):
    """An array given as BGR looked RGB, and was read as RGB."""


def looks_rgb(readings: Readings, model: Path | Sequence[Path] | None = None) -> bool:
    """Whether the index glyphs ``readings`` found read surer with red and blue swapped, by
    :data:`SWAP_SUM` or more summed over them.

    >>> from cardscore.vision.readings import BlobReadings
    >>> nothing = BlobReadings([], np.zeros((0, BACKGROUND + 1)), {})
    >>> looks_rgb(Readings(np.zeros((60, 80, 3), np.uint8), 1.0, 120.0, (), nothing))
    False
    """
    points = [(h.x, h.y, h.size, h.angle) for h in readings.hits if h.size > 0]
    if not points:
        return False
    swapped_image = np.ascontiguousarray(readings.image[..., ::-1])
    given = CropReader(readings.image, model).read(points)[:, :BACKGROUND].max(axis=1)
    swapped = CropReader(swapped_image, model).read(points)[:, :BACKGROUND].max(axis=1)
    return float(np.sum(swapped - given)) >= SWAP_SUM
