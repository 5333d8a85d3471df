"""Stage 0, photo → the table seen from above: a photo taken at an angle is straightened.

A phone held at a seat sees the table leaning away: the far cards smaller, their glyphs
squashed along the lean, their sides no longer parallel. The later stages read cards seen
from above, so such a photo is turned into one (:func:`find_view`) and what they find is
mapped back (:attr:`View.to_photo`).

The lean is measured from the cards themselves. Paper regions that are convex
quadrilaterals (a lone card, a straight fan of cards: rectangles on the table) have two
pairs of sides, parallel on the table; in the photo each pair meets at a vanishing point,
and all of them lie on the table's horizon (:func:`horizon`). The horizon and a phone
camera's focal length (:data:`FOCAL`) give the camera's tilt, and turning the camera back
by it is a homography (:func:`straightening`). A photo leaning less than :data:`MIN_TILT`,
or with fewer than :data:`MIN_QUADS` such regions to measure it by (but for one as large as
a board the cards lie on, :data:`BOARD`), is read as it is.

>>> flat = np.full((600, 800, 3), (40, 110, 60), np.uint8)
>>> flat[200:340, 100:200] = 245; flat[200:340, 500:600] = 245
>>> view = find_view(flat)
>>> view.tilt, view.image is flat
(0.0, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from cardscore.vision.paper import Paper, find_paper

__all__ = [
    "BOARD",
    "FOCAL",
    "MIN_QUADS",
    "MIN_TILT",
    "View",
    "find_view",
    "horizon",
    "paper_outlines",
    "shows_lean",
    "table_quads",
    "tilt_of",
]

# A phone's main camera: 26 mm (35 mm equivalent), a focal length of 26/36 of the photo's
# long side, the one assumed unless the cards show another (FOCALS). A photo's own EXIF
# would say better, but phones' JPEGs differ in what they keep.
FOCAL = 0.72
# The focal lengths tried (photo long sides): a wide camera's to a 2x tele's, about FOCAL.
FOCALS = tuple(FOCAL * 2.0 ** (k / 4) for k in range(-2, 5))
FOCAL_DOUBT = 0.5  # degrees off square a focal length must save per doubling away from FOCAL
MIN_TILT = 12.0  # degrees: a photo leaning less is read as it is (its glyphs squashed < 3%)
MAX_TILT = 60.0  # degrees: beyond this the far cards are a few pixels high; read as it is
MIN_QUADS = 2  # paper quadrilaterals needed to measure the lean
# Or one this large, of the photo's area: a pale board the cards lie on, which the card masks
# take for paper with its cards (a card alone is too small to measure the lean by).
BOARD = 0.1
_QUAD_FIT = 0.025  # a quadrilateral's corners may cut its outline by this share of its length
_QUAD_FILL = 0.93  # and it must cover this much of the region
_LONGEST = 4.0  # its longest side at most this many times its shortest
_CORNER_SHIFT = 0.15  # its sides' lines meet this share of its shortest side from its corners
_FRAME = 0.005  # a region this near the photo's edge (of its long side) is cut off by it
# Gaps in a card mask this narrow (of the mask's long side: 6 px of 1,000) are bridged when
# its quadrilaterals show no lean: the dark line where one card of a fan lies on the next, a
# frame printed near a card's edge. The gap between two melds is ten times as wide.
_BRIDGE = 0.006
# Straightened, the quadrilaterals' corners must be this share as far from right angles as
# in the photo, at most (a true horizon squares them: 8° off become 1° at a 20° tilt).
SQUARED = 0.5
SQUARE_ENOUGH = 2.5  # or this many degrees, whatever the photo's (a card's rounded corners)
_OFF_HORIZON = 0.1  # a vanishing point this far off the horizon (unit homogeneous) is off it
_MAX_GROWTH = 2.0  # the straightened photo's sides are at most this many times the photo's
# Turned back with a phone's focal length, a photo whose perspective no centred camera gives
# (a picture warped by moving its corners, a photo cropped off-centre) shows the cards too
# long or too short along the lean: near cards too large to pair their corners, glyphs
# squashed. A card is CARD_SHAPE long sides to a short one (a poker deck 1.40, a bridge
# deck 1.56, and some leeway); a fan of cards is any shape, so the view is stretched only
# where a stretch of STRETCHES (0.6 to 1.6 times) makes at least CARD_SHAPED_GAIN more of
# its quadrilaterals card-shaped (:func:`card_stretch`).
CARD_SHAPE = (1.35, 1.68)
STRETCHES = tuple(float(s) for s in np.exp(np.linspace(np.log(0.6), np.log(1.6), 41)))
CARD_SHAPED_GAIN = 2


@dataclass(frozen=True, eq=False)
class View:
    """The table as the later stages read it: ``image`` (the photo itself unless it was
    straightened), ``to_photo`` (a homography from its pixels to the photo's), the tilt
    (degrees from looking straight down; 0 when the photo was read as it is) and the
    image's paper (its card masks, which the regions stage starts from)."""

    image: np.ndarray
    to_photo: np.ndarray
    tilt: float
    paper: Paper

    def photo_points(self, points: np.ndarray) -> np.ndarray:
        """Points (n, 2) of :attr:`image` in the photo's pixels.

        >>> image = np.zeros((2, 2, 3), np.uint8)
        >>> view = View(image, np.diag([2.0, 2.0, 1.0]), 0.0, find_paper(image))
        >>> view.photo_points(np.array([[1.0, 3.0]]))
        array([[2., 6.]])
        """
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return np.asarray(cv2.perspectiveTransform(pts, self.to_photo)).reshape(-1, 2)


def find_view(photo: np.ndarray) -> View:
    """The photo straightened to the table seen from above, when its cards show it leaning
    by :data:`MIN_TILT` degrees or more; else the photo as it is.

    Where the paper's card masks show no lean, they are looked at again with their thin gaps
    bridged (:data:`_BRIDGE`): a design whose cards' edges or frame lines print dark cuts a
    fan into strips, and a card into pieces, that are no rectangles on the table."""
    paper = find_paper(photo)
    view = _straightened(photo, paper, paper.masks)
    if view is None:
        side = max(1, round(_BRIDGE * max(paper.small.shape[:2])))
        bridge = cv2.getStructuringElement(cv2.MORPH_RECT, (side, side))
        bridged = [cv2.morphologyEx(mask, cv2.MORPH_CLOSE, bridge) for mask in paper.masks]
        view = _straightened(photo, paper, bridged)
    return view or View(photo, np.eye(3), 0.0, paper)


def _straightened(photo: np.ndarray, paper: Paper, masks: list[np.ndarray]) -> View | None:
    """The photo straightened as the quadrilaterals of one of the paper's ``masks`` show it
    leaning (:func:`find_view`); None where they show no lean to straighten."""
    h, w = photo.shape[:2]
    outlines, quads = _most_quads(paper, masks, (w, h))
    line = horizon(quads, (w, h))  # None with too few quadrilaterals to agree
    if line is None:
        return None
    focal, squared = _focal(line, (w, h), quads)
    tilt = tilt_of(line, focal)
    before = float(np.median([_off_square(q) for q in quads]))
    if not shows_lean(tilt, before, squared):
        return None
    stretch = card_stretch(line, (w, h), quads, focal)
    to_view, size = straightening(line, (w, h), outlines, focal, stretch)
    image = cv2.warpPerspective(photo, to_view, size, flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)  # fmt: skip
    return View(image, np.linalg.inv(to_view), tilt, find_paper(image))


def shows_lean(tilt: float, before: float, after: float) -> bool:
    """Whether a photo's quadrilaterals, ``before`` and ``after`` degrees off square (their
    median :func:`_off_square`) in the photo and turned back by ``tilt``, show it leaning.

    Turned back, they must come out rectangles: a horizon that a few shapes happened to
    agree on (strips of cards the mask split apart) makes them less so. Nor may they come
    out less square than the photo shows them: a photo taken from above shows no lean.

    A seat's photo (its fans 8.4° off square, 1.6° turned back by 22.9°), and one taken from
    above and turned 35° (0.8°, and 2.3° "turned back" by 23.2°):

    >>> shows_lean(22.9, 8.38, 1.64), shows_lean(23.2, 0.84, 2.27)
    (True, False)
    """
    square = min(before, max(SQUARED * before, SQUARE_ENOUGH))
    return MIN_TILT <= tilt <= MAX_TILT and after <= square


def _most_quads(
    paper: Paper, masks: list[np.ndarray], size: tuple[int, int]
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The outlines of the card mask (of the paper's ``masks``) that shows the most
    quadrilaterals (the first where they tie), and those quadrilaterals: under uneven light
    the brighter split keeps only the best-lit cards, too few to measure the lean by."""
    best: tuple[list[np.ndarray], list[np.ndarray]] | None = None
    for mask in masks:
        outlines = paper_outlines(paper, mask)
        quads = table_quads(outlines, size)
        if best is None or len(quads) > len(best[1]):
            best = (outlines, quads)
    assert best is not None
    return best


def paper_outlines(paper: Paper, mask: np.ndarray) -> list[np.ndarray]:
    """The outlines (n, 2) of a photo's paper regions of a card's size or more, in photo
    pixels: cards, fans and piles (of ``mask``, one of the paper's card masks)."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    smallest = (0.03 * max(mask.shape)) ** 2  # a card of a thirtieth of the photo, at least
    return [
        c.reshape(-1, 2).astype(np.float64) / paper.scale
        for c in contours
        if cv2.contourArea(c) >= smallest
    ]


def table_quads(outlines: list[np.ndarray], size: tuple[int, int]) -> list[np.ndarray]:
    """Of paper ``outlines`` in a photo of ``size`` (width, height), those that are convex
    quadrilaterals, each its corners (4, 2) in order around it: lone cards and straight fans,
    rectangles on the table. A region the photo's edge cuts off is none.

    >>> card = np.array([[x, 20.0] for x in range(10, 110)] + [[110.0, y] for y in range(20, 160)]
    ...                 + [[x, 160.0] for x in range(110, 10, -1)] + [[10.0, y] for y in range(160, 20, -1)])
    >>> [len(table_quads([card], size)) for size in ((300, 200), (110, 200))]
    [1, 0]
    """
    w, h = size
    edge = _FRAME * max(w, h)
    quads = []
    for outline in outlines:
        if (outline.min(axis=0) < edge).any() or (outline.max(axis=0) > (w - edge, h - edge)).any():
            continue
        contour = outline.astype(np.float32).reshape(-1, 1, 2)
        hull = cv2.convexHull(contour)
        quad = cv2.approxPolyDP(hull, _QUAD_FIT * cv2.arcLength(hull, True), True)
        if len(quad) != 4 or cv2.contourArea(contour) < _QUAD_FILL * cv2.contourArea(quad):
            continue
        corners = quad.reshape(4, 2).astype(np.float64)
        sides = np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1)
        # A card is 1.4 times as long as wide, a fan of seven 2.5 times: a longer strip is
        # a piece of a card the mask cut off (at a fan's dark edge), no rectangle on the table.
        if sides.max() > _LONGEST * sides.min():
            continue
        refined = _refined(outline, corners)
        # Sides fitted to a ragged outline (a card the mask cut into) meet far from its corners.
        if np.abs(refined - corners).max() <= _CORNER_SHIFT * sides.min():
            quads.append(refined)
    return quads


def _refined(outline: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """A quadrilateral's corners where lines fitted to its sides' outline meet: the middle of
    each side, away from the card's rounded corners, sets its direction, which the vanishing
    points need far more exactly than the rough corners give it."""
    lines = []
    for k in range(4):
        a, b = corners[k], corners[(k + 1) % 4]
        along = b - a
        length = float(np.linalg.norm(along))
        unit = along / length
        rel = outline - a
        t = rel @ unit / length
        off = np.abs(rel[:, 0] * unit[1] - rel[:, 1] * unit[0])
        near = (t > 0.15) & (t < 0.85) & (off < max(2.0, 0.03 * length))
        if near.sum() < 5:
            return corners
        vx, vy, x0, y0 = cv2.fitLine(
            outline[near].astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01
        ).ravel()
        lines.append(_cross((float(x0), float(y0), 1.0), (float(x0 + vx), float(y0 + vy), 1.0)))
    out = []
    for k in range(4):
        meet = _cross(lines[k - 1], lines[k])
        if abs(meet[2]) < 1e-9:
            return corners
        out.append(meet[:2] / meet[2])
    return np.array(out)


def _bounds(
    to_view: np.ndarray, size: tuple[int, int], outlines: list[np.ndarray]
) -> tuple[np.ndarray, np.ndarray]:
    """The straightened photo's corners (low, high) in ``to_view``'s pixels: the whole photo,
    within the paper's bounds widened by half (the far table, blown up, is not worth its
    pixels); the paper's so widened when the photo reaches its horizon."""
    paper = cv2.perspectiveTransform(np.concatenate(outlines).reshape(1, -1, 2), to_view)[0]
    low, high = paper.min(axis=0), paper.max(axis=0)
    reach = 0.5 * (high - low)
    low, high = low - reach, high + reach
    w, h = size
    corners = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], np.float64)
    mapped = corners @ to_view.T
    if (mapped[:, 2] > 0).all():
        seen = mapped[:, :2] / mapped[:, 2:]
        low, high = np.maximum(low, seen.min(axis=0)), np.minimum(high, seen.max(axis=0))
    return low, high


def _cross(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> np.ndarray:
    """The cross product of two 3-vectors (homogeneous lines and points): ``np.cross``'s
    arithmetic without its general-axis bookkeeping, which a photo's hundreds of small
    products would spend most of their time in.

    >>> _cross((1.0, 2.0, 3.0), (4.0, 5.0, 6.0)).tolist() == np.cross([1, 2, 3], [4, 5, 6]).tolist()
    True
    """
    a0, a1, a2 = (float(v) for v in a)
    b0, b1, b2 = (float(v) for v in b)
    return np.array([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0])


def _off_square(corners: np.ndarray) -> float:
    """How far a quadrilateral's corners are from right angles: their mean, in degrees.

    >>> _off_square(np.array([[0, 0], [2, 0], [2, 1], [0, 1]], float))
    0.0
    """
    errors = []
    for k in range(4):
        (x, y), (px, py), (nx, ny) = corners[k], corners[k - 1], corners[(k + 1) % 4]
        ux, uy, vx, vy = float(px - x), float(py - y), float(nx - x), float(ny - y)
        cos = (ux * vx + uy * vy) / (math.hypot(ux, uy) * math.hypot(vx, vy))
        errors.append(abs(math.degrees(math.acos(min(max(cos, -1.0), 1.0))) - 90.0))
    return sum(errors) / 4


def _normalised(points: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """Homogeneous points about the photo's centre, in photo long sides."""
    w, h = size
    side = max(w, h)
    out = np.ones((len(points), 3))
    out[:, 0] = (points[:, 0] - w / 2) / side
    out[:, 1] = (points[:, 1] - h / 2) / side
    return out


def horizon(quads: list[np.ndarray], size: tuple[int, int]) -> np.ndarray | None:
    """The table's horizon (a line, homogeneous, in :func:`_normalised` coordinates): the line
    nearest every quadrilateral's two vanishing points (where its opposite sides meet; far
    away or at infinity when they are parallel in the photo). A quadrilateral whose points
    lie off the line the others agree on is no rectangle on the table (two cards' regions run
    together, a card bent) and is left out; None when fewer than :data:`MIN_QUADS` agree
    (one is enough when it is a board, :func:`_one_board`)."""
    points = [_vanishing_points(_normalised(quad, size)) for quad in quads]
    least = 1 if _one_board(quads, size) else MIN_QUADS
    while len(points) >= least:
        _, _, rows = np.linalg.svd(np.concatenate(points))
        line: np.ndarray = rows[-1]
        # A unit homogeneous point's product with a unit line: how far it lies off it.
        off = [float(np.abs(p @ line).max()) for p in points]
        worst = int(np.argmax(off))
        if off[worst] <= _OFF_HORIZON:
            return line
        del points[worst]
    return None


def _one_board(quads: list[np.ndarray], size: tuple[int, int]) -> bool:
    """Whether ``quads`` is a single quadrilateral of :data:`BOARD` of the photo or more."""
    if len(quads) != 1:
        return False
    area = abs(float(cv2.contourArea(quads[0].astype(np.float32))))
    return area >= BOARD * size[0] * size[1]


def _vanishing_points(corners: np.ndarray) -> np.ndarray:
    """Where a quadrilateral's (homogeneous ``corners``, in order) opposite sides meet: two
    unit homogeneous points (2, 3)."""
    out = []
    for a, b, c, d in ((0, 1, 3, 2), (1, 2, 0, 3)):
        meet = _cross(_cross(corners[a], corners[b]), _cross(corners[c], corners[d]))
        out.append(meet / max(float(np.linalg.norm(meet)), 1e-12))
    return np.array(out)


def _focal(line: np.ndarray, size: tuple[int, int], quads: list[np.ndarray]) -> tuple[float, float]:
    """The focal length (of :data:`FOCALS`) whose straightening leaves the quadrilaterals
    nearest rectangles, and how near (their median :func:`_off_square`, degrees). Phones'
    cameras differ (wide, main, tele); quadrilaterals turned differently on the table tell
    them apart, and where they cannot (all turned alike) the usual phone's wins."""
    best: tuple[float, float, float] | None = None
    for focal in FOCALS:
        to_view = _turned_back(line, size, focal)
        off = float(
            np.median(
                [
                    _off_square(cv2.perspectiveTransform(q.reshape(1, -1, 2), to_view)[0])
                    for q in quads
                ]
            )
        )
        cost = off + FOCAL_DOUBT * abs(float(np.log2(focal / FOCAL)))
        if best is None or cost < best[0]:
            best = (cost, focal, off)
    assert best is not None
    return best[1], best[2]


def tilt_of(line: np.ndarray, focal: float = FOCAL) -> float:
    """The camera's tilt (degrees from looking straight down) a horizon shows: the farther the
    horizon from the photo's centre, the smaller.

    >>> tilt_of(np.array([0.0, 0.0, 1.0])), round(tilt_of(np.array([0.0, 1.0, FOCAL])), 1)
    (0.0, 45.0)
    """
    across = float(np.hypot(line[0], line[1]))
    if across == 0:
        return 0.0
    distance = abs(float(line[2])) / across
    return float(np.degrees(np.arctan2(focal, distance)))


def straightening(
    line: np.ndarray,
    size: tuple[int, int],
    outlines: list[np.ndarray],
    focal: float = FOCAL,
    stretch: float = 1.0,
) -> tuple[np.ndarray, tuple[int, int]]:
    """The homography from the photo's pixels to the table seen from above
    (:func:`_turned_back`), placed in the straightened image, and that image's size: the
    paper's (``outlines``) bounds and a margin, at most :data:`_MAX_GROWTH` times the
    photo's sides."""
    w, h = size
    rotated = _stretched(_turned_back(line, size, focal), line, size, stretch)
    low, high = _bounds(rotated, size, outlines)
    span = high - low
    shrink = min(1.0, _MAX_GROWTH * w / span[0], _MAX_GROWTH * h / span[1])
    place = np.array([[shrink, 0, -low[0] * shrink], [0, shrink, -low[1] * shrink], [0, 0, 1]])
    out = (max(1, round(span[0] * shrink)), max(1, round(span[1] * shrink)))
    return place @ rotated, out


def _turned_back(line: np.ndarray, size: tuple[int, int], focal: float) -> np.ndarray:
    """The homography from the photo's pixels to the table seen from above: a camera of that
    ``focal`` length turned back by its tilt about its centre, scaled to keep the photo's
    centre's scale (where it lands is :func:`straightening`'s to choose)."""
    w, h = size
    side = max(w, h)
    into = np.array([[1 / side, 0, -w / 2 / side], [0, 1 / side, -h / 2 / side], [0, 0, 1]])
    k = np.diag([focal, focal, 1.0])
    normal = k.T @ line
    normal = normal / np.linalg.norm(normal) * (1 if normal[2] >= 0 else -1)
    axis = np.cross(normal, [0.0, 0.0, 1.0])
    angle = float(np.arccos(np.clip(normal[2], -1.0, 1.0)))
    turn, _ = cv2.Rodrigues(axis / max(np.linalg.norm(axis), 1e-12) * angle)
    rotated = k @ turn @ np.linalg.inv(k) @ into
    # The photo's centre keeps its scale: the turn's stretch there, undone.
    cx, cy = w / 2, h / 2
    step = cv2.perspectiveTransform(
        np.array([[(cx, cy), (cx + 1, cy), (cx, cy + 1)]], np.float64), rotated
    )[0]
    (ax, ay), (bx, by) = step[1] - step[0], step[2] - step[0]
    stretch = np.sqrt(abs(ax * by - ay * bx))
    out: np.ndarray = np.diag([1 / stretch, 1 / stretch, 1.0]) @ rotated
    return out


def _stretched(
    turned: np.ndarray, line: np.ndarray, size: tuple[int, int], stretch: float
) -> np.ndarray:
    """The homography ``turned`` (:func:`_turned_back` by ``line``, the horizon), then
    stretched ``stretch`` times along the lean (the way the table ran away from the camera)
    about the photo's centre."""
    if stretch == 1.0:
        return turned
    w, h = size
    centre = np.array([w / 2, h / 2])
    away = np.array([line[0], line[1]]) / max(float(np.hypot(line[0], line[1])), 1e-12)
    ends = cv2.perspectiveTransform(np.array([[centre, centre + away * max(w, h) / 100]]), turned)
    start, end = ends[0]
    along = (end - start) / max(float(np.linalg.norm(end - start)), 1e-12)
    scale = np.eye(2) + (stretch - 1.0) * np.outer(along, along)
    affine = np.eye(3)
    affine[:2, :2] = scale
    affine[:2, 2] = start - scale @ start
    out: np.ndarray = affine @ turned
    return out


def card_stretch(
    line: np.ndarray, size: tuple[int, int], quads: list[np.ndarray], focal: float
) -> float:
    """How much the view turned back with ``focal`` is stretched along the lean so that its
    quadrilaterals look like cards (:data:`CARD_SHAPE`): 1 unless a stretch of
    :data:`STRETCHES` makes :data:`CARD_SHAPED_GAIN` more of them card-shaped; then the one
    nearest 1 of those that make the most so. Three lone cards twice as long as wide are
    stretched to the longest card shape; one is not evidence enough:

    >>> quads = [np.array([[x, 100.0], [x + 100, 100], [x + 100, 300], [x, 300]]) for x in (0, 200, 400)]
    >>> round(card_stretch(np.array([0.0, 1.0, 5.0]), (800, 600), quads, 1.0), 2)
    0.79
    >>> card_stretch(np.array([0.0, 1.0, 5.0]), (800, 600), quads[:1], 1.0)
    1.0
    """

    turned = _turned_back(line, size, focal)

    def shaped(stretch: float) -> int:
        to_view = _stretched(turned, line, size, stretch)
        count = 0
        for quad in quads:
            seen = cv2.perspectiveTransform(quad.reshape(1, -1, 2).astype(np.float64), to_view)[0]
            sides = np.linalg.norm(seen - np.roll(seen, -1, axis=0), axis=1)
            one, other = sides[0] + sides[2], sides[1] + sides[3]
            count += CARD_SHAPE[0] <= max(one, other) / min(one, other) <= CARD_SHAPE[1]
        return count

    counts = [shaped(s) for s in STRETCHES]
    most = max(counts)
    if most < shaped(1.0) + CARD_SHAPED_GAIN:
        return 1.0
    best = [s for s, c in zip(STRETCHES, counts, strict=True) if c == most]
    return min(best, key=lambda s: abs(np.log(s)))
