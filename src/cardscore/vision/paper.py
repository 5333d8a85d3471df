"""Paper on a table: the whitest, least coloured pixels of a photo, as masks of card regions.

Paper under any light is the whitest, least coloured thing on a table; wooden and felt
tables are more yellow or more saturated than it. The photo's whiteness (:func:`whiteness`),
split by Otsu's threshold, gives the cards (:func:`card_masks`): the view stage measures the
table's lean from their outlines, the regions stage the card width (:func:`find_paper`
once for both, when the photo is read as it is).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

__all__ = [
    "MASK_SIDE",
    "SPLIT_GAP",
    "Paper",
    "card_masks",
    "find_paper",
    "outlined_mask",
    "whiteness",
]

MASK_SIDE = 1000  # long side of the image the card masks are computed on
SPLIT_GAP = 25  # the bright class of whiteness is split again while its halves lie this apart
OUTLINE_DEPTH = 8  # a line this much darker than the whiteness around it parts paper regions


@dataclass(frozen=True, eq=False)
class Paper:
    """A photo's paper: the photo at the masks' size (its long side at most
    :data:`MASK_SIDE`), that scale (mask pixels per photo pixel), and its card masks
    (:func:`card_masks`, the preferred first)."""

    small: np.ndarray
    scale: float
    masks: list[np.ndarray]


def find_paper(photo: np.ndarray) -> Paper:
    """The photo's :class:`Paper`."""
    h, w = photo.shape[:2]
    scale = min(1.0, MASK_SIDE / max(h, w))
    size = (round(w * scale), round(h * scale))
    small = cv2.resize(photo, size, interpolation=cv2.INTER_AREA)
    return Paper(small, scale, card_masks(small))


def _otsu(values: np.ndarray) -> tuple[float, float]:
    """Otsu's threshold of a 1-D uint8 sample and the gap between its two class means."""
    level, _ = cv2.threshold(values.reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    low, high = values[values <= level], values[values > level]
    gap = float(high.mean() - low.mean()) if len(low) and len(high) else 0.0
    return float(level), gap


def whiteness(bgr: np.ndarray, neutral: bool = False) -> np.ndarray:
    """Brightness, less any colour cast relative to the brightest pixels (taken as the cards).

    Paper under any light is the whitest, least coloured thing on a table; wooden and felt
    tables are more yellow or more saturated than it. ``neutral``: relative to the brightest
    of the least coloured pixels instead (a pale, bright table brighter than the cards).
    """
    lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.int16)
    light = lab[..., 0]
    key = light - 2 * np.hypot(lab[..., 1] - 128, lab[..., 2] - 128) if neutral else light
    top = key >= np.percentile(key, 97)
    a_ref = float(np.median(lab[..., 1][top]))
    b_ref = float(np.median(lab[..., 2][top]))
    yellow = np.maximum(0, lab[..., 2] - b_ref - 3)
    score = light - 5 * yellow - 2 * np.abs(lab[..., 1] - a_ref)
    out: np.ndarray = np.clip(score, 0, 255).astype(np.uint8)
    return out


def card_masks(small: np.ndarray, neutral: bool = False, splits: int = 2) -> list[np.ndarray]:
    """Candidate card masks, the preferred first: the bright class of the photo's whiteness
    (``neutral`` as in :func:`whiteness`), and while that class is itself bimodal (a pale table
    and the cards) its brighter part, up to ``splits`` levels in all, brightest first.

    Uneven light can make a further split keep only the best-lit cards: find_regions picks
    the mask that shows the most card-shaped regions.
    """
    white = whiteness(small, neutral)
    level, _ = _otsu(white.ravel())
    levels = [level]
    while len(levels) < splits:
        upper = white[white > levels[0]]
        if upper.size <= 100:
            break
        brighter, gap = _otsu(upper)
        if gap <= SPLIT_GAP:
            break
        levels.insert(0, brighter)
    return [_filled(white, level) for level in levels]


def _filled(white: np.ndarray, level: float) -> np.ndarray:
    mask: np.ndarray = (white > max(level, 60.0)).astype(np.uint8) * 255
    mask = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)))
    # Fill holes (court-card art, pips) so a card is one solid region.
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 255, cv2.FILLED)
    return filled


def outlined_mask(small: np.ndarray) -> np.ndarray:
    """A card mask for a table as white as the cards: the paper of any brightness parted by
    the thin dark lines around it (a card's printed border, its edge's shadow), less
    whatever reaches the photo's edge (the table), holes filled.

    A white or pale grey table is one bright class with the cards, and every other mask
    shows one region the size of the table; the cards' outlines still enclose them.

    >>> table = np.full((200, 300, 3), 232, np.uint8)
    >>> _ = cv2.rectangle(table, (50, 40), (120, 140), (120, 120, 120), 2)
    >>> table[42:139, 52:119] = 246
    >>> mask = outlined_mask(table)
    >>> bool(mask[90, 85]), bool(mask[10, 10]), bool(mask[90, 200])
    (True, False, False)
    """
    white = whiteness(small)
    level, _ = _otsu(white.ravel())
    around = cv2.morphologyEx(white, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    line = around.astype(np.int16) - white > OUTLINE_DEPTH
    bright = white > min(level, float(np.median(white)))
    parted = (bright & ~line).astype(np.uint8) * 255
    _, labels, stats, _ = cv2.connectedComponentsWithStats(parted, connectivity=4)
    h, w = parted.shape
    x, y, bw, bh = (stats[:, k] for k in range(4))
    table = (x == 0) | (y == 0) | (x + bw >= w) | (y + bh >= h)
    table[0] = True  # the lines and the dark, no paper
    inside = np.where(table[labels], 0, 255).astype(np.uint8)
    # The lines between a meld's cards bridged, and each region its convex hull: an index
    # printed against the card's border is no notch in it, a pip against the next card's
    # edge no bay.
    bridged = np.asarray(cv2.morphologyEx(inside, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8)))
    contours, _ = cv2.findContours(bridged, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(inside)
    cv2.drawContours(filled, [cv2.convexHull(c) for c in contours], -1, 255, cv2.FILLED)
    return filled
