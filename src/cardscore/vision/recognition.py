"""``recognize(photo)``: the cards, melds, piles and dollars on a table, and a Tranca draft.

The photo's data goes one way, stage by stage, each stage a module with a typed result:

1. :mod:`~cardscore.vision.regions`: photo → white card regions and the card width
   (:class:`~cardscore.vision.regions.Regions`);
2. :mod:`~cardscore.vision.readings`: → index readings, at the scale whole cards confirm
   (:class:`~cardscore.vision.readings.Readings`);
3. :mod:`~cardscore.vision.cards`: → physical cards
   (:class:`~cardscore.vision.cards.Placement`);
4. :mod:`~cardscore.vision.repairs`: → the cards a meld's regularity says were missed or
   misread, looked at again through a :class:`~cardscore.vision.crops.CropReader`
   (:class:`~cardscore.vision.repairs.Repaired`);
5. :mod:`~cardscore.vision.groups`: → melds, piles, dollars
   (:class:`~cardscore.vision.groups.Group`);

then each card's confidence is calibrated (:mod:`~cardscore.vision.calibration`) and the
unsure ones flagged. Coordinates in the result are the original photo's pixels; the Tranca
draft is :mod:`cardscore.tranca.photo`'s.
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
from cardscore.vision.cards import ALONE_MIN, MIN_CARD, Placement, find_cards
from cardscore.vision.classifier import MODEL_PATHS
from cardscore.vision.crops import CropReader
from cardscore.vision.deck import DeckProfile, reading_with
from cardscore.vision.geometry import NORMAL_WIDTH
from cardscore.vision.groups import Group, confirmed_by_meld, find_groups
from cardscore.vision.image_io import load_image
from cardscore.vision.readings import Readings, read_indices
from cardscore.vision.regions import find_regions
from cardscore.vision.repairs import CardReading, Repaired, repair

__all__ = ["Group", "Recognition", "SeenCard", "read_photo", "recognize", "unsure"]


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
    confirmed: bool = False  # read on its own, and its meld rules out its runner-up

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
            "confirmed": self.confirmed,
        }


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

    def svg(self, width: int = 640) -> str:
        """The cards where they were read, the ones to confirm in orange, and their groups, as
        an SVG document (:mod:`~cardscore.vision.picture`); Jupyter shows it by itself."""
        from cardscore.vision.picture import recognition_svg

        return recognition_svg(self, width)

    def _repr_svg_(self) -> str:
        return self.svg()

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
    return read_photo(source, card_width=card_width, model=model, deck=deck)[0]


def read_photo(
    source: str | Path | bytes | np.ndarray,
    *,
    card_width: float | None = None,
    model: Path | Sequence[Path] | None = None,
    deck: DeckProfile | None = None,
) -> tuple[Recognition, Readings]:
    """:func:`recognize`'s result, and the index readings it was made from (the photo as
    read, scaled so a card is :data:`~cardscore.vision.geometry.NORMAL_WIDTH` px wide: its
    pixels are the result's times ``readings.factor``, for a photo :func:`load_image` left
    at its size). Learning a deck takes its crops from them instead of reading again."""
    if deck is not None:
        deck.check(MODEL_PATHS if model is None else [model] if isinstance(model, Path) else model)
    with reading_with(deck):
        return _recognize(source, card_width, model)


def _recognize(
    source: str | Path | bytes | np.ndarray,
    card_width: float | None,
    model: Path | Sequence[Path] | None,
) -> tuple[Recognition, Readings]:
    loaded = load_image(source)
    image, scale = loaded.image, loaded.to_original
    regions = find_regions(image, None if card_width is None else card_width / scale)
    readings = read_indices(image, regions, model, rescale=card_width is None)
    cards = find_cards(readings.hits)
    repaired = repair(cards, readings.hits, CropReader(readings.image, model))
    groups = find_groups(repaired.cards)
    h, w = image.shape[:2]
    return _reported(repaired, groups, readings, scale, (w, h)), readings


def _reported(
    repaired: Repaired,
    groups: tuple[Group, ...],
    readings: Readings,
    scale: float,
    size: tuple[int, int],
) -> Recognition:
    """The result in the photo's pixels, cards renumbered in group order so that a group's
    cards sit together in the list (``scale``: photo px per px of the image read)."""
    order = [i for g in groups for i in g.cards]
    position = {old: new for new, old in enumerate(order)}
    to_photo = scale / readings.factor
    read = repaired.readings
    confirmed = confirmed_by_meld([r.card for r in read], [r.alternative for r in read], groups)
    seen = tuple(
        _seen(repaired.cards[i], read[i], to_photo, i in confirmed and _own(read[i])) for i in order
    )
    renumbered = tuple(
        Group(g.kind, tuple(position[i] for i in g.cards), g.orientation) for g in groups
    )
    w, h = size
    return Recognition(
        seen, renumbered, round(w * scale), round(h * scale), readings.card_width * scale
    )


def unsure(score: float, corners: int, confirmed: bool = False, flag_at: float = FLAG_AT) -> bool:
    """Is a card read with ``score`` from ``corners`` indices flagged? Under the calibrated
    threshold, or below the scores cards are reported from
    (:data:`~cardscore.vision.cards.MIN_CARD`: a repair's reading) whatever the line says:
    the lines were fitted on reported cards. A card its meld confirms is as sure as such cards
    were measured to be (:data:`~cardscore.vision.calibration.CONFIRMED`), if its line says
    less. ``flag_at``: another threshold than the fitted one (its fit asks).

    >>> unsure(0.999, 2), unsure(0.3, 1)
    (False, True)
    """
    if confirmed:
        return calibrated(score, corners, confirmed=True) < flag_at
    return score < MIN_CARD or calibrated(score, corners) < flag_at


def _own(read: CardReading) -> bool:
    """Whether a card stands on its own reading: one that would be reported alone
    (:data:`~cardscore.vision.cards.ALONE_MIN`), not a meld's mend or doubt. Only such a
    reading can be confirmed by its meld: a mend was chosen to fit it."""
    return read.score >= ALONE_MIN and not read.doubted


def _seen(p: Placement, read: CardReading, to_photo: float, confirmed: bool) -> SeenCard:
    """A card as reported: in photo pixels, its confidence calibrated, flagged when unsure."""
    corners = tuple((float(a * to_photo), float(b * to_photo)) for a, b in p.corners(NORMAL_WIDTH))
    sure = calibrated(read.score, p.indices, confirmed)
    return SeenCard(
        card=read.card,
        confidence=sure,
        x=p.x * to_photo,
        y=p.y * to_photo,
        angle=p.angle % 360,
        corners=corners,
        indices=p.indices,
        flagged=unsure(read.score, p.indices, confirmed) or read.doubted,
        alternative=read.alternative,
        score=read.score,
        confirmed=confirmed,
    )
