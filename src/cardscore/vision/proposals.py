"""Classical first stage: find the white card regions, the card size, and index candidates.

A corner index is a small ink glyph (the rank) with the suit under it, near a card's corner.
Every ink blob of about that size on a card is a candidate; the classifier then looks at a
crop around it in each of the four orientations of its card region and says which, if any,
shows an index. Sizes are in units of the card's width ``W`` so any resolution works.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

__all__ = [
    "CROP",
    "NORMAL_WIDTH",
    "Candidate",
    "Regions",
    "angle_gap",
    "candidates",
    "crop_batch",
    "find_regions",
    "normalise",
]

NORMAL_WIDTH = 120.0  # card width (px) in the normalised image the candidates come from
CROP = 32  # classifier input side (px)
CROP_SIDE = 3.2  # crop side, in glyph heights: decks' indices differ in size, not shape
CROP_SHIFT = 0.6  # crop centre sits this far below the glyph (card frame), toward the suit
INK_LOW, INK_HIGH = 45, 45  # black-hat levels of a glyph's strokes and of its darkest core
PAPER_LEVEL = 0.7  # a blob lies on paper this bright, of the photo's brightest (99th pct.)
_MASK_SIDE = 1000  # long side of the image the card mask is computed on
LOOSE_FILL = 0.7  # a card-proportioned region this full still gives the card width
CARD_ASPECT = 1.4  # a card's height over its width
SPLIT_GAP = 25  # the bright class of whiteness is split again while its halves lie this apart
# A card narrower than this (photo px) could not be read (its index a few pixels high), and
# one wider than this share of the photo's short side is no card on a table: white regions
# of card shape outside these (a gap between pips, the whole pale table) give no card width.
MIN_CARD_PX, MAX_CARD_SHARE = 50.0, 0.5


@dataclass(frozen=True)
class Regions:
    """White card regions of a photo at mask scale: labels, angles and the card width."""

    scale: float  # mask pixels per photo pixel
    labels: np.ndarray  # int32 region id per mask pixel, 0 = background
    angles: dict[int, float]  # region id -> angle (degrees) of its minimum-area rectangle
    boxes: dict[int, tuple[tuple[float, float], tuple[float, float], float]]
    card_width: float  # estimated card width in photo pixels


@dataclass(frozen=True)
class Candidate:
    """An ink blob that may be a rank glyph: centre, height (normalised px), local axis angle."""

    x: float
    y: float
    size: float  # the blob's height along the card's axes
    angle: float  # degrees, the local axis; the four orientations add k * 90


def angle_gap(a: float, b: float, period: float = 360.0) -> float:
    """How far apart two angles are (degrees), modulo ``period``.

    >>> angle_gap(350, 10), angle_gap(0, 180), angle_gap(170, 0, period=180.0)
    (20.0, 180.0, 10.0)
    """
    half = period / 2
    return abs((a - b + half) % period - half)


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


def _card_mask(small: np.ndarray, neutral: bool = False, splits: int = 2) -> list[np.ndarray]:
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


@dataclass
class _Shapes:
    labels: np.ndarray
    angles: dict[int, float]
    boxes: dict[int, tuple[tuple[float, float], tuple[float, float], float]]
    single: list[float]  # short sides of regions shaped like one whole card
    loose: list[float]  # of card-proportioned regions less completely filled
    sides: list[float]


def _shapes(mask: np.ndarray, scale: float) -> _Shapes:
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    widest = MAX_CARD_SHARE * min(mask.shape[:2]) / scale
    min_area = (0.02 * max(mask.shape[:2])) ** 2
    out = _Shapes(labels, {}, {}, [], [], [])
    for i in range(1, count):
        if stats[i, cv2.CC_STAT_AREA] < min_area:
            labels[labels == i] = 0
            continue
        ys, xs = np.nonzero(
            labels[stats[i, 1] : stats[i, 1] + stats[i, 3], stats[i, 0] : stats[i, 0] + stats[i, 2]]
            == i
        )
        pts = np.stack([xs + stats[i, 0], ys + stats[i, 1]], axis=1).astype(np.float32)
        rect = cv2.minAreaRect(pts)
        (cx, cy), (rw, rh), ang = rect
        p0, p1 = cv2.boxPoints(rect)[:2]
        # Card rotation, counter-clockwise as seen, modulo a quarter turn.
        out.angles[i] = float(np.degrees(-np.arctan2(p1[1] - p0[1], p1[0] - p0[0])) % 90.0)
        out.boxes[i] = ((cx / scale, cy / scale), (rw / scale, rh / scale), float(ang))
        short, long_ = sorted((rw, rh))
        if not MIN_CARD_PX <= short / scale <= widest:
            continue
        out.sides.append(short / scale)
        fill = stats[i, cv2.CC_STAT_AREA] / max(rw * rh, 1.0)
        if 1.25 < long_ / max(short, 1.0) < 1.7:
            if fill > 0.9:
                out.single.append(short / scale)
            elif fill > LOOSE_FILL:
                out.loose.append(short / scale)
    return out


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


def find_regions(image: np.ndarray, card_width: float | None = None) -> Regions:
    """Card regions and card width (estimated from card-shaped regions unless given)."""
    h, w = image.shape[:2]
    scale = min(1.0, _MASK_SIDE / max(h, w))
    small = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    tried = [_shapes(mask, scale) for mask in _card_mask(small)]
    if not any(shapes.single for shapes in tried):
        # No whole card: a pale table lit unevenly may need a third level to part from the
        # cards (a beige table's lit half is as white as the cards' class); or the brightest
        # pixels may be a pale pink or bright felt table under cards in its shade, and the
        # least coloured of the bright pixels are the paper.
        deeper = _card_mask(small, splits=3)
        tried += [_shapes(mask, scale) for mask in deeper[:1] if len(deeper) == 3]
        tried += [_shapes(mask, scale) for mask in _card_mask(small, neutral=True)]
    # The first mask unless another shows more whole cards (max keeps the first of equals).
    found = max(tried, key=lambda s: (len(s.single), len(s.loose)))
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
    return Regions(scale, found.labels, found.angles, found.boxes, card_width)


def normalise(image: np.ndarray, card_width: float) -> tuple[np.ndarray, float]:
    """The photo resized so a card is :data:`NORMAL_WIDTH` px wide, and that factor."""
    factor = NORMAL_WIDTH / card_width
    h, w = image.shape[:2]
    size = (max(1, round(w * factor)), max(1, round(h * factor)))
    interp = cv2.INTER_AREA if factor < 1 else cv2.INTER_LINEAR
    return cv2.resize(image, size, interpolation=interp), factor


def _local_angles(gray: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-pixel dominant edge direction modulo 90° (doubled-angle average over a card width).

    Returns the 4φ cosine and sine sums; card edges and index strokes follow the card's axes.
    """
    g = cv2.GaussianBlur(gray.astype(np.float32), (0, 0), 1.0)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1)
    mag2 = gx * gx + gy * gy
    phi = np.arctan2(gy, gx)
    k = int(NORMAL_WIDTH) | 1
    c4 = cv2.boxFilter(mag2 * np.cos(4 * phi), -1, (k, k))
    s4 = cv2.boxFilter(mag2 * np.sin(4 * phi), -1, (k, k))
    return c4, s4


def _black_hat(norm: np.ndarray) -> np.ndarray:
    """Thin dark strokes (glyphs), not dark areas: a black-hat with a kernel wider than a stroke.

    The darkest channel makes red ink as dark as black; large dark areas (the table beside a
    card) are left out, so glyphs near a card's edge stay separate blobs.
    """
    darkest = norm.min(axis=2)
    k = max(3, round(0.075 * NORMAL_WIDTH)) | 1
    hat: np.ndarray = cv2.morphologyEx(
        darkest, cv2.MORPH_BLACKHAT, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    )
    return hat


def _strokes(hat: np.ndarray, levels: tuple[int, int]) -> np.ndarray:
    """The ink mask, by hysteresis on the black-hat: a blob needs a clearly dark core (above
    ``levels[1]``, usually :data:`INK_HIGH`) but keeps its paler, thinner strokes down to
    ``levels[0]`` (:data:`INK_LOW`), so the pale indices of bright photos come out whole, not in
    fragments of the wrong size."""
    low, high = levels
    weak = (hat > low).astype(np.uint8)
    count, labels = cv2.connectedComponents(weak, connectivity=8)
    strong = np.zeros(count, bool)
    strong[np.unique(labels[hat > high])] = True
    strong[0] = False
    out: np.ndarray = strong[labels].astype(np.uint8) * 255
    return out


def candidates(
    norm: np.ndarray,
    pale: tuple[int, int] | None = None,
    cards: np.ndarray | None = None,
    dark: tuple[int, int] | None = None,
    faint: tuple[int, int] | None = None,
    darkest: tuple[int, int] | None = None,
    shaded: tuple[int, float] | None = None,
) -> list[Candidate]:
    """Ink blobs of rank-glyph size on paper, in normalised-image pixels, with local angles.

    ``pale`` (ink levels like (:data:`INK_LOW`, :data:`INK_HIGH`), fainter than those) adds
    the blobs of a second, fainter mask that are no candidate yet: a soft or over-exposed
    photo leaves an index's strokes pale, and at the usual level a glyph falls apart into
    fragments too small to be a candidate or of the wrong size to frame it. A blob both masks
    find (same place, same size) is not looked at twice.

    ``dark`` (levels above those) does the same with a darker mask: a thin, paler line
    touching a glyph (a court card's printed frame, the edge or shadow of the next card in a
    meld, a pip's stem) makes the two one blob, too large to be a glyph or framed around
    both; the glyph's own strokes are darker and stand alone in it.

    ``faint`` (levels under ``pale``'s) adds a third mask's new blobs for the thinnest, palest
    indices of an over-exposed photo, whose strokes lie 10-30 grey levels under the paper;
    given ``cards``, only those on a card region: at that level a wooden table's grain makes
    glyph-sized blobs.

    ``darkest`` (levels above ``dark``'s) adds a last mask's new blobs: a bold glyph printed
    close to the big pip beside it (a court card's index in some designs) is one blob with it
    even at ``dark``'s level, but only the glyph's and the pip's cores are that dark.

    ``cards`` (a mask of the card regions at the normalised image's size) counts as paper
    too: the photo-wide paper level misses cards in shade when the light is uneven.

    ``shaded`` (a chroma, a fraction) counts as paper, too, the grey pixels (channels within
    the chroma of each other) at least that fraction of the photo's brightest (its 99th
    percentile, of which the paper level is :data:`PAPER_LEVEL`): a card in a dark corner of
    the photo is grey, under the paper level and often in no card region (its outline is lost
    against a dark table), where a wooden or felt table is coloured.
    """
    gray = cv2.cvtColor(norm, cv2.COLOR_BGR2GRAY)
    brightest = float(np.percentile(gray, 99))
    paper_level = PAPER_LEVEL * brightest
    paper = cv2.dilate(gray, np.ones((15, 15), np.uint8))
    if shaded is not None:
        b, g, r = cv2.split(norm)  # OpenCV: numpy's per-pixel max over channels is 40x slower
        chroma = cv2.subtract(cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r))
        grey = (chroma < shaded[0]) & (gray >= shaded[1] * brightest)
        grey_paper = cv2.dilate(grey.astype(np.uint8) * 255, np.ones((15, 15), np.uint8))
        paper = cv2.max(paper, grey_paper)
    if cards is not None:
        # A card region's pixels count as paper (255) whatever their brightness.
        paper = np.where(cards > 0, np.uint8(255), paper)
    c4, s4 = _local_angles(gray)
    hat = _black_hat(norm)  # every mask thresholds the same black-hat
    out = _blobs(_strokes(hat, (INK_LOW, INK_HIGH)), paper, paper_level, c4, s4)
    for levels, on_cards in ((pale, False), (dark, False), (faint, True), (darkest, False)):
        if levels is None:
            continue
        before = list(out)
        for c in _blobs(_strokes(hat, levels), paper, paper_level, c4, s4):
            if on_cards and cards is not None and not cards[round(c.y), round(c.x)]:
                continue  # off the cards: the table's grain and texture, never an index
            if not any(
                abs(c.x - k.x) < 0.25 * k.size
                and abs(c.y - k.y) < 0.25 * k.size
                and 0.8 < c.size / k.size < 1.25
                for k in before
            ):
                out.append(c)
    return out


def _blobs(
    ink: np.ndarray, paper: np.ndarray, paper_level: float, c4: np.ndarray, s4: np.ndarray
) -> list[Candidate]:
    count, _, stats, centroids = cv2.connectedComponentsWithStats(ink, connectivity=8)
    wn = NORMAL_WIDTH
    out: list[Candidate] = []
    for i in range(1, count):
        _, _, bw, bh, area = stats[i]
        big = max(bw, bh)
        if not (0.06 * wn <= big <= 0.34 * wn) or area < 0.0012 * wn * wn:
            continue
        cx, cy = centroids[i]
        ix, iy = round(cx), round(cy)
        if paper[iy, ix] < paper_level:
            continue
        phi = np.degrees(np.arctan2(s4[iy, ix], c4[iy, ix])) / 4.0
        # A tilted glyph's box is larger than the glyph: undo that roughly.
        size = big / (1 + 0.15 * abs(np.sin(np.deg2rad(2 * phi))))
        out.append(Candidate(float(cx), float(cy), float(size), float((-phi) % 90.0)))
    return out


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
