"""Stage 1, the table seen from above → card regions and scale: the white card regions, their
axes, and the card width they show.

Paper under any light is the whitest, least coloured thing on a table: the photo's paper
(:mod:`~cardscore.vision.paper`) gives the cards as regions, and the regions shaped like one
whole card give the card width (:func:`find_regions`). :func:`normalise` scales the photo so a card
is :data:`~cardscore.vision.geometry.NORMAL_WIDTH` px wide for the later stages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from cardscore.vision.geometry import CardBox
from cardscore.vision.paper import Paper, card_masks, find_paper, outlined_mask

__all__ = ["MAX_CARD_SHARE", "MIN_CARD_PX", "REGION_REACH", "Regions", "find_regions"]


WHOLE_FILL = 0.9  # a card-proportioned region this full is one whole card
LOOSE_FILL = 0.7  # a card-proportioned region this full still gives the card width
PALE_TABLE = 0.6  # a paper mask covering more of the photo than this is a pale table too
CARD_ASPECT = 1.4  # a card's height over its width
# A card narrower than this (photo px) could not be read (its index a few pixels high), and
# one wider than this share of the photo's short side is no card on a table: white regions
# of card shape outside these (a gap between pips, the whole pale table) give no card width.
MIN_CARD_PX, MAX_CARD_SHARE = 50.0, 0.5
# A red index at a card's edge cuts its corner out of the card region (the region is the
# paper, and the mask's opening eats the thin paper beside the glyph): a point off every
# region takes the one most present within this reach (card widths).
REGION_REACH = 0.15


@dataclass(frozen=True)
class Regions:
    """White card regions of a photo at mask scale: labels, angles and the card width."""

    scale: float  # mask pixels per photo pixel
    labels: np.ndarray  # int32 region id per mask pixel, 0 = background
    angles: dict[int, float]  # region id -> angle (degrees) of its minimum-area rectangle
    boxes: dict[int, tuple[tuple[float, float], tuple[float, float], float]]
    card_width: float  # estimated card width in photo pixels
    # Whether that width is measured on regions shaped like one whole card (or was given);
    # otherwise it is a less card-like region's side, or a guess.
    whole: bool = True
    # Whether the regions are the paper the cards' outlines part from a table as white as
    # they are (paper.outlined_mask): those outlines are then ink on paper, next to glyphs.
    outlined: bool = False
    # The regions whose outline is one whole card's (photo px), where a lone card lies: its
    # pips may notch its paper (_Shapes.outlines).
    whole_cards: tuple[CardBox, ...] = ()

    def at(self, x: float, y: float, card: float) -> int:
        """The region at (x, y) in mask pixels (``card``: a card's width there); off every
        region, the one most present within :data:`REGION_REACH`; 0 for none."""
        h, w = self.labels.shape
        mx, my = min(w - 1, max(0, round(x))), min(h - 1, max(0, round(y)))
        region = int(self.labels[my, mx])
        if region == 0:
            r = max(1, round(REGION_REACH * card))
            near = self.labels[max(0, my - r) : my + r + 1, max(0, mx - r) : mx + r + 1]
            near = near[near > 0]
            if near.size:
                region = int(np.bincount(near).argmax())
        return region


@dataclass
class _Shapes:
    labels: np.ndarray
    angles: dict[int, float]
    boxes: dict[int, tuple[tuple[float, float], tuple[float, float], float]]
    whole: list[CardBox]  # the regions shaped like one whole card
    # The regions whose outline is one whole card's: the whole ones, and those whose paper a
    # card's corner pips and indices notch. Only the whole ones, clean, measure the width.
    outlines: list[CardBox]
    loose: list[float]  # short sides of card-proportioned regions less completely filled
    sides: list[float]

    @property
    def single(self) -> list[float]:
        """The short sides of the regions shaped like one whole card."""
        return [box.width for box in self.whole]


def _shapes(mask: np.ndarray, scale: float) -> _Shapes:
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    widest = MAX_CARD_SHARE * min(mask.shape[:2]) / scale
    min_area = (0.02 * max(mask.shape[:2])) ** 2
    small = stats[:, cv2.CC_STAT_AREA] < min_area
    labels[small[labels]] = 0  # specks (and the background, already 0) are no region
    out = _Shapes(labels, {}, {}, [], [], [], [])
    for i in range(1, count):
        if small[i]:
            continue
        outline = _outline(labels, stats[i], i)
        rect = cv2.minAreaRect(outline)
        (cx, cy), (rw, rh), ang = rect
        p0, p1 = cv2.boxPoints(rect)[:2]
        # Card rotation, counter-clockwise as seen, modulo a quarter turn.
        out.angles[i] = float(np.degrees(-np.arctan2(p1[1] - p0[1], p1[0] - p0[0])) % 90.0)
        out.boxes[i] = ((cx / scale, cy / scale), (rw / scale, rh / scale), float(ang))
        short, long_ = sorted((rw, rh))
        if not MIN_CARD_PX <= short / scale <= widest:
            continue
        out.sides.append(short / scale)
        if not 1.25 < long_ / max(short, 1.0) < 1.7:
            continue
        fill = stats[i, cv2.CC_STAT_AREA] / max(rw * rh, 1.0)
        box = _card_box(rect, scale)
        if fill > WHOLE_FILL:
            out.whole.append(box)
        elif fill > LOOSE_FILL:
            out.loose.append(short / scale)
        # A card's corner pips and indices notch its paper's edge, and cut its corners off
        # (the mask's opening eats the thin paper beside them): its outline's hull is the card.
        if fill > WHOLE_FILL or cv2.contourArea(cv2.convexHull(outline)) > WHOLE_FILL * rw * rh:
            out.outlines.append(box)
    return out


def _card_box(rect: tuple[Sequence[float], Sequence[float], float], scale: float) -> CardBox:
    """A minimum-area rectangle (mask px) as a card's box (photo px): a card's "down" runs
    along its long side."""
    (cx, cy), (rw, rh), _ = rect
    p0, p1, p2 = cv2.boxPoints(rect)[:3]
    long_side = max(p1 - p0, p2 - p1, key=lambda v: float(np.hypot(*v)))
    angle = float(np.degrees(np.arctan2(long_side[0], long_side[1])) % 180.0)
    short, tall = sorted((rw, rh))
    return CardBox(cx / scale, cy / scale, short / scale, tall / scale, angle)


def _outline(labels: np.ndarray, stat: np.ndarray, i: int) -> np.ndarray:
    """Region ``i``'s outer border pixels (float32 x, y) in raster order, ``stat`` its row of
    ``cv2.connectedComponentsWithStats``: the same minimum-area rectangle as all its pixels.

    ``cv2.minAreaRect`` takes the convex hull of its points first, and the hull's corners are
    the region's extreme pixels, which lie on its outer border (the outside touches them):
    a card's border is a few hundred pixels where the card is tens of thousands. The hull
    starts where the points' order says, and the rectangle's last bits follow its start: in
    raster order, once each, as ``np.nonzero`` lists all the pixels.
    """
    x, y, w, h = (int(v) for v in stat[:4])
    inside = (labels[y : y + h, x : x + w] == i).astype(np.uint8)
    border, _ = cv2.findContours(inside, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    xs, ys = np.concatenate(border).reshape(-1, 2).T
    at = np.unique(ys * w + xs)  # raster positions in the box, sorted, each once
    return np.stack([at % w + x, at // w + y], axis=1).astype(np.float32)


def _typical(sides: list[float]) -> float:
    """The side most whole-card regions share (within 12%); a tight meld can look like one
    card, only larger, so of equally common sides the smaller wins, and the smallest when no
    two agree. A fan of four to seven cards is card-shaped too, its short side a card's
    height, and a table has more melds than lone cards: a side that is the most common one
    over the card's aspect is the card's width.
    """
    values = np.sort(np.asarray(sides))

    def near(v: float) -> np.ndarray:
        return np.asarray((values > v / 1.12) & (values < v * 1.12))

    support = [int(near(v).sum()) for v in values]
    if max(support) < 2:
        return float(values[0])
    v = float(values[int(np.argmax(support))])  # the first, so the smallest, of the most supported
    if near(v / CARD_ASPECT).any():
        v = v / CARD_ASPECT
    return float(np.median(values[near(v)]))


def find_regions(
    image: np.ndarray, card_width: float | None = None, paper: Paper | None = None
) -> Regions:
    """Card regions and card width (estimated from card-shaped regions unless given);
    ``paper``: the image's, when already found (:func:`~cardscore.vision.paper.find_paper`)."""
    h, w = image.shape[:2]
    paper = paper or find_paper(image)
    small, scale = paper.small, paper.scale
    tried = [_shapes(mask, scale) for mask in paper.masks]
    outlined: _Shapes | None = None
    if not any(shapes.single for shapes in tried):
        # No whole card: a pale table lit unevenly may need a third level to part from the
        # cards (a beige table's lit half is as white as the cards' class); or the brightest
        # pixels may be a pale pink or bright felt table under cards in its shade, and the
        # least coloured of the bright pixels are the paper. Or the table is as white as the
        # cards (a paper mask covers most of the photo), and only their outlines part them.
        deeper = card_masks(small, splits=3)
        tried += [_shapes(mask, scale) for mask in deeper[:1] if len(deeper) == 3]
        tried += [_shapes(mask, scale) for mask in card_masks(small, neutral=True)]
        if max(float(np.mean(mask > 0)) for mask in paper.masks) > PALE_TABLE:
            outlined = _shapes(outlined_mask(small), scale)
            tried.append(outlined)
    # The first mask unless another shows more whole cards (max keeps the first of equals).
    found = max(tried, key=lambda s: (len(s.single), len(s.loose)))
    whole = card_width is not None or bool(found.single)
    if card_width is None:
        if found.single:
            card_width = _typical(found.single)
        elif found.loose:
            # Cards under uneven light come out ragged: still card-proportioned, unlike the
            # fragments the smallest side would pick.
            card_width = float(np.median(found.loose))
        elif found.sides:
            card_width = float(min(found.sides))
        else:
            card_width = max(h, w) / 12.0
    return Regions(
        scale,
        found.labels,
        found.angles,
        found.boxes,
        card_width,
        whole,
        found is outlined,
        tuple(found.outlines),
    )
