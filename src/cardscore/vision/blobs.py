"""The readings stage's candidates: ink blobs of an index glyph's size on paper, with their
local axes.

A corner index is a small ink glyph (the rank) with the suit under it, near a card's corner.
Every ink blob of about that size on paper is a candidate; the readings stage
(:mod:`~cardscore.vision.readings`) has the classifier look at a crop around each in the four
orientations of its axes. Sizes are in the normalised image (a card
:data:`~cardscore.vision.geometry.NORMAL_WIDTH` px wide), so any resolution works.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import cv2
import numpy as np

from cardscore.vision.geometry import NORMAL_WIDTH
from cardscore.vision.parallel import THREADS, each

__all__ = [
    "INK_HIGH",
    "INK_LOW",
    "LIT_REACH",
    "NEUTRAL",
    "PAPER_LEVEL",
    "SHADE",
    "Candidate",
    "Page",
    "bold_candidates",
    "candidates",
    "read_page",
]


INK_LOW, INK_HIGH = 45, 45  # black-hat levels of a glyph's strokes and of its darkest core
PAPER_LEVEL = 0.7  # a blob lies on paper this bright, of the brightest near it (see _lit)
SHADE = 0.25  # the deepest shade paper is looked for in, of the photo's brightest (99th pct.)
LIT_REACH = 0.5  # card widths: how far from a blob the brightest near it is looked for
NEUTRAL = 0.2  # paper in shade is grey: its channels differ by at most this share of the top one
# Paper at least this bright, of the photo's brightest, is in the light: its ink is measured as
# it is. Ink on paper in shade is measured against this brightness (Page.ink_gain).
LIT_PAPER = 0.7
# An edge pixel weighs its gradient's magnitude to this power in the local axes (_edge_weight):
# between the magnitude, where every faint grain of a table's texture counts, and its square,
# where a glyph's black strokes outweigh a card's faint edge.
EDGE_POWER = 1.25
# A glyph's blob is this many card widths long at least and at most.
GLYPH_MIN, GLYPH_MAX = 0.06, 0.34
# A blob too large for a glyph, opened (readings.OPENING), keeps the pieces of uncoloured ink:
# the channels' spread at most this on average (black ink on paper: under 30; a red card
# back's lattice, which opens into glyph-sized pieces too: over 100).
OPENED_CHROMA = 60
# A large index (a jumbo-index deck's, 0.22-0.28 card widths high) is this many card widths
# high or more, and its bold strokes' centre may lie this many pixels from the nearest paper.
BOLD_FROM, BOLD_PAPER = 0.2, 15
_RUN = 256  # new blobs compared at once in _seen: bounds its arrays to _RUN x those known


@dataclass(frozen=True)
class Candidate:
    """An ink blob that may be a rank glyph: centre, height (normalised px), local axis angle."""

    x: float
    y: float
    size: float  # the blob's height along the card's axes
    angle: float  # degrees, the local axis; the four orientations add k * 90


def candidates(
    norm: np.ndarray,
    pale: tuple[int, int] | None = None,
    cards: np.ndarray | None = None,
    dark: tuple[int, int] | None = None,
    faint: tuple[int, int] | None = None,
    darkest: tuple[int, int] | None = None,
    shade: float = 1.0,
    rims: np.ndarray | None = None,
    edge_power: float = EDGE_POWER,
    red: tuple[int, int] | None = None,
    opening: int = 0,
    *,
    page: Page | None = None,
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

    ``red`` (levels) adds the new blobs of a mask of red ink alone: a red glyph touching a
    black or grey line (a court card's frame beside its index) is one blob with it in every
    other mask, since they take the darkest channel, where red ink is as dark as black.

    ``opening`` (a square's side, px) adds the new blobs of the usual mask opened by it
    where its blobs are too large for a glyph: a line thinner than that touching a glyph (a
    court card's black frame line under a black index) goes, the glyph's thicker strokes stay.
    Only pieces of uncoloured ink are kept (a red card back's lattice opens into glyph-sized
    pieces too).

    ``cards`` (a mask of the card regions at the normalised image's size) counts as paper
    too, whatever its brightness. ``rims`` (a mask of the same size) is no ink: the cards'
    printed outlines on a table as white as they are, which every glyph printed against them
    would join. ``edge_power``: how the local axes weigh edges (:func:`_local_angles`).
    ``page``: ``norm``'s :func:`read_page` with these ``shade``, ``cards`` and ``edge_power``,
    if the caller has it already (:func:`bold_candidates` reads the same page).

    A blob lies on paper where the brightest within 15 px of it is :data:`PAPER_LEVEL` as
    bright as the photo's brightest (its 99th percentile), as training's candidates have it.
    ``shade`` under 1 (detection uses :data:`SHADE`) adds paper in shade: grey pixels that
    bright of the brightest within :data:`LIT_REACH` card widths, down to ``shade`` times
    the photo's brightest. A shadow over part of the table (the phone's, an arm's) dims a
    card's paper and its ink alike, and beside its own paper the card is paper; a table is
    coloured, or darker than the deepest shade looked in.

    >>> image = np.full((300, 400, 3), 230, np.uint8)
    >>> _ = cv2.putText(image, "5", (300, 80), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0))
    >>> image[:, 250:] //= 3  # a deep shadow over the right of the photo
    >>> len(candidates(image)), len(candidates(image, shade=SHADE))
    (0, 1)
    """
    if page is None:
        page = read_page(norm, shade, cards, edge_power)
    channels, on_paper, c4, s4 = page.channels, page.on_paper, page.c4, page.s4
    hat = page.relative(_black_hat(channels))  # every mask thresholds the same black-hat
    if rims is not None:
        hat[rims > 0] = 0
    usual = _label(hat > INK_LOW)
    more = [
        (levels, on_cards)
        for levels, on_cards in ((pale, False), (dark, False), (faint, True), (darkest, False))
        if levels is not None
    ]
    jobs: list[Callable[[], list[Candidate]]] = [
        partial(_blobs, hat, (INK_LOW, INK_HIGH), on_paper, c4, s4, usual),
        *(partial(_blobs, hat, levels, on_paper, c4, s4) for levels, _ in more),
    ]
    if red is not None:
        jobs.append(partial(_red_blobs, page, red, rims))
    # Each mask is read on its own, on the worker threads (OpenCV labels them without the
    # GIL), and their blobs are then merged in this order: the outcome of reading one by one.
    found_in = each(operator.call, jobs)
    out = found_in[0]
    for (_, on_cards), found in zip(more, found_in[1 : 1 + len(more)], strict=True):
        if on_cards and cards is not None:
            # Off the cards: the table's grain and texture, never an index.
            found = [c for c in found if cards[round(c.y), round(c.x)]]
        out += _new(found, out)
    if red is not None:
        out += _new(found_in[-1], out)
    if opening:
        _, chroma = _top_and_chroma(channels)
        opened = _opened_where_too_large(usual, hat, chroma, INK_HIGH, opening)
        out += _new(_sized(*opened, on_paper, c4, s4), out)
    return out


def _red_blobs(page: Page, levels: tuple[int, int], rims: np.ndarray | None) -> list[Candidate]:
    """The candidates of the red ink alone (:func:`candidates`' ``red``)."""
    red_hat = page.relative(_red_hat(page.channels))
    if rims is not None:
        red_hat[rims > 0] = 0
    return _blobs(red_hat, levels, page.on_paper, page.c4, page.s4)


def bold_candidates(
    page: Page, known: list[Candidate], kernel: float, rims: np.ndarray | None = None
) -> list[Candidate]:
    """The tall blobs (:data:`BOLD_FROM`) of the usual ink levels on a black-hat ``kernel``
    card widths wide that no ``known`` candidate stands for: a jumbo-index deck's bold
    strokes meet wider than the usual kernel, whose black-hat breaks a glyph into pieces.
    Its centre may lie :data:`BOLD_PAPER` px from paper. ``page`` and ``rims`` as
    :func:`candidates` read ``known``."""
    wide = page.relative(_strokes_hat(_darkest(page.channels), kernel))
    if rims is not None:
        wide[rims > 0] = 0
    near = np.ones((2 * BOLD_PAPER + 1, 2 * BOLD_PAPER + 1), np.uint8)
    paper = page.on_paper | (cv2.dilate(page.gray, near) >= PAPER_LEVEL * page.brightest)
    found = _blobs(wide, (INK_LOW, INK_HIGH), paper, page.c4, page.s4)
    return _new([c for c in found if c.size >= BOLD_FROM * NORMAL_WIDTH], known)


@dataclass(frozen=True, eq=False)
class Page:
    """What every ink mask of a normalised photo is read against: its grey image and the
    brightest grey (99th percentile), its channels, where paper lies, its local axes
    (:func:`_local_angles`), and how much each pixel's ink is deepened (``ink_gain``: None
    where shade is not looked for, or the paper near every pixel is in the light)."""

    gray: np.ndarray
    brightest: float
    channels: Sequence[np.ndarray]
    on_paper: np.ndarray
    c4: np.ndarray
    s4: np.ndarray
    ink_gain: np.ndarray | None = None

    def relative(self, hat: np.ndarray) -> np.ndarray:
        """A black-hat (uint8) as deep as it would be on paper in the light: ink in a shadow
        is as much fainter as its paper is darker, and the ink levels are the light's."""
        if self.ink_gain is None:
            return hat
        out: np.ndarray = cv2.multiply(hat, self.ink_gain, dtype=cv2.CV_8U)
        return out


def read_page(
    norm: np.ndarray,
    shade: float = 1.0,
    cards: np.ndarray | None = None,
    edge_power: float = EDGE_POWER,
) -> Page:
    """The :class:`Page` of ``norm`` (``shade``, ``cards``, ``edge_power``: :func:`candidates`')."""
    gray = cv2.cvtColor(norm, cv2.COLOR_BGR2GRAY)
    brightest = float(np.percentile(gray, 99))
    paper = cv2.dilate(gray, np.ones((15, 15), np.uint8))
    on_paper = paper >= PAPER_LEVEL * brightest
    # Split once, by OpenCV: numpy's per-pixel min or max over channels is 25-40x slower.
    channels = cv2.split(norm)
    ink_gain = None
    if shade < 1:
        lit = _lit(gray, shade * brightest, brightest)
        on_paper |= _paper_in_shade(channels, gray, lit)
        ink_gain = _ink_gain(lit, brightest)
    if cards is not None:
        on_paper |= cards > 0
    c4, s4 = _local_angles(gray, edge_power)
    return Page(gray, brightest, channels, on_paper, c4, s4, ink_gain)


def _ink_gain(lit: np.ndarray, brightest: float) -> np.ndarray | None:
    """How much deeper ink would be in the light (:data:`LIT_PAPER`) than under paper as
    bright as ``lit`` (:func:`_lit`): 1 in the light; None when the whole photo is in it."""
    # A black photo has no light at all: no pixel's paper is under the light's.
    gain = (LIT_PAPER * brightest) / np.maximum(lit, 1.0)
    if float(gain.max()) <= 1:
        return None
    out: np.ndarray = np.maximum(gain, 1, out=gain)
    return out


def _new(found: list[Candidate], known: list[Candidate]) -> list[Candidate]:
    """Those of ``found`` no ``known`` candidate stands for (:func:`_seen`)."""
    return [c for c, seen in zip(found, _seen(found, known), strict=True) if not seen]


def _red_hat(channels: Sequence[np.ndarray]) -> np.ndarray:
    """Thin red strokes alone: :func:`_black_hat` of the redness (red over the larger of
    green and blue), where black and grey ink are as light as paper."""
    b, g, r = channels
    return _strokes_hat(cv2.bitwise_not(cv2.subtract(r, cv2.max(g, b))))


def _seen(found: list[Candidate], known: list[Candidate]) -> np.ndarray:
    """For each of ``found``, whether a ``known`` candidate stands for the same blob: one
    within a quarter of its own size of it along x and along y, of a size 0.8 to 1.25 times.

    Two masks find mostly the same thousands of blobs, so each found blob is compared, in
    arrays, only with the known ones in its stretch of x: those sorted by x, found blobs
    taken in runs of :data:`_RUN` by x.
    """
    seen = np.zeros(len(found), bool)
    if not found or not known:
        return seen
    new, old = _columns(found), _columns(known)
    old = old[np.argsort(old[:, 0], kind="stable")]
    # No known blob farther than this along x can match (the pixel of margin keeps the
    # window a superset whatever the rounding: the exact test is _same's).
    reach = 0.25 * float(old[:, 2].max()) + 1.0
    by_x = np.argsort(new[:, 0], kind="stable")
    for run in np.array_split(by_x, -(-len(found) // _RUN)):
        lo, hi = np.searchsorted(old[:, 0], (new[run, 0].min() - reach, new[run, 0].max() + reach))
        seen[run] = _same(new[run], old[lo:hi]).any(axis=1)
    return seen


def _columns(cands: list[Candidate]) -> np.ndarray:
    """The candidates' x, y and size as an (n, 3) float array."""
    return np.array([(c.x, c.y, c.size) for c in cands], dtype=np.float64).reshape(-1, 3)


def _same(new: np.ndarray, old: np.ndarray) -> np.ndarray:
    """(len(new), len(old)): whether old blob j stands for new blob i (see :func:`_seen`);
    rows are x, y, size as :func:`_columns` gives them."""
    x, y, size = (new[:, k, None] for k in range(3))
    ox, oy, osize = (old[None, :, k] for k in range(3))
    ratio = size / osize
    near = (np.abs(x - ox) < 0.25 * osize) & (np.abs(y - oy) < 0.25 * osize)
    same: np.ndarray = near & (ratio > 0.8) & (ratio < 1.25)
    return same


def _blobs(
    hat: np.ndarray,
    levels: tuple[int, int],
    on_paper: np.ndarray,
    c4: np.ndarray,
    s4: np.ndarray,
    weak: Labelled | None = None,
) -> list[Candidate]:
    """The candidates of one ink mask (:func:`_strokes`' ``levels`` on the black-hat; its
    weak mask's components ``weak`` if labelled already): :func:`_sized`."""
    return _sized(*_strokes(hat, levels, weak), on_paper, c4, s4)


def _sized(
    stats: np.ndarray,
    centroids: np.ndarray,
    on_paper: np.ndarray,
    c4: np.ndarray,
    s4: np.ndarray,
) -> list[Candidate]:
    """Of an ink mask's blobs (``cv2.connectedComponentsWithStats`` rows and centroids), those
    of glyph size whose centre lies ``on_paper`` (a mask), sized and turned by the local axes."""
    big = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    glyph = _glyph_sized(stats)
    big, centroids = big[glyph], centroids[glyph]
    # Half-to-even like Python's round(), which placed a centroid on its pixel before.
    ix, iy = np.rint(centroids).astype(np.intp).T
    kept = on_paper[iy, ix]
    big, centroids, ix, iy = big[kept], centroids[kept], ix[kept], iy[kept]
    phi = np.degrees(np.arctan2(s4[iy, ix], c4[iy, ix])) / 4.0
    # A tilted glyph's box is larger than the glyph: undo that roughly.
    size = big / (1 + 0.15 * np.abs(np.sin(np.deg2rad(2 * phi))))
    angle = (-phi) % 90.0
    return [
        Candidate(x, y, s, a)
        for (x, y), s, a in zip(centroids.tolist(), size.tolist(), angle.tolist(), strict=True)
    ]


def _glyph_sized(stats: np.ndarray) -> np.ndarray:
    """Which blobs (``cv2.connectedComponentsWithStats`` rows) are of a glyph's size."""
    wn = NORMAL_WIDTH
    big = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    glyph: np.ndarray = (
        (GLYPH_MIN * wn <= big)
        & (big <= GLYPH_MAX * wn)
        & (stats[:, cv2.CC_STAT_AREA] >= 0.0012 * wn * wn)
    )
    return glyph


def _paper_in_shade(
    channels: Sequence[np.ndarray], gray: np.ndarray, lit: np.ndarray
) -> np.ndarray:
    """Within 15 px of grey pixels (their channels within :data:`NEUTRAL` of the brightest
    of them: a wooden or felt table is coloured, in shade or not) :data:`PAPER_LEVEL` as
    bright as the brightest within :data:`LIT_REACH` card widths (``lit``: :func:`_lit`)."""
    top, chroma = _top_and_chroma(channels)
    grey = chroma < NEUTRAL * top
    bright = gray >= PAPER_LEVEL * lit
    near: np.ndarray = cv2.dilate((grey & bright).astype(np.uint8), np.ones((15, 15), np.uint8)) > 0
    return near


def _top_and_chroma(channels: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Each pixel's brightest channel and its spread (brightest less darkest: 0 on grey)."""
    b, g, r = channels
    top = cv2.max(cv2.max(b, g), r)
    return top, cv2.subtract(top, _darkest(channels))


def _lit(gray: np.ndarray, darkest: float, brightest: float) -> np.ndarray:
    """How bright the paper around each pixel is: the brightest within :data:`LIT_REACH`
    card widths, held between ``darkest`` and ``brightest``.

    Far from any card the table is measured against itself, but a table darker than
    ``darkest`` against that: a dark table stays under the paper level.
    """
    shrink = 4  # light varies slowly: a quarter of the size is plenty, and 16x cheaper
    h, w = gray.shape
    small = cv2.resize(
        gray, (max(1, w // shrink), max(1, h // shrink)), interpolation=cv2.INTER_AREA
    )
    k = max(3, round(LIT_REACH * NORMAL_WIDTH / shrink)) | 1
    near = cv2.dilate(small, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    near = cv2.resize(near, (w, h), interpolation=cv2.INTER_LINEAR)
    lit: np.ndarray = np.clip(near.astype(np.float32), darkest, brightest)
    return lit


def _local_angles(gray: np.ndarray, power: float = EDGE_POWER) -> tuple[np.ndarray, np.ndarray]:
    """Per-pixel dominant edge direction modulo 90° (doubled-angle average over a card width).

    Returns the 4φ cosine and sine sums; card edges and index strokes follow the card's axes.
    Each edge pixel weighs its gradient's magnitude to ``power`` (:data:`EDGE_POWER`): on a
    table nearly as pale as the cards a card's long edge is faint where its glyphs are black,
    and a 7's slanted stroke, weighed by its square, outweighed it and turned the crops 15°
    (a club then reads as a spade, surely).
    """
    g = cv2.GaussianBlur(gray.astype(np.float32), (0, 0), 1.0)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1)
    cos4, sin4 = np.empty_like(gx), np.empty_like(gx)

    def weigh(rows: slice) -> None:
        x, y = gx[rows], gy[rows]
        weight = _edge_weight(x * x + y * y, power)
        phi = np.arctan2(y, x)
        cos4[rows] = weight * np.cos(4 * phi)
        sin4[rows] = weight * np.sin(4 * phi)

    # Pixel by pixel, so a band of rows on each core (NumPy releases the GIL in its loops).
    bands = np.array_split(np.arange(len(gx)), THREADS)
    each(weigh, [slice(int(b[0]), int(b[-1]) + 1) for b in bands if len(b)])
    k = int(NORMAL_WIDTH) | 1
    c4 = cv2.boxFilter(cos4, -1, (k, k))
    s4 = cv2.boxFilter(sin4, -1, (k, k))
    return c4, s4


def _edge_weight(mag2: np.ndarray, power: float = EDGE_POWER) -> np.ndarray:
    """An edge pixel's weight in the local axes: its gradient's magnitude to ``power``, from
    the squared gradient ``mag2``. Powers 2 and 1.25 (1/2 + 1/8 of ``mag2``'s: square roots)
    are exact to the last bit however the image is split into bands; a vectorised power is
    not.

    >>> float(_edge_weight(np.array([256.0], np.float32))[0])  # 16 ** 1.25
    32.0
    """
    if power == 2:
        return mag2
    if power == 1.25:
        root = np.sqrt(mag2)
        weight: np.ndarray = root * np.sqrt(np.sqrt(root))
        return weight
    return np.asarray(mag2 ** (power / 2), mag2.dtype)


def _black_hat(channels: Sequence[np.ndarray]) -> np.ndarray:
    """Thin dark strokes (glyphs), not dark areas: a black-hat with a kernel wider than a stroke.

    The darkest channel makes red ink as dark as black; large dark areas (the table beside a
    card) are left out, so glyphs near a card's edge stay separate blobs.
    """
    return _strokes_hat(_darkest(channels))


def _darkest(channels: Sequence[np.ndarray]) -> np.ndarray:
    """Each pixel's darkest channel (``channels``: an image's, split by cv2.split)."""
    b, g, r = channels
    return cv2.min(cv2.min(b, g), r)


def _strokes_hat(gray: np.ndarray, kernel: float = 0.075) -> np.ndarray:
    """The black-hat of a grey image with a kernel wider than a glyph's stroke (``kernel``
    card widths)."""
    k = max(3, round(kernel * NORMAL_WIDTH)) | 1
    hat: np.ndarray = cv2.morphologyEx(
        gray, cv2.MORPH_BLACKHAT, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    )
    return hat


@dataclass(frozen=True, eq=False)
class Labelled:
    """A 0/1 mask's connected components, as ``cv2.connectedComponentsWithStats`` gives them."""

    count: int
    labels: np.ndarray
    stats: np.ndarray
    centroids: np.ndarray


def _label(mask: np.ndarray) -> Labelled:
    """The 8-connected components of ``mask`` (boolean or 0/1).

    Labelled in 16 bits, whose labels image is half the memory to write and read (a photo's
    masks label in about half the time); a mask of more components than that holds (a noisy
    cloth's speckle) is labelled again in 32. The labels are the same either way.

    >>> speckle = np.zeros((600, 600), np.uint8)
    >>> speckle[::2, ::2] = 1
    >>> few, many = _label(speckle[:10]), _label(speckle)
    >>> few.count, few.labels.dtype.name, many.count, many.labels.dtype.name
    (1501, 'uint16', 90001, 'int32')
    """
    mask = mask.astype(np.uint8)
    try:
        count, labels, stats, centroids = cv2.connectedComponentsWithStats(
            mask, connectivity=8, ltype=cv2.CV_16U
        )
    except cv2.error:  # over 65,535 components
        count, labels, stats, centroids = cv2.connectedComponentsWithStats(
            mask, connectivity=8, ltype=cv2.CV_32S
        )
    return Labelled(count, labels, stats, centroids)


def _opened_where_too_large(
    weak: Labelled, hat: np.ndarray, chroma: np.ndarray, high: int, opening: int
) -> tuple[np.ndarray, np.ndarray]:
    """The blobs (stats and centroids, as :func:`_strokes` gives them) of the ink mask
    ``weak``'s components too large for a glyph (:data:`GLYPH_MAX`: a glyph joined to a
    line), each opened by a square of side ``opening``: those of uncoloured ink (``chroma``,
    the channels' spread, at most :data:`OPENED_CHROMA` on average) that hold a black-hat
    pixel above ``high``. Opening the rest would only break pips, court art and card backs
    into new glyph-sized blobs; each large component is opened and labelled in its own box."""
    square = np.ones((opening, opening), np.uint8)
    stats = weak.stats
    large = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    too_large = large > GLYPH_MAX * NORMAL_WIDTH
    too_large[0] = False  # the background
    found_stats, found_centroids = [np.zeros((0, 5), stats.dtype)], [np.zeros((0, 2))]
    height, width = weak.labels.shape
    for i in np.flatnonzero(too_large):
        # Its box and a margin of paper (within the photo), which the square cannot fit into.
        x0, y0, w, h = (int(v) for v in stats[i, :4])
        x, y = max(0, x0 - opening), max(0, y0 - opening)
        w, h = min(width, x0 + w + opening) - x, min(height, y0 + h + opening) - y
        part = (weak.labels[y : y + h, x : x + w] == i).astype(np.uint8)
        opened = _label(cv2.morphologyEx(part, cv2.MORPH_OPEN, square))
        summed = np.bincount(
            opened.labels.ravel(), chroma[y : y + h, x : x + w].ravel(), opened.count
        )
        kept = summed <= OPENED_CHROMA * np.maximum(opened.stats[:, cv2.CC_STAT_AREA], 1)
        strong = np.zeros(opened.count, bool)
        strong[opened.labels[hat[y : y + h, x : x + w] > high]] = True
        kept &= strong
        kept[0] = False
        pieces = np.flatnonzero(kept)
        box_stats = opened.stats[pieces].copy()
        box_stats[:, cv2.CC_STAT_LEFT] += x
        box_stats[:, cv2.CC_STAT_TOP] += y
        found_stats.append(box_stats)
        found_centroids.append(opened.centroids[pieces] + np.array([x, y]))
    return np.concatenate(found_stats), np.concatenate(found_centroids)


def _strokes(
    hat: np.ndarray, levels: tuple[int, int], weak: Labelled | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The ink mask's blobs, by hysteresis on the black-hat: a blob needs a clearly dark core
    (above ``levels[1]``, usually :data:`INK_HIGH`) but keeps its paler, thinner strokes down
    to ``levels[0]`` (:data:`INK_LOW`), so the pale indices of bright photos come out whole, not
    in fragments of the wrong size. ``weak``: the weak mask's components, if already labelled
    (or another weak mask's).

    Returns the blobs' ``cv2.connectedComponentsWithStats`` rows and centroids, background
    left out. The ink mask is the weak mask's components that hold a strong pixel, whole, so
    its blobs are those components: labelled once, in the same raster order, not again.
    """
    low, high = levels
    if weak is None:
        weak = _label(hat > low)
    strong = np.zeros(weak.count, bool)
    strong[weak.labels[hat > high]] = True
    strong[0] = False
    kept = np.flatnonzero(strong)
    return weak.stats[kept], weak.centroids[kept]
