"""A meld is fanned at a regular step: where that step says a card is missing, look for it;
where a reading has no room of its own on the fan, drop it.

The first stages miss a card whose index glyph merges with the big pip beside it or is too
pale for every ink mask; two of its neighbours then lie two steps apart. Its index sits where
theirs do, one step over, so the classifier looks there directly (turned a few degrees either
way too: the classifier wants the card's own angle, the fan's is its region's), and only
readings that keep the meld legal (a misread card mended by its runner-up included), of an
index no card found has taken, count. A meld of three missing its middle card is two cards
in a row two steps apart: halfway between them is looked at too, for a sure reading. The
other way round, a crop straddling two fanned indices can read as a card more (a "10" from
a J and the next card's edge): it sits between two cards one step apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import numpy as np

from cardscore.cards import Card, Rank
from cardscore.vision.classifier import classify
from cardscore.vision.detect import MERGE_ACROSS, IndexHit, glyph_reach
from cardscore.vision.labels import BACKGROUND
from cardscore.vision.layout import (
    SAME_CARD,
    Placement,
    card_axes,
    common_upright,
    hit_centre,
    index_to_centre,
    mendable,
    plausible_meld,
)
from cardscore.vision.proposals import NORMAL_WIDTH, angle_gap, crop_batch

__all__ = ["drop_crowded", "fill_gaps"]

W = NORMAL_WIDTH
GAP = 1.6  # a step this many times the fan's usual one holds a card more
WIDE = 0.6  # so does one this wide (card widths) when every step is alike
# A step measured against the fan's other steps (four cards or more) must be this wide too
# (card widths, two of a table's tighter steps): centres guessed from wide "10"s, read off
# their glyph's middle, leave a fan's steps uneven.
GAPPED = 0.5
ROW = 0.1  # card widths: two cards of a fan lie in a row, this far apart across it at most
GAP_MIN = 0.1  # a legal reading this sure, in a gap, is a card (flagged)
END_MIN = 0.3  # one step past an end (the table, or a card's face) needs a surer one
SHARE = 0.5  # and at least this share of its crop's best reading of any card
# Glyph heights tried: of the photo's median index read (decks differ: 0.1-0.2 card widths),
# or of a card's width when no index was read.
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
WEAK = 0.5  # an index read less surely is weak (as recognition's MIN_CARD): maybe a misreading


@dataclass(frozen=True)
class _Probe:
    """Where a missed card would lie (normalised px, degrees), and how sure a reading must be."""

    centre: np.ndarray
    angle: float
    end: bool  # past the fan's first or last card (or between two only): needs a surer reading

    @property
    def least(self) -> float:
        return END_MIN if self.end else GAP_MIN


def _along(members: Sequence[Placement]) -> tuple[float, np.ndarray] | None:
    """The fan's upright angle (the end nearer the first card's) and each card's place along
    it; ``None`` when the cards do not lie alike."""
    common = common_upright([p.angle for p in members])
    if common is None:
        return None
    if angle_gap(common, members[0].angle) > 90:
        common += 180
    right, _ = card_axes(common)
    return common % 360, np.array([np.array([p.x, p.y]) @ right for p in members])


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
    fan = _along(members)
    if fan is None:
        return []
    angle, places = fan
    usual = _usual_step(places)
    if usual is None:
        return []
    order = np.argsort(places)
    cards = [members[i] for i in order]
    centres = [np.array([p.x, p.y]) for p in cards]
    steps = np.diff(places[order])
    out = []
    for k, ((a, b), step) in enumerate(zip(pairwise(centres), steps, strict=True)):
        missing = round(step / usual) - 1 if step >= GAP * usual else 0
        if missing == 0 and len(steps) >= 3 and step >= GAPPED * W:
            # With two of five cards missed, half the steps are gaps, their median too:
            # measured against the other steps, then.
            others = _usual_step(np.cumsum(np.r_[0.0, np.delete(steps, k)]))
            if others is not None and step >= GAP * others:
                missing = round(step / others) - 1
        if missing == 0 and step >= WIDE * W:
            missing = 1
        for n in range(1, min(missing, 3) + 1):
            out.append(_Probe(a + (b - a) * n / (missing + 1), angle, end=False))
    right, _ = card_axes(angle)
    out.append(_Probe(centres[0] - usual * right, angle, end=True))
    # A last card read at both corners is the fan's top card: past it lies its own face.
    if cards[-1].indices == 1:
        out.append(_Probe(centres[-1] + usual * right, angle, end=True))
    return out


def _pair_probes(members: list[Placement]) -> list[_Probe]:
    """Halfway between two cards lying alike, side by side in a row and a wide step apart
    (a meld of three, its middle card missed); sure readings only (``end``): two cards
    overlapping on a table are no fan, and halfway lies the top one's face."""
    fan = _along(members)
    if fan is None:
        return []
    angle, places = fan
    a, b = (np.array([p.x, p.y]) for p in members)
    _, down = card_axes(angle)
    if abs(float((b - a) @ down)) > ROW * W or abs(places[1] - places[0]) < WIDE * W:
        return []
    return [_Probe((a + b) / 2, angle, end=True)]


def _crops_at(probe: _Probe, sizes: Sequence[float]) -> list[tuple[float, float, float, float]]:
    """Crops around where a card centred at the probe shows its top-left index, its glyph
    any of these heights (normalised px)."""
    out = []
    for turn in TURNS:
        angle = probe.angle + turn
        spot = probe.centre - index_to_centre(angle, W)
        right, down = card_axes(angle)
        out += [
            (float(p[0]), float(p[1]), size, angle)
            for size in sizes
            for du in ACROSS
            for dv in ALONG
            for p in (spot + (du * right + dv * down) * W,)
        ]
    return out


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
    """A legal meld as read, or with a misread card mended (:func:`~.layout.mendable`), or
    with one card more when ``free`` (a gap not read yet)."""
    if mendable(members):
        return True
    cards = [p.card for p in members]
    return free and any(plausible_meld([*cards, Card.from_id(c)]) for c in range(BACKGROUND))


def _reading(probs: np.ndarray, probe: _Probe, members: list[Placement], free: bool) -> Card | None:
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


def fill_gaps(
    norm: np.ndarray,
    placed: list[Placement],
    groups: list[list[int]],
    hits: list[IndexHit],
    model: Path | Sequence[Path] | None = None,
) -> list[Placement]:
    """Cards missed in the fans (``groups`` of ``placed``, normalised px): of three or more,
    and of two with room for one card between them (:func:`_pair_probes`).

    Each has the probability of its reading as confidence (flagged below
    :data:`~cardscore.vision.layout.FLAG_BELOW`) and one index.
    """
    glyphs = [h.size for h in hits if h.size > 0]
    if glyphs:
        sizes = [float(np.median(glyphs)) * k for k in SIZES]
    else:
        sizes = [W * k for k in SIZES_UNKNOWN]
    found: list[Placement] = []
    for group in groups:
        members = [placed[i] for i in group]
        if len(members) < 2:
            continue
        fan = _probes(members) if len(members) > 2 else _pair_probes(members)
        probes = [p for p in fan if _open(p, hits, placed) and _on_photo(p, norm.shape, sizes[1])]
        if not probes:
            continue
        crops = [_crops_at(p, sizes) for p in probes]
        probs = classify(crop_batch(norm, [c for each in crops for c in each]), model)
        per = len(crops[0])
        readings = [probs[k * per : (k + 1) * per, :BACKGROUND] for k in range(len(probes))]
        # The surest probe first: its card then narrows what the others may be.
        order = sorted(range(len(probes)), key=lambda k: -float(readings[k].max()))
        added: list[Placement] = []
        for done, k in enumerate(order):
            card = _reading(readings[k], probes[k], members, free=done < len(order) - 1)
            if card is None:
                continue
            best = int(np.argmax(readings[k][:, card.id]))
            if _read_already(card, crops[k][best], probes[k], hits, placed):
                continue
            probe = probes[k]
            x, y = (float(v) for v in probe.centre)
            prob = float(readings[k][best, card.id])
            new = Placement(card, prob, x, y, probe.angle, 1, None)
            members.append(new)
            added.append(new)
        # A reading let in for a card still to come (``free``) that none gave spoils the meld.
        if added and (mendable(members) or not mendable([placed[i] for i in group])):
            found += added
    return found


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


def drop_crowded(placed: list[Placement], groups: list[list[int]]) -> list[Placement]:
    """``placed`` less, in each illegal meld of four or more, the least sure card that alone
    makes it illegal and has no room of its own on the fan (:func:`_has_room`)."""
    drop = set()
    for group in groups:
        codes = [placed[i].card for i in group]
        if len(group) < 4 or plausible_meld(codes):
            continue
        fan = _along([placed[i] for i in group])
        if fan is None:
            continue  # the cards do not lie alike: no fan to have room on
        crowded = [
            i
            for k, i in enumerate(group)
            if plausible_meld(codes[:k] + codes[k + 1 :]) and not _has_room(k, fan[1])
        ]
        if crowded:
            drop.add(min(crowded, key=lambda i: placed[i].confidence))
    return [p for i, p in enumerate(placed) if i not in drop]
