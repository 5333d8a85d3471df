"""Stage 3, index readings → physical cards, by geometry alone.

A card shows the same index at two opposite corners; two hits of one card, turned 180° from
each other and as far apart as a card's corners, are one physical card (:func:`pair_indices`).
A card read too weakly to report alone counts where it completes a meld it lies in
(:func:`adopt_weak`); a card of a meld seen by one index far off the meld's angle takes the
meld's (:func:`straighten`); a spot read twice keeps one card (:func:`one_per_spot`).
:func:`find_cards` runs them in that order. Cards whose outlines overlap lie together
(:func:`group_cards`): the repairs and the groups start from that.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import combinations

import cv2
import numpy as np

from cardscore.cards import Card, Rank
from cardscore.vision.geometry import (
    ASPECT,
    INDEX_U,
    INDEX_V,
    NORMAL_WIDTH,
    angle_gap,
    card_axes,
    common_upright,
    index_to_centre,
)
from cardscore.vision.meld_rules import mends, plausible_meld
from cardscore.vision.readings import IndexHit

__all__ = [
    "ALONE_MIN",
    "MIN_CARD",
    "SAME_CARD",
    "SAME_TURNED_SPOT",
    "Fan",
    "Placement",
    "adopt_weak",
    "centre_by_reach",
    "fan_of",
    "find_cards",
    "group_cards",
    "hit_centre",
    "mendable",
    "one_per_spot",
    "pair_indices",
    "read_at_far_corner",
    "row_angle",
    "straighten",
    "typical_glyph",
]


MIN_CARD = 0.5  # a card is reported from this score up (flagged below calibration.FLAG_AT)
GROUPED = 0.12  # outlines sharing more than this fraction of a card lie in one group
# Outlines drawn 0.95 of a card (as _overlap compares them) whose centres lie more than their
# diagonal apart (card widths) cannot meet.
_APART = 0.95 * math.hypot(1.0, ASPECT)
PAIR_ANGLE = 50.0  # a corner index's angle may come from its local edges, tens of degrees off
# A weak card this close (card widths, centre to centre) to a card found is another reading of
# it. Not more: a tight fan puts the next card 0.25 W over, and a centre guessed from one index
# (decks place their indices differently) can land 0.19 W from its neighbour's.
SAME_CARD = 0.15
ALONE_MIN = 0.3  # a weak card no card found contradicts is reported from this score up
SAME_SPOT = 0.08  # two cards' centres this close (card widths): one card read twice
# Two one-index cards turned half a turn from each other (within TURNED degrees) this close:
# one card's two corners read as different cards, each centre guessed from its own corner
# with the deck-average offsets (a deck's own can put the two 0.25 W apart).
TURNED, TURNED_SPOT = 20.0, 0.35
# Read as the same card, they are one card up to this far apart where each centre guess lies
# past the other's: a card foreshortened in a photo taken at an angle (not straightened)
# brings its corners nearer than a card's geometry pairs. A fan of one card of two decks
# (the top card's far index read alone) puts them a step apart the other way.
SAME_TURNED_SPOT = 0.6
DIAGONAL = 10.0  # degrees: a two-index card's corners overrule its hits' angle beyond this
# Two hits whose angles fit no card pair along the line between them, a card's diagonal, only
# where they lie this near (card sizes) where a deck-average card puts its indices: further,
# they are as likely two cards of a fan (two decks: the same card twice).
DIAGONAL_FIT = 0.15
# Pairs are taken in tiers, best fit first within each: two corners that fit along their
# glyphs' axes, then a four-index deck's two indices of one side (see _side_partners), then
# corners that fit only along the line between them, a card's diagonal. The diagonal is the
# loosest fit: any two opposite glyphs a diagonal apart, up to PAIR_ANGLE off their axes, fit
# it, as a four-index deck's corner index and the next card's turned one can. A tall deck's
# two corners (1.56 as tall as wide, not 1.4) misfit along their axes by 0.2. Corners that
# fit only along the photo's axes, which both glyphs say the card is not, come after a side
# pair that fits along the glyphs' own: a four-index card's side on a table turned 16° fits
# a card upright in the photo, and put that card on its neighbour's spot.
SIDE_TIER, SQUARE_TIER, DIAGONAL_TIER = 10.0, 15.0, 20.0
# A photo taken from a seat shows the near cards larger than the far ones (about 1.4 times
# at 20° from overhead), and the photo's card width is its typical card's: a near card's two
# corners lie too far apart for it. Two hits whose glyphs are on average at least NEAR_SCALE
# times the photo's typical glyph (the median of its hits') are also fitted at that scale
# (at most NEAR_MAX), after every other tier: a glyph's size alone is a rough measure.
NEAR_SCALE, NEAR_MAX, NEAR_TIER = 1.15, 2.0, 25.0
# Where a card's other corner index may lie from the first: ACROSS_FIT card widths across
# and DOWN_FIT card heights down (a deck-average card's at 0.74 and 0.76).
ACROSS_FIT, DOWN_FIT = (0.4, 1.1), (0.55, 1.05)
# A photo from a seat straightened a little too far stretches its far cards along the lean:
# their two corners lie further apart down the card (past DOWN_FIT, up to LONG_DOWN card
# heights) than any deck's, though no further across (LONG_ACROSS card widths).
# Unpaired, such a card is reported twice, once from each corner. Those pairs are taken
# last, and only where no other card's index lies on the card they make: down a column of
# cards, the top card's index and the bottom card's far corner misread as the same card lie
# as far apart, with the column's other indices between them.
LONG_DOWN, LONG_ACROSS, LONG_TIER = 1.2, 0.9, 30.0
# A four-index deck's two indices of one side lie within SIDE_ACROSS card widths of straight
# above each other; a ten's within SIDE_ACROSS_TEN (its wide "10" read at its middle at one
# end, nearer its "1" or its "0" at the other: a dondorf ten's lie 0.13-0.14 apart).
SIDE_ACROSS, SIDE_ACROSS_TEN = 0.12, 0.18
SIDE_TURN = 5.0  # degrees: a side's two glyphs read this near parallel are also fitted halfway
# A group's measured reach within these times a deck-average card's, across and down
# (centre_by_reach): a photo at an angle shows its near cards up to about 1.4 times its far ones.
REACH_SCALE = (0.7, 1.45)
# Only a group of REACH_FAN cards or more (a fanned meld) is measured: a two-index card of
# a crossed pair, its far corner half hidden by the other card, measured 0.78 times a
# deck-average reach across and 1.14 times down.
REACH_FAN = 3
STRAIGHTEN = 15.0  # a one-index card this far (degrees) from its meld's angle takes the meld's
# A meld laid in a straight row: its cards' top-left indices lie on one line (RMS off it
# within ROW_FIT: card widths, and a share of the row's length, for the line's angle to be
# within a few degrees), a step of ROW_STEP card widths apart, and its cards turn less than
# FAN_TURN degrees from one end to the other (more, steadily: FAN_FIT of the turns' spread
# along the row, is a fan). Its row says its angle better
# than one glyph does: a one-index card more than ROW_TURN off it takes the row's, unless the
# meld's cards agree on an angle within ROW_TRUST of the row's (a hand lays a row a few
# degrees off its cards' own axis: the training tables' rows run across the photo whatever
# the cards' turn).
ROW_FIT = (0.02, 0.025)
ROW_STEP = (0.08, 1.0)
FAN_TURN, FAN_FIT = 8.0, 0.7
ROW_TURN, ROW_TRUST = 8.0, 12.0
# An upright card's bearing (degrees, as the photo's y runs) from its top-left index to the
# other: its diagonal through the centre.
_UPRIGHT_DIAGONAL = float(np.degrees(np.arctan2(*index_to_centre(0.0, 1.0)[::-1])))


@dataclass(frozen=True)
class Placement:
    """A physical card found in normalised pixels (card width ``w``)."""

    card: Card
    confidence: float
    x: float
    y: float
    angle: float  # rotation, degrees counter-clockwise as seen; 0 = upright
    indices: int  # corner indices read (1 or 2)
    runner_up: Card | None
    # A card read at two opposite corners measures its own top-left index's offset to its
    # centre (across, down: normalised px), where one index guesses a deck-average card's.
    reach: tuple[float, float] | None = None

    def corners(self, w: float) -> np.ndarray:
        """The outline's four corners (4, 2), clockwise from the card's top-left."""
        t = np.deg2rad(self.angle)
        right = np.array([np.cos(t), -np.sin(t)]) * w / 2
        down = np.array([np.sin(t), np.cos(t)]) * w * ASPECT / 2
        c = np.array([self.x, self.y])
        return np.array([c - right - down, c + right - down, c + right + down, c - right + down])


def find_cards(hits: Sequence[IndexHit]) -> tuple[Placement, ...]:
    """The physical cards the index hits show (normalised px): corners paired, weak cards
    that complete a meld or that no card found contradicts adopted, one-index cards of a meld
    straightened, one card a spot.

    >>> from cardscore.vision.geometry import INDEX_U, INDEX_V
    >>> far = ((1 - 2 * INDEX_U) * NORMAL_WIDTH, (1 - 2 * INDEX_V) * ASPECT * NORMAL_WIDTH)
    >>> a = IndexHit(Card("7d"), 0.9, 100.0, 100.0, 0.0, None)
    >>> b = IndexHit(Card("7d"), 0.8, 100.0 + far[0], 100.0 + far[1], 180.0, None)
    >>> weak = IndexHit(Card("Kc"), 0.3, 500.0, 100.0, 0.0, None)
    >>> [(p.card.code, round(p.confidence, 2), p.indices) for p in find_cards([a, b, weak])]
    [('7d', 0.98, 2), ('Kc', 0.3, 1)]
    >>> [p.card.code for p in find_cards([a, b, replace(weak, prob=0.25)])]
    ['7d']
    """
    paired = pair_indices(list(hits), NORMAL_WIDTH)
    # A weak index hit counts only when the card's other corner agrees with it.
    placed = [p for p in paired if p.confidence >= MIN_CARD]
    weak = [p for p in paired if p.confidence < MIN_CARD]
    placed += adopt_weak(placed, weak, NORMAL_WIDTH, group_cards(placed, NORMAL_WIDTH))
    placed += adopt_alone(placed, weak, NORMAL_WIDTH)
    placed = straighten(placed, group_cards(placed, NORMAL_WIDTH), NORMAL_WIDTH)
    return tuple(one_per_spot(placed, NORMAL_WIDTH))


def hit_centre(hit: IndexHit, w: float) -> np.ndarray:
    """Where a corner index read puts its card's centre (cards ``w`` wide)."""
    return np.asarray(np.array([hit.x, hit.y]) + index_to_centre(hit.angle, w))


def _opposite(a: IndexHit, b: IndexHit) -> bool:
    """Whether two hits read the same card turned half a turn from each other (within
    :data:`PAIR_ANGLE`), as a card's indices at its top and its bottom are."""
    return a.card == b.card and angle_gap(a.angle, b.angle + 180) <= PAIR_ANGLE


def _partners(a: IndexHit, b: IndexHit, w: float) -> tuple[float, float] | None:
    """If a and b can be the two corner indices of one card: the card's angle, and how far
    (card sizes) b lies from where a deck-average card puts a's other corner (in
    :data:`SQUARE_TIER` where only the photo's axes fit, :data:`DIAGONAL_TIER` where only the
    diagonal does); else ``None``."""
    if not _opposite(a, b):
        return None
    v = np.array([b.x - a.x, b.y - a.y])
    # Generous: decks place their indices differently, and a hit's angle may be a guess
    # (the photo's axes) some degrees off the card's own; so the offset is checked in a's
    # frame and in the frame halfway between the two hits' angles (_offsets). Both hits can
    # also share one wrong angle (a 7's diagonal stroke read upright 35° off, at both
    # corners): then the photo's nearest axes, where the corners do fit, are the card's; or,
    # where the glyphs were read along the photo's axes on a card turned in the photo, the
    # line between the two indices, its diagonal.
    for card_angle, tier, du, dv in _offsets(a, b, w):
        if ACROSS_FIT[0] <= du <= ACROSS_FIT[1] and DOWN_FIT[0] <= dv <= DOWN_FIT[1]:
            return card_angle, _misfit(du, dv) + tier
    diagonal = (_UPRIGHT_DIAGONAL - float(np.degrees(np.arctan2(v[1], v[0])))) % 360
    if angle_gap(diagonal, a.angle) <= PAIR_ANGLE:
        right, down = card_axes(diagonal)
        misfit = _misfit(float(v @ right) / w, float(v @ down) / (w * ASPECT))
        if misfit <= DIAGONAL_FIT:
            return diagonal, misfit + DIAGONAL_TIER
    return None


def _offsets(a: IndexHit, b: IndexHit, w: float) -> Iterator[tuple[float, float, float, float]]:
    """b's offset from a in each frame two opposite hits are checked in (:func:`_partners`):
    the card's angle the frame gives, the tier it adds (:data:`SQUARE_TIER` for the photo's
    axes where they are not a's own), and the offset across (card widths) and down (card
    heights)."""
    v = np.array([b.x - a.x, b.y - a.y])
    halfway = a.angle + _turned_past_half(a, b) / 2
    square = 90.0 * round(halfway / 90.0)
    off_axes = SQUARE_TIER if angle_gap(square, a.angle) > 1 else 0.0
    for angle, card_angle, tier in ((a.angle, a.angle, 0.0), (halfway, a.angle, 0.0),
                                    (square, square, off_axes)):  # fmt: skip
        right, down = card_axes(angle)
        yield card_angle, tier, float(v @ right) / w, float(v @ down) / (w * ASPECT)


def _long_partners(a: IndexHit, b: IndexHit, w: float) -> tuple[float, float] | None:
    """If a and b can be the two corner indices of one card stretched along its length
    (:data:`LONG_DOWN`): the card's angle and the misfit as :func:`_partners`', in
    :data:`LONG_TIER`; else ``None``."""
    if not _opposite(a, b):
        return None
    for card_angle, tier, du, dv in _offsets(a, b, w):
        if ACROSS_FIT[0] <= du <= LONG_ACROSS and DOWN_FIT[1] < dv <= LONG_DOWN:
            return card_angle, _misfit(du, dv) + tier + LONG_TIER
    return None


def _bare(a: IndexHit, b: IndexHit, card_angle: float, w: float, hits: list[IndexHit]) -> bool:
    """Whether no hit of ``hits`` but ``a`` and ``b`` (its card read surely enough to be
    reported) lies on the card whose opposite corners they are, turned ``card_angle``: well
    inside the box between the two, a tenth of a card in from its ends."""
    right, down = card_axes(card_angle)

    def on_card(h: IndexHit) -> tuple[float, float]:
        """``h``'s offset from ``a`` across the card and down it (px)."""
        offset = np.array([h.x - a.x, h.y - a.y])
        return float(offset @ right), float(offset @ down)

    across, along = on_card(b)
    margin = 0.1 * w * ASPECT
    for h in hits:
        if h is a or h is b or h.prob < MIN_CARD:
            continue
        u, v = on_card(h)
        if -0.1 * w <= u <= across + 0.1 * w and margin <= v <= along - margin:
            return False
    return True


def _side_partners(a: IndexHit, b: IndexHit, w: float) -> tuple[float, float] | None:
    """If a and b can be the indices at the top and the bottom of one side of a card of a
    four-index deck (its left edge, all a meld leaves in sight of a card under the next):
    the card's angle (the frame of whichever hit is nearer upright in the photo), and the
    misfit as :func:`_partners`', in :data:`SIDE_TIER`; else ``None``.

    Such a deck prints the index in all four corners, the bottom two turned half a turn: the
    top and bottom indices of one side are opposite glyphs straight above each other. Which
    side is not told by the glyphs; the card is taken to lie to the right of them, as a meld
    laid left to right shows its cards' left edges."""
    if not _opposite(a, b):
        return None
    top, bottom = (a, b) if angle_gap(a.angle, 0) <= angle_gap(b.angle, 0) else (b, a)
    v = np.array([bottom.x - top.x, bottom.y - top.y])
    # In the top glyph's frame, or halfway between the two glyphs' where they agree within
    # SIDE_TURN (a degree or two apart tilts a line a card long by a twentieth of its
    # width; glyphs 20° apart are a card's opposite corners, turned 10° from either).
    turn = _turned_past_half(top, bottom)
    frames = (top.angle, top.angle + turn / 2) if abs(turn) <= SIDE_TURN else (top.angle,)
    across = SIDE_ACROSS_TEN if a.card.rank is Rank.TEN else SIDE_ACROSS
    for frame in frames:
        right, down = card_axes(frame)
        du, dv = float(v @ right) / w, float(v @ down) / (w * ASPECT)
        if abs(du) <= across and DOWN_FIT[0] <= dv <= DOWN_FIT[1]:
            return top.angle, _misfit(1 - 2 * INDEX_U + du, dv) + SIDE_TIER
    return None


def _turned_past_half(a: IndexHit, b: IndexHit) -> float:
    """How far (degrees, -180 to 180) ``b``'s glyph is turned past half a turn from ``a``'s:
    0 for a card's two opposite indices read exactly."""
    return (b.angle + 180 - a.angle + 180) % 360 - 180


def _misfit(du: float, dv: float) -> float:
    """How far (card sizes) an index lies from where a deck-average card puts it, ``du``
    across and ``dv`` down from its partner."""
    return float(np.hypot(du - (1 - 2 * INDEX_U), dv - (1 - 2 * INDEX_V)))


def pair_indices(hits: list[IndexHit], w: float) -> list[Placement]:
    """Physical cards from index hits, pairing each card's two corners where both show.

    The pairs that fit a card best are taken first: in a fanned set the top card's far
    corner also fits the next card's index, a card width and a step away.
    """
    glyph = typical_glyph(hits)
    pairs = sorted(
        (fit[1], -hits[i].prob, i, j, fit[0], side)
        for i in range(len(hits))
        for j in range(len(hits))
        if hits[i].prob >= hits[j].prob and i != j
        for side, fit in _fits(hits[i], hits[j], w, glyph, hits)
    )
    used: set[int] = set()
    partner_of: dict[int, tuple[int, float, bool]] = {}
    for _, _, i, j, card_angle, side in pairs:
        if i not in used and j not in used:
            used.update((i, j))
            partner_of[i] = (j, card_angle, side)
    paired = {
        i: _paired(hits[i], hits[j], w, angle, side) for i, (j, angle, side) in partner_of.items()
    }
    # A lone hit is checked against every pair, whichever of the two was read more surely.
    found = list(paired.values())
    cards: list[Placement] = []
    for i in sorted(range(len(hits)), key=lambda i: -hits[i].prob):
        a = hits[i]
        if i in paired:
            cards.append(paired[i])
        elif i not in used and not any(_third_index(a, p, w) for p in found):
            c = hit_centre(a, w)
            cards.append(
                Placement(a.card, a.prob, float(c[0]), float(c[1]), a.angle, 1, a.runner_up)
            )
    return cards


def _fits(
    a: IndexHit, b: IndexHit, w: float, glyph: float | None, hits: list[IndexHit]
) -> list[tuple[bool, tuple[float, float]]]:
    """Each way ``a`` and ``b`` can be one card's two indices: whether as one side's
    (:func:`_side_partners`), and the card's angle and misfit; a near card's fit at its own
    scale (:data:`NEAR_SCALE`) last; where none fits, a card stretched along its length
    that no other of ``hits`` lies on (:func:`_long_partners`)."""
    fits = [
        (side, fit)
        for side, partners in ((False, _partners), (True, _side_partners))
        if (fit := partners(a, b, w))
    ]
    scale = (a.size + b.size) / 2 / glyph if glyph else 0.0
    if scale >= NEAR_SCALE and (near := _partners(a, b, w * min(scale, NEAR_MAX))):
        fits.append((False, (near[0], near[1] + NEAR_TIER)))
    if not fits and (long := _long_partners(a, b, w)) and _bare(a, b, long[0], w, hits):
        fits.append((False, long))
    return fits


def typical_glyph(hits: Sequence[IndexHit]) -> float | None:
    """The median glyph height of the hits that report a card (:data:`MIN_CARD`), if known."""
    sizes = [h.size for h in hits if h.size > 0 and h.prob >= MIN_CARD]
    return float(np.median(sizes)) if sizes else None


def _paired(a: IndexHit, b: IndexHit, w: float, card_angle: float, side: bool) -> Placement:
    """The card two paired hits show: ``a`` the surer, ``side`` whether they are one side's
    top and bottom indices (:func:`_side_partners`) rather than opposite corners."""
    c = (np.array([a.x, a.y]) + np.array([b.x, b.y])) / 2
    if side:
        # Half a card width in from the side's midpoint, as a top-left index lies.
        angle = card_angle
        c = c + (0.5 - INDEX_U) * w * card_axes(angle)[0]
    else:
        card_angle = _diagonal_angle(a, b, card_angle)
        # The surer hit gives the angle (the other's may be tens of degrees off), turned to
        # whichever of the card's two ends is nearer upright.
        angle = min(card_angle % 360, (card_angle + 180) % 360, key=lambda t: angle_gap(t, 0))
    both = 1 - (1 - a.prob) * (1 - b.prob)
    # Corners that fit only a card turned otherwise than their glyphs say measure no reach.
    unmeasured = side or angle_gap(card_angle, a.angle, 180) > DIAGONAL
    reach = None if unmeasured else _reach(a, b, c, angle)
    return Placement(
        a.card, both, float(c[0]), float(c[1]), angle, 2, a.runner_up or b.runner_up, reach
    )


def _reach(
    a: IndexHit, b: IndexHit, centre: np.ndarray, angle: float
) -> tuple[float, float] | None:
    """The offset (across, down: px) from the top-left of two opposite corner indices to
    their card's ``centre``, the card turned ``angle``; ``None`` if neither lies up and to
    the left of it."""
    right, down = card_axes(angle)
    for hit in (a, b):
        v = centre - np.array([hit.x, hit.y])
        across, along = float(v @ right), float(v @ down)
        if across > 0 and along > 0:
            return across, along
    return None


def _third_index(hit: IndexHit, card: Placement, w: float) -> bool:
    """Whether a hit left alone is a four-index card's third or fourth corner: the same card
    as one found at two corners, read where that card's other top or bottom corner lies
    (within :data:`SIDE_ACROSS` card widths), turned as the index printed there is."""
    if hit.card != card.card:
        return False
    right, down = card_axes(card.angle)
    centre = np.array([card.x, card.y])
    across = (0.5 - INDEX_U) * w * right
    along = (0.5 - INDEX_V) * w * ASPECT * down
    # The top-right corner's index reads like the top-left's, the bottom-left's half a turn.
    for spot, turn in ((centre + across - along, 0.0), (centre - across + along, 180.0)):
        near = np.hypot(*(np.array([hit.x, hit.y]) - spot)) <= SIDE_ACROSS * w
        if near and angle_gap(hit.angle, card.angle + turn) <= PAIR_ANGLE:
            return True
    return False


def _diagonal_angle(a: IndexHit, b: IndexHit, angle: float) -> float:
    """A two-index card's angle: the line between its corners says it, within a few degrees
    whatever the deck, where the glyphs' own axes can be tens of degrees off (faint ink);
    ``angle`` (the hits') stands unless the two differ by more than :data:`DIAGONAL`."""
    along = np.degrees(np.arctan2(b.y - a.y, b.x - a.x))
    seen = float(_UPRIGHT_DIAGONAL - along)
    return seen % 360 if angle_gap(seen, angle) > DIAGONAL else angle


def _overlap(p: Placement, q: Placement, w: float) -> float:
    """Shared area of two outlines, as a fraction of one card.

    >>> a, b = (Placement(Card("5h"), 0.9, x, 100.0, 0.0, 1, None) for x in (100.0, 150.0))
    >>> round(_overlap(a, b, 100.0), 3), _overlap(a, replace(b, x=400.0), 100.0)
    (0.474, 0.0)
    """
    # Outlines whose centres lie a diagonal apart cannot meet: most pairs of a table's cards,
    # which the polygon test would cost a table of 60 cards a quarter of a second to rule out.
    if math.hypot(p.x - q.x, p.y - q.y) > _APART * w:
        return 0.0
    a = p.corners(w * 0.95).astype(np.float32)
    b = q.corners(w * 0.95).astype(np.float32)
    area, _ = cv2.intersectConvexConvex(a, b)
    return float(area) / (0.95 * 0.95 * w * w * ASPECT)


@dataclass(frozen=True, eq=False)
class Fan:
    """How a group's cards lie fanned: their common upright ``angle`` (the end nearer the
    first card's), the ``axis`` they are laid along (unit vector: the cards' right in a row,
    their down in a ``column``, as players fan a meld either way) and each card's place along
    it (px)."""

    angle: float
    axis: np.ndarray
    places: np.ndarray
    column: bool

    @property
    def across(self) -> np.ndarray:
        """The unit vector across the fan (a quarter turn from its axis)."""
        return np.array([-self.axis[1], self.axis[0]])

    @property
    def order(self) -> list[int]:
        """The cards' positions in their order along the fan."""
        return [int(k) for k in np.argsort(self.places, kind="stable")]


def fan_of(members: Sequence[Placement]) -> Fan | None:
    """The fan the members lie in; ``None`` when they do not lie alike. Its axis is the one
    of the cards' own two along which their centres spread the more.

    >>> row = [Placement(Card(c), 0.9, 100 + 40 * k, 300 + k, 0, 1, None) for k, c in enumerate(["5h", "6h"])]
    >>> column = [Placement(Card(c), 0.9, 100 + k, 300 + 60 * k, 0, 1, None) for k, c in enumerate(["5h", "6h"])]
    >>> [[round(float(v)) for v in fan_of(cards).places] for cards in (row, column)]
    [[100, 140], [300, 360]]
    >>> fan_of(row).column, fan_of(column).column
    (False, True)
    """
    common = common_upright([p.angle for p in members])
    if common is None:
        return None
    if angle_gap(common, members[0].angle) > 90:
        common += 180
    right, down = card_axes(common)
    centres = np.array([[p.x, p.y] for p in members])
    column = bool(np.ptp(centres @ down) > np.ptp(centres @ right))
    axis = down if column else right
    return Fan(common % 360, axis, centres @ axis, column)


def group_cards(cards: list[Placement], w: float) -> list[list[int]]:
    """Indices of cards grouped by overlapping outlines (union–find), in reading order."""
    parent = list(range(len(cards)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    centres = np.array([[p.x, p.y] for p in cards]).reshape(-1, 2)
    for i in range(len(cards)):
        # Only cards within a diagonal can overlap (_overlap): the rest are not looked at.
        apart = np.hypot(*(centres[i + 1 :] - centres[i]).T)
        for j in i + 1 + np.flatnonzero(apart <= _APART * w):
            if _overlap(cards[i], cards[int(j)], w) > GROUPED:
                parent[find(i)] = find(int(j))
    groups: dict[int, list[int]] = {}
    for i in range(len(cards)):
        groups.setdefault(find(i), []).append(i)
    out = [sorted(g, key=lambda i: (cards[i].x, cards[i].y)) for g in groups.values()]
    return sorted(out, key=lambda g: (min(cards[i].y for i in g), min(cards[i].x for i in g)))


def adopt_weak(
    cards: list[Placement], weak: list[Placement], w: float, groups: list[list[int]]
) -> list[Placement]:
    """Weak cards (too unsure to report alone) that complete a meld they lie in.

    A weak card is adopted when the groups its outline overlaps hold two cards or more, it
    lies like them, sits on no card already found, and they with it still look like a legal
    meld: a second Ac half hidden in a fanned set of aces. A weak card may bridge a lone card
    and the rest of its meld (a run's second card read weakly), and one adopted card can make
    room for the next (two weak cards side by side): adoption repeats with the groups redrawn.
    Where no one weak card completes a meld, two together may (a run's 6 and 8 both read
    weakly): the surest such pair is adopted. Adopted cards stay flagged (their confidence is
    low).
    """
    adopted: list[Placement] = []
    pending = sorted(weak, key=lambda p: -p.confidence)
    while pending:
        everyone = cards + adopted
        taken = []
        for p in pending:
            if _completes([p], everyone, groups, w, adopted):
                adopted.append(p)
                taken.append(p)
        if not taken:
            pair = next(
                (
                    [p, q]
                    for p, q in combinations(pending, 2)
                    if np.hypot(p.x - q.x, p.y - q.y) >= SAME_CARD * w
                    and _completes([p, q], everyone, groups, w, adopted)
                ),
                None,
            )
            if pair is None:
                break
            adopted += pair
            taken = pair
        pending = [p for p in pending if p not in taken]
        groups = group_cards(cards + adopted, w)
    return adopted


def _completes(
    new: list[Placement],
    everyone: list[Placement],
    groups: list[list[int]],
    w: float,
    adopted: list[Placement],
) -> bool:
    """Whether the ``new`` weak cards lie in groups of two or more of ``everyone`` (each on
    no card found or ``adopted``, lying like them) and with them look like a legal meld, a
    misread card mended included (:func:`mendable`)."""
    touching = [
        g for g in groups if any(_overlap(p, everyone[i], w) > GROUPED for p in new for i in g)
    ]
    members = [everyone[i] for g in touching for i in g]
    if len(members) < 2:
        return False
    if any(np.hypot(p.x - q.x, p.y - q.y) < SAME_CARD * w for p in new for q in members + adopted):
        return False
    if common_upright([q.angle for q in members + new]) is None:
        return False
    # Mended, it is a card found that was misread: a weak card is taken as read.
    return mendable(members + [replace(p, runner_up=None) for p in new])


def adopt_alone(cards: list[Placement], weak: list[Placement], w: float) -> list[Placement]:
    """Weak cards no card found contradicts: reported (flagged) rather than dropped.

    An index read weakly (a design's glyph the classifier is unsure of) is still a card on the
    table, unless it is a card found read again (its centre within :data:`SAME_CARD`) or a mark
    inside one: a card's pip or picture read as an index lies on that card, and that card's
    own index, seen, lies on the outline it would have. A card of a fan lies on its
    neighbour too, but leaves the neighbour's index in sight. Surest first, from
    :data:`ALONE_MIN` up; a card adopted counts for the weaker ones after it.
    """
    adopted: list[Placement] = []
    for p in sorted(weak, key=lambda p: -p.confidence):
        everyone = cards + adopted
        if p.confidence < ALONE_MIN or any(p is q for q in cards):
            continue
        if any(_read_again(p, q, w) for q in everyone):
            continue
        if any(_covers(q, p, w) and _covers(p, q, w) for q in everyone):
            continue
        adopted.append(p)
    return adopted


def _read_again(p: Placement, q: Placement, w: float) -> bool:
    """Whether weak ``p`` is card ``q`` read again: centres within :data:`SAME_CARD`, or its
    far corner read as another card (:func:`_far_corner`)."""
    return bool(np.hypot(p.x - q.x, p.y - q.y) < SAME_CARD * w or _far_corner(p, q, w))


def _index_spots(p: Placement, w: float) -> list[np.ndarray]:
    """Where the indices read of a card lie: its top-left one, and the opposite when both."""
    to_centre = index_to_centre(p.angle, w)
    centre = np.array([p.x, p.y])
    return [centre - to_centre] + ([centre + to_centre] if p.indices == 2 else [])


def _covers(p: Placement, q: Placement, w: float) -> bool:
    """Whether ``p``'s outline covers an index read of ``q``."""
    outline = p.corners(w).astype(np.float32).reshape(-1, 1, 2)
    return any(
        cv2.pointPolygonTest(outline, (float(s[0]), float(s[1])), False) > 0
        for s in _index_spots(q, w)
    )


def straighten(cards: list[Placement], groups: list[list[int]], w: float) -> list[Placement]:
    """Cards of a meld lie alike: a card seen by one index at an angle off the meld's is
    re-centred at the meld's angle (its index stays where it was seen).

    One index gives the card's centre through its angle: a 9d read best 30° off (a stroke
    taken for the card's edge) put its centre on its neighbour's and its outline across the
    meld. A meld laid in a straight row gives its angle by its row (:func:`row_angle`): a faint
    design's 4, 6 and 8 read 20° off one by one, each a different way. Otherwise only groups
    of three or more whose other cards all lie alike (:data:`COHERENT`) set the angle, and
    where some were seen at both corners those alone: their corners fix their angle
    (:func:`_diagonal_angle`), and faint glyphs can put every one-index card of a meld alike
    20–30° off. Two-index cards keep theirs.
    """
    out = list(cards)
    for group in groups:
        if len(group) < 3:
            continue
        row = row_angle([cards[i] for i in group], w)
        together = common_upright([cards[i].angle for i in group])
        if row is not None and together is not None and angle_gap(together, row, 180) <= ROW_TRUST:
            row = None  # the cards agree, near enough the row: a row laid a little askew
        for i in group:
            p = cards[i]
            if p.indices != 1:
                continue
            if row is not None:
                common, tolerance = row, ROW_TURN
            else:
                sure = [cards[j].angle for j in group if cards[j].indices == 2]
                others = sure or [cards[j].angle for j in group if j != i]
                upright = common_upright(others)
                if upright is None:
                    continue
                common, tolerance = upright, STRAIGHTEN
            # A common angle modulo 180°: the meld's cards are upright, so take the end near p's.
            if angle_gap(common, p.angle) > 90:
                common += 180
            if angle_gap(common, p.angle) <= tolerance:
                continue
            # The centre from the same index spot, seen at the meld's angle.
            shift = index_to_centre(common, w) - index_to_centre(p.angle, w)
            out[i] = replace(
                p, x=p.x + float(shift[0]), y=p.y + float(shift[1]), angle=common % 360
            )
    return out


def centre_by_reach(cards: list[Placement], groups: list[list[int]], w: float) -> list[Placement]:
    """Cards lying together are one deck at one scale: a card of a group seen by one index
    is re-centred by the reach its group's two-index cards measure (:attr:`Placement.reach`,
    their median) instead of a deck-average card's (its index stays where it was seen).

    A photo taken at an angle and not straightened shows its near cards larger than its
    typical card, and a deck-average reach from a fanned meld's indices put each card's
    centre on its neighbour's. Only fanned melds (:data:`REACH_FAN`) are measured, and a
    reach more than :data:`REACH_SCALE` off a deck-average card's, across or down, is left
    unused.

    >>> from cardscore.cards import Card
    >>> fan = [Placement(Card(c), 0.99, x, 100.0, 0.0, 1, None) for c, x in (("3h", 200.0), ("4h", 250.0))]
    >>> near = Placement(Card("5h"), 0.99, 300.0, 100.0, 0.0, 2, None, (50.0, 80.0))
    >>> spot = np.array([fan[1].x, fan[1].y]) - index_to_centre(0.0, 120.0)
    >>> moved = centre_by_reach([*fan, near], [[0, 1, 2]], 120.0)[1]
    >>> [round(float(v), 1) for v in (moved.x - spot[0], moved.y - spot[1])]
    [50.0, 80.0]
    """
    out = list(cards)
    usual = index_to_centre(0.0, w)
    for group in groups:
        reaches = [cards[i].reach for i in group if cards[i].reach is not None]
        if len(group) < REACH_FAN or not reaches:
            continue
        reach = np.median(np.array(reaches), axis=0)
        scale = reach / usual
        if not REACH_SCALE[0] <= scale.min() <= scale.max() <= REACH_SCALE[1]:
            continue
        for i in group:
            p = cards[i]
            if p.indices != 1:
                continue
            right, down = card_axes(p.angle)
            centre = _index_spots(p, w)[0] + reach[0] * right + reach[1] * down
            out[i] = replace(p, x=float(centre[0]), y=float(centre[1]))
    return out


def row_angle(cards: Sequence[Placement], w: float) -> float | None:
    """The angle of cards laid in a straight row, from where the indices read of three or
    more of them, each seen at one corner, lie: along the cards' width (a meld laid across
    the table) or their height (laid down it), whichever lies nearer the cards' own angles.
    None unless those indices lie on one line (:data:`ROW_FIT`) a meld's step apart
    (:data:`ROW_STEP`) and the cards do not turn along it like a fan's (:data:`FAN_TURN`).

    A card seen at both corners is left out of the line: its top-left index is where the
    deck-average card puts it, off a design's own by a few pixels, which tilts a short row.

    >>> from cardscore.cards import Card
    >>> def at(x: float, angle: float) -> Placement:
    ...     spot = np.array([x, 100.0]) + index_to_centre(angle, 120.0)
    ...     return Placement(Card("4s"), 0.9, float(spot[0]), float(spot[1]), angle, 1, None)
    >>> row = row_angle([at(100, 340), at(140, 3), at(180, 337), at(220, 341)], 120.0)
    >>> round(angle_gap(row, 0.0), 6)  # upright, as the row says, whatever each glyph said
    0.0
    >>> row_angle([at(100, 0), at(140, 5), at(180, 10), at(220, 15)], 120.0) is None  # a fan
    True
    """
    seen_once = [p for p in cards if p.indices == 1]
    if len(seen_once) < 3:
        return None
    spots = np.array([_index_spots(p, w)[0] for p in seen_once])
    centred = spots - spots.mean(axis=0)
    _, spread, axes = np.linalg.svd(centred, full_matrices=False)
    along = axes[0]
    positions = centred @ along
    off_line = spread[1] / np.sqrt(len(seen_once))
    if off_line > ROW_FIT[0] * w or off_line > ROW_FIT[1] * float(np.ptp(positions)):
        return None
    steps = np.diff(np.sort(positions))
    if steps.min() < ROW_STEP[0] * w or steps.max() > ROW_STEP[1] * w:
        return None
    row = float(np.degrees(np.arctan2(-along[1], along[0])))
    t = np.deg2rad([p.angle for p in seen_once])
    mean = float(np.degrees(np.arctan2(np.sin(t).mean(), np.cos(t).mean())))
    angle = min(((row + 90 * k) % 360 for k in range(4)), key=lambda a: angle_gap(a, mean))
    turns = np.array([((p.angle - angle + 180) % 360) - 180 for p in seen_once])
    slope, offset = np.polyfit(positions, turns, 1)
    trend = slope * positions + offset
    # A fan turns steadily along its row; glyphs read askew scatter about it.
    explained = 1 - float(np.sum((turns - trend) ** 2)) / max(
        float(np.sum((turns - turns.mean()) ** 2)), 1e-9
    )
    if abs(slope) * float(np.ptp(positions)) > FAN_TURN and explained > FAN_FIT:
        return None
    return angle


def one_per_spot(cards: list[Placement], w: float) -> list[Placement]:
    """One card per spot: of two cards whose centres lie closer than :data:`SAME_SPOT` (or
    :data:`TURNED_SPOT`, both read at one corner, half a turn apart; :data:`SAME_TURNED_SPOT`
    if read as the same card), the one with more indices read, then the surer, stays (the
    order is kept).

    No two cards lie that close (a tight fan puts the next a quarter of a card over), so the
    two are one card read twice: its two corners, each alone, read as different cards (a real
    Q♠ whose second corner read as a 4♠). So are two cards read as the same card, half a turn
    from each other, whose outlines each lie over an index read of the other: on a table, the
    card on top hides the index under it (a glared 7♠ whose pip beside its far index was read
    7♠ too). Laid the same way round, two decks' same card can lie so in a tight fan.

    >>> queen, four = (Placement(Card(c), p, x, 0, a, 1, None) for c, p, x, a in (("Qs", 0.74, 0, 0), ("4s", 0.52, 5, 180)))
    >>> [p.card.code for p in one_per_spot([four, queen], 120)], len(one_per_spot([four, queen], 12))
    (['Qs'], 2)
    """
    kept: list[Placement] = []
    for p in sorted(cards, key=lambda p: (-p.indices, -p.confidence)):
        if not any(_one_spot(p, q, w) for q in kept):
            kept.append(p)
    return [p for p in cards if any(p is q for q in kept)]


def _one_spot(p: Placement, q: Placement, w: float) -> bool:
    """Whether two cards found are one card read twice (see :func:`one_per_spot`)."""
    if np.hypot(p.x - q.x, p.y - q.y) < SAME_SPOT * w:
        return True
    if p.card == q.card and _half_a_turn(p, q) and _covers(p, q, w) and _covers(q, p, w):
        return True
    return p.indices == q.indices == 1 and _far_corner(p, q, w)


def read_at_far_corner(p: Placement, q: Placement, w: float) -> bool:
    """Whether ``p``, a card read at one corner in a meld's gap, is ``q``, a card of the meld
    found at its other corner alone: the same card, half a turn from it (within
    :data:`TURNED`), within :data:`SAME_TURNED_SPOT` either way. Such a gap is the top index
    of the meld's last card, which the readings missed: a second card alike there would need
    both of its indices missed too. Each centre is guessed from one corner with a
    deck-average card's offsets, and a straightened photo's far card, stretched along its
    length, puts the two guesses apart the other way round from a foreshortened one's.

    >>> top = Placement(Card("Kd"), 0.6, 0, 0, 0, 1, None)
    >>> far = Placement(Card("Kd"), 0.7, 0, 48, 180, 1, None)
    >>> read_at_far_corner(top, far, 120), read_at_far_corner(top, replace(far, card=Card("Ks")), 120)
    (True, False)
    """
    if p.card != q.card or q.indices != 1 or not _half_a_turn(p, q):
        return False
    return bool(np.hypot(q.x - p.x, q.y - p.y) < SAME_TURNED_SPOT * w)


def _half_a_turn(p: Placement, q: Placement) -> bool:
    """Whether two cards lie half a turn from each other, within :data:`TURNED`."""
    return angle_gap(p.angle, q.angle + 180) < TURNED


def _far_corner(p: Placement, q: Placement, w: float) -> bool:
    """Whether ``p`` and ``q`` can be one card's two corners each read alone: half a turn
    apart (within :data:`TURNED`) and within :data:`TURNED_SPOT` (read as different cards)
    or :data:`SAME_TURNED_SPOT` (read as the same card)."""
    if not _half_a_turn(p, q):
        return False
    apart = np.array([q.x - p.x, q.y - p.y])
    far = float(np.hypot(*apart))
    if far < TURNED_SPOT * w:
        return True
    # Each corner's guess overshoots the other's, so ``q`` lies back towards ``p``'s own
    # index; in a fan of two decks' same card, the next card lies the other way.
    back = float(apart @ -index_to_centre(p.angle, w)) > 0
    return p.card == q.card and back and far < SAME_TURNED_SPOT * w


def mendable(cards: Sequence[Placement]) -> bool:
    """Whether these cards look like a legal meld (:func:`plausible_meld`) as read, or with
    the runner-ups of one or two of them (:func:`meld_doubts` will flag and mend those).

    >>> read = [Placement(Card(c), 0.9, 0, 0, 0, 1, Card(r) if r else None) for c, r in (("Js", ""), ("9s", "Qs"), ("Ks", ""))]
    >>> plausible_meld([p.card for p in read]), mendable(read)
    (False, True)
    """
    codes = [p.card for p in cards]
    return plausible_meld(codes) or bool(mends(codes, [p.runner_up for p in cards]))
