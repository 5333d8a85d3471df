"""``recognize(photo)``: the cards, melds, piles and dollars on a table, and a Tranca draft.

The photo's data goes one way, stage by stage, each stage a module with a typed result:

0. :mod:`~cardscore.vision.view`: photo → the table seen from above (a photo taken at an
   angle straightened; :class:`~cardscore.vision.view.View`);
1. :mod:`~cardscore.vision.regions`: → white card regions and the card width
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
unsure ones flagged. Coordinates in the result are the original photo's pixels (a
straightened photo's mapped back through its view); the Tranca
draft is :mod:`cardscore.tranca.photo`'s.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from cardscore.cards import Card
from cardscore.tranca.photo import draft_from_groups
from cardscore.vision.balance import white_balance
from cardscore.vision.calibration import (
    FLAG_AT,
    FLAG_AT_BLURRED,
    FLAG_AT_SHAKEN,
    TWIN_SURE,
    TWIN_SURE_COVERED,
    TWIN_SURE_PAIRED_STRAIGHTENED,
    TWIN_SURE_STRAIGHTENED,
    blurred_lines,
    calibrated,
    twins,
    wide_ten,
)
from cardscore.vision.cards import ALONE_MIN, MIN_CARD, Placement, find_cards
from cardscore.vision.channels import ChannelOrderWarning, looks_rgb
from cardscore.vision.classifier import MODEL_PATHS
from cardscore.vision.crops import CropReader
from cardscore.vision.deck import DeckProfile, reading_with
from cardscore.vision.focus import UNMEASURED, Blur
from cardscore.vision.geometry import NORMAL_WIDTH, index_to_centre
from cardscore.vision.groups import Group, confirmed_by_meld, covered_in_columns, find_groups
from cardscore.vision.image_io import PhotoSource, load_image
from cardscore.vision.readings import Readings, read_indices
from cardscore.vision.regions import find_regions
from cardscore.vision.repairs import CardReading, Repaired, repair
from cardscore.vision.view import View, find_view

__all__ = [
    "EDGE_MARGIN",
    "Group",
    "Recognition",
    "SeenCard",
    "cut_by_edge",
    "read_photo",
    "reading_to_photo",
    "recognize",
    "unsure",
]


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
    card_width: float  # photo pixels (at the photo's centre, when it was straightened)
    tilt: float = 0.0  # degrees the photo leaned from straight down, when it was straightened
    # Whether the photo was read sharpened, blurred or shaken (cardscore.vision.focus), and
    # its blur (px at a card 120 px wide, along each direction): a sharper photo reads better.
    sharpened: bool = False
    blur: Blur = UNMEASURED
    # Whether its index glyphs were a jumbo-index deck's (read bold too): such a deck is read
    # less surely, and its tens read at one corner are flagged (calibration.wide_ten).
    jumbo: bool = False

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
                "tilt": round(self.tilt, 1),
                "sharpened": self.sharpened,
                "blur": round(self.blur.worst, 2),
                "jumbo_index": self.jumbo,
            },
            "cards": [c.as_dict() for c in self.cards],
            "groups": [g.as_dict(self.cards) for g in self.groups],
            "flagged": [i for i, c in enumerate(self.cards) if c.flagged],
            "tranca": self.tranca_draft(),
        }


def recognize(
    source: PhotoSource,
    *,
    card_width: float | None = None,
    model: Path | Sequence[Path] | None = None,
    deck: DeckProfile | None = None,
    melds: bool = True,
) -> Recognition:
    """Read the cards on a table photo: a path, file bytes, a PIL image, or a uint8 array in
    OpenCV's BGR order (one whose glyphs read clearly surer as RGB is read so, with a
    :class:`~cardscore.vision.channels.ChannelOrderWarning`).

    ``card_width`` (photo pixels) skips the card-size estimate when it is known; ``model``:
    an ONNX classifier, or several to average, instead of the shipped ones; ``deck``: a
    profile of the table's deck (:mod:`cardscore.vision.learn`) to read with. ``melds``
    false: the overlapping cards are no Tranca melds (another game's photo: a Gong Zhu pile
    spread out, poker hands), so a meld's rules neither doubt, mend nor confirm them.
    Raises :class:`~cardscore.vision.image_io.ImageError` for files that are not usable photos,
    :class:`~cardscore.vision.deck.DeckProfileError` for a profile of other models.
    """
    return read_photo(source, card_width=card_width, model=model, deck=deck, melds=melds)[0]


def read_photo(
    source: PhotoSource,
    *,
    card_width: float | None = None,
    model: Path | Sequence[Path] | None = None,
    deck: DeckProfile | None = None,
    melds: bool = True,
) -> tuple[Recognition, Readings, View]:
    """:func:`recognize`'s result, the index readings it was made from (the photo as read,
    scaled so a card is :data:`~cardscore.vision.geometry.NORMAL_WIDTH` px wide) and the view
    they were read in (:func:`reading_to_photo` maps their pixels to the result's). Learning a
    deck takes its crops from them instead of reading again."""
    if deck is not None:
        deck.check(MODEL_PATHS if model is None else [model] if isinstance(model, Path) else model)
    with reading_with(deck):
        return _recognize(source, card_width, model, melds)


def _recognize(
    source: PhotoSource,
    card_width: float | None,
    model: Path | Sequence[Path] | None,
    melds: bool = True,
    channels_checked: bool = False,
) -> tuple[Recognition, Readings, View]:
    loaded = load_image(source)
    image, scale = white_balance(loaded.image).image, loaded.to_original
    view = find_view(image)
    regions = find_regions(
        view.image, None if card_width is None else card_width / scale, view.paper
    )
    readings = read_indices(view.image, regions, model, rescale=card_width is None)
    if not channels_checked and _colour_array(source) and looks_rgb(readings, model):
        warnings.warn(ChannelOrderWarning(RGB_READ), stacklevel=4)
        as_rgb = np.ascontiguousarray(loaded.image[..., ::-1])
        return _recognize(as_rgb, card_width, model, melds, channels_checked=True)
    cards = find_cards(readings.hits)
    boxes = [box.scaled(readings.factor) for box in regions.whole_cards]
    repaired = repair(cards, readings.hits, CropReader(readings.image, model), boxes, melds=melds)
    groups = find_groups(repaired.as_read())
    h, w = image.shape[:2]
    reported = _reported(repaired, groups, readings, view, scale, (w, h), melds)
    return reported, readings, view


RGB_READ = (
    "the array's red suits read surer with red and blue swapped: it looks RGB, so it was read "
    "as RGB. recognize() takes arrays in OpenCV's BGR order; give it a path, the file's bytes or "
    "a PIL image as they are, or an RGB array as array[..., ::-1]"
)


def _colour_array(source: PhotoSource) -> bool:
    """Whether ``source`` is an array in colour, whose channel order the caller chose: a file
    is decoded in BGR, a PIL image converted to it, and a grey array has no order."""
    return isinstance(source, np.ndarray) and source.ndim == 3


PhotoPoint = Callable[[float, float], tuple[float, float]]

# A rank glyph whose centre lies nearer the photo's edge than this (card widths) is cut by
# it: the glyph is about 0.15 card widths high.
EDGE_MARGIN = 0.1


def reading_to_photo(readings: Readings, view: View, scale: float) -> PhotoPoint:
    """Maps a point of ``readings``' image to the photo's pixels (``scale``: photo px per
    px of the image the view was found in: the loaded photo's, 1 unless it was shrunk)."""
    if view.tilt == 0:
        ratio = scale / readings.factor
        return lambda x, y: (x * ratio, y * ratio)

    def mapped(x: float, y: float) -> tuple[float, float]:
        ((px, py),) = view.photo_points(np.array([[x / readings.factor, y / readings.factor]]))
        return float(px * scale), float(py * scale)

    return mapped


def cut_by_edge(p: Placement, to_photo: PhotoPoint, size: tuple[float, float]) -> bool:
    """Whether the photo's edge cuts each of card ``p``'s corner indices that could have been
    read (``to_photo``: normalised px to the photo's; ``size``: the photo's width and height):
    within :data:`EDGE_MARGIN` of the edge or beyond it, what shows of the index may be
    another card's (a 10 cut to a 0, a Q to an O, a suit to its half).

    A card 120 px wide, its top index 6 px from the photo's top (its bottom index whole), then
    its top index above the photo and its bottom one 9 px from the top:

    >>> card = Placement(Card("Js"), 0.99, 100.0, 200.0, 0.0, 1, None)
    >>> cut_by_edge(card, lambda x, y: (x, y - 130), (1000.0, 1000.0))
    False
    >>> cut_by_edge(card, lambda x, y: (x, y - 255), (1000.0, 1000.0))
    True
    """
    w, h = size
    offset = index_to_centre(p.angle, NORMAL_WIDTH)
    top_left = to_photo(p.x - offset[0], p.y - offset[1])
    bottom_right = to_photo(p.x + offset[0], p.y + offset[1])
    centre, side = to_photo(p.x, p.y), to_photo(p.x + NORMAL_WIDTH, p.y)
    margin = EDGE_MARGIN * math.dist(centre, side)
    return all(min(x, y, w - x, h - y) < margin for x, y in (top_left, bottom_right))


def _reported(
    repaired: Repaired,
    groups: tuple[Group, ...],
    readings: Readings,
    view: View,
    scale: float,
    size: tuple[int, int],
    melds: bool = True,
) -> Recognition:
    """The result in the photo's pixels, cards renumbered in group order so that a group's
    cards sit together in the list (``scale``: photo px per px of the image the view was
    found in; ``melds`` false: no meld confirms its cards)."""
    order = [i for g in groups for i in g.cards]
    position = {old: new for new, old in enumerate(order)}
    to_photo = reading_to_photo(readings, view, scale)
    read = repaired.readings
    confirmed = (
        confirmed_by_meld([r.card for r in read], [r.alternative for r in read], groups)
        if melds
        else frozenset()
    )
    covered = covered_in_columns(repaired.cards, groups)
    blur = readings.blur
    lines = (blur.worst, blur.least)
    blurred = blurred_lines(readings.sharpened, view.tilt > 0, blur.worst)
    # A shaken photo's misreadings are surer than even the blurred lines say.
    flag_at = FLAG_AT_SHAKEN if blurred and blur.shaken else None
    photo = (size[0] * scale, size[1] * scale)
    seen = tuple(
        _seen(
            repaired.cards[i],
            read[i],
            to_photo,
            view.tilt > 0,
            i in confirmed and _own(read[i]),
            lines if blurred else None,
            flag_at,
            readings.blobs.bold,
            covered=i in covered,
            cut=cut_by_edge(repaired.cards[i], to_photo, photo),
        )
        for i in order
    )
    renumbered = tuple(
        Group(g.kind, tuple(position[i] for i in g.cards), g.orientation) for g in groups
    )
    w, h = size
    return Recognition(
        seen,
        renumbered,
        round(w * scale),
        round(h * scale),
        readings.card_width * scale,
        view.tilt,
        readings.sharpened,
        readings.blur,
        readings.blobs.bold,
    )


def unsure(
    score: float,
    corners: int,
    confirmed: bool = False,
    flag_at: float | None = None,
    blur: tuple[float, float] | None = None,
    twin: bool = False,
    wide: bool = False,
    straightened: bool = False,
    covered: bool = False,
    cut: bool = False,
) -> bool:
    """Is a card read with ``score`` from ``corners`` indices flagged? Under the calibrated
    threshold, or below the scores cards are reported from
    (:data:`~cardscore.vision.cards.MIN_CARD`: a repair's reading) whatever the line says:
    the lines were fitted on reported cards. A card its meld confirms is as sure as such cards
    were measured to be (:data:`~cardscore.vision.calibration.CONFIRMED`), if its line says
    less. ``flag_at``: another threshold than the fitted one (its fit asks); ``blur``:
    read in a photo that blurred (:func:`~cardscore.vision.calibration.calibrated`; its own
    threshold). ``twin``: its runner-up is its twin (:func:`~cardscore.vision.calibration.twins`):
    read at one corner under :data:`~cardscore.vision.calibration.TWIN_SURE` and not
    confirmed, it is flagged whatever its line says (under
    :data:`~cardscore.vision.calibration.TWIN_SURE_STRAIGHTENED` in a photo
    ``straightened`` from a seat, under :data:`~cardscore.vision.calibration.TWIN_SURE_COVERED`
    where the next card of a meld fanned down a column ``covered`` its suit); read at both
    corners in a photo ``straightened`` from a seat, under
    :data:`~cardscore.vision.calibration.TWIN_SURE_PAIRED_STRAIGHTENED`.

    ``wide``: a ten in a photo of jumbo indices
    (:func:`~cardscore.vision.calibration.wide_ten`): read at one corner and not confirmed, it
    is flagged whatever its line says. So is a card read at one corner that the photo's edge
    ``cut`` (:func:`cut_by_edge`), unless its meld confirms it.

    >>> unsure(0.999, 1, cut=True), unsure(0.999, 2, cut=True), unsure(0.999, 1, True, cut=True)
    (True, False, False)
    >>> unsure(0.999, 2), unsure(0.3, 1), unsure(0.7, 1)
    (False, True, False)
    >>> unsure(0.999, 1, wide=True), unsure(0.999, 2, wide=True), unsure(0.999, 1, True, wide=True)
    (True, False, False)
    >>> unsure(0.85, 1, twin=True), unsure(0.85, 1, twin=True, covered=True), unsure(0.85, 1, covered=True)
    (False, True, False)
    """
    twin_sure = (
        TWIN_SURE_COVERED if covered else TWIN_SURE_STRAIGHTENED if straightened else TWIN_SURE
    )
    if corners == 1 and not confirmed and (wide or cut or (twin and score < twin_sure)):
        return True
    paired_twin = corners >= 2 and straightened and twin
    if paired_twin and not confirmed and score < TWIN_SURE_PAIRED_STRAIGHTENED:
        return True
    if flag_at is None:
        flag_at = FLAG_AT if blur is None else FLAG_AT_BLURRED
    if confirmed:
        return calibrated(score, corners, True, blur) < flag_at
    return score < MIN_CARD or calibrated(score, corners, False, blur) < flag_at


def _own(read: CardReading) -> bool:
    """Whether a card stands on its own reading: one that would be reported alone
    (:data:`~cardscore.vision.cards.ALONE_MIN`), not a meld's mend or doubt. Only such a
    reading can be confirmed by its meld: a mend was chosen to fit it."""
    return read.score >= ALONE_MIN and not read.doubted


def _seen(
    p: Placement,
    read: CardReading,
    to_photo: PhotoPoint,
    straightened: bool,
    confirmed: bool,
    blur: tuple[float, float] | None,
    flag_at: float | None = None,
    bold: bool = False,
    covered: bool = False,
    cut: bool = False,
) -> SeenCard:
    """A card as reported: in photo pixels (``to_photo``: from the readings' pixels; through
    a view when the photo was ``straightened``), its confidence calibrated (on the lines of
    blurred photos at that ``blur``, if it was one), flagged when unsure (below ``flag_at``,
    given it: a shaken photo's :data:`~cardscore.vision.calibration.FLAG_AT_SHAKEN`; a ten
    of a photo read ``bold``, a jumbo index's, at one corner; a card ``covered`` by the next
    of its column, :func:`~cardscore.vision.groups.covered_in_columns`; a card whose index
    the photo's edge ``cut``, :func:`cut_by_edge`)."""
    corners = tuple(to_photo(a, b) for a, b in p.corners(NORMAL_WIDTH))
    sure = calibrated(read.score, p.indices, confirmed, blur)
    x, y = to_photo(p.x, p.y)
    angle = p.angle % 360
    if straightened:
        # The card's "down" as the photo shows it there.
        t = math.radians(p.angle)
        bx, by = to_photo(p.x + math.sin(t), p.y + math.cos(t))
        angle = math.degrees(math.atan2(bx - x, by - y)) % 360
    return SeenCard(
        card=read.card,
        confidence=sure,
        x=x,
        y=y,
        angle=angle,
        corners=corners,
        indices=p.indices,
        flagged=unsure(
            read.score,
            p.indices,
            confirmed,
            flag_at,
            blur,
            twins(read.card, read.alternative),
            wide_ten(read.card, bold),
            straightened,
            covered,
            cut,
        )
        or read.doubted,
        alternative=read.alternative,
        score=read.score,
        confirmed=confirmed,
    )
