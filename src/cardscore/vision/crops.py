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
from cardscore.vision.parallel import THREADS, each

__all__ = ["CROP", "CROP_SHIFT", "CROP_SIDE", "CropReader", "crop_batch"]


CROP = 32  # classifier input side (px)
CROP_SIDE = 3.2  # crop side, in glyph heights: decks' indices differ in size, not shape
CROP_SHIFT = 0.6  # crop centre sits this far below the glyph (card frame), toward the suit


_CUT_SPLIT = 64  # fewer crops than this are cut on one thread


def crop_batch(norm: np.ndarray, points: list[tuple[float, float, float, float]]) -> np.ndarray:
    """Upright crops (N, CROP, CROP, 3) uint8 of the normalised image.

    Each point is (x, y, size, angle): a glyph centre and height, and the card's rotation in
    degrees, counter-clockwise as seen; the crop shows that card upright, the glyph at its top.
    """
    crops = np.empty((len(points), CROP, CROP, 3), np.uint8)
    # A photo gives thousands of crops: their transforms are computed at once, in arrays.
    matrices, _ = _crop_matrices(points)

    def cut(rows: np.ndarray) -> None:
        # Bilinear whatever the scale: OpenCV's warpAffine reads INTER_AREA as INTER_LINEAR.
        flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
        for n in rows.tolist():
            cv2.warpAffine(norm, matrices[n], (CROP, CROP), crops[n], flags, cv2.BORDER_REPLICATE)

    # A share of the crops on each core: OpenCV releases the GIL while it warps one.
    shares = 1 if len(points) < _CUT_SPLIT else THREADS
    each(cut, np.array_split(np.arange(len(points)), shares))
    return crops


def _crop_matrices(
    points: list[tuple[float, float, float, float]],
) -> tuple[np.ndarray, np.ndarray]:
    """Each crop's inverse map (N, 2, 3), from crop pixels to the normalised image, and its
    scale (N,): normalised pixels per crop pixel.

    A crop pixel's columns step along the card's right, its rows along its down; the crop's
    centre lies :data:`CROP_SHIFT` glyph heights below the glyph, toward the suit.
    """
    x, y, size, angle = np.asarray(points, np.float64).reshape(-1, 4).T
    scale = CROP_SIDE * size / CROP
    t = np.deg2rad(angle)
    right = np.stack([np.cos(t), -np.sin(t)], axis=1)
    down = np.stack([np.sin(t), np.cos(t)], axis=1)
    centre = np.stack([x, y], axis=1) + (CROP_SHIFT * size)[:, None] * down
    middle = (CROP - 1) / 2
    m = np.empty((len(x), 2, 3))
    m[:, :, 0] = scale[:, None] * right
    m[:, :, 1] = scale[:, None] * down
    m[:, :, 2] = centre - (scale * middle)[:, None] * (right + down)
    return m, scale


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
