"""Whether an array given as BGR (OpenCV's order) holds RGB (PIL's, imageio's, matplotlib's).

An RGB array read as BGR turns red ink blue. The classifier knows hearts and diamonds red, so
it reads them as spades and clubs, or not at all, and often surely enough to pass unflagged:
on the tuning tables a third of the cards came out wrong, a sixth wrong and unflagged. Its
own sureness tells the two orders apart: the index glyphs read are cropped again with red and
blue swapped, and where clearly more of them read surer so than less, the array was RGB.
On the tuning tables and the shared photos given as BGR, never more read surer swapped than
as given; given as RGB, two or more did wherever a few red cards showed.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from cardscore.vision.crops import CropReader
from cardscore.vision.labels import BACKGROUND
from cardscore.vision.readings import Readings

__all__ = ["SWAP_GAIN", "SWAP_NET", "ChannelOrderWarning", "looks_rgb"]

SWAP_GAIN = 0.2  # a crop that reads this much surer one way than the other counts for it
SWAP_NET = 2  # this many more crops surer swapped than as given: the array was RGB


class ChannelOrderWarning(UserWarning):
    """An array given as BGR looked RGB, and was read as RGB."""


def looks_rgb(readings: Readings, model: Path | Sequence[Path] | None = None) -> bool:
    """Whether the index glyphs ``readings`` found read surer with red and blue swapped:
    :data:`SWAP_NET` more of them by :data:`SWAP_GAIN` or more than read surer as given.

    >>> from cardscore.vision.readings import BlobReadings
    >>> nothing = BlobReadings([], np.zeros((0, BACKGROUND + 1)), {})
    >>> looks_rgb(Readings(np.zeros((60, 80, 3), np.uint8), 1.0, 120.0, (), nothing))
    False
    """
    points = [(h.x, h.y, h.size, h.angle) for h in readings.hits if h.size > 0]
    if len(points) < SWAP_NET:
        return False
    swapped_image = np.ascontiguousarray(readings.image[..., ::-1])
    given = CropReader(readings.image, model).read(points)[:, :BACKGROUND].max(axis=1)
    swapped = CropReader(swapped_image, model).read(points)[:, :BACKGROUND].max(axis=1)
    surer_swapped = int(np.count_nonzero(swapped > given + SWAP_GAIN))
    surer_given = int(np.count_nonzero(given > swapped + SWAP_GAIN))
    return surer_swapped - surer_given >= SWAP_NET
