"""White balance: a photo under a lamp's warm light (or a cold one) made neutral first.

A phone's own white balance leaves some photos with a cast, and a warm cast makes a card's
white paper and a pale table alike (and its red index nearer the paper). The cards are the
whitest things on a table: the brightest part of the photo is taken for their paper, and
each colour channel is scaled so that it comes out grey. A photo whose brightest part is
already near grey (within :data:`CAST`) is left exactly as it is; so is one whose brightest
part is white in every channel (a glare: no colour to read there).

>>> import numpy as np
>>> photo = np.full((100, 100, 3), (60, 110, 40), np.uint8)   # a green cloth
>>> photo[40:60, 40:60] = (170, 215, 240)                        # a card under a warm lamp
>>> balanced = white_balance(photo)
>>> [int(v) for v in balanced.image[50, 50]], balanced.gains
([240, 240, 240], (1.4118, 1.1163, 1.0))
>>> white_balance(np.full((50, 50, 3), 200, np.uint8)).gains
(1.0, 1.0, 1.0)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

__all__ = ["BRIGHTEST", "CAST", "GLARE", "MAX_GAIN", "Balanced", "white_balance"]

BRIGHTEST = 0.01  # the share of the photo's pixels, the brightest, taken for the cards' paper
# The paper's channels further apart than this (largest / smallest) are a cast to undo: the
# training tables' own light varies the channels by up to about 1.2 (train/synth.py).
CAST = 1.2
GLARE = 250  # a brightest part this bright in every channel is a glare, not paper
MAX_GAIN = 1.6  # no channel is scaled more than this (a coloured table is no lamp)
_SAMPLE = 200_000  # pixels sampled to find the brightest (a 12 MP photo needs no more)


@dataclass(frozen=True, eq=False)
class Balanced:
    """The photo made neutral, and the gain each channel (B, G, R) was scaled by."""

    image: np.ndarray
    gains: tuple[float, float, float]


def white_balance(image: np.ndarray) -> Balanced:
    """``image`` (BGR uint8) with its brightest part made grey, if it had a cast."""
    pixels = image.reshape(-1, 3)
    step = max(1, len(pixels) // _SAMPLE)
    sample = pixels[::step].astype(np.float32)
    brightness = sample.sum(axis=1)
    cut = np.quantile(brightness, 1 - BRIGHTEST)
    paper = np.median(sample[brightness >= cut], axis=0)
    if paper.min() <= 0 or paper.min() >= GLARE or paper.max() / paper.min() <= CAST:
        return Balanced(image, (1.0, 1.0, 1.0))
    gains = np.minimum(paper.max() / paper, MAX_GAIN)
    # One table per channel: OpenCV applies each to its own channel in one pass.
    lut = np.clip(np.arange(256, dtype=np.float32)[:, None] * gains, 0, 255).astype(np.uint8)
    out = np.asarray(cv2.LUT(image, lut.reshape(256, 1, 3)))
    b, g, r = (round(float(x), 4) for x in gains)
    return Balanced(out, (b, g, r))
