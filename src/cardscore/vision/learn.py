"""Learning a table's deck in seconds: its own index crops refit the classifiers' last layer.

Two ways to show cardscore a deck:

- **labelled photos** (:func:`learn_from_labels`): each photo is read as usual; a card whose
  reading agrees with the labels gives its index crops, labelled. A photo whose labels and
  reading disagree is reported (which cards) and only its agreeing cards are learnt: a card
  read more often than labelled is not learnt at all (which copy is wrong cannot be told).
- **a spread** (:func:`learn_from_spread`): the whole deck face up, four rows by suit
  (♠ ♥ ♦ ♣), A to K left to right. Each card's place says what it is, so even cards the
  classifier cannot read yet are learnt: the ink blob at each of its two index corners.
- **cards a player confirmed on a photo** (:func:`confirmed_examples`): each card's outline
  as the reading drew it and the card the player says it is (a correction, or the reading
  accepted). Only the confirmed cards' index crops are learnt, labelled as confirmed: a
  corrected card teaches what the classifier got wrong. A :class:`DeckMemory` keeps what a
  table taught so far (the web app keeps one per match) and fits its profile from all of it.

Each index crop is an example of its card, and the crop turned a quarter, a half and
three quarters an example of "no index" (an index shows only upright). A correction to
each member's last layer (:class:`~cardscore.vision.deck.DeckProfile`) is fitted to them by
gradient descent on the ensemble's cross-entropy, pulled towards zero so that what the deck
does not show stays as the shipped model reads it.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
import zipfile
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

import cv2
import numpy as np
from threadpoolctl import threadpool_limits

from cardscore.cards import Card, Rank, Suit, full_deck, parse_cards
from cardscore.errors import CardscoreError, Problem, catalogue
from cardscore.vision.balance import white_balance
from cardscore.vision.classifier import MODEL_PATHS, outputs
from cardscore.vision.crops import crop_batch
from cardscore.vision.deck import DeckProfile, expecting, model_hash, reading_with
from cardscore.vision.geometry import NORMAL_WIDTH
from cardscore.vision.image_io import load_image
from cardscore.vision.labels import BACKGROUND, CLASSES
from cardscore.vision.readings import Readings, find_indices, normalise, read_blobs
from cardscore.vision.recognition import (
    PhotoPoint,
    Recognition,
    SeenCard,
    read_photo,
    reading_to_photo,
)
from cardscore.vision.regions import MIN_CARD_PX, find_regions
from cardscore.vision.view import View

__all__ = [
    "Confirmed",
    "ConfirmedExamples",
    "DeckMemory",
    "Embedded",
    "Examples",
    "Learnt",
    "PhotoCheck",
    "SpreadError",
    "confirmed_examples",
    "embed",
    "fit",
    "fit_embedded",
    "learn_from_labels",
    "learn_from_photos",
    "learn_from_spread",
    "spread_examples",
    "teach_rule",
    "teaches",
]

# The pull of the correction towards zero (per weight, squared). Photos show part of a deck:
# pulled harder, so that the cards they do not show are not drawn towards those they do (a
# 7♦ read as the 7♠ learnt); a spread shows every card.
STRENGTH, SPREAD_STRENGTH = 0.1, 0.03
STEPS, RATE = 150, 0.02  # Adam's steps and step size
# A card's own correction costs this many times more than its rank's or suit's: what a few
# labelled cards teach is mostly their rank's glyph and their suit's, which the cards not
# shown share. Chosen on tables 400-404 of tests/render_tables.py read on 405-419 (higher
# costs read those a little better) and on the shared photos' folds (where 8 reads worse).
OWN_COST = 4.0
SPREAD_ORDER = "A23456789TJQK"
SPREAD_SUITS = "shdc"
# In a spread, an index blob lies beyond these fractions of the half width and half height
# from its card's centre, towards a corner.
CORNER_U, CORNER_V = 0.35, 0.5
# Two readings' cards whose centres lie this close (card widths) are one physical card (a
# fan's neighbours lie a third of a card apart or more).
SAME_PLACE = 0.1
# Labelled photos are read this many times: each round with the profile the last one learnt,
# which settles more of their cards (tuned on tables 400-404 of tests/render_tables.py).
LABEL_ROUNDS = 2
# A blob this far (card widths) from every index learnt on a lone card is one of its marks.
MARK_APART = 0.12


class SpreadError(CardscoreError):
    """A deck spread photo that does not show 52 cards in four rows of thirteen."""


@dataclass(frozen=True)
class Examples:
    """Index crops (N, 32, 32, 3) and their classes (N,), 52 meaning "no index"."""

    crops: np.ndarray
    labels: np.ndarray

    @staticmethod
    def join(parts: Sequence[Examples]) -> Examples:
        if not parts:
            return Examples(np.zeros((0, 32, 32, 3), np.uint8), np.zeros(0, np.int64))
        return Examples(
            np.concatenate([p.crops for p in parts]), np.concatenate([p.labels for p in parts])
        )


@dataclass(frozen=True)
class PhotoCheck:
    """One labelled photo as read before learning: cards learnt, and any disagreement."""

    image: str
    learnt: int  # cards whose index crops were learnt
    missed: tuple[Card, ...]  # labelled, not read
    extra: tuple[Card, ...]  # read, not labelled

    @property
    def agrees(self) -> bool:
        return not self.missed and not self.extra

    def describe(self) -> str:
        """One line: ``train_06.jpg: read J♠ where the labels say J♦ (10 cards learnt)``."""
        if self.agrees:
            return f"{self.image}: agrees with its labels ({self.learnt} cards learnt)"
        parts = []
        if self.missed:
            parts.append("labelled but not read: " + " ".join(str(c) for c in self.missed))
        if self.extra:
            parts.append("read but not labelled: " + " ".join(str(c) for c in self.extra))
        return f"{self.image}: {'; '.join(parts)} (only its {self.learnt} agreeing cards learnt)"


@dataclass(frozen=True)
class Learnt:
    """A profile and how it was learnt: per photo checks, crops used."""

    profile: DeckProfile
    photos: tuple[PhotoCheck, ...]
    crops: int


def _turns(
    points: list[tuple[float, float, float, float]], cards: list[int]
) -> tuple[list[tuple[float, float, float, float]], list[int]]:
    """Each index point with its card, and its three other quarter turns as "no index"."""
    out, labels = [], []
    for (x, y, size, angle), card in zip(points, cards, strict=True):
        for k in range(4):
            out.append((x, y, size, (angle + 90 * k) % 360))
            labels.append(card if k == 0 else BACKGROUND)
    return out, labels


def photo_examples(
    source: str | Path | np.ndarray,
    labelled: Sequence[Card],
    name: str = "",
    deck: DeckProfile | None = None,
) -> tuple[Examples, PhotoCheck]:
    """The index crops of the cards on a photo whose reading agrees with ``labelled``.

    The photo is read as is (with ``deck``, if any): the check a user sees says which
    labelled cards were not read and which were read but are not labelled, and the cards
    read as labelled are learnt. It is read again expecting only the labelled cards
    (:func:`~cardscore.vision.deck.expecting`): where the first reading saw no card, or
    an unlabelled one it was unsure of, the card the labels settle it as is learnt too. A
    card read surely as something else is the labels' word against the reader's: it is
    reported and not learnt. No card is learnt more often than it is labelled.
    """
    loaded = load_image(source)
    want = Counter(labelled)
    as_is, as_is_read, as_is_view = read_photo(loaded.image, deck=deck)
    with expecting(labelled):  # read_photo puts the deck in use itself
        guided, guided_read, guided_view = read_photo(loaded.image, deck=deck)
    read = Counter(s.card for s in as_is.cards)
    kept = [i for i, s in enumerate(as_is.cards) if read[s.card] <= want[s.card]]
    # The labels settle only what the first reading left room for: a card it read as often
    # as labelled is not learnt again from the second reading's placing of it.
    room = want - Counter(as_is.cards[i].card for i in kept)
    settled = []
    for i, s in enumerate(guided.cards):
        if room[s.card] > 0 and _settled(s, as_is, want):
            settled.append(i)
            room[s.card] -= 1
    check = PhotoCheck(
        name or str(source),
        len(kept) + len(settled),
        tuple(sorted((want - read).elements())),
        tuple(sorted((read - want).elements())),
    )
    first = _index_examples(as_is_read, as_is_view, as_is, set(kept), marks=True)
    second = _index_examples(guided_read, guided_view, guided, set(settled), marks=False)
    return Examples.join([first, second]), check


def _settled(card: SeenCard, as_is: Recognition, want: Counter[Card]) -> bool:
    """Whether the labels settle a card of the reading that expects them: the reading as is
    saw no card there (:data:`SAME_PLACE`), or one the labels do not name and it was unsure
    of. A card it read surely as something else stays disputed."""
    if card.card not in want:
        return False
    if not as_is.cards:
        return True
    other = min(as_is.cards, key=lambda o: math.hypot(o.x - card.x, o.y - card.y))
    if math.hypot(other.x - card.x, other.y - card.y) >= SAME_PLACE * as_is.card_width:
        return True
    return other.card not in want and other.flagged


def _index_examples(
    readings: Readings, view: View, result: Recognition, chosen: set[int], *, marks: bool
) -> Examples:
    """The index crops of ``result``'s ``chosen`` cards (indices into its cards) that its
    ``readings`` hold (read in ``view``); with ``marks``, the other ink of its lone chosen
    cards as "no index" too (:func:`_lone_card_marks`)."""
    norm = readings.image
    # The readings' pixels → the result's.
    to_photo = reading_to_photo(readings, view, result.card_width / readings.card_width)
    outlines = {i: np.array(result.cards[i].corners, np.float32) for i in chosen}
    points, cards = [], []
    for hit in readings.hits:
        x, y = to_photo(hit.x, hit.y)
        if any(
            result.cards[i].card == hit.card and cv2.pointPolygonTest(outline, (x, y), False) >= 0
            for i, outline in outlines.items()
        ):
            points.append((hit.x, hit.y, hit.size, hit.angle))
            cards.append(hit.card.id)
    turned, labels = _turns(points, cards)
    others = _lone_card_marks(readings, to_photo, result, chosen, points) if marks else []
    labels += [BACKGROUND] * len(others)
    if not turned and not others:
        return Examples.join([])
    return Examples(crop_batch(norm, turned + others), np.array(labels, np.int64))


def _lone_card_marks(
    readings: Readings,
    to_photo: PhotoPoint,
    result: Recognition,
    chosen: set[int],
    indices: list[tuple[float, float, float, float]],
) -> list[tuple[float, float, float, float]]:
    """Every ink blob on a chosen card lying alone (no card over it can hide a missed
    index), away from its indices, in its four turns: pips and court art, "no index"."""
    lone = [
        np.array(result.cards[g.cards[0]].corners, np.float32)
        for g in result.groups
        if len(g.cards) == 1 and g.cards[0] in chosen
    ]
    if not lone:
        return []
    read = readings.blobs
    apart = MARK_APART * NORMAL_WIDTH
    out: list[tuple[float, float, float, float]] = []
    for bx, by in read.rows_of:
        if any(np.hypot(bx - x, by - y) < apart for x, y, _, _ in indices):
            continue
        at = to_photo(bx, by)
        if any(cv2.pointPolygonTest(c, at, False) >= 0 for c in lone):
            out.extend(read.points[r] for r in read.rows_of[bx, by])
    return out


def read_label_file(path: Path) -> list[tuple[Path, list[Card]]]:
    """The ``image,cards`` rows of a labels CSV, images beside it; every problem at once."""
    try:
        with path.open(newline="") as handle:
            rows = list(csv.DictReader(handle))
    except FileNotFoundError:
        raise CardscoreError(Problem.of("labels_missing", path=str(path))) from None
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        raise CardscoreError(
            Problem.of("labels_unreadable", path=str(path), error=str(error))
        ) from None
    if not rows or "image" not in rows[0] or "cards" not in rows[0]:
        raise CardscoreError(Problem.of("labels_columns", path=str(path)))
    out, problems = [], []
    for n, row in enumerate(rows, start=2):
        image = path.parent / (row["image"] or "")
        if not row["image"] or not image.is_file():
            shown = repr(row["image"])
            problems.append(
                Problem.of("label_image_missing", image=shown).at(f"{path.name} line {n}")
            )
            continue
        try:
            out.append((image, list(parse_cards(row["cards"] or ""))))
        except CardscoreError as error:
            problems.extend(p.at(f"{path.name} line {n}") for p in error.problems)
    if problems:
        raise CardscoreError(problems)
    return out


def learn_from_labels(
    labels: Path,
    *,
    progress: Callable[[str], None] | None = None,
    step: Callable[[int, int], None] | None = None,
    name: str = "",
) -> Learnt:
    """A profile from labelled photos (``image,cards`` CSV, images beside it); ``progress``
    and ``step`` as :func:`learn_from_photos` reports to them."""
    photos = [(image, cards, image.name) for image, cards in read_label_file(labels)]
    return learn_from_photos(photos, progress=progress, step=step, name=name or labels.stem)


def learn_from_photos(
    photos: Sequence[tuple[str | Path | np.ndarray, Sequence[Card], str]],
    *,
    progress: Callable[[str], None] | None = None,
    step: Callable[[int, int], None] | None = None,
    name: str = "",
) -> Learnt:
    """A profile from photos (a path or an image) and the cards on each, with a name for
    its report; :data:`LABEL_ROUNDS` rounds, each reading the photos with the last one's
    profile (:func:`photo_examples`) and fitting a profile to them. Each photo's check is
    its first reading's, with the cards the last round learnt.

    ``progress`` is told each photo's check as the last round has it; ``step`` (done,
    total) after each reading and each fit, :data:`LABEL_ROUNDS` times (photos + 1) in all:
    a progress bar's counts (learning from six photos takes tens of seconds)."""
    if not photos:
        raise CardscoreError(Problem.of("no_crops"))
    deck: DeckProfile | None = None
    first: list[PhotoCheck] = []
    total, done = LABEL_ROUNDS * (len(photos) + 1), 0

    def stepped() -> None:
        nonlocal done
        done += 1
        if step:
            step(done, total)

    for round_ in range(LABEL_ROUNDS):
        parts, checks = [], []
        for k, (source, cards, label) in enumerate(photos):
            examples, check = photo_examples(source, cards, label, deck)
            parts.append(examples)
            checks.append(check if round_ == 0 else replace(first[k], learnt=check.learnt))
            stepped()
            if progress and round_ == LABEL_ROUNDS - 1:
                progress(checks[-1].describe())
        first = first or checks
        examples = Examples.join(parts)
        deck = fit(examples, name=name)
        stepped()
    assert deck is not None
    return Learnt(deck, tuple(checks), len(examples.labels))


def spread_examples(source: str | Path | np.ndarray) -> Examples:
    """The index crops of a deck spread: 52 cards in four rows (♠ ♥ ♦ ♣), A to K."""
    # Neutral as the recogniser's crops are (a spread under a lamp teaches what it reads).
    image = white_balance(load_image(source).image).image
    regions = find_regions(image)
    width = regions.card_width
    area = width * width * 1.4
    boxes = {
        r: box
        for r, box in regions.boxes.items()
        if 0.6 * area <= box[1][0] * box[1][1] <= 1.6 * area
    }
    where = str(source) if not isinstance(source, np.ndarray) else catalogue()["place_spread"]
    if len(boxes) != 52:
        raise SpreadError(Problem.of("spread_count", n=len(boxes)).at(where))
    by_y = sorted(boxes, key=lambda r: boxes[r][0][1])
    rows = [by_y[13 * k : 13 * k + 13] for k in range(4)]
    for upper, lower in itertools.pairwise(rows):
        if max(boxes[r][0][1] for r in upper) >= min(boxes[r][0][1] for r in lower):
            raise SpreadError(Problem.of("spread_rows").at(where))
    card_of: dict[int, Card] = {}
    for suit, line in zip(SPREAD_SUITS, rows, strict=True):
        for rank, r in zip(SPREAD_ORDER, sorted(line, key=lambda r: boxes[r][0][0]), strict=True):
            card_of[r] = Card(Rank(rank), Suit(suit))
    normalised = normalise(image, width, regions)
    norm, factor = normalised.image, normalised.factor
    read = read_blobs(norm, None, regions, factor)
    best: dict[tuple[int, int], tuple[float, int]] = {}  # (region, corner) → (prob, row)
    negatives: list[int] = []
    to_mask = regions.scale / factor
    for (bx, by), rows_ in read.rows_of.items():
        # Ink is no paper: a glyph's own pixels lie outside its card's white region.
        region = regions.at(bx * to_mask, by * to_mask, width * regions.scale)
        if region not in card_of:
            continue
        (cx, cy), _, _ = boxes[region]
        du, dv = (bx / factor - cx) / (width / 2), (by / factor - cy) / (width * 0.7)
        corner = (du < 0) == (dv < 0)
        if abs(du) < CORNER_U or abs(dv) < CORNER_V or not corner:
            negatives.extend(rows_)
            continue
        # The upright crop of the top-left index reads at 0°, the bottom-right one at 180°.
        want = 0.0 if dv < 0 else 180.0
        row = min(rows_, key=lambda i: abs((read.points[i][3] - want + 180) % 360 - 180))
        prob = float(read.probs[row, card_of[region].id])
        key = (region, int(dv < 0))
        # The rank glyph lies above the suit's: the blob nearest the card's end.
        score = abs(dv) + 0.1 * prob
        if key not in best or score > best[key][0]:
            if key in best:
                negatives.append(best[key][1])
            best[key] = (score, row)
        else:
            negatives.append(row)
    points = [read.points[row] for _, row in best.values()]
    cards = [card_of[region].id for region, _ in best]
    turned, labels = _turns(points, cards)
    crops = [crop_batch(norm, turned), crop_batch(norm, [read.points[i] for i in negatives])]
    labels += [BACKGROUND] * len(negatives)
    return Examples(np.concatenate(crops), np.array(labels, np.int64))


def learn_from_spread(photo: str | Path | np.ndarray, *, name: str = "") -> Learnt:
    """A profile from one photo of the whole deck spread out (see :func:`spread_examples`)."""
    examples = spread_examples(photo)
    default = Path(photo).stem if isinstance(photo, str | Path) else "spread"
    profile = fit(examples, strength=SPREAD_STRENGTH, name=name or default)
    return Learnt(profile, (), len(examples.labels))


@dataclass(frozen=True, eq=False)
class Embedded:
    """What the models make of some crops: each member's logits (N, 53) and embedding
    (N, D), the penultimate layer a profile's correction reads, and the models' SHA-256."""

    hashes: tuple[str, ...]
    logits: tuple[np.ndarray, ...]
    embeddings: tuple[np.ndarray, ...]

    def __len__(self) -> int:
        return len(self.logits[0]) if self.logits else 0

    def take(self, rows: np.ndarray) -> Embedded:
        """These rows only (an index or a mask)."""
        return Embedded(
            self.hashes,
            tuple(a[rows] for a in self.logits),
            tuple(a[rows] for a in self.embeddings),
        )

    def then(self, more: Embedded) -> Embedded:
        """These rows, then ``more``'s (of the same models)."""
        if not len(more):
            return self
        if not len(self):
            return more
        return Embedded(
            self.hashes,
            tuple(np.concatenate(p) for p in zip(self.logits, more.logits, strict=True)),
            tuple(np.concatenate(p) for p in zip(self.embeddings, more.embeddings, strict=True)),
        )


def embed(crops: np.ndarray, models: Sequence[Path] = MODEL_PATHS) -> Embedded:
    """Runs each model on ``crops``: the one slow step of learning, which
    :class:`DeckMemory` therefore does once per crop and keeps."""
    parts = [outputs(p, crops) for p in models]
    return Embedded(
        tuple(model_hash(p) for p in models),
        tuple(logits for logits, _ in parts),
        tuple(embedding for _, embedding in parts),
    )


def fit(
    examples: Examples,
    models: Sequence[Path] = MODEL_PATHS,
    *,
    strength: float = STRENGTH,
    steps: int = STEPS,
    name: str = "",
) -> DeckProfile:
    """The last-layer corrections that make the ensemble read ``examples`` right (see
    :func:`fit_embedded`)."""
    if len(examples.labels) == 0:
        raise CardscoreError(Problem.of("no_crops"))
    seen = embed(examples.crops, models)
    names = tuple(p.name for p in models)
    return fit_embedded(seen, examples.labels, names, strength=strength, steps=steps, name=name)


def fit_embedded(
    seen: Embedded,
    labels: np.ndarray,
    models: Sequence[str],
    *,
    strength: float = STRENGTH,
    steps: int = STEPS,
    name: str = "",
) -> DeckProfile:
    """The corrections for crops the models (named ``models``) already ran on.

    Adam on the cross-entropy of the members' mean logits (as :func:`classify` averages
    them), plus ``strength`` times the corrections' squared size. All in float32: a float64
    gradient would double every step's cost.
    """
    if len(labels) == 0:
        raise CardscoreError(Problem.of("no_crops"))
    base: np.ndarray = np.sum([b.astype(np.float32) for b in seen.logits], axis=0)
    embeddings = [e.astype(np.float32) for e in seen.embeddings]
    n, m = len(labels), len(embeddings)
    target = np.zeros((n, CLASSES), np.float32)
    target[np.arange(n), labels] = 1.0
    # Each card weighs the same, whatever its count, and "no index" as much as all cards
    # together: a deck's court panels and big pips must not become indices.
    counts = np.bincount(labels, minlength=CLASSES).astype(np.float32)
    cards = max(1.0, float(np.count_nonzero(counts[:BACKGROUND])))
    share = np.where(np.arange(CLASSES) == BACKGROUND, cards, 1.0).astype(np.float32)
    weight = (share / np.maximum(counts, 1))[labels][:, None]
    weight /= weight.sum()
    weight /= m
    # A correction per card, plus one per rank and one per suit that every card of that
    # rank or suit shares: a few labelled photos show some cards only, and a deck's "7" or
    # its clubs look alike on every card, so what the shown ones teach carries to the rest.
    parts = _parts()
    params: list[np.ndarray] = [
        np.zeros((parts.shape[1], e.shape[1]), np.float32) for e in embeddings
    ]
    params += [np.zeros(parts.shape[1], np.float32) for _ in embeddings]
    # Hundreds of small products (about 1,400 × 384 × 53): on busy cores OpenBLAS's threads
    # spin waiting for one another (a fit took 4 to 16 s with two threads, 0.5 s with one).
    with threadpool_limits(limits=1, user_api="blas"):
        _adam(embeddings, base, target, weight, params, parts, strength, steps)
    params = [parts @ p for p in params]
    return DeckProfile(
        tuple(models),
        seen.hashes,
        tuple(params[:m]),
        tuple(params[m:]),
        tuple(int(k) for k in counts),
        name,
    )


def _parts() -> np.ndarray:
    """(53, 70): each class's own row, its rank's (13) and its suit's (4); "no index" has
    its own only. A class's correction is the sum of its parts' (see :func:`fit_embedded`)."""
    parts = np.zeros((CLASSES, CLASSES + 13 + 4), np.float32)
    parts[np.arange(CLASSES), np.arange(CLASSES)] = 1.0
    for card in full_deck():
        parts[card.id, CLASSES + card.rank.index] = 1.0
        parts[card.id, CLASSES + 13 + card.suit.index] = 1.0
    return parts


def _adam(
    embeddings: list[np.ndarray],
    base: np.ndarray,
    target: np.ndarray,
    weight: np.ndarray,
    params: list[np.ndarray],
    parts: np.ndarray,
    strength: float,
    steps: int,
) -> None:
    """Adam's ``steps`` on ``params`` (each member's weights, then biases, per part: a
    class's are ``parts @`` them), in place."""
    m = len(embeddings)
    own = np.ones(parts.shape[1], np.float32)
    own[:BACKGROUND] = OWN_COST
    # A part no example belongs to (a card, a rank or a suit the photos never showed) is
    # neither taught nor taught against: lowered only as the shown cards' rival, it would
    # move this deck's unshown cards onto the shown ones (its jacks read as its queens).
    shown = (target.sum(axis=0) @ parts > 0).astype(np.float32)
    moment = [np.zeros_like(p) for p in params]
    square = [np.zeros_like(p) for p in params]
    for step in range(1, steps + 1):
        logits: np.ndarray = base + sum(
            e @ (parts @ w).T for e, w in zip(embeddings, params[:m], strict=True)
        )
        logits = (logits + parts @ sum(params[m:])) / m
        z = np.exp(logits - logits.max(axis=1, keepdims=True))
        grad_logits = (z / z.sum(axis=1, keepdims=True) - target) * weight
        grads = [
            (parts.T @ (grad_logits.T @ e) + 2 * strength * own[:, None] * w) * shown[:, None]
            for e, w in zip(embeddings, params[:m], strict=True)
        ]
        grads += [
            (parts.T @ grad_logits.sum(axis=0) + 2 * strength * own * c) * shown for c in params[m:]
        ]
        for p, g, mo, sq in zip(params, grads, moment, square, strict=True):
            mo *= 0.9
            mo += 0.1 * g
            sq *= 0.999
            sq += 0.001 * g * g
            p -= RATE * (mo / (1 - 0.9**step)) / (np.sqrt(sq / (1 - 0.999**step)) + 1e-8)


# A hit read this far (degrees) from the axis its place on a confirmed card asks is another
# glyph (a pip, a neighbour's index seen through the fan), not this card's index.
CONFIRM_ANGLE = 25.0
# An index lies within this many half sizes of its card's centre (the outline a reading
# draws is a deck average: a little room).
CONFIRM_REACH = 1.15
# An index's centre in its card's frame, in half widths and half heights (the deck average
# the readings' outlines assume: layout.INDEX_U, INDEX_V).
INDEX_SPOT = (0.74, 0.76)
# A deck memory keeps each card's newest crops and the newest "no index" crops up to the
# total: about 750 bytes a crop compressed and 250 for the models' outputs, so at most about
# 2 MB.
CARD_CROPS, MEMORY_CROPS = 16, 2048
# Version 2 keeps the models' outputs for the crops too; version 1 (crops only) still loads.
MEMORY_FORMAT, MEMORY_VERSION = "cardscore-deck-memory", 2
MEMORY_VERSIONS = (1, 2)


@dataclass(frozen=True)
class Confirmed:
    """A card a player confirmed on a photo: what it is, and its outline as the reading
    drew it (four corners, photo pixels, clockwise from the card's top-left, as
    :attr:`SeenCard.corners <cardscore.vision.recognition.SeenCard.corners>` gives them).

    >>> Confirmed(Card("Jd"), ((0, 0), (10, 0), (10, 14), (0, 14))).angle
    0.0
    """

    card: Card
    corners: tuple[tuple[float, float], ...]

    @property
    def angle(self) -> float:
        """The card's rotation, degrees counter-clockwise (its top edge's direction)."""
        (x0, y0), (x1, y1) = self.corners[0], self.corners[1]
        return math.degrees(math.atan2(y0 - y1, x1 - x0)) + 0.0


def _sides(outline: np.ndarray) -> tuple[float, float]:
    """An outline's width and height (its top and left edges' lengths)."""
    return float(np.linalg.norm(outline[1] - outline[0])), float(
        np.linalg.norm(outline[3] - outline[0])
    )


def _gap(a: float, b: float) -> float:
    return abs((a - b + 180.0) % 360.0 - 180.0)


@dataclass(frozen=True)
class ConfirmedExamples:
    """What a photo's confirmed cards teach: the index crops found (:attr:`examples`), the
    confirmed cards they belong to (:attr:`taught`, in the order confirmed) and those with no
    index found where they lie (:attr:`missed`: a far card's corner too small, hidden or
    blurred). Every confirmed card is in exactly one of the two."""

    examples: Examples
    taught: tuple[Card, ...]
    missed: tuple[Card, ...]


def confirmed_examples(
    source: str | Path | bytes | np.ndarray,
    confirmed: Sequence[Confirmed],
    *,
    deck: DeckProfile | None = None,
) -> ConfirmedExamples:
    """The index crops of the cards a player confirmed on a photo, each labelled with the
    card confirmed (the reading corrected or accepted), and which cards taught and which
    had no index found.

    The photo's index glyphs are found again (read with ``deck``, the profile the photo was
    read with, if any); a glyph is a confirmed card's when it lies at one of the card's two
    index corners, turned as that corner's index is: the glyph at the top left upright with
    the card, the one at the bottom right upside down. Of several at one corner the nearest
    to where the index belongs is taken. Nothing else on the photo is learnt.
    """
    if not confirmed:
        raise CardscoreError(Problem.of("confirmed_none"))
    loaded = load_image(source)
    image, to_image = white_balance(loaded.image).image, 1.0 / loaded.to_original
    # Only an outline of a card's size has corners to look at (a card drawn as a point has not).
    outlines = {
        k: o
        for k, c in enumerate(confirmed)
        if len(c.corners) == 4
        and min(_sides(o := np.array(c.corners, np.float64) * to_image)) >= MIN_CARD_PX
    }
    if not outlines:
        raise CardscoreError(Problem.of("confirmed_not_found", n=len(confirmed)))
    width = float(np.median([np.linalg.norm(o[1] - o[0]) for o in outlines.values()]))
    regions = find_regions(image, width)
    normalised = normalise(image, width, regions)
    norm, factor = normalised.image, normalised.factor
    with reading_with(deck):
        hits = find_indices(norm, None, regions, factor)
    frames = {}
    for k, outline in outlines.items():
        o = outline * factor
        right, down = (o[1] - o[0] + o[2] - o[3]) / 4, (o[3] - o[0] + o[2] - o[1]) / 4
        frames[k] = (o.mean(axis=0), right, down)
    best: dict[tuple[int, bool], tuple[float, tuple[float, float, float, float]]] = {}
    for hit in hits:
        # A glyph is one card's: of the corners it could be, the one it lies nearest to.
        places = []
        for k, (centre, right, down) in frames.items():
            d = np.array([hit.x, hit.y]) - centre
            du, dv = float(d @ right / (right @ right)), float(d @ down / (down @ down))
            if (du < 0) != (dv < 0) or not (
                CORNER_U <= abs(du) <= CONFIRM_REACH and CORNER_V <= abs(dv) <= CONFIRM_REACH
            ):
                continue
            top = dv < 0
            if _gap(hit.angle, confirmed[k].angle + (0.0 if top else 180.0)) > CONFIRM_ANGLE:
                continue
            places.append((math.hypot(abs(du) - INDEX_SPOT[0], abs(dv) - INDEX_SPOT[1]), k, top))
        if not places:
            continue
        off, k, top = min(places)
        if (k, top) not in best or off < best[k, top][0]:
            best[k, top] = (off, (hit.x, hit.y, hit.size, hit.angle))
    found = sorted(best)
    points, cards = [best[key][1] for key in found], [confirmed[k].card.id for k, _ in found]
    learnt = {k for k, _ in found}
    if not points:
        raise CardscoreError(Problem.of("confirmed_not_found", n=len(confirmed)))
    turned, labels = _turns(points, cards)
    return ConfirmedExamples(
        Examples(crop_batch(norm, turned), np.array(labels, np.int64)),
        taught=tuple(c.card for k, c in enumerate(confirmed) if k in learnt),
        missed=tuple(c.card for k, c in enumerate(confirmed) if k not in learnt),
    )


def _newest(labels: np.ndarray) -> np.ndarray:
    """Which rows to keep (a mask): the newest :data:`CARD_CROPS` crops of each card, then
    the newest "no index" crops while the total stays within :data:`MEMORY_CROPS`."""
    keep = np.zeros(len(labels), bool)
    per_card: Counter[int] = Counter()
    for i in range(len(labels) - 1, -1, -1):
        label = int(labels[i])
        if label != BACKGROUND and per_card[label] < CARD_CROPS:
            per_card[label] += 1
            keep[i] = True
    room = MEMORY_CROPS - int(keep.sum())
    for i in range(len(labels) - 1, -1, -1):
        if room <= 0:
            break
        if labels[i] == BACKGROUND:
            keep[i] = True
            room -= 1
    return keep


def _embed_kept(crops: np.ndarray, models: Sequence[Path]) -> Embedded:
    """:func:`embed`, rounded as :meth:`DeckMemory.to_bytes` keeps it (float16): a profile
    fitted from embeddings just computed is the one fitted from the same embeddings stored."""
    seen = embed(crops, models)
    rounded = tuple(a.astype(np.float16).astype(np.float32) for a in seen.logits)
    return Embedded(
        seen.hashes,
        rounded,
        tuple(a.astype(np.float16).astype(np.float32) for a in seen.embeddings),
    )


EMPTY = Examples(np.zeros((0, 32, 32, 3), np.uint8), np.zeros(0, np.int64))


@dataclass(frozen=True, eq=False)
class DeckMemory:
    """What a table taught about its deck so far: the crops learnt (each card's newest and
    the newest "no index" ones, :data:`MEMORY_CROPS` at most), from how many photos, and
    whether one was a spread. :meth:`profile` fits the profile to all of it, so each photo
    adds to what the earlier ones taught instead of replacing it.

    Running the models on the crops is what learning spends its time on, so the memory keeps
    what they made of each crop (``seen``, tied to the models' hashes): a teaching runs them
    on its new crops only. With other models installed, every crop kept is run again.

    >>> memory = DeckMemory()
    >>> memory.cards, memory.photos, len(DeckMemory.from_bytes(memory.to_bytes()).examples.labels)
    (0, 0, 0)
    """

    examples: Examples = EMPTY
    photos: int = 0
    spread: bool = False
    seen: Embedded | None = None  # the models' outputs for ``examples``, row by row

    @property
    def cards(self) -> int:
        """How many of the 52 cards have crops learnt."""
        return len({int(k) for k in self.examples.labels if k != BACKGROUND})

    def embedded(self, models: Sequence[Path] = MODEL_PATHS) -> Embedded:
        """The models' outputs for every crop kept: those kept if the models are the same."""
        hashes = tuple(model_hash(p) for p in models)
        if self.seen is not None and self.seen.hashes == hashes:
            return self.seen
        return _embed_kept(self.examples.crops, models)

    def rerun(self, models: Sequence[Path] = MODEL_PATHS) -> DeckMemory:
        """This memory with the models' outputs for every crop (run again unless kept)."""
        return replace(self, seen=self.embedded(models))

    def add(
        self, more: Examples, *, spread: bool = False, models: Sequence[Path] = MODEL_PATHS
    ) -> DeckMemory:
        """This memory and one more photo's crops (a spread's when ``spread``), with the
        models' outputs for all of them (run on the new crops only, unless the models
        changed)."""
        joined = Examples.join([self.examples, more])
        seen = self.embedded(models).then(_embed_kept(more.crops, models))
        keep = _newest(joined.labels)
        kept = Examples(joined.crops[keep], joined.labels[keep])
        return DeckMemory(kept, self.photos + 1, self.spread or spread, seen.take(keep))

    def profile(self, name: str = "", models: Sequence[Path] = MODEL_PATHS) -> DeckProfile:
        """The profile fitted to every crop kept; pulled as a spread's when every card is
        learnt, else as labelled photos' (cards not shown must stay as shipped)."""
        if len(self.examples.labels) == 0:
            raise CardscoreError(Problem.of("no_crops"))
        strength = SPREAD_STRENGTH if self.cards == BACKGROUND else STRENGTH
        names = tuple(p.name for p in models)
        seen = self.embedded(models)
        return fit_embedded(seen, self.examples.labels, names, strength=strength, name=name)

    def to_bytes(self) -> bytes:
        """A NumPy archive (no pickles): a JSON header, the crops, their classes and, when
        known, the models' outputs for them (float16, with the models' hashes)."""
        header: dict[str, object] = {
            "format": MEMORY_FORMAT,
            "version": MEMORY_VERSION,
            "photos": self.photos,
            "spread": self.spread,
        }
        arrays = {"crops": self.examples.crops, "labels": self.examples.labels.astype(np.int16)}
        if self.seen is not None:
            header["hashes"] = list(self.seen.hashes)
            for m, (logits, embedding) in enumerate(
                zip(self.seen.logits, self.seen.embeddings, strict=True)
            ):
                arrays[f"logits{m}"] = logits.astype(np.float16)
                arrays[f"embedding{m}"] = embedding.astype(np.float16)
        buffer = io.BytesIO()
        np.savez_compressed(buffer, header=np.array(json.dumps(header)), **arrays)  # type: ignore[arg-type]
        return buffer.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes) -> DeckMemory:
        """Reads :meth:`to_bytes`' archive, this version's or the first's (crops only: the
        models run on them again when next needed); a :class:`CardscoreError` for anything
        else."""
        damaged = CardscoreError(Problem.of("deck_memory_damaged", format=MEMORY_FORMAT))
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as archive:
                arrays = {k: archive[k] for k in archive.files}
            header = json.loads(str(arrays["header"]))
            crops, labels = arrays["crops"], arrays["labels"].astype(np.int64)
        except (zipfile.BadZipFile, ValueError, KeyError, OSError, EOFError):
            raise damaged from None
        if not (
            isinstance(header, dict)
            and header.get("format") == MEMORY_FORMAT
            and header.get("version") in MEMORY_VERSIONS
            and crops.dtype == np.uint8
            and crops.shape[1:] == (32, 32, 3)
            and labels.shape == crops.shape[:1]
            and ((labels >= 0) & (labels < CLASSES)).all()
        ):
            raise damaged
        seen = _stored_seen(header, arrays, len(labels), damaged)
        photos, spread = int(header.get("photos", 0)), bool(header["spread"])
        return cls(Examples(crops, labels), photos, spread, seen)


def _stored_seen(
    header: dict[str, object], arrays: dict[str, np.ndarray], rows: int, damaged: Exception
) -> Embedded | None:
    """The models' outputs an archive keeps (``None`` if none); ``damaged`` if they do not
    fit its crops."""
    hashes = header.get("hashes")
    if hashes is None:
        return None
    if not isinstance(hashes, list) or not all(isinstance(h, str) for h in hashes):
        raise damaged
    logits = [arrays.get(f"logits{m}") for m in range(len(hashes))]
    embeddings = [arrays.get(f"embedding{m}") for m in range(len(hashes))]
    for a, b in zip(logits, embeddings, strict=True):
        if not (
            a is not None
            and b is not None
            and a.shape == (rows, CLASSES)
            and b.ndim == 2
            and b.shape[0] == rows
            and np.isfinite(a).all()
            and np.isfinite(b).all()
        ):
            raise damaged
    return Embedded(
        tuple(hashes),
        tuple(a.astype(np.float32) for a in logits if a is not None),
        tuple(b.astype(np.float32) for b in embeddings if b is not None),
    )


TeachRule = Literal["every_photo", "corrections"]
TEACH_EVERY_PHOTO: TeachRule = "every_photo"
TEACH_CORRECTIONS: TeachRule = "corrections"


def teach_rule(learnt: bool) -> TeachRule:
    """Which of a table's photos teach its deck once their round is saved, given whether the
    deck has learnt anything yet: while it has not, every photo (``"every_photo"``: the
    cards a player let stand are the deck's first examples); then only photos a player
    corrected (``"corrections"``: a photo read right has nothing left to teach, and
    learning costs the player a wait).

    >>> teach_rule(False), teach_rule(True)
    ('every_photo', 'corrections')
    """
    return TEACH_CORRECTIONS if learnt else TEACH_EVERY_PHOTO


def teaches(rule: TeachRule, corrected: bool) -> bool:
    """Whether a photo teaches under ``rule``: a corrected photo always does.

    >>> teaches("corrections", False), teaches("corrections", True), teaches("every_photo", False)
    (False, True, True)
    """
    return corrected or rule == TEACH_EVERY_PHOTO
