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

from cardscore.cards import Card, Rank

__all__ = [
    "BLURRED",
    "CONFIRMED",
    "FLAG_AT",
    "FLAG_AT_BLURRED",
    "FLAG_AT_SHAKEN",
    "PLATT",
    "PLATT_BLURRED",
    "TWIN_SURE",
    "TWIN_SURE_COVERED",
    "TWIN_SURE_PAIRED_STRAIGHTENED",
    "TWIN_SURE_STRAIGHTENED",
    "WRONG_SHARE",
    "blurred_lines",
    "calibrated",
    "choose_threshold",
    "fit_platt",
    "fit_platt_blurred",
    "reliability",
    "twins",
    "wide_ten",
]

# Fitted by: python benchmarks/vision_calibrate.py --tables 60 --seed 5000 (3,227 cards, 21
# wrong), as corners read -> (a, b): the calibration design flat, with its deck, faded, and
# photographed from a seat, turned or with its melds in columns. Read flat only, the shipped
# models got 10 of its 2,421 cards wrong, too few to place a threshold (it came out at 0.5);
# the views give the lines the mistakes a phone at a table makes. Under these lines a card
# read at one corner is flagged below a score of about 0.65 whatever its runner-up, so on a
# sharp photo TWIN_SURE and TWIN_SURE_STRAIGHTENED add nothing (the latter but for scores of
# 0.649-0.65); they still decide in photos read on the blurred lines (PLATT_BLURRED), whose
# one-corner line is surer there (tests/test_vision_calibration.py).
PLATT: dict[int, tuple[float, float]] = {1: (1.0668, 3.1242), 2: (0.5672, 3.5621)}
# A photo straightened from a seat (cardscore.vision.view) is soft where its far cards had
# few pixels, and is sharpened for it; up to this blur (cardscore.vision.focus: px at a card
# 120 px wide, its worst direction) its readings were as sure as a sharp photo's (the stroke
# designs' seated tuning tables), and it reads on the usual lines (see blurred_lines).
BLURRED = 1.75
# The lines for blurred photos (blurred_lines), fitted by the same command on the calibration
# design's tables blurred and shaken, as corners read → (a, b, c, d): the blur measured in
# its worst direction moves the line (c per px), and so does how much less it is in its best
# (d per px: a shake's misreadings are surer than a lens's). These lines and FLAG_AT_BLURRED
# were fitted with the fonts member before 2026-12-06: fitted again with the present one, the
# one-corner line grew surer as the lens's blur grew (c = +0.74), which no photo bears out
# (tests/test_vision_focus.py), so they stay.
PLATT_BLURRED: dict[int, tuple[float, float, float, float]] = {
    1: (0.7598, 7.0908, -1.6841, -1.1022),
    2: (0.6876, 0.5731, 0.9768, -1.6011),
}
FLAG_AT = 0.9777  # a card less sure than this is flagged (calibrated)
# The same for blurred photos, chosen on those: at most WRONG_SHARE wrong above it for a
# lens's blur and for a shake, each.
FLAG_AT_BLURRED = 0.9720
# A shaken photo's (cardscore.vision.focus.Blur.shaken) misreadings are surer than its lines
# say: on the tuning tables shaken 4-8 px (the older Debian five and the stroke designs) 41
# cards were wrong and unflagged at FLAG_AT_BLURRED, 1-4% of those shaken 6 and 8 px. Its
# cards are flagged below this instead: 18 such cards; of the right ones shaken 6 px, 39% and
# 93% flagged instead of 21% and 74% (a steadier photo is what reads well; the report says so).
FLAG_AT_SHAKEN = 0.99
# Of the cards their meld confirms (groups.confirmed_by_meld) that the lines would flag, the
# share right, (right + 1) / (cards + 2), by the same command (145 cards, none wrong): such a
# card is at least this sure.
CONFIRMED = 0.9932
WRONG_SHARE = 0.005  # the threshold's aim: wrong and unflagged, at most this share of the cards
# A card read at one corner whose runner-up is its twin (twins) is flagged under this score,
# whatever its line says: the models' commonest sure mistake is a suit taken for the other
# of its colour (a club read as a spade in a faint or small index), and the calibration
# design shows too few of them for its lines to learn it. On the tuning tables (the stroke
# designs flat, cream and from a seat at 0.55; the older Debian five; the trained Debian
# designs laid out by the independent renderer), cards wrong and unflagged 12 -> 7, and 38
# more right cards of 4,275 flagged (the seated tables most: 23 of 482); under 0.7, 4 and
# 87. The calibration design's tables: 6 more of 804 flagged, none wrong either way.
TWIN_SURE = 0.6
# The same bar for a photo straightened from a seat (cardscore.vision.view): its far cards'
# indices are few pixels stretched, and a suit taken for its twin there reads surer. On the
# older five held-out designs laid out by the independent renderer from a seat (the tuning
# set older-five-seated), 3 of its 8 cards wrong and unflagged were such twins read at
# 0.60-0.65. At this bar they are flagged, and 5 more of the 5,184 right cards that the
# tuning sets' straightened photos show (older-five-seated, trained-views, stroke,
# older-five-tilted); at 0.7, 16 more and no more wrong ones.
TWIN_SURE_STRAIGHTENED = 0.65
# A card read at both corners whose runner-up is its twin, in a photo straightened from a
# seat, is flagged under this score. Its score takes the two corners for two witnesses
# (1 - (1 - p)(1 - q): cards._paired), but a far card's two indices are stretched alike, and
# a suit taken for its twin at one corner is taken for it at the other: two readings near
# 0.5 make a 0.75 that is a coin's toss. On the tuning tables' straightened photos
# (older-five-seated, trained-views from a seat, stroke from a seat: 5,222 cards), 2 of
# their 9 cards wrong and unflagged were such pairs, read at 0.74 and 0.78 (a K♠ taken for
# the K♣, a J♥ for the J♦), and 3 more of the 5,189 right cards are flagged (0.76-0.79);
# under 0.85, the same 2 and 6 more; under 0.95, 3 and 24 more. Flat photos show no such
# mistake (trained-layout, columns: 4,901 cards), and there the bar would only flag.
TWIN_SURE_PAIRED_STRAIGHTENED = 0.8
# The same bar for a card read at one corner under the next card of a meld fanned down a
# column: that card's edge crosses the index below the rank, and the suit it half hides is
# all that tells a card from its twin. On the tuning set `columns` (its 2,692 cards), 14
# cards were wrong and unflagged, 11 of them such twins read at 0.64-0.88 (jumbo indices'
# 7s of clubs taken for spades); under this bar, 3 are left, and 63 more of the 2,660 right
# cards are flagged (counted the same way under 0.8: 6 left and 34 more).
TWIN_SURE_COVERED = 0.9


def _logit(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))


def blurred_lines(sharpened: bool, straightened: bool, blur: float) -> bool:
    """Whether a photo's cards read on the blurred photos' lines: it was ``sharpened`` (its
    ``blur`` measured past :data:`cardscore.vision.focus.SHARP`) by a lens's blur or a shake,
    not only by the far cards' few pixels of a photo ``straightened`` from a seat (up to
    :data:`BLURRED`). On the tuning tables, shaken 6 px at a card 120 px wide, the usual lines
    left 7 and 11 cards wrong and unflagged where these left 0 and 8.

    >>> blurred_lines(True, False, 1.4), blurred_lines(True, True, 1.4), blurred_lines(False, False, 1.0)
    (True, False, False)
    """
    return sharpened and (not straightened or blur > BLURRED)


def twins(card: Card, other: Card | None) -> bool:
    """Whether ``other`` is ``card``'s twin: the same rank in the other suit of its colour.

    >>> twins(Card("4c"), Card("4s")), twins(Card("4c"), Card("4h")), twins(Card("Kd"), None)
    (True, False, False)
    """
    return (
        other is not None
        and other.rank == card.rank
        and other.suit != card.suit
        and other.suit.is_red == card.suit.is_red
    )


def wide_ten(card: Card, bold: bool) -> bool:
    """Whether ``card`` is a ten read in a photo of jumbo indices (``bold``: its glyphs were
    read bold, :data:`cardscore.vision.readings.BOLD_GLYPH`). A jumbo "10" is wider than a
    meld's step: the half the next card leaves of it, with that card's edge, reads as a ten
    more (a card that is not there), and a ten as its twin, surer than the lines say. On the
    stroke designs' jumbo tables (seeds 210-239, index 0.22 and 0.26), 17 of the 21 cards
    wrong and unflagged were tens, 15 of them read at one corner and not confirmed by their
    meld; flagging such tens leaves 6, and flags 70 more of the 1,517 right cards (the
    calibration design's: 2 of 6 left, 50 more of 1,026 flagged).

    >>> wide_ten(Card("Tc"), True), wide_ten(Card("Tc"), False), wide_ten(Card("9c"), True)
    (True, False, False)
    """
    return bold and card.rank is Rank.TEN


def calibrated(
    score: float, corners: int, confirmed: bool = False, blur: tuple[float, float] | None = None
) -> float:
    """The probability that a card read with ``score`` from ``corners`` indices is right;
    ``confirmed``: its meld rules out its runner-up (at least :data:`CONFIRMED`, measured on
    photos read as they are); ``blur``: read in a photo that blurred (:func:`blurred_lines`),
    this much in its worst and its best direction (px): :data:`PLATT_BLURRED`'s lines there;
    a meld's confirmation counts for nothing there."""
    k = 2 if corners >= 2 else 1
    if blur is None:
        a, b = PLATT[k]
        z = a * _logit(score) + b
    else:
        a, b, c, d = PLATT_BLURRED[k]
        worst, least = blur
        z = a * _logit(score) + b + c * worst + d * (worst - least)
    line = 1 / (1 + math.exp(-z))
    return max(line, CONFIRMED) if confirmed and blur is None else line


def fit_platt(scores: Sequence[float], right: Sequence[bool]) -> tuple[float, float]:
    """(a, b) of the logistic regression of ``right`` on logit(score), by Newton steps (a
    light ridge keeps it finite when every card is right)."""
    z = np.array([_logit(s) for s in scores])
    a, b = _logistic(np.stack([z, np.ones_like(z)], axis=1), right)
    return a, b


def fit_platt_blurred(
    scores: Sequence[float], blurs: Sequence[tuple[float, float]], right: Sequence[bool]
) -> tuple[float, float, float, float]:
    """(a, b, c, d) of the logistic regression of ``right`` on logit(score), the photo's
    blur in its worst direction and how much less it is in its best (``blurs``: (worst,
    best) each), as :func:`fit_platt`."""
    z = np.array([_logit(s) for s in scores])
    worst, least = np.array(blurs, float).reshape(-1, 2).T
    x = np.stack([z, np.ones_like(z), worst, worst - least], axis=1)
    a, b, c, d = _logistic(x, right)
    return a, b, c, d


def _logistic(x: np.ndarray, right: Sequence[bool]) -> list[float]:
    """The weights of the logistic regression of ``right`` on the columns of ``x`` (the
    first logit(score)), by Newton steps; a light ridge towards (1, 0, ...) keeps them finite
    when every card is right."""
    y = np.array(right, float)
    prior = np.zeros(x.shape[1])
    prior[0] = 1.0
    w = prior.copy()
    for _ in range(50):
        p = 1 / (1 + np.exp(-(x @ w)))
        grad = x.T @ (p - y) + 1e-2 * (w - prior)
        hess = (x * (p * (1 - p))[:, None]).T @ x + 1e-2 * np.eye(x.shape[1])
        w -= np.linalg.solve(hess, grad)
    return [float(v) for v in w]


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
