"""``recognize(photo)``: the cards, melds, piles and dollars on a Tranca table, and a draft.

Stages: white card regions give the card size (:mod:`~cardscore.vision.proposals`); ink blobs
of index size are classified in four orientations (:mod:`~cardscore.vision.detect`); hits are
paired into physical cards and grouped (:mod:`~cardscore.vision.layout`); a meld's regular
step finds the cards missed in it and drops readings too many (:mod:`~cardscore.vision.fans`);
a meld that cannot be one as laid has its cards read again for the one card that makes it
one (:mod:`~cardscore.vision.rereads`). Coordinates in the result are the original photo's
pixels.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from cardscore.cards import Card
from cardscore.tranca.photo import draft_from_groups
from cardscore.vision.calibration import FLAG_AT, calibrated
from cardscore.vision.classifier import MODEL_PATHS
from cardscore.vision.deck import DeckProfile, reading_with
from cardscore.vision.detect import find_indices
from cardscore.vision.fans import drop_crowded, fill_gaps
from cardscore.vision.image_io import load_image
from cardscore.vision.layout import (
    Placement,
    adopt_weak,
    card_width_from_indices,
    group_cards,
    is_dollar,
    is_pile_top,
    meld_doubts,
    meld_reference,
    one_per_spot,
    pair_indices,
    pile_orientation,
    straighten,
)
from cardscore.vision.proposals import MIN_CARD_PX, NORMAL_WIDTH, find_regions, normalise
from cardscore.vision.rereads import reread_mends

__all__ = ["Group", "Recognition", "SeenCard", "recognize"]

MIN_CARD = 0.5  # a card is reported from this score up (flagged below calibration.FLAG_AT)
# The photo is read again at the card width its whole cards' indices measure when that and
# the white regions' estimate lie more than this factor apart (and no width was given).
REMEASURE = 1.25
# Card widths tried, times the regions' estimate, when no whole card's indices were read.
RESCALE = (2.0, 0.5, 3.0)


@dataclass(frozen=True)
class SeenCard:
    """One physical card: code, confidence, where (photo px), rotation, and doubts.

    ``confidence`` is calibrated (:mod:`~cardscore.vision.calibration`): of the cards
    reported at 0.9, about 9 in 10 are right; ``score`` is the reader's own, uncalibrated.
    """

    card: Card
    confidence: float
    x: float
    y: float
    angle: float  # degrees counter-clockwise; 0 = upright in the photo
    corners: tuple[tuple[float, float], ...]
    indices: int  # how many of its corner indices were read
    flagged: bool  # unsure: the user must confirm it
    alternative: Card | None = None
    score: float | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "card": self.card.code,
            "confidence": round(self.confidence, 4),
            "score": None if self.score is None else round(self.score, 4),
            "x": round(self.x, 1),
            "y": round(self.y, 1),
            "angle": round(self.angle, 1),
            "corners": [[round(a, 1), round(b, 1)] for a, b in self.corners],
            "indices": self.indices,
            "flagged": self.flagged,
            "alternative": self.alternative.code if self.alternative else None,
        }


@dataclass(frozen=True)
class Group:
    """Cards lying together: a ``meld``, a closed ``pile`` (with orientation), a ``dollar``, or
    a ``loose`` card that can be none of these (a lone black 3: no canastra is made of 3s)."""

    kind: str
    cards: tuple[int, ...]  # positions in :attr:`Recognition.cards`
    orientation: str | None = None  # piles: "horizontal" (clean) or "vertical" (dirty)

    def as_dict(self, seen: tuple[SeenCard, ...]) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind,
            "cards": [seen[i].card.code for i in self.cards],
            "positions": list(self.cards),
        }
        if self.orientation is not None:
            out["orientation"] = self.orientation
            out["clean"] = self.orientation == "horizontal"
        return out


@dataclass(frozen=True)
class Recognition:
    """What a photo shows: cards (one per physical card) and their groups."""

    cards: tuple[SeenCard, ...]
    groups: tuple[Group, ...]
    width: int
    height: int
    card_width: float  # photo pixels

    @property
    def flagged(self) -> tuple[SeenCard, ...]:
        """Cards the user must confirm."""
        return tuple(c for c in self.cards if c.flagged)

    def tranca_draft(self) -> dict[str, Any]:
        """A team entry for a Tranca round file: ``melds``, ``piles``, ``dollars``.

        The hand, the morto and going out cannot be seen on the table: the user adds them
        (``took_morto`` and ``went_out`` are required by ``cardscore tranca score``).
        """
        return draft_from_groups(
            (g.kind, [self.cards[i].card for i in g.cards], g.orientation) for g in self.groups
        )

    def as_dict(self) -> dict[str, Any]:
        """The ``--json`` shape: ``{"cards": [...], "groups": [...], "tranca": {...}}``."""
        return {
            "image": {
                "width": self.width,
                "height": self.height,
                "card_width": round(self.card_width, 1),
            },
            "cards": [c.as_dict() for c in self.cards],
            "groups": [g.as_dict(self.cards) for g in self.groups],
            "flagged": [i for i, c in enumerate(self.cards) if c.flagged],
            "tranca": self.tranca_draft(),
        }


def _groups(placed: list[Placement], w: float) -> list[Group]:
    raw = group_cards(placed, w)
    reference = meld_reference([[placed[i] for i in g] for g in raw if len(g) > 1])
    groups = []
    for members in raw:
        card = placed[members[0]]
        if len(members) > 1:
            groups.append(Group("meld", tuple(members)))
        elif is_dollar(card.card):
            groups.append(Group("dollar", tuple(members)))
        elif not is_pile_top(card.card):
            groups.append(Group("loose", tuple(members)))
        else:
            orientation = pile_orientation(card.angle, reference)
            groups.append(Group("pile", tuple(members), orientation))
    return groups


def recognize(
    source: str | Path | bytes | np.ndarray,
    *,
    card_width: float | None = None,
    model: Path | Sequence[Path] | None = None,
    deck: DeckProfile | None = None,
) -> Recognition:
    """Read the cards on a table photo (a path, file bytes, or a BGR uint8 array).

    ``card_width`` (photo pixels) skips the card-size estimate when it is known; ``model``:
    an ONNX classifier, or several to average, instead of the shipped ones; ``deck``: a
    profile of the table's deck (:mod:`cardscore.vision.learn`) to read with.
    Raises :class:`~cardscore.vision.image_io.ImageError` for files that are not usable photos,
    :class:`~cardscore.vision.deck.DeckProfileError` for a profile of other models.
    """
    if deck is not None:
        deck.check(MODEL_PATHS if model is None else [model] if isinstance(model, Path) else model)
    with reading_with(deck):
        return _recognize(source, card_width, model)


def _recognize(
    source: str | Path | bytes | np.ndarray,
    card_width: float | None,
    model: Path | Sequence[Path] | None,
) -> Recognition:
    loaded = load_image(source)
    image = loaded.image
    scale = loaded.to_original
    given = card_width is not None
    regions = find_regions(image, None if card_width is None else card_width / scale)
    card_width = regions.card_width
    norm, factor = normalise(image, card_width)
    hits = find_indices(norm, model, regions, factor)
    measured = card_width_from_indices(hits)
    if not given and measured is None:
        # No whole card's two indices were read: perhaps none lies whole on the table, or
        # the white regions gave a fragment's size (a pale table merges with the cards).
        # Try other scales; the first at which whole cards show both indices is kept.
        longest = max(image.shape[:2])
        for k in RESCALE:
            width = card_width * k
            if not MIN_CARD_PX <= width <= longest / 2:
                continue
            trial, f = normalise(image, width)
            found = find_indices(trial, model, regions, f)
            if (m := card_width_from_indices(found)) is not None:
                card_width, norm, factor, hits, measured = width, trial, f, found, m
                break
    if not given and measured and abs(np.log(measured / NORMAL_WIDTH)) > np.log(REMEASURE):
        # The whole cards' own indices measure the card otherwise than the white regions
        # did (a pale table, fans taken for cards): read the photo again at their size.
        card_width *= measured / NORMAL_WIDTH
        norm, factor = normalise(image, card_width)
        hits = find_indices(norm, model, regions, factor)
    # A weak index hit counts only when the card's other corner agrees with it.
    paired = pair_indices(hits, NORMAL_WIDTH)
    placed = [p for p in paired if p.confidence >= MIN_CARD]
    weak = [p for p in paired if p.confidence < MIN_CARD]
    placed += adopt_weak(placed, weak, NORMAL_WIDTH, group_cards(placed, NORMAL_WIDTH))
    placed = straighten(placed, group_cards(placed, NORMAL_WIDTH), NORMAL_WIDTH)
    placed = one_per_spot(placed, NORMAL_WIDTH)
    placed += fill_gaps(norm, placed, group_cards(placed, NORMAL_WIDTH), hits, model)
    placed = drop_crowded(placed, group_cards(placed, NORMAL_WIDTH))
    groups = _groups(placed, NORMAL_WIDTH)
    # A meld that cannot be one points at a misread card: flag it, and where one card's
    # runner-up alone mends the meld, show that card with the first reading as alternative.
    melds = [list(g.cards) for g in groups if g.kind == "meld"]
    doubts = meld_doubts(placed, melds)
    # No runner-up mends it: the cards' indices read again for the one card that does.
    rereads = reread_mends(norm, placed, melds, hits, doubts, model)
    for group in melds:
        if any(i in rereads for i in group):
            for i in group:
                doubts.pop(i, None)
    # Renumber cards in group order so a group's cards sit together in the list.
    order = [i for g in groups for i in g.cards]
    position = {old: new for new, old in enumerate(order)}
    to_photo = scale / factor
    seen = []
    for old in order:
        p = placed[old]
        corners = tuple(
            (float(a * to_photo), float(b * to_photo)) for a, b in p.corners(NORMAL_WIDTH)
        )
        card, alternative, confidence = p.card, p.runner_up, p.confidence
        mended = doubts.get(old)
        if mended is not None:
            # The runner-up's own probability is not kept; 1 - p bounds it from above.
            card, alternative, confidence = mended, p.card, 1 - p.confidence
        if old in rereads:
            card, confidence, alternative = rereads[old][0], rereads[old][1], p.card
        sure = calibrated(confidence, p.indices)
        seen.append(
            SeenCard(
                card=card,
                confidence=sure,
                x=p.x * to_photo,
                y=p.y * to_photo,
                angle=p.angle % 360,
                corners=corners,
                indices=p.indices,
                flagged=sure < FLAG_AT or old in doubts or old in rereads,
                alternative=alternative,
                score=confidence,
            )
        )
    renumbered = tuple(
        Group(g.kind, tuple(position[i] for i in g.cards), g.orientation) for g in groups
    )
    h, w = image.shape[:2]
    return Recognition(
        tuple(seen), renumbered, round(w * scale), round(h * scale), card_width * scale
    )
