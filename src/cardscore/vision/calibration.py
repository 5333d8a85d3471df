"""Calibrated confidence: a card reported at 0.9 is right about 9 times in 10.

The reader's own score for a card (its index probabilities, combined over the corners read)
is no probability: two corners read at 0.8 make 0.96, yet both can share one misreading.
Platt scaling maps the score's log-odds through a line fitted per number of corners read::

    confidence = sigmoid(a * logit(score) + b)

The lines and the flag threshold are fitted by ``benchmarks/vision_calibrate.py`` on
rendered tables of a calibration design only (``tests/render_tables.py``'s ``CALIBRATION``),
read with and without a deck profile and printed faded; the figures measured with them
(``benchmarks/vision_bench.py``) come from other designs and the real photos. The threshold is
the lowest confidence above which the calibration tables' cards were wrong at most
:data:`WRONG_SHARE` of the time: a card under it is flagged, and so is one read
below the scores cards are reported from, which no line was fitted on
(:func:`cardscore.vision.recognition.unsure`).

>>> round(calibrated(0.5, 2), 3) == round(1 / (1 + math.exp(-PLATT[2][1])), 3)
True
>>> reliability([0.95, 0.95, 0.55, 0.45], [True, True, False, True], bins=(0.0, 0.5, 0.9, 1.0))
[(0.0, 0.5, 1, 0.45, 1.0), (0.5, 0.9, 1, 0.55, 0.0), (0.9, 1.0, 2, 0.95, 1.0)]
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np

__all__ = [
    "CONFIRMED",
    "FLAG_AT",
    "FLAG_AT_SHARPENED",
    "PLATT",
    "PLATT_SHARPENED",
    "WRONG_SHARE",
    "calibrated",
    "choose_threshold",
    "fit_platt",
    "reliability",
]

# Fitted by: python benchmarks/vision_calibrate.py --tables 60 --seed 5000 (2,417 cards, 38
# wrong), as corners read → (a, b).
PLATT: dict[int, tuple[float, float]] = {1: (1.1291, 3.3528), 2: (1.8086, 0.0940)}
# The same for photos read sharpened (cardscore.vision.focus: blurred or shaken), fitted by
# the same command on the calibration design's tables blurred and shaken.
PLATT_SHARPENED: dict[int, tuple[float, float]] = {1: (0.8143, 2.1268), 2: (0.6968, 1.0326)}
FLAG_AT = 0.9333  # a card less sure than this is flagged (calibrated)
# The same for photos read sharpened, chosen on those (blurred, their misreadings are surer).
FLAG_AT_SHARPENED = 0.9705
# Of the cards their meld confirms (groups.confirmed_by_meld) that the lines would flag, the
# share right, (right + 1) / (cards + 2), by the same command (93 cards, none wrong): such a
# card is at least this sure.
CONFIRMED = 0.9894
WRONG_SHARE = 0.005  # the threshold's aim: wrong and unflagged, at most this share of the cards


def _logit(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))


def calibrated(
    score: float, corners: int, confirmed: bool = False, sharpened: bool = False
) -> float:
    """The probability that a card read with ``score`` from ``corners`` indices is right;
    ``confirmed``: its meld rules out its runner-up (at least :data:`CONFIRMED`, measured on
    photos read as they are); ``sharpened``: read in a photo sharpened, blurred
    (:data:`PLATT_SHARPENED`'s lines; a meld's confirmation counts for nothing there)."""
    a, b = (PLATT_SHARPENED if sharpened else PLATT)[2 if corners >= 2 else 1]
    line = 1 / (1 + math.exp(-(a * _logit(score) + b)))
    return max(line, CONFIRMED) if confirmed and not sharpened else line


def fit_platt(scores: Sequence[float], right: Sequence[bool]) -> tuple[float, float]:
    """(a, b) of the logistic regression of ``right`` on logit(score), by Newton steps (a
    light ridge keeps it finite when every card is right)."""
    z = np.array([_logit(s) for s in scores])
    y = np.array(right, float)
    x = np.stack([z, np.ones_like(z)], axis=1)
    w = np.array([1.0, 0.0])
    for _ in range(50):
        p = 1 / (1 + np.exp(-(x @ w)))
        grad = x.T @ (p - y) + 1e-2 * (w - [1.0, 0.0])
        hess = (x * (p * (1 - p))[:, None]).T @ x + 1e-2 * np.eye(2)
        w -= np.linalg.solve(hess, grad)
    return float(w[0]), float(w[1])


def reliability(
    probs: Sequence[float],
    right: Sequence[bool],
    bins: Sequence[float] = (0, 0.5, 0.7, 0.9, 0.97, 0.99, 1.0),
) -> list[tuple[float, float, int, float, float]]:
    """Per bin of reported confidence: (low, high, cards, mean confidence, share right)."""
    p, r = np.array(probs, float), np.array(right, bool)
    out = []
    for k, (lo, hi) in enumerate(itertools.pairwise(bins)):
        inside = (p >= lo) & ((p < hi) if k < len(bins) - 2 else (p <= hi))
        if inside.any():
            out.append((lo, hi, int(inside.sum()), round(float(p[inside].mean()), 4),
                        round(float(r[inside].mean()), 4)))  # fmt: skip
    return out


def choose_threshold(
    probs: Sequence[float], right: Sequence[bool], share: float = WRONG_SHARE
) -> float:
    """The lowest threshold (a card's own confidence, or 0.5) above which the wrong cards
    are at most ``share`` of all the cards."""
    p, r = np.array(probs, float), np.array(right, bool)
    for t in sorted({0.5, *p.tolist()}):
        if np.sum((p >= t) & ~r) <= share * len(p):
            return float(t)
    return 1.0
