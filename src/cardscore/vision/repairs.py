"""Stage 4, the repairs: physical cards → the cards a Tranca meld's regularity says were
missed, read twice or misread, and what each card is read as.

Every repair looks at the photo again only through the :class:`Reader` it is handed (crops →
class probabilities, :class:`~cardscore.vision.crops.CropReader`), never by calling an earlier
stage. In order (:func:`repair`):

- **Gaps** (:func:`fill_gaps`). A meld is fanned at a regular step, in a row or down a
  column (:func:`~cardscore.vision.cards.fan_of`). The readings miss a card
  whose index glyph merges with the big pip beside it or is too pale for every ink mask; two
  of its neighbours then lie two steps apart. Its index sits where theirs do, one step over,
  so the classifier looks there directly (turned a few degrees either way too: the
  classifier wants the card's own angle, the fan's is its region's), and only readings that
  keep the meld legal (a misread card mended by its runner-up included), of an index no card
  found has taken, count. A meld of three missing its middle card is two cards in a row two
  steps apart: halfway between them is looked at too, for a sure reading; missing an end
  card, two a step apart: one step past either end is (a meld has three cards). A
  column's step is about half a card, so there a wide step holds a card only when it is
  also wide among the column's other steps (:data:`LOOSE`).
- **Crowds** (:func:`drop_crowded`). The other way round, a crop straddling two fanned
  indices can read as a card more (a "10" from a J and the next card's edge): it sits between
  two cards one step apart, and is dropped.
- **Empty boxes** (:func:`empty_boxes`). A white region shaped like one whole card that
  no card was found in is a lone card whose index left no blob: a court card's glyph merged
  with the frame of its art, or too few pixels at a photo's far side. Where a card of the
  region's size has its two indices, in either of its upright directions, the classifier
  looks directly. Such a card is always flagged for the player to confirm: its best crop of
  many was read with no blob to centre it, and on a real photo JPEG-compressed or blurred, a
  missed K♦ and a missed 8♣ read as tens at both corners.
- **Doubts** (:func:`meld_doubts`). A meld that cannot be one points at a misread card: it is
  flagged, and where one card's runner-up (or two cards') alone mends the meld, that card is
  shown with its first reading as the alternative.
- **Rereads** (:func:`reread_mends`). A card misread beyond its runner-up (a thin 8 read as a
  10, then as a 6) leaves a run like 7♥ 10♥ 9♥ 10♥ that one card alone explains: the 8♥ the
  classifier gave some, lesser belief. Each card of the meld is read again where its index
  was found, and the surest reading, among those that make the meld legal with its cards in
  order along the fan (a run climbs or falls as laid), replaces the card, flagged, if the
  classifier gives it :data:`REREAD_MIN` or more and at least :data:`CLEAR` times any other
  such reading. A fan with a gap in it is left alone: a card missed there, not one misread, is
  the likelier fault (6♠…10♠ Q♠ would take the Q♠ for a J♠).
- **Lone threes** (:func:`lone_threes`). A card lying alone is a closed pile's top or a
  dollar (a red 3); a black 3 is no pile's top and stays in the hand, where it is counted
  (a photo's draft leaves a loose card out). A lone black 3 read weakly, whose runner-up could
  top a pile, is shown as that runner-up, flagged, with the 3 as the alternative: else a
  misread pile (a stroke J taken for a 3) is no pile at all, and its orientation is lost.
- **Centres** (:func:`~cardscore.vision.cards.centre_by_reach`). Last, a card of a group
  seen by one index is centred by the reach from index to centre its group's cards seen at
  both corners measure, not a deck-average card's: a photo taken at an angle shows its cards
  larger or smaller than its typical one, and the deck-average reach put a fanned card's
  centre on its neighbour's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import Protocol

import numpy as np

from cardscore.cards import Card, Rank
from cardscore.tranca.rules import is_tranca
from cardscore.vision.cards import (
    SAME_CARD,
    Fan,
    Placement,
    centre_by_reach,
    fan_of,
    group_cards,
    hit_centre,
    mendable,
    read_at_far_corner,
    typical_glyph,
)
from cardscore.vision.geometry import (
    NORMAL_WIDTH,
    CardBox,
    card_axes,
    index_to_centre,
)
from cardscore.vision.labels import BACKGROUND
from cardscore.vision.meld_rules import in_order, is_pile_top, mends, plausible_meld
from cardscore.vision.readings import MERGE_ACROSS, IndexHit, glyph_reach

__all__ = [
    "REREAD_MIN",
    "CardReading",
    "Reader",
    "Repaired",
    "drop_crowded",
    "empty_boxes",
    "fill_gaps",
    "lone_threes",
    "meld_doubts",
    "repair",
    "reread_mends",
]


W = NORMAL_WIDTH
GAP = 1.6  # a step this many times the fan's usual one holds a card more
WIDE = 0.6  # so does one this wide (card widths) when every step is alike
# A step measured against the fan's other steps (four cards or more) must be this wide too
# (card widths, two of a table's tighter steps): centres guessed from wide "10"s, read off
# their glyph's middle, leave a fan's steps uneven.
GAPPED = 0.5
# Measured against them, a column's wide step holds a card when its halves are 0.7 of them
# or more: a fan's steps vary by a quarter, from a photo taken at an angle too.
LOOSE = 1.4
ROW = 0.1  # card widths: two cards of a fan lie in a row, this far apart across it at most
# A lone black 3 read less surely than this, whose runner-up could top a pile, is taken for
# that runner-up (flagged): lone cards on a photographed table are piles' tops many times
# more often than a black 3 put down from the hand.
LONE_THREE = 0.8
GAP_MIN = 0.1  # a legal reading this sure, in a gap, is a card (flagged)
END_MIN = 0.3  # one step past an end (the table, or a card's face) needs a surer one
SHARE = 0.5  # and at least this share of its crop's best reading of any card
# Glyph heights tried: of the photo's median index read (decks differ: 0.1-0.2 card widths;
# a reread: of the index's own), or of a card's width when no index was read.
SIZES = (0.85, 1.0, 1.2)
SIZES_UNKNOWN = (0.11, 0.14, 0.17)
# Index spot offsets tried across and along the card (card widths): a centre guessed from one
# index is off by as much as decks place their indices differently.
ACROSS = (-0.08, -0.04, 0.0, 0.04, 0.08)
ALONG = (-0.04, 0.0, 0.04)
# Rotations tried (degrees from the fan's): its cards lie a few degrees apart, and the fan's
# angle is often its region's, not theirs.
TURNS = (-6.0, 0.0, 6.0)
IN_CARD = 0.5  # card widths: the centre an index read implies lies this near its card found
NEIGHBOUR = 0.5  # glyph heights: a probe's crop this near a found card's index re-reads it
WEAK = 0.5  # an index read less surely is weak (as cards.MIN_CARD): maybe a misreading
REREAD_MIN = 0.03  # the mending card's probability, best of its index's re-read crops
CLEAR = 2.0  # and this many times any other mending reading's
# A whole-card region no card was found in is read at its corners: a card there counts from
# this probability at one corner; the region must be this wide (card widths).
EMPTY_MIN = 0.5
BOX_WIDTHS = (0.75, 1.3)
OWN_INDEX = 0.5  # card widths: an index hit this near where the card's index lies is its own


class Reader(Protocol):
    """What the repairs see the photo through: its shape, and the class probabilities (N, 53)
    of crops at points (x, y, glyph height, angle; normalised px). A
    :class:`~cardscore.vision.crops.CropReader`, or a test's stand-in."""

    @property
    def shape(self) -> tuple[int, ...]: ...

    def read(self, points: list[tuple[float, float, float, float]]) -> np.ndarray: ...


@dataclass(frozen=True)
class CardReading:
    """What a card found is read as once repaired: the card, the reader's own score for it, the
    card it may be instead, and whether its meld doubts it (the user must confirm it)."""

    card: Card
    score: float
    alternative: Card | None
    doubted: bool


@dataclass(frozen=True)
class Repaired:
    """The cards once repaired (as found, plus the gaps' cards, less the crowded readings;
    normalised px) and what each is read as: ``readings[i]`` for ``cards[i]``."""

    cards: tuple[Placement, ...]
    readings: tuple[CardReading, ...]

    def as_read(self) -> tuple[Placement, ...]:
        """The cards where they lie, each the card it is read as once repaired."""
        return tuple(
            p if p.card == r.card else replace(p, card=r.card)
            for p, r in zip(self.cards, self.readings, strict=True)
        )


def repair(
    cards: Sequence[Placement],
    hits: Sequence[IndexHit],
    reader: Reader,
    boxes: Sequence[CardBox] = (),
    *,
    melds: bool = True,
) -> Repaired:
    """The repairs in order: the fans' gaps filled and crowded readings dropped, the card
    ``boxes`` (whole-card regions, normalised px) no card was found in read at their corners,
    then each meld's doubts mended by a runner-up, or else by its indices read again.

    ``melds`` false: the fans are no Tranca melds (a Gong Zhu pile spread out, a poker hand),
    so no meld's rules doubt, mend or reread their cards, nor a lone black 3's.

    >>> class Blank:
    ...     shape = (600, 900, 3)
    ...     def read(self, points):
    ...         out = np.zeros((len(points), BACKGROUND + 1)); out[:, BACKGROUND] = 1; return out
    >>> run = [Placement(Card(c), 0.95, 100 + 36 * k, 300, 0, 1, r and Card(r)) for k, (c, r) in
    ...        enumerate((("7h", None), ("8h", None), ("Th", "9h")))]
    >>> [(r.card.code, r.alternative.code, r.doubted) for r in repair(run, [], Blank()).readings[2:]]
    [('9h', 'Th', True)]
    """
    placed = list(cards)
    found = list(hits)
    placed += fill_gaps(reader, placed, group_cards(placed, W), found)
    placed = drop_crowded(placed, group_cards(placed, W))
    empty = empty_boxes(reader, placed, boxes, found)
    placed += empty
    groups = group_cards(placed, W)
    fans = [g for g in groups if len(g) > 1] if melds else []
    doubts: dict[int, Card | None] = {}
    if melds:
        doubts.update({**meld_doubts(placed, fans), **lone_threes(placed, groups)})
    # A card read in an empty box is the best of many crops, with no blob to centre it.
    doubts.update(dict.fromkeys(range(len(placed) - len(empty), len(placed))))
    rereads = reread_mends(reader, placed, fans, found, doubts)
    for group in fans:
        if any(i in rereads for i in group):
            for i in group:
                doubts.pop(i, None)
    readings = tuple(_verdict(i, p, doubts, rereads) for i, p in enumerate(placed))
    # Last: the probes above look for an index where a deck-average card puts it.
    return Repaired(tuple(centre_by_reach(placed, groups, W)), readings)


def _verdict(
    i: int,
    card: Placement,
    doubts: dict[int, Card | None],
    rereads: dict[int, tuple[Card, float]],
) -> CardReading:
    """What the ``i``-th card is read as, its meld's doubts and rereads applied."""
    if i in rereads:
        read, score = rereads[i]
        return CardReading(read, score, card.card, True)
    mended = doubts.get(i)
    if mended is not None:
        # The runner-up's own probability is not kept; 1 - p bounds it from above.
        return CardReading(mended, 1 - card.confidence, card.card, True)
    return CardReading(card.card, card.confidence, card.runner_up, i in doubts)


@dataclass(frozen=True)
class _Probe:
    """Where a missed card would lie (normalised px, degrees), and how sure a reading must be."""

    centre: np.ndarray
    angle: float
    end: bool  # past the fan's first or last card (or between two only): needs a surer reading

    @property
    def least(self) -> float:
        return END_MIN if self.end else GAP_MIN


def fill_gaps(
    reader: Reader,
    placed: list[Placement],
    groups: list[list[int]],
    hits: list[IndexHit],
) -> list[Placement]:
    """Cards missed in the fans (``groups`` of ``placed``, normalised px): of three or more,
    and of two with room for one card between them (:func:`_pair_probes`), read through
    ``reader``.

    Each has the probability of its reading as confidence (so it is flagged unless sure) and
    one index. A reading of the card a member is, found only at its far corner and half a
    turn from the probe (:func:`~.cards.read_at_far_corner`), is that member's own top index,
    not a card more.
    """
    glyphs = [h.size for h in hits if h.size > 0]
    if glyphs:
        sizes = [float(np.median(glyphs)) * k for k in SIZES]
    else:
        sizes = [W * k for k in SIZES_UNKNOWN]
    # Every fan's probes are read in one batch: a table's dozen melds read one by one cost
    # the classifier a dozen calls' overhead, and what one fan adds changes no other's probes.
    fans: list[tuple[list[int], list[Placement], list[_Probe]]] = []
    for group in groups:
        members = [placed[i] for i in group]
        if len(members) < 2:
            continue
        fan = _probes(members) if len(members) > 2 else _pair_probes(members)
        probes = [p for p in fan if _open(p, hits, placed) and _on_photo(p, reader.shape, sizes[1])]
        if probes:
            fans.append((group, members, probes))
    if not fans:
        return []
    looks = [[_crops_at(p, sizes) for p in probes] for *_, probes in fans]
    every = reader.read([c for crops in looks for each in crops for c in each])
    found: list[Placement] = []
    start = 0
    for (group, members, probes), crops in zip(fans, looks, strict=True):
        per = len(crops[0])
        probs = every[start : start + per * len(probes)]
        start += per * len(probes)
        readings = [probs[k * per : (k + 1) * per, :BACKGROUND] for k in range(len(probes))]
        # The surest probe first: its card then narrows what the others may be.
        order = sorted(range(len(probes)), key=lambda k: -float(readings[k].max()))
        added: list[Placement] = []
        for done, k in enumerate(order):
            card = _gap_card(readings[k], probes[k], members, free=done < len(order) - 1)
            if card is None:
                continue
            best = int(np.argmax(readings[k][:, card.id]))
            if _read_already(card, crops[k][best], probes[k], hits, placed):
                continue
            probe = probes[k]
            x, y = (float(v) for v in probe.centre)
            prob = float(readings[k][best, card.id])
            new = Placement(card, prob, x, y, probe.angle, 1, None)
            if any(read_at_far_corner(new, p, W) for p in members):
                continue
            members.append(new)
            added.append(new)
        # A reading let in for a card still to come (``free``) that none gave spoils the meld.
        if added and (mendable(members) or not mendable([placed[i] for i in group])):
            found += added
    return found


def _usual_step(places: np.ndarray, smallest: bool = False) -> float | None:
    """The median step between sorted places (or the ``smallest``), leaving out one card read
    twice (too close).

    The median: a centre guessed from one index can sit a tenth of a card off its step.
    """
    steps = np.diff(np.sort(places))
    steps = steps[steps > SAME_CARD * W]
    if not steps.size:
        return None
    return float(steps.min() if smallest else np.median(steps))


def _probes(members: list[Placement]) -> list[_Probe]:
    """Where the fan's step says a card may be missing: in its gaps, one step past either end."""
    fan = fan_of(members)
    if fan is None:
        return []
    angle, places = fan.angle, fan.places
    usual = _usual_step(places)
    if usual is None:
        return []
    order = fan.order
    cards = [members[i] for i in order]
    centres = [np.array([p.x, p.y]) for p in cards]
    steps = np.diff(places[order])
    out = []
    for k, ((a, b), step) in enumerate(zip(pairwise(centres), steps, strict=True)):
        missing = round(step / usual) - 1 if step >= GAP * usual else 0
        others = None
        if missing == 0 and len(steps) >= 3 and step >= GAPPED * W:
            # With two of five cards missed, half the steps are gaps, their median too:
            # measured against the other steps, then.
            others = _usual_step(np.cumsum(np.r_[0.0, np.delete(steps, k)]))
            if others is not None and step >= GAP * others:
                missing = round(step / others) - 1
        # A column fanned at half a card's width steps wide throughout, a step or two looser:
        # judged against its other steps, a wide step there must be wide among them too.
        loose = others is None or not fan.column or step >= LOOSE * others
        if missing == 0 and step >= WIDE * W and loose:
            missing = 1
        for n in range(1, min(missing, 3) + 1):
            out.append(_Probe(a + (b - a) * n / (missing + 1), angle, end=False))
    return out + _end_probes(cards[0], cards[-1], usual, fan)


def _end_probes(first: Placement, last: Placement, step: float, fan: Fan) -> list[_Probe]:
    """One ``step`` before the ``fan``'s ``first`` card, and one past its ``last`` unless that
    is the fan's top card (read at both corners: past it lies its own face)."""
    out = [_Probe(np.array([first.x, first.y]) - step * fan.axis, fan.angle, end=True)]
    if last.indices == 1:
        out.append(_Probe(np.array([last.x, last.y]) + step * fan.axis, fan.angle, end=True))
    return out


def empty_boxes(
    reader: Reader, placed: list[Placement], boxes: Sequence[CardBox], hits: list[IndexHit]
) -> list[Placement]:
    """The cards in whole-card ``boxes`` (normalised px) that no card was found in, read at
    their two index corners: a lone card (a closed pile's top) whose index glyph merged with
    the court art's frame beside it, or was too small from a seat, leaves no blob to read,
    yet its white region is there. A box holding a card found, or an index read surely,
    is not empty.

    Both corners of a box lie where a card of its size puts them, in either of its upright
    directions; the likeliest card of the two corners' crops counts when one corner reads
    it :data:`EMPTY_MIN` or more (the surest reading of its crop): at both corners, it is
    a card read at two indices, else at one.
    """
    found: list[Placement] = []
    glyph = typical_glyph(hits)
    for box in boxes:
        if not BOX_WIDTHS[0] * W <= box.width <= BOX_WIDTHS[1] * W or _occupied(box, placed, hits):
            continue
        sizes = [glyph * k for k in SIZES] if glyph else [box.width * k for k in SIZES_UNKNOWN]
        corners = [_corner_crops(box, box.angle + turn, sizes) for turn in (0.0, 180.0)]
        if not all(_inside(*c[len(c) // 2][:3], reader.shape) for c in corners):
            continue
        probs = reader.read([c for each in corners for c in each])
        per = len(corners[0])
        card = _box_card(probs[:per], probs[per:])
        if card is None:
            continue
        code, first, second = card
        sure = 1 - (1 - first) * (1 - second)
        both = min(first, second) >= EMPTY_MIN
        angle = box.angle if first >= second else box.angle + 180.0
        found.append(
            Placement(
                code, sure if both else max(first, second), box.x, box.y, angle, 1 + both, None
            )
        )
    return found


def _occupied(box: CardBox, placed: list[Placement], hits: list[IndexHit]) -> bool:
    """Whether a card found lies in ``box`` (its centre), or an index read surely does."""
    right, down = card_axes(box.angle)
    points = [(p.x, p.y) for p in placed] + [(h.x, h.y) for h in hits if h.prob >= WEAK]
    for x, y in points:
        d = np.array([x - box.x, y - box.y])
        if abs(float(d @ right)) <= box.width / 2 and abs(float(d @ down)) <= box.height / 2:
            return True
    return False


def _corner_crops(
    box: CardBox, angle: float, sizes: Sequence[float]
) -> list[tuple[float, float, float, float]]:
    """Crops around a box's top-left index for a card turned ``angle`` in it, the index
    placed as a card of the box's width has it."""
    spot = np.array([box.x, box.y]) - index_to_centre(angle, W) * (box.width / W)
    return [c for turn in TURNS for c in _around(spot, angle, angle + turn, sizes, box.width)]


def _box_card(first: np.ndarray, second: np.ndarray) -> tuple[Card, float, float] | None:
    """The card two corners' crops (crops × classes) read, with its best probability at
    each: the likeliest of both together, if one corner's crop reads it at
    :data:`EMPTY_MIN` or more and no other card surer there."""
    cards = [first[:, :BACKGROUND], second[:, :BACKGROUND]]
    best = [c.max(axis=0) for c in cards]
    together = 1 - (1 - best[0]) * (1 - best[1])
    c = int(np.argmax(together))
    for corner in cards:
        crop = corner[int(np.argmax(corner[:, c]))]
        if crop[c] >= EMPTY_MIN and int(np.argmax(crop)) == c:
            return Card.from_id(c), float(best[0][c]), float(best[1][c])
    return None


def _pair_probes(members: list[Placement]) -> list[_Probe]:
    """Where a meld of three lies that two cards lying alike, side by side in a row (their
    top-left indices, :func:`_top_index`), show only two of: halfway between them when they
    lie a wide step apart (its middle card missed), else one step past either end, as
    :func:`_probes` looks (its end card missed; a meld has three cards or more). Sure
    readings only (``end``): two cards overlapping on a table are no fan, and halfway lies the
    top one's face."""
    fan = fan_of(members)
    if fan is None:
        return []
    a, b = (_top_index(p, fan.angle) for p in members)
    step = abs(fan.places[1] - fan.places[0])
    if abs(float((b - a) @ fan.across)) > ROW * W or step < SAME_CARD * W:
        return []
    if step >= WIDE * W:
        return [_Probe((a + b) / 2 + index_to_centre(fan.angle, W), fan.angle, end=True)]
    first, last = (members[i] for i in fan.order)
    return _end_probes(first, last, step, fan)


def _top_index(card: Placement, angle: float) -> np.ndarray:
    """Where a card lying at ``angle`` (its fan's; the card may have been read half a turn
    from it) shows its top-left index: a deck-average card's offset from its centre, or the
    reach it measured when read at two corners (its centre is then its indices' midpoint, not
    a deck-average card's, and a one-index card beside it would seem out of its row)."""
    right, down = card_axes(angle)
    reach = (
        index_to_centre(angle, W) if card.reach is None else card.reach @ np.array([right, down])
    )
    spot: np.ndarray = np.array([card.x, card.y]) - reach
    return spot


def _crops_at(probe: _Probe, sizes: Sequence[float]) -> list[tuple[float, float, float, float]]:
    """Crops around where a card centred at the probe shows its top-left index, its glyph
    any of these heights (normalised px)."""
    out = []
    for turn in TURNS:
        angle = probe.angle + turn
        out += _around(probe.centre - index_to_centre(angle, W), angle, angle, sizes, W)
    return out


def _around(
    spot: np.ndarray, axes: float, angle: float, sizes: Sequence[float], width: float
) -> list[tuple[float, float, float, float]]:
    """Crops turned ``angle`` around an index ``spot``, each glyph height of ``sizes``, offset
    by :data:`ACROSS` and :data:`ALONG` of a card ``width`` along the axes of a card turned
    ``axes``."""
    right, down = card_axes(axes)
    return [
        (float(p[0]), float(p[1]), size, angle)
        for size in sizes
        for du in ACROSS
        for dv in ALONG
        for p in (spot + (du * right + dv * down) * width,)
    ]


def _open(probe: _Probe, hits: list[IndexHit], placed: list[Placement]) -> bool:
    """No card found at the probe, and no index read there went into a card found (a card
    whose corners paired with a neighbour's is placed off its step and leaves a false gap)."""
    x, y = probe.centre
    if any(np.hypot(p.x - x, p.y - y) < SAME_CARD * W for p in placed):
        return False
    sx, sy = probe.centre - index_to_centre(probe.angle, W)
    return not any(
        np.hypot(h.x - sx, h.y - sy) < MERGE_ACROSS * W and _in_a_card(h, placed, hits)
        for h in hits
    )


def _on_photo(probe: _Probe, shape: tuple[int, ...], glyph: float) -> bool:
    """Whether the index a card at the probe shows lies on the photo, a half glyph from its
    edges: a crop past them is the edge's pixels smeared out (a fan's first card at the
    border, its red index so stretched, read as a T♥ one step past it)."""
    x, y = probe.centre - index_to_centre(probe.angle, W)
    return _inside(float(x), float(y), glyph, shape)


def _inside(x: float, y: float, glyph: float, shape: tuple[int, ...]) -> bool:
    """Whether a glyph ``glyph`` px high at (x, y) lies on the photo, half its height from
    its edges."""
    h, w = shape[:2]
    m = glyph / 2
    return bool(m <= x <= w - m and m <= y <= h - m)


def _in_a_card(hit: IndexHit, placed: list[Placement], hits: Sequence[IndexHit]) -> bool:
    """Whether an index read went into a card found: one of its card lies within half a card
    width of where the index puts a card's centre (off by less than a fan's step when paired
    with a neighbour's corner), and, for a weak reading, no surer reading of that card,
    another glyph, does (of ``hits``). A weak misreading of the missed card's own index (a
    German "B" read as an 8) has its card's twin steps away, or one step away with the
    twin's own index read surely."""
    x, y = hit_centre(hit, W)
    return any(
        p.card == hit.card
        and np.hypot(p.x - x, p.y - y) < IN_CARD * W
        and not any(_surer_twin(other, hit, p) for other in hits)
        for p in placed
    )


def _surer_twin(other: IndexHit, hit: IndexHit, card: Placement) -> bool:
    """Whether ``other`` is the found ``card``'s own index, read surer than ``hit``, a weak
    reading, and apart from it (another glyph)."""
    if hit.prob >= WEAK or other.card != hit.card or other.prob <= hit.prob:
        return False
    if np.hypot(other.x - hit.x, other.y - hit.y) <= glyph_reach(hit.card) * W:
        return False
    x, y = hit_centre(other, W)
    return bool(np.hypot(card.x - x, card.y - y) < IN_CARD * W)


def _read_already(
    card: Card,
    crop: tuple[float, float, float, float],
    probe: _Probe,
    hits: list[IndexHit],
    placed: list[Placement],
) -> bool:
    """Whether a probe's winning ``crop`` reads an index that already went into a card found:
    a probe past a fan's first card reaches that card's own index with its offsets, a wide
    "10" most easily (its halves lie apart). In a gap, only a hit within the crop's glyph
    height: a ten's halves lie closer than that, and two tens fanned a fifth of a card apart,
    their glyphs small, are two cards. Whatever it reads, a crop within half a glyph of a found
    card's index reads that index.
    """
    x, y, size, _ = crop
    reach = glyph_reach(card) * W
    if not probe.end:
        reach = min(reach, size)
    if any(
        h.card == card and np.hypot(h.x - x, h.y - y) < reach and _in_a_card(h, placed, hits)
        for h in hits
    ):
        return True
    # A crop shifted off its spot onto a found card's index, half a glyph from it, reads that
    # index with the card's edge beside it: a T♥ from a J♥ or a 6♥ and the edge.
    return any(
        np.hypot(h.x - x, h.y - y) < NEIGHBOUR * size and _in_a_card(h, placed, hits) for h in hits
    )


def _completable(members: list[Placement], free: bool) -> bool:
    """A legal meld as read, or with a misread card mended (:func:`~.cards.mendable`), or
    with one card more when ``free`` (a gap not read yet)."""
    if mendable(members):
        return True
    cards = [p.card for p in members]
    return free and any(plausible_meld([*cards, Card.from_id(c)]) for c in range(BACKGROUND))


def _gap_card(
    probs: np.ndarray, probe: _Probe, members: list[Placement], free: bool
) -> Card | None:
    """The likeliest card of a probe's crops (``probs``, crops × cards) that keeps the meld
    (its ``members``) legal, sure enough, and not much less likely than another card in its
    own crop."""
    best = probs.max(axis=0)
    x, y = (float(v) for v in probe.centre)
    for c in np.argsort(best)[::-1]:
        if best[c] < probe.least:
            return None
        crop = probs[int(np.argmax(probs[:, c]))]
        card = Card.from_id(int(c))
        if best[c] < SHARE * crop.max() or (probe.end and card.rank is Rank.TWO):
            continue  # a big pip on a card's face reads like a 2's index
        trial = Placement(card, float(best[c]), x, y, probe.angle, 1, None)
        if _completable([*members, trial], free):
            return card
    return None


def drop_crowded(placed: list[Placement], groups: list[list[int]]) -> list[Placement]:
    """``placed`` less, in each illegal meld of four or more, the least sure card that alone
    makes it illegal and has no room of its own on the fan (:func:`_has_room`)."""
    drop = set()
    for group in groups:
        codes = [placed[i].card for i in group]
        if len(group) < 4 or plausible_meld(codes):
            continue
        fan = fan_of([placed[i] for i in group])
        if fan is None:
            continue  # the cards do not lie alike: no fan to have room on
        crowded = [
            i
            for k, i in enumerate(group)
            if plausible_meld(codes[:k] + codes[k + 1 :]) and not _has_room(k, fan.places)
        ]
        if crowded:
            drop.add(min(crowded, key=lambda i: placed[i].confidence))
    return [p for i, p in enumerate(placed) if i not in drop]


def _has_room(k: int, places: np.ndarray) -> bool:
    """Whether the ``k``-th card of a fan (its cards' ``places`` along it) has a place of its
    own: between neighbours two steps apart, or half a step or more past an end."""
    mine = places[k]
    rest = np.sort(np.delete(places, k))
    # The smallest step: with one of four cards left out, the median is half a gap's.
    usual = _usual_step(rest, smallest=True)
    if usual is None:
        return True
    n = int(np.searchsorted(rest, mine))
    if 0 < n < len(rest):
        return bool(rest[n] - rest[n - 1] >= GAP * usual)
    return bool(min(abs(mine - rest[0]), abs(mine - rest[-1])) >= 0.5 * usual)


def meld_doubts(cards: list[Placement], groups: list[list[int]]) -> dict[int, Card | None]:
    """Cards that keep a group of three or more from looking like a meld, to be flagged.

    Maps a card's index to its runner-up when swapping in the runner-ups of that card alone,
    or else of two cards (one pair only), makes the group a legal-looking meld (Ts in a run of
    clubs whose runner-up is Tc), else to ``None``. A group no single card explains has all
    its cards flagged. A run out of order along its fan is no meld as laid (J♥ 6♥ 7♥ 8♥ 9♥
    10♥: the 5♥ misread).
    """
    doubts: dict[int, Card | None] = {}
    for group in groups:
        if len(group) < 3:
            continue
        codes = [cards[i].card for i in group]
        order = order_along([cards[i] for i in group])
        if plausible_meld(codes):
            if order is not None and not in_order([codes[k] for k in order]):
                # Out of order: no runner-up or odd card to tell apart.
                doubts.update(dict.fromkeys(group))
            continue
        mend = _mending(codes, [cards[i].runner_up for i in group])
        if not _laid_right([mend.get(k, c) for k, c in enumerate(codes)], order):
            mend = {}
        fixes: dict[int, Card | None] = {group[k]: alt for k, alt in mend.items()}
        if not fixes:
            odd = [i for k, i in enumerate(group) if plausible_meld(codes[:k] + codes[k + 1 :])]
            fixes = dict.fromkeys(odd or group)
        doubts.update(fixes)
    return doubts


def lone_threes(cards: Sequence[Placement], groups: Sequence[Sequence[int]]) -> dict[int, Card]:
    """The lone black 3s read less surely than :data:`LONE_THREE` whose runner-up could top a
    closed pile, mapped to that runner-up.

    >>> lone = [Placement(Card("3c"), p, 600, 300, 90, 1, Card(r)) for p, r in ((0.6, "Jc"), (0.6, "3s"), (0.95, "Jc"))]
    >>> lone_threes(lone, [[0], [1], [2]])
    {0: Card('Jc')}
    """
    out: dict[int, Card] = {}
    for group in groups:
        if len(group) != 1:
            continue
        card = cards[group[0]]
        other = card.runner_up
        if is_tranca(card.card) and card.confidence < LONE_THREE and other and is_pile_top(other):
            out[group[0]] = other
    return out


def _mending(codes: list[Card], runner_ups: list[Card | None]) -> dict[int, Card]:
    """The runner-ups that make ``codes`` a meld: of one card if exactly one does, else of two
    cards if exactly one pair does; ``{}`` when none or several would (nothing to choose by).

    Two: in one held-out design a run's J and Q both read as a "10", each with its own card
    as runner-up.
    """
    found = mends(codes, runner_ups)
    if len(found) != 1:
        return {}
    return {k: alt for k in found[0] if (alt := runner_ups[k]) is not None}


def _laid_right(codes: Sequence[Card], order: Sequence[int] | None) -> bool:
    """A legal-looking meld, its run in order along the fan (when that is known)."""
    return plausible_meld(codes) and (order is None or in_order([codes[k] for k in order]))


def order_along(members: Sequence[Placement]) -> list[int] | None:
    """The members' positions in their order along the fan they lie in; ``None`` when they
    do not lie alike."""
    fan = fan_of(members)
    return None if fan is None else fan.order


def reread_mends(
    reader: Reader,
    placed: list[Placement],
    melds: list[list[int]],
    hits: Sequence[IndexHit],
    doubts: dict[int, Card | None],
) -> dict[int, tuple[Card, float]]:
    """For each meld (indices into ``placed``) with cards in doubt and no runner-up to mend
    it (``doubts``, from :func:`meld_doubts`): its one card to
    replace, by what, and that reading's probability."""
    glyphs = [h.size for h in hits if h.size > 0]
    glyph = float(np.median(glyphs)) if glyphs else 0.14 * W
    out: dict[int, tuple[Card, float]] = {}
    for group in melds:
        members = [placed[i] for i in group]
        if not any(i in doubts for i in group) or any(doubts.get(i) for i in group):
            continue
        fan = fan_of(members)
        if fan is None:
            continue
        places = fan.places
        steps = np.diff(np.sort(places))
        if steps.max() >= GAP * np.median(steps):
            continue  # a gap in the fan: a card missed, more likely than one misread
        options = _options([p.card for p in members], fan.order)
        if not options:
            continue
        spots = sorted({k for k, _ in options})
        points = {k: _index_points(members[k], hits, glyph) for k in spots}
        probs = reader.read([pt for k in spots for pt in points[k]])
        best: dict[int, np.ndarray] = {}
        start = 0
        for k in spots:
            best[k] = probs[start : start + len(points[k])].max(axis=0)
            start += len(points[k])
        ranked = sorted(((float(best[k][c]), k, c) for k, c in options), reverse=True)
        prob, k, c = ranked[0]
        runner = ranked[1][0] if len(ranked) > 1 else 0.0
        if prob >= REREAD_MIN and prob >= CLEAR * runner:
            out[group[k]] = (Card.from_id(c), prob)
    return out


def _options(codes: list[Card], order: Sequence[int]) -> list[tuple[int, int]]:
    """Every (position, card id) whose card put there makes ``codes`` a legal meld, its cards
    in order along the fan (``order``: positions by place). Never a 2: a pip on a card's face
    reads like a 2's index, and as the joker a 2 fits almost any meld."""
    out = []
    for k in range(len(codes)):
        for c in range(BACKGROUND):
            card = Card.from_id(c)
            if card == codes[k] or card.rank is Rank.TWO:
                continue
            trial = [*codes[:k], card, *codes[k + 1 :]]
            if plausible_meld(trial) and in_order([trial[i] for i in order]):
                out.append((k, c))
    return out


def _index_points(
    p: Placement, hits: Sequence[IndexHit], glyph: float
) -> list[tuple[float, float, float, float]]:
    """Crops of a card's index: at the hits that made it, else where its index lies."""
    own = [
        h
        for h in hits
        if h.card == p.card and np.hypot(*(hit_centre(h, W) - [p.x, p.y])) < OWN_INDEX * W
    ]
    if not own:
        x, y = np.array([p.x, p.y]) - index_to_centre(p.angle, W)
        return [(float(x), float(y), glyph * k, p.angle) for k in SIZES]
    return [(h.x, h.y, (h.size or glyph) * k, h.angle) for h in own for k in SIZES]
