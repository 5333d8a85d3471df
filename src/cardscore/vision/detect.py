"""Second stage: classify each candidate's crops and keep the index glyphs found.

Each candidate is looked at in the four orientations of its local axes; a crop shows an index
only when the card is upright in it (rank above suit), which also tells 6 from 9.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from cardscore.cards import Card, Rank
from cardscore.vision.classifier import classify
from cardscore.vision.labels import BACKGROUND
from cardscore.vision.proposals import (
    NORMAL_WIDTH,
    Candidate,
    Regions,
    angle_gap,
    candidates,
    crop_batch,
)

__all__ = ["BlobReadings", "IndexHit", "find_indices", "glyph_reach", "read_blobs"]

# A fainter, a darker, a faintest and a darkest ink mask's levels (see proposals.candidates);
# None: no such mask.
# Inference only: training's candidates come from the usual mask alone.
PALE_INK: tuple[int, int] | None = (20, 30)
DARK_INK: tuple[int, int] | None = (70, 70)
FAINT_INK: tuple[int, int] | None = (10, 18)
DARKEST_INK: tuple[int, int] | None = (130, 130)
# Grey pixels (channels within 40 levels) at 0.4 of the photo's brightest are paper in shade
# too (see proposals.candidates); None: only the photo-wide paper level.
SHADED_PAPER: tuple[int, float] | None = (40, 0.4)
# Ink inside the card regions is on paper even where the photo-wide paper level says shade
# (uneven light); training's candidates, drawn without regions, do not change.
CARD_REGIONS_ARE_PAPER = True
# A red index at a card's edge cuts its corner out of the card region (the region is the
# paper, and the mask's opening eats the thin paper beside the glyph): a candidate off every
# region takes the one most present within this reach (card widths).
REGION_REACH = 0.15
MIN_PROB = 0.2  # below this a crop is not an index hit at all (cards need more: layout)
SECOND_LOOK = 0.02  # a blob read this well in some crop, but no hit, gets one more guess
# A blob read this well, but under a card's 0.5, is cropped again this much larger (_larger),
# and, when smaller than the photo's median index glyph, UNDERSIZED times larger too.
LARGER, LARGER_FROM, LARGER_BELOW = 1.15, 0.1, 0.5
UNDERSIZED = 1.3
MERGE_ACROSS, MERGE_ALONG = 0.15, 0.3  # one glyph's hits, in card widths (see _same_glyph)
MERGE_TEN = 0.22  # a wide "10" index's halves lie up to this far apart across (card widths)


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


def _with_region_angles(
    cands: list[Candidate], regions: Regions | None, factor: float
) -> list[Candidate]:
    """Each candidate, plus copies turned to its white region's axes and to the photo's
    when those differ.

    The local edge direction can be fooled where a card barely stands out from a pale table;
    the outline of the card's region is a second opinion, and the classifier picks. A card in
    shade beside a brighter table may lie in no region at all: the photo's axes still apply.
    """
    if regions is None:
        return cands
    out = list(cands)
    to_mask = regions.scale / factor
    for c in cands:
        region = _region_at(regions.labels, c.x * to_mask, c.y * to_mask, NORMAL_WIDTH * to_mask)
        guesses = [c.angle]
        # The region's outline, and the photo's own axes (cards are often squared to it).
        for angle in ((regions.angles[region],) if region else ()) + (0.0,):
            if _new_angle(angle, guesses):
                guesses.append(angle)
                out.append(Candidate(c.x, c.y, c.size, angle))
    return out


def _new_angle(angle: float, tried: list[float]) -> bool:
    """Whether ``angle`` is more than 8° (modulo a quarter turn) from every angle tried."""
    return all(abs((angle - t + 45) % 90 - 45) > 8 for t in tried)


def _region_at(labels: np.ndarray, x: float, y: float, card: float) -> int:
    """The card region at (x, y) in mask pixels (``card``: a card's width there); off every
    region, the one most present within :data:`REGION_REACH`; 0 for none."""
    h, w = labels.shape
    mx, my = min(w - 1, max(0, round(x))), min(h - 1, max(0, round(y)))
    region = int(labels[my, mx])
    if region == 0:
        r = max(1, round(REGION_REACH * card))
        near = labels[max(0, my - r) : my + r + 1, max(0, mx - r) : mx + r + 1]
        near = near[near > 0]
        if near.size:
            region = int(np.bincount(near).argmax())
    return region


@dataclass(frozen=True)
class BlobReadings:
    """Every crop looked at and its class probabilities, grouped by the blob it came from."""

    points: list[tuple[float, float, float, float]]  # x, y, size, angle (normalised px, deg)
    probs: np.ndarray  # (len(points), 53)
    rows_of: dict[tuple[float, float], list[int]]  # a blob's centre → its rows


def read_blobs(
    norm: np.ndarray,
    model: Path | Sequence[Path] | None = None,
    regions: Regions | None = None,
    factor: float = 1.0,
    *,
    shaded: tuple[int, float] | None = SHADED_PAPER,
    hit_at: float = MIN_PROB,
) -> BlobReadings:
    """Every ink blob of a glyph's size, cropped in each orientation guessed and classified.

    ``regions`` (from the photo, with ``factor`` = normalised px per photo px) adds the card
    regions' axes as a second guess of each candidate's orientation. ``shaded`` is
    :func:`~cardscore.vision.proposals.candidates`' rule for paper in shade; a blob read
    under ``hit_at`` gets a guess more (:func:`_suit_guesses`).
    """
    card_mask = None
    if regions is not None and CARD_REGIONS_ARE_PAPER:
        h, w = norm.shape[:2]
        inside = (regions.labels > 0).astype(np.uint8)
        card_mask = cv2.resize(inside, (w, h), interpolation=cv2.INTER_NEAREST)
    blobs = candidates(norm, PALE_INK, card_mask, DARK_INK, FAINT_INK, DARKEST_INK, shaded)
    # One blob is one glyph at most: its crops in every orientation guessed (local axes,
    # region, photo, suit) compete, so a pip seen 45° off cannot add a second, different card.
    points: list[tuple[float, float, float, float]] = []
    rows_of: dict[tuple[float, float], list[int]] = {}
    _add_turns(_with_region_angles(blobs, regions, factor), points, rows_of)
    probs = classify(crop_batch(norm, points), model)
    more = _suit_guesses(blobs, points, probs, rows_of, hit_at)
    if more:
        start = len(points)
        _add_turns(more, points, rows_of)
        probs = np.concatenate([probs, classify(crop_batch(norm, points[start:]), model)])
    return BlobReadings(points, probs, rows_of)


def _glyph_size(
    points: list[tuple[float, float, float, float]],
    probs: np.ndarray,
    rows_of: dict[tuple[float, float], list[int]],
) -> float | None:
    """The photo's own index glyph height: the median size of the crops that read a card
    best on each blob read as one (:data:`MIN_PROB`); None under two such blobs."""
    sizes = [
        points[rows[int(np.argmax(probs[rows, :BACKGROUND].max(axis=1)))]][2]
        for rows in rows_of.values()
        if probs[rows, :BACKGROUND].max() >= MIN_PROB
    ]
    return float(np.median(sizes)) if len(sizes) >= 2 else None


def find_indices(
    norm: np.ndarray,
    model: Path | Sequence[Path] | None = None,
    regions: Regions | None = None,
    factor: float = 1.0,
) -> list[IndexHit]:
    """Index glyphs in a normalised image (cards :data:`NORMAL_WIDTH` px wide); ``regions``
    and ``factor`` as in :func:`read_blobs`."""
    read = _larger(norm, read_blobs(norm, model, regions, factor), model)
    points, probs, rows_of = read.points, read.probs, read.rows_of
    hits: list[IndexHit] = []
    for rows in rows_of.values():
        cards = probs[rows, :BACKGROUND]
        k, label = np.unravel_index(int(np.argmax(cards)), cards.shape)
        prob = float(cards[k, label])
        if prob < MIN_PROB:
            continue
        order = np.argsort(cards[k])[::-1]
        second = Card.from_id(int(order[1])) if cards[k, order[1]] > 0.05 else None
        x, y, size, angle = points[rows[int(k)]]
        hits.append(IndexHit(Card.from_id(int(label)), prob, x, y, angle, second, size))
    return _merge(hits)


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
    for rows in rows_of.values():
        if LARGER_FROM <= read.probs[rows, :BACKGROUND].max() < LARGER_BELOW:
            for r in list(rows):
                x, y, size, angle = points[r]
                small = glyph is not None and size < glyph
                for factor in (LARGER, UNDERSIZED) if small else (LARGER,):
                    rows.append(len(points))
                    points.append((x, y, size * factor, angle))
    if len(points) == start:
        return read
    more = classify(crop_batch(norm, points[start:]), model)
    return BlobReadings(points, np.concatenate([read.probs, more]), rows_of)


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


def _suit_guesses(
    blobs: list[Candidate],
    points: list[tuple[float, float, float, float]],
    probs: np.ndarray,
    rows_of: dict[tuple[float, float], list[int]],
    hit_at: float = MIN_PROB,
) -> list[Candidate]:
    """One more orientation for each blob that looks a little like an index in some crop
    (:data:`SECOND_LOOK`) but is no hit (under ``hit_at``): the direction to its nearest blob
    of suit size, which lies under the rank. Edges nearby (another card's, a court frame's) can
    turn the other guesses tens of degrees off a tilted card; the rank and suit are the card's
    own axis.
    """
    xs = np.array([b.x for b in blobs])
    ys = np.array([b.y for b in blobs])
    sizes = np.array([b.size for b in blobs])
    out = []
    for b in blobs:
        rows = rows_of[b.x, b.y]
        if not SECOND_LOOK <= probs[rows, :BACKGROUND].max() < hit_at:
            continue
        d = np.hypot(xs - b.x, ys - b.y)
        suit = (d > 0.6 * b.size) & (d < 1.5 * b.size) & (sizes > 0.4 * b.size)
        suit &= sizes < 1.1 * b.size
        if not suit.any():
            continue
        j = int(np.flatnonzero(suit)[np.argmin(d[suit])])
        angle = float(np.degrees(np.arctan2(xs[j] - b.x, ys[j] - b.y)) % 90.0)
        if _new_angle(angle, [points[r][3] for r in rows]):
            out.append(Candidate(b.x, b.y, b.size, angle))
    return out


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
