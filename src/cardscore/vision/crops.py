"""Crops of a normalised photo around index glyphs, and the reader that classifies them.

A crop shows a card upright, its glyph at the top (:func:`crop_batch`). A :class:`CropReader`
is one photo's crops as the classifier reads them: the readings stage reads its candidates
through one, and the repair stage is handed one to look at the photo again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from cardscore.vision.classifier import classify

__all__ = ["CROP", "CROP_SHIFT", "CROP_SIDE", "CropReader", "crop_batch"]


CROP = 32  # classifier input side (px)
CROP_SIDE = 3.2  # crop side, in glyph heights: decks' indices differ in size, not shape
CROP_SHIFT = 0.6  # crop centre sits this far below the glyph (card frame), toward the suit


def crop_batch(norm: np.ndarray, points: list[tuple[float, float, float, float]]) -> np.ndarray:
    """Upright crops (N, CROP, CROP, 3) uint8 of the normalised image.

    Each point is (x, y, size, angle): a glyph centre and height, and the card's rotation in
    degrees, counter-clockwise as seen; the crop shows that card upright, the glyph at its top.
    """
    c = (CROP - 1) / 2
    crops = np.empty((len(points), CROP, CROP, 3), np.uint8)
    for n, (x, y, size, angle) in enumerate(points):
        s = CROP_SIDE * size / CROP
        t = np.deg2rad(angle)
        right = np.array([np.cos(t), -np.sin(t)])
        down = np.array([np.sin(t), np.cos(t)])
        centre = np.array([x, y]) + CROP_SHIFT * size * down
        m = np.empty((2, 3))
        m[:, 0] = s * right
        m[:, 1] = s * down
        m[:, 2] = centre - s * c * (right + down)
        crops[n] = cv2.warpAffine(
            norm,
            m,
            (CROP, CROP),
            flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP
            if s > 1
            else cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_REPLICATE,
        )
    return crops


@dataclass(frozen=True, eq=False)
class CropReader:
    """One normalised photo read by the classifier: :meth:`read` gives the class probabilities
    (N, 53) of the crops at ``points`` (x, y, glyph height, angle: :func:`crop_batch`).

    ``model``: one ONNX file or several, as :func:`~cardscore.vision.classifier.classify` takes.

    >>> CropReader(np.zeros((50, 60, 3), np.uint8)).shape
    (50, 60, 3)
    """

    image: np.ndarray
    model: Path | Sequence[Path] | None = None

    @property
    def shape(self) -> tuple[int, ...]:
        """The normalised photo's shape (rows, columns, channels)."""
        return tuple(self.image.shape)

    def read(self, points: list[tuple[float, float, float, float]]) -> np.ndarray:
        """Class probabilities (len(points), 53) of the crops at ``points``."""
        return classify(crop_batch(self.image, points), self.model)
