"""Labelled crops from real photos whose labels only list the cards in each, not where.

A model trained on synthetic tables reads every blob of the photo, as the recogniser does.
Restricted to the photo's own cards, its best reading of a blob labels that crop when it is
sure enough (:data:`HARVEST_MIN`) and not far under the model's unrestricted best
(:data:`HARVEST_RATIO`): a weak but right reading of a real deck's glyph becomes a training
example, which is what a synthetic deck cannot teach. Each listed card keeps its two surest
blobs (a card shows two indices); the blob's crops turned more than 60° from its reading are
background, as are some of the blobs the model reads as no card at all.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from rich.progress import Progress

from cardscore.cards import Card
from cardscore.vision.crops import CROP, crop_batch
from cardscore.vision.evaluate import read_labels
from cardscore.vision.geometry import angle_gap
from cardscore.vision.image_io import load_image
from cardscore.vision.labels import BACKGROUND
from cardscore.vision.readings import normalise, read_blobs
from cardscore.vision.regions import find_regions
from train.synth import jitter

__all__ = ["HARVEST_MIN", "HARVEST_RATIO", "photo_crops", "real_dataset"]

HARVEST_MIN = 0.2  # the restricted reading's probability
HARVEST_RATIO = 0.5  # ... against the best reading of any card
NEGATIVE_MAX = 0.02  # a blob read as no card above this in every crop is background
# Jittered cuts of each card crop (a few hundred crops, against ~10,000 rendered indices), and
# the share of background blobs kept: 20 and 0.5 cost 9 of 1,073 cards on the synthetic tables.
REAL_VARIANTS = 5
REAL_NEGATIVES = 0.2
# The harvest reads blobs with its own rules, not detection's (paper as bright as the photo's
# brightest, a hit at 0.25): tuning detection must not change what the training command
# builds from the photos.
HARVEST_SHADE = 1.0
HARVEST_HIT = 0.25
HARVEST_EDGE_POWER = 2.0  # the blobs' local axes as the shipped models' harvest had them


def photo_crops(
    photo: Path,
    cards: list[Card],
    model: Path | Sequence[Path],
    rng: np.random.Generator,
    variants: int,
    negatives: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Crops (N, 32, 32, 3) and labels (N,) harvested from one labelled photo.

    Each card crop is cut ``variants`` times with the synthetic crops' jitter
    (:func:`~train.synth.jitter`), background ones once; a background blob
    is kept with probability ``negatives``.
    """
    image = load_image(photo).image
    regions = find_regions(image)
    normalised = normalise(image, regions.card_width, regions)
    norm, factor = normalised.image, normalised.factor
    read = read_blobs(
        norm,
        model,
        regions,
        factor,
        shade=HARVEST_SHADE,
        hit_at=HARVEST_HIT,
        edge_power=HARVEST_EDGE_POWER,
    )
    allowed = np.array(sorted({c.id for c in cards}))
    wanted = Counter(c.id for c in cards)
    # Each blob's restricted best reading, the surest first.
    found: list[tuple[float, int, list[int], int]] = []  # p, card, rows, upright row
    background: list[list[int]] = []
    for rows in read.rows_of.values():
        probs = read.probs[rows]
        best_any = float(probs[:, :BACKGROUND].max())
        sub = probs[:, allowed]
        k, j = np.unravel_index(int(np.argmax(sub)), sub.shape)
        p = float(sub[k, j])
        if p >= HARVEST_MIN and p >= HARVEST_RATIO * best_any:
            found.append((p, int(allowed[j]), rows, rows[int(k)]))
        elif best_any < NEGATIVE_MAX and rng.random() < negatives:
            background.append(rows)
    # A card shows two indices: its surest blobs beyond those are pips or a court's frame.
    taken: Counter[int] = Counter()
    rows_out: list[tuple[float, float, float, float]] = []
    labels: list[int] = []
    for _, card, rows, upright in sorted(found, key=lambda f: -f[0]):
        if taken[card] >= 2 * wanted[card]:
            continue
        taken[card] += 1
        up = read.points[upright][3]
        for row in rows:
            gap = angle_gap(read.points[row][3], up)
            if gap < 30:
                label = card
            elif gap > 60:
                label = BACKGROUND
            else:
                continue  # half-turned: neither upright nor background
            rows_out.append(read.points[row])
            labels.append(label)
    for rows in background:
        rows_out.extend(read.points[row] for row in rows)
        labels.extend([BACKGROUND] * len(rows))
    if not rows_out:
        return np.empty((0, CROP, CROP, 3), np.uint8), np.empty(0, np.int64)
    # Cards are few: each labelled crop is cut again with jitter; background is plentiful.
    jittered, ys = [], []
    for point, label in zip(rows_out, labels, strict=True):
        for _ in range(variants if label != BACKGROUND else 1):
            jittered.append(jitter(point, rng))
            ys.append(label)
    return crop_batch(norm, jittered), np.array(ys, np.int64)


def real_dataset(
    folder: Path, model: Path, seed: int, progress: Progress
) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """:func:`photo_crops` of every photo in ``labels.csv`` of ``folder``, by name, in its
    order (one random stream: leaving a photo out leaves the others' crops as they are)."""
    rng = np.random.default_rng(seed)
    labels = read_labels(folder)
    out = {}
    task = progress.add_task("real photos", total=len(labels))
    for name, cards in labels.items():
        out[name] = photo_crops(folder / name, cards, model, rng, REAL_VARIANTS, REAL_NEGATIVES)
        progress.advance(task)
    return out
