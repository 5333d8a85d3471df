"""Stage 2, card regions and scale → index readings: the corner indices the classifier reads.

Each ink blob of glyph size (:mod:`~cardscore.vision.blobs`) is cropped in the four
orientations of its local axes, of its card region's and of the photo's, and classified; a crop
shows an index only when the card is upright in it (rank above suit), which also tells 6 from
9 (:func:`find_indices`). The readings check the scale the regions gave: a card seen whole
shows its index at two opposite corners, a card's diagonal apart
(:func:`card_width_from_indices`); where no whole card's indices were read, or they measure the
card otherwise, the photo is read again at another scale (:func:`read_indices`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from cardscore.cards import Card, Rank
from cardscore.vision.blobs import (
    EDGE_POWER,
    INK_HIGH,
    INK_LOW,
    SHADE,
    Candidate,
    bold_candidates,
    candidates,
    read_page,
)
from cardscore.vision.crops import CropReader
from cardscore.vision.focus import UNMEASURED, Blur, refocus
from cardscore.vision.geometry import NORMAL_WIDTH, angle_gap, index_to_centre
from cardscore.vision.labels import BACKGROUND
from cardscore.vision.regions import MIN_CARD_PX, Regions

__all__ = [
    "BlobReadings",
    "IndexHit",
    "Normalised",
    "Readings",
    "card_width_from_indices",
    "find_indices",
    "glyph_reach",
    "normalise",
    "read_blobs",
    "read_indices",
]


# A fainter, a darker, a faintest and a darkest ink mask's levels, and a mask of red ink
# alone's (see blobs.candidates); None: no such mask.
# Inference only: training's candidates come from the usual mask alone.
PALE_INK: tuple[int, int] | None = (20, 30)
DARK_INK: tuple[int, int] | None = (70, 70)
FAINT_INK: tuple[int, int] | None = (10, 18)
DARKEST_INK: tuple[int, int] | None = (130, 130)
RED_INK: tuple[int, int] | None = (INK_LOW, INK_HIGH)
# The usual mask opened by a square this wide (px) where a blob is too large for a glyph
# adds its new blobs (0: not).
OPENING = 3
# A region whose minimum-area rectangle is at most this much longer than wide shows no axes
# of its own (a card is 1.4 times, a straight fan of three 1.2 or more).
SQUARISH = 1.1
MIN_PROB = 0.2  # below this a crop is not an index hit at all (cards need more: cards.MIN_CARD)
SECOND_LOOK = 0.02  # a blob read this well in some crop, but no hit, gets one more guess
# A blob taller than TALL card widths read so gets a crop SHRINK times its size as well.
TALL, SHRINK = 0.2, 0.6
# A photo whose index glyphs are BOLD_GLYPH card widths high or more (their median: a
# jumbo-index deck's, 0.22-0.28; the usual 0.12-0.2) is read again for blobs a black-hat
# BOLD card widths wide finds whole (blobs.bold_candidates): the usual one breaks a bold glyph that
# large into pieces. Only then: on a usual deck, the wider one's tall blobs are court art.
BOLD_GLYPH, BOLD = 0.22, 0.15
# A blob read this well, but under a card's 0.5, is cropped again this much larger (_larger),
# and, when smaller than the photo's median index glyph, UNDERSIZED times larger too.
LARGER, LARGER_FROM, LARGER_BELOW = 1.15, 0.1, 0.5
UNDERSIZED = 1.3
MERGE_ACROSS, MERGE_ALONG = 0.15, 0.3  # one glyph's hits, in card widths (see _same_glyph)
MERGE_TEN = 0.22  # a wide "10" index's halves lie up to this far apart across (card widths)
# A card's two indices: read as the same card at least this surely, half a turn apart within
# MEASURE_TURN degrees, the second where the deck-average diagonal points within
# MEASURE_BEARING degrees (card_width_from_indices).
MEASURE_PROB, MEASURE_TURN, MEASURE_BEARING = 0.5, 20.0, 8.0
# The photo is read again at the card width its whole cards' indices measure when that and
# the white regions' estimate lie more than this factor apart, or that estimate came from no
# whole card's region (and no width was given).
REMEASURE = 1.25
# Card widths tried, times the regions' estimate, when no whole card's indices were read.
RESCALE = (2.0, 0.5, 3.0)
# A close-up (a card or two filling the photo): where no width tried reads two sure hits, the
# widths above them up to CLOSE_UP_SIDE of the photo's longest side are tried too,
# CLOSE_UP_STEP times apart (the largest, cheapest, first); one whole card measures it.
CLOSE_UP_SIDE, CLOSE_UP_STEP = 0.8, 1.5
# On a table as white as the cards, the band this many normalised px wide about the card
# regions' edge is their printed outline, not ink of a glyph (blobs.candidates' rims).
RIM = 5


@dataclass(frozen=True)
class IndexHit:
    """One corner index seen: card, probability, centre (normalised px), upright angle."""

    card: Card
    prob: float
    x: float
    y: float
    angle: float  # the card's rotation, degrees counter-clockwise, as this index shows it
    runner_up: Card | None  # the next most likely card, to explain doubts
    size: float = 0.0  # the glyph's height as cropped (normalised px); 0: not known


@dataclass(frozen=True, eq=False)
class Readings:
    """A photo's index hits and the scale they were read at.

    ``image`` is the photo resized so a card is :data:`NORMAL_WIDTH` px wide, ``factor`` its
    pixels per photo pixel, ``card_width`` the card width (photo px) that scale stands for;
    the hits' places are ``image``'s pixels.
    """

    image: np.ndarray
    factor: float
    card_width: float
    hits: tuple[IndexHit, ...]
    # What the hits were found in: every blob's crops as read (before any larger second
    # look); learning a deck takes the "no index" marks of its cards from them.
    blobs: BlobReadings
    # Whether ``image`` was sharpened, the photo blurred (:mod:`~cardscore.vision.focus`),
    # and the blur measured before: a blurred photo's cards are calibrated on their own lines.
    sharpened: bool = False
    blur: Blur = UNMEASURED


@dataclass(frozen=True, eq=False)
class Normalised:
    """A photo as the classifiers read it: ``image``, resized so a card is
    :data:`NORMAL_WIDTH` px wide (``factor`` its pixels per photo pixel) and sharpened where
    it was blurred (:mod:`~cardscore.vision.focus`: ``blur`` measured before)."""

    image: np.ndarray
    factor: float
    blur: Blur
    sharpened: bool


def normalise(image: np.ndarray, card_width: float, regions: Regions | None = None) -> Normalised:
    """The photo resized so a card is :data:`NORMAL_WIDTH` px wide, sharpened if blurred
    (the blur measured on the card ``regions``' paper, given them: a patterned cloth has
    soft edges of its own)."""
    factor = NORMAL_WIDTH / card_width
    h, w = image.shape[:2]
    size = (max(1, round(w * factor)), max(1, round(h * factor)))
    interp = cv2.INTER_AREA if factor < 1 else cv2.INTER_LINEAR
    paper = None if regions is None else _card_mask(regions, size)
    focus = refocus(cv2.resize(image, size, interpolation=interp), paper)
    return Normalised(focus.image, factor, focus.blur, focus.sharpened)


def _card_mask(regions: Regions, size: tuple[int, int]) -> np.ndarray:
    """The card regions as a mask (1 on a card) of ``size`` (width, height)."""
    inside = (regions.labels > 0).astype(np.uint8)
    mask: np.ndarray = cv2.resize(inside, size, interpolation=cv2.INTER_NEAREST)
    return mask


def read_indices(
    image: np.ndarray,
    regions: Regions,
    model: Path | Sequence[Path] | None = None,
    *,
    rescale: bool = True,
) -> Readings:
    """The index hits on ``image`` (a photo, its card ``regions`` found) at the card width the
    regions give, or, unless that width is to be kept (``rescale`` false: it was given), at the
    one the whole cards' own indices measure.

    Where no region is shaped like a whole card, the regions' width is one guess among
    :data:`RESCALE`'s, all tried the largest (the cheapest to read at) first."""
    card_width = regions.card_width
    longest = max(image.shape[:2])
    others = [card_width * k for k in RESCALE if MIN_CARD_PX <= card_width * k <= longest / 2]
    if not rescale:
        widths = [card_width]
    elif regions.whole:
        widths = [card_width, *others]
    else:
        # No region is shaped like one whole card: the width is a fragment's side or a guess,
        # often far too small (glare or a cold light breaks the cards' outlines), and reading
        # at too small a width costs its square (a 12 MP photo read as 50 MP). The widths are
        # tried the cheapest first, the largest.
        widths = sorted([card_width, *others], reverse=True)
    # The first width at which whole cards show both their indices is kept: none may lie
    # whole on the table, or the white regions gave a fragment's size (a pale table merges
    # with the cards). If none does, the regions' own (always among the widths).
    own: _Read | None = None
    # The first reading in which one whole card alone measures the card: a close-up's.
    one_card: tuple[_Read, float, float] | None = None
    for width in widths:
        norm = normalise(image, width, regions)
        hits, blobs = _find_indices(norm.image, model, regions, norm.factor)
        if (measured := card_width_from_indices(hits)) is not None:
            card_width = width
            break
        if one_card is None and (alone := card_width_from_indices(hits, least=1)) is not None:
            one_card = (norm, hits, blobs), width, alone
        if width == card_width:
            own = norm, hits, blobs
    else:
        assert own is not None
        norm, hits, blobs = own
        # No width showed two whole cards. One whole card measures the card better than a
        # guess (a close-up's fan, whose white region's short side is a card's height), or
        # than whole regions it finds far off. Failing that, a photo with under two sure hits
        # may be a close-up read at too small a width.
        close: _Measured | None = None
        if rescale and one_card is not None:
            _, width, alone = one_card
            if not regions.whole or _far_off(width * alone / NORMAL_WIDTH, card_width):
                close = one_card
        if close is None and rescale and _sure(hits) < 2:
            close = _close_up(image, regions, model, widths)
        if close is not None:
            (norm, hits, blobs), card_width, measured = close
    off = measured is not None and _far_off(measured, NORMAL_WIDTH)
    if rescale and measured and (off or not regions.whole):
        # The whole cards' own indices measure the card otherwise than the white regions
        # did (a pale table, fans taken for cards), or the width read at was a guess: read
        # the photo again at their size.
        card_width *= measured / NORMAL_WIDTH
        norm = normalise(image, card_width, regions)
        hits, blobs = _find_indices(norm.image, model, regions, norm.factor)
    return Readings(
        norm.image,
        norm.factor,
        card_width,
        tuple(hits),
        blobs,
        norm.sharpened,
        norm.blur,
    )


def _far_off(width: float, other: float) -> bool:
    """Whether two measures of the card width differ by more than :data:`REMEASURE` times."""
    return bool(abs(np.log(width / other)) > np.log(REMEASURE))


def _sure(hits: Sequence[IndexHit]) -> int:
    """How many of ``hits`` are read surely enough to measure a card (:data:`MEASURE_PROB`)."""
    return sum(h.prob >= MEASURE_PROB for h in hits)


def _close_up(
    image: np.ndarray,
    regions: Regions,
    model: Path | Sequence[Path] | None,
    tried: Sequence[float],
) -> _Measured | None:
    """A photo of a card or two that fill it, read at the card width one whole card's own
    indices measure: the reading, the width it was read at and the width measured there
    (None: no whole card showed, the reading is that of the most sure hits, two at least);
    None if no width above those ``tried``, up to :data:`CLOSE_UP_SIDE` of the photo's
    longest side, shows a whole card or two sure hits.

    Close up, the white regions give a fragment's size (an index's white, a court card's
    frame) and no width a few times that reads two whole cards; a pair of cards, or one
    alone, shows one whole card at most.
    """
    top = CLOSE_UP_SIDE * max(image.shape[:2])
    widths: list[float] = []
    width = max(tried) * CLOSE_UP_STEP
    while width <= top:
        widths.append(width)
        width *= CLOSE_UP_STEP
    best: tuple[int, _Read, float] | None = None
    for width in reversed(widths):
        norm = normalise(image, width, regions)
        hits, blobs = _find_indices(norm.image, model, regions, norm.factor)
        measured = card_width_from_indices(hits, least=1)
        if measured is not None:
            return (norm, hits, blobs), width, measured
        sure = _sure(hits)
        if best is None or sure > best[0]:
            best = sure, (norm, hits, blobs), width
    if best is not None and best[0] >= 2:
        return best[1], best[2], None
    return None


def find_indices(
    norm: np.ndarray,
    model: Path | Sequence[Path] | None = None,
    regions: Regions | None = None,
    factor: float = 1.0,
) -> list[IndexHit]:
    """Index glyphs in a normalised image (cards :data:`NORMAL_WIDTH` px wide); ``regions``
    and ``factor`` as in :func:`read_blobs`."""
    return _find_indices(norm, model, regions, factor)[0]


def _find_indices(
    norm: np.ndarray,
    model: Path | Sequence[Path] | None,
    regions: Regions | None,
    factor: float,
) -> tuple[list[IndexHit], BlobReadings]:
    """:func:`find_indices`' hits, and the blobs' readings they were found in."""
    blobs = read_blobs(norm, model, regions, factor)
    read = _larger(norm, blobs, model)
    points, probs, rows_of = read.points, read.probs, read.rows_of
    best = _best_card(probs)
    hits: list[IndexHit] = []
    for rows in rows_of.values():
        if best[rows].max() < MIN_PROB:
            continue  # most blobs: read as no card in any crop
        cards = probs[rows, :BACKGROUND]
        k, label = np.unravel_index(int(np.argmax(cards)), cards.shape)
        prob = float(cards[k, label])
        if prob < MIN_PROB:
            continue
        order = np.argsort(cards[k])[::-1]
        second = Card.from_id(int(order[1])) if cards[k, order[1]] > 0.05 else None
        x, y, size, angle = points[rows[int(k)]]
        hits.append(IndexHit(Card.from_id(int(label)), prob, x, y, angle, second, size))
    return _merge(hits), blobs


def read_blobs(
    norm: np.ndarray,
    model: Path | Sequence[Path] | None = None,
    regions: Regions | None = None,
    factor: float = 1.0,
    *,
    shade: float = SHADE,
    hit_at: float = MIN_PROB,
    edge_power: float = EDGE_POWER,
) -> BlobReadings:
    """Every ink blob of a glyph's size, cropped in each orientation guessed and classified.

    ``regions`` (from the photo, with ``factor`` = normalised px per photo px) adds the card
    regions' axes as a second guess of each candidate's orientation. ``shade`` is the
    deepest shade paper is looked for in (:func:`~cardscore.vision.blobs.candidates`); a blob
    read under ``hit_at`` gets more looks (:func:`_second_looks`); ``edge_power`` is how the
    blobs' local axes weigh edges (:func:`~cardscore.vision.blobs.candidates`).
    """
    card_mask = None if regions is None else _card_mask(regions, (norm.shape[1], norm.shape[0]))
    rims = None
    if regions is not None and regions.outlined and card_mask is not None:
        ring = np.ones((RIM, RIM), np.uint8)
        rims = cv2.morphologyEx(card_mask, cv2.MORPH_GRADIENT, ring)
    page = read_page(norm, shade, card_mask, edge_power)  # read once, for the bold look too
    blobs = candidates(
        norm,
        PALE_INK,
        card_mask,
        DARK_INK,
        FAINT_INK,
        DARKEST_INK,
        shade,
        rims,
        edge_power,
        RED_INK,
        OPENING,
        page=page,
    )
    # One blob is one glyph at most: its crops in every orientation guessed (local axes,
    # region, photo, suit) compete, so a pip seen 45° off cannot add a second, different card.
    points: list[tuple[float, float, float, float]] = []
    rows_of: dict[tuple[float, float], list[int]] = {}
    _add_turns(_with_region_angles(blobs, regions, factor), points, rows_of)
    reader = CropReader(norm, model)
    probs = reader.read(points)
    glyph = _glyph_size(points, probs, rows_of)
    bold = glyph is not None and glyph >= BOLD_GLYPH * NORMAL_WIDTH
    if bold:
        # A jumbo-index deck: its bold glyphs whole on a wider black-hat.
        whole = bold_candidates(page, blobs, BOLD, rims)
        start = len(points)
        _add_turns(_with_region_angles(whole, regions, factor), points, rows_of)
        if len(points) > start:
            probs = np.concatenate([probs, reader.read(points[start:])])
        blobs = blobs + whole
    turns, smaller = _second_looks(blobs, points, probs, rows_of, hit_at)
    start = len(points)
    _add_turns(turns, points, rows_of)
    for point in smaller:
        rows_of[point[0], point[1]].append(len(points))
        points.append(point)
    if len(points) > start:
        probs = np.concatenate([probs, reader.read(points[start:])])
    return BlobReadings(points, probs, rows_of, bold)


@dataclass(frozen=True)
class BlobReadings:
    """Every crop looked at and its class probabilities, grouped by the blob it came from."""

    points: list[tuple[float, float, float, float]]  # x, y, size, angle (normalised px, deg)
    probs: np.ndarray  # (len(points), 53)
    rows_of: dict[tuple[float, float], list[int]]  # a blob's centre → its rows
    bold: bool = False  # the photo's glyphs were a jumbo index's (BOLD_GLYPH): read bold too


# A reading: the normalised image, its index hits and the blobs they were read in.
_Read = tuple[Normalised, list[IndexHit], BlobReadings]
# A reading, the card width it was read at, and the width its whole cards measure there
# (None: none measured).
_Measured = tuple[_Read, float, float | None]


def _with_region_angles(
    cands: list[Candidate], regions: Regions | None, factor: float
) -> list[Candidate]:
    """Each candidate, plus copies turned to its white region's axes when those differ,
    and to the photo's unless the two agree.

    The local edge direction can be fooled where a card barely stands out from a pale table;
    the outline of the card's region is a second opinion, and the classifier picks. A card in
    shade beside a brighter table may lie in no region at all: the photo's axes still apply.
    """
    if regions is None:
        return cands
    out = list(cands)
    to_mask = regions.scale / factor
    for c in cands:
        region = regions.at(c.x * to_mask, c.y * to_mask, NORMAL_WIDTH * to_mask)
        guesses = [c.angle]
        outline: tuple[float, ...] = (float(regions.angles[region]),) if region else ()
        # The photo's own axes (cards are often squared to it) unless the glyph's axes and
        # its region's outline agree on others: a crop cut along the photo's axes then reads
        # a glyph askew, which the classifier can read as another card, sure of it. A
        # squarish region (a fan spread wide, a heap) shows no axes of its own to agree.
        agreed = _shows_axes(regions, region) and any(
            not _new_angle(angle, guesses) for angle in outline
        )
        for angle in outline + (() if agreed else (0.0,)):
            if _new_angle(angle, guesses):
                guesses.append(angle)
                out.append(Candidate(c.x, c.y, c.size, angle))
    return out


def _shows_axes(regions: Regions, region: int) -> bool:
    """Whether a region's outline shows the axes it lies along: it is no square (a square's
    smallest rectangle turns with every bump of its outline)."""
    if region not in regions.boxes:
        return False
    _, (w, h), _ = regions.boxes[region]
    return max(w, h) > SQUARISH * max(min(w, h), 1e-9)


def _new_angle(angle: float, tried: list[float]) -> bool:
    """Whether ``angle`` is more than 8° (modulo a quarter turn) from every angle tried."""
    return all(abs((angle - t + 45) % 90 - 45) > 8 for t in tried)


def _best_card(probs: np.ndarray) -> np.ndarray:
    """Each crop's highest card probability (background left out).

    A photo's thousands of blobs are mostly read as no card: taken once for all crops, a
    blob's best is the maximum over its rows, with no per-blob slice of the whole table.
    """
    best: np.ndarray = probs[:, :BACKGROUND].max(axis=1)
    return best


def _glyph_size(
    points: list[tuple[float, float, float, float]],
    probs: np.ndarray,
    rows_of: dict[tuple[float, float], list[int]],
) -> float | None:
    """The photo's own index glyph height: the median size of the crops that read a card
    best on each blob read as one (:data:`MIN_PROB`); None under two such blobs."""
    best = _best_card(probs)
    sizes = [
        points[rows[int(np.argmax(best[rows]))]][2]
        for rows in rows_of.values()
        if best[rows].max() >= MIN_PROB
    ]
    return float(np.median(sizes)) if len(sizes) >= 2 else None


def _larger(
    norm: np.ndarray, read: BlobReadings, model: Path | Sequence[Path] | None
) -> BlobReadings:
    """The readings plus, for each blob read weakly (:data:`LARGER_FROM` up to
    :data:`LARGER_BELOW`), its crops again :data:`LARGER` times larger, and
    :data:`UNDERSIZED` times larger too where the blob is smaller than the photo's median
    index glyph (:func:`_glyph_size`).

    A blob's box can be smaller than its glyph: a thin, pale glyph's strokes break apart in the
    ink mask, and a tilted glyph's box is shrunk by a rough guess. Framed too tight, it reads
    weakly; framed a little wider, better (a real photo's Q♣ turned 120°, its blob 13 px where
    that photo's glyphs are about 15: 0.15, then 0.40 at 1.15 times and 0.74 at 1.3, a card).
    A blob already larger than the photo's glyphs is no broken glyph: framed wider still, a
    pip in glare on a 7♠ read as an 8♠. Only weak blobs, a few in a hundred: the cost stays
    small.
    """
    points, rows_of = list(read.points), {key: list(rows) for key, rows in read.rows_of.items()}
    start = len(points)
    glyph = _glyph_size(read.points, read.probs, read.rows_of)
    best = _best_card(read.probs)
    for rows in rows_of.values():
        if LARGER_FROM <= best[rows].max() < LARGER_BELOW:
            for r in list(rows):
                x, y, size, angle = points[r]
                small = glyph is not None and size < glyph
                for factor in (LARGER, UNDERSIZED) if small else (LARGER,):
                    rows.append(len(points))
                    points.append((x, y, size * factor, angle))
    if len(points) == start:
        return read
    more = CropReader(norm, model).read(points[start:])
    return BlobReadings(points, np.concatenate([read.probs, more]), rows_of, read.bold)


def _add_turns(
    cands: list[Candidate],
    points: list[tuple[float, float, float, float]],
    rows_of: dict[tuple[float, float], list[int]],
) -> None:
    """Adds each candidate's crop in its four quarter turns to ``points``, and their rows to
    its blob's in ``rows_of``."""
    for c in cands:
        rows = rows_of.setdefault((c.x, c.y), [])
        for k in range(4):
            rows.append(len(points))
            points.append((c.x, c.y, c.size, (c.angle + 90 * k) % 360))


def _second_looks(
    blobs: list[Candidate],
    points: list[tuple[float, float, float, float]],
    probs: np.ndarray,
    rows_of: dict[tuple[float, float], list[int]],
    hit_at: float = MIN_PROB,
) -> tuple[list[Candidate], list[tuple[float, float, float, float]]]:
    """More looks at each blob that reads a little like an index in some crop
    (:data:`SECOND_LOOK`) but is no hit (under ``hit_at``): one more orientation, and for a
    blob taller than :data:`TALL` one more crop.

    The orientation is the direction to the blob's nearest blob of suit size, which lies
    under the rank. Edges nearby (another card's, a court frame's) can turn the other guesses
    tens of degrees off a tilted card; the rank and suit are the card's own axis.

    The crop is :data:`SHRINK` times the blob's size, in its best crop's orientation. A thin
    glyph printed close to the card's edge or a court card's frame is one blob with it,
    taller than the glyph; the crop framed around the whole blob shows the glyph too small
    to read (a Bellot deck's J, read at 0.08 framed by its blob, 0.8 at 0.6 of it).
    """
    xs = np.array([b.x for b in blobs])
    ys = np.array([b.y for b in blobs])
    sizes = np.array([b.size for b in blobs])
    turns, smaller = [], []
    best = _best_card(probs)
    for b in blobs:
        rows = rows_of[b.x, b.y]
        if not SECOND_LOOK <= best[rows].max() < hit_at:
            continue
        if b.size > TALL * NORMAL_WIDTH:
            angle = points[rows[int(np.argmax(best[rows]))]][3]
            smaller.append((b.x, b.y, b.size * SHRINK, angle))
        d = np.hypot(xs - b.x, ys - b.y)
        suit = (d > 0.6 * b.size) & (d < 1.5 * b.size) & (sizes > 0.4 * b.size)
        suit &= sizes < 1.1 * b.size
        if not suit.any():
            continue
        j = int(np.flatnonzero(suit)[np.argmin(d[suit])])
        angle = float(np.degrees(np.arctan2(xs[j] - b.x, ys[j] - b.y)) % 90.0)
        if _new_angle(angle, [points[r][3] for r in rows]):
            turns.append(Candidate(b.x, b.y, b.size, angle))
    return turns, smaller


def _merge(hits: list[IndexHit]) -> list[IndexHit]:
    """One hit per glyph: the two halves of a "10", or rank and suit both firing, merge; and
    a weaker reading of another card that close is the same glyph misread, not a card."""
    kept: list[IndexHit] = []
    for hit in sorted(hits, key=lambda h: -h.prob):
        duplicate = any(
            # A ten's halves can each give their own (wrong) angle; nothing else of the same
            # card lies this close. Nor does another card lying alike: the next index of a
            # fan is at least a glyph's width to the side (or it hides this one), so a crop
            # this close reads the same glyph, or half of it and half of its neighbour (two
            # fanned indices side by side read as a "10").
            (
                np.hypot(k.x - hit.x, k.y - hit.y) < MERGE_ACROSS * NORMAL_WIDTH
                and (k.card == hit.card or angle_gap(k.angle, hit.angle) < 45)
            )
            or (k.card == hit.card and angle_gap(k.angle, hit.angle) < 45 and _same_glyph(k, hit))
            for k in kept
        )
        if not duplicate:
            kept.append(hit)
    return kept


def _same_glyph(a: IndexHit, b: IndexHit) -> bool:
    """Close enough along the card's axes to be one index: a ten's halves sit side by side,
    rank and suit one above the other; the same card twice in a fanned meld lies at least a
    quarter of a card's width to the side, so a round radius would merge the two."""
    t = np.deg2rad(a.angle)
    dx, dy = b.x - a.x, b.y - a.y
    du = abs(dx * np.cos(t) - dy * np.sin(t))
    dv = abs(dx * np.sin(t) + dy * np.cos(t))
    return bool(du < glyph_reach(a.card) * NORMAL_WIDTH and dv < MERGE_ALONG * NORMAL_WIDTH)


def glyph_reach(card: Card) -> float:
    """How far apart across (card widths) two readings of one index glyph of ``card`` lie at
    most: a wide "10"'s halves farther than any other glyph's crops."""
    return MERGE_TEN if card.rank is Rank.TEN else MERGE_ACROSS


def card_width_from_indices(hits: Sequence[IndexHit], least: int = 2) -> float | None:
    """The card width the hits' own whole cards measure (their pixels), or None under
    ``least`` (two: one pair of hits may be a pip's and an index's).

    A card seen whole shows its index twice, the second turned half a turn at the far end of
    its diagonal; that diagonal is a card width times a deck-average factor (decks place
    their indices a little differently: about ±10%), whatever the table's colour, so it
    checks the card width the white regions gave. Each pair of surely read hits of one card
    half a turn apart, the second lying where the first's diagonal points, measures one
    card; the median of at least two is returned.

    >>> from cardscore.cards import Card
    >>> from cardscore.vision.readings import IndexHit
    >>> a = IndexHit(Card("7d"), 0.9, 100.0, 100.0, 0.0, None)
    >>> b = IndexHit(Card("7d"), 0.9, 100 + 0.74 * 150, 100 + 0.76 * 1.4 * 150, 180.0, None)
    >>> c = IndexHit(Card("Kc"), 0.9, 400.0, 100.0, 0.0, None)
    >>> d = IndexHit(Card("Kc"), 0.9, 400 + 0.74 * 150, 100 + 0.76 * 1.4 * 150, 180.0, None)
    >>> round(card_width_from_indices([a, b, c, d]), 1)
    150.0
    >>> card_width_from_indices([a, b]) is None  # one card: not enough
    True
    """
    sure = [h for h in hits if h.prob >= MEASURE_PROB]
    widths = []
    for i, a in enumerate(sure):
        for b in sure[i + 1 :]:
            if a.card != b.card or angle_gap(a.angle, b.angle + 180) > MEASURE_TURN:
                continue
            # A one-wide deck-average card turned like a: from its index to the other, twice
            # the way to its centre. Seen from either index (a card is point-symmetric), the
            # other lies along it: one card, measured once.
            diagonal = 2 * index_to_centre(a.angle, 1.0)
            offset = np.array([b.x - a.x, b.y - a.y])
            cross = diagonal[0] * offset[1] - diagonal[1] * offset[0]
            turn = np.degrees(np.arctan2(cross, diagonal @ offset))
            if abs(turn) <= MEASURE_BEARING:
                widths.append(float(np.hypot(*offset) / np.hypot(*diagonal)))
    return float(np.median(widths)) if len(widths) >= least else None
