"""A meld that cannot be one, no runner-up mending it: its cards' indices read again, for the
one card that makes it legal.

A card misread beyond its runner-up (a thin 8 read as a 10, then as a 6) leaves a run like
7♥ 10♥ 9♥ 10♥ that one card alone explains: the 8♥ the classifier gave some, lesser belief.
Each card of the meld is read again where its index was found, and the surest reading, among
those that make the meld legal with its cards in order along the fan (a run climbs or falls
as laid), replaces the card, flagged, if the classifier gives it :data:`REREAD_MIN` or more
and at least twice any other such reading. A fan with a gap in it is left alone: a card
missed there, not one misread, is the likelier fault (6♠…10♠ Q♠ would take the Q♠ for a J♠).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from cardscore.cards import Card, Rank
from cardscore.vision.classifier import classify
from cardscore.vision.detect import IndexHit
from cardscore.vision.fans import GAP
from cardscore.vision.labels import BACKGROUND
from cardscore.vision.layout import (
    Placement,
    hit_centre,
    in_order,
    index_to_centre,
    places_along,
    plausible_meld,
)
from cardscore.vision.proposals import NORMAL_WIDTH, crop_batch

__all__ = ["REREAD_MIN", "reread_mends"]

W = NORMAL_WIDTH
REREAD_MIN = 0.03  # the mending card's probability, best of its index's re-read crops
CLEAR = 2.0  # and this many times any other mending reading's
SIZES = (0.85, 1.0, 1.2)  # glyph heights tried, of the index's own (or the photo's median)
OWN_INDEX = 0.5  # card widths: an index hit this near where the card's index lies is its own


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


def reread_mends(
    norm: np.ndarray,
    placed: list[Placement],
    melds: list[list[int]],
    hits: Sequence[IndexHit],
    doubts: dict[int, Card | None],
    model: Path | Sequence[Path] | None = None,
) -> dict[int, tuple[Card, float]]:
    """For each meld (indices into ``placed``) with cards in doubt and no runner-up to mend
    it (``doubts``, from :func:`~cardscore.vision.layout.meld_doubts`): its one card to
    replace, by what, and that reading's probability."""
    glyphs = [h.size for h in hits if h.size > 0]
    glyph = float(np.median(glyphs)) if glyphs else 0.14 * W
    out: dict[int, tuple[Card, float]] = {}
    for group in melds:
        members = [placed[i] for i in group]
        if not any(i in doubts for i in group) or any(doubts.get(i) for i in group):
            continue
        places = places_along(members)
        if places is None:
            continue
        steps = np.diff(np.sort(places))
        if steps.max() >= GAP * np.median(steps):
            continue  # a gap in the fan: a card missed, more likely than one misread
        options = _options([p.card for p in members], np.argsort(places).tolist())
        if not options:
            continue
        spots = sorted({k for k, _ in options})
        points = {k: _index_points(members[k], hits, glyph) for k in spots}
        probs = classify(crop_batch(norm, [pt for k in spots for pt in points[k]]), model)
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
