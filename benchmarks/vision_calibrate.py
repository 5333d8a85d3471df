"""Fits the confidence calibration and the flag threshold (cardscore.vision.calibration).

    python benchmarks/vision_calibrate.py [--tables 40] [--seed 5000]

Reads rendered Tranca tables of the calibration design only (``tests/render_tables.py``'s
``CALIBRATION``, never used to measure), once without a deck profile and once with one
learnt from that design's spread, and as many again printed faded (cream paper, grey ink),
without: where a reading goes wrong a line needs those cards to be fitted at all; and as
many again blurred or shaken, with and without: the photos read sharpened
(``cardscore.vision.focus``) get lines of their own (``PLATT_SHARPENED``). Every
reported card is right (its table's card there) or wrong (another card, or none there).
Prints the Platt lines per number of corners read, the threshold chosen (the lowest above
which at most 0.5% of the cards were wrong), the share right of the cards their meld confirms
that the lines would flag (``CONFIRMED``: (right + 1) / (cards + 2)), and the reliability of
the fitted confidences on these tables; paste the first five into ``calibration.py``.
``vision_bench.py`` measures the reliability on other designs.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.render_tables import CALIBRATION, Design, render_table, spread  # noqa: E402

from cardscore.vision import calibration, recognize  # noqa: E402
from cardscore.vision.calibration import (  # noqa: E402
    calibrated,
    choose_threshold,
    fit_platt,
    reliability,
)
from cardscore.vision.evaluate import match_cards  # noqa: E402
from cardscore.vision.learn import learn_from_spread  # noqa: E402
from cardscore.vision.recognition import unsure  # noqa: E402


def faded(seed: int) -> Design:
    """The calibration design printed faded: paper from white to cream, ink from black to
    grey, a paler red, on a cloth of any mid tone (seeded)."""
    rng = np.random.default_rng([seed, 1])
    paper = rng.uniform(195, 250)
    tint = rng.uniform(0, 35)

    def bgr(*values: float) -> tuple[int, int, int]:
        b, g, r = (int(np.clip(v, 0, 255)) for v in values)
        return (b, g, r)

    grey = rng.uniform(40, 120)
    return replace(
        CALIBRATION,
        paper=bgr(paper - tint, paper - tint / 3, paper),
        black=bgr(grey, grey, grey),
        red=bgr(rng.uniform(40, 110), rng.uniform(30, 100), rng.uniform(150, 210)),
        cloth=bgr(*rng.uniform(60, 220, 3)),
    )


def unsteady(image: np.ndarray, card_width: float, seed: int) -> np.ndarray:
    """The photo out of focus or shaken (seeded, half each): a Gaussian of 1.2-2.4 px, or a
    line 5-9 px long at any angle, in px of a card 120 px wide."""
    rng = np.random.default_rng([seed, 2])
    unit = card_width / 120
    if rng.random() < 0.5:
        return cv2.GaussianBlur(image, (0, 0), rng.uniform(1.2, 2.4) * unit)
    length = max(2, round(rng.uniform(5, 9) * unit))
    line = np.zeros((length, length), np.float32)
    line[length // 2] = 1 / length
    turn = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), rng.uniform(0, 180), 1)
    line = cv2.warpAffine(line, turn, (length, length))
    return cv2.filter2D(image, -1, line / line.sum())


def collect(tables: int, seed: int) -> list[tuple[float, int, bool, bool, bool]]:
    """(score, corners, right, confirmed by its meld, read sharpened) of every card reported:
    the calibration design's tables with and without its deck, as many more printed faded
    (:func:`faded`), without, and as many blurred or shaken (:func:`unsteady`), both."""
    deck = learn_from_spread(spread(CALIBRATION, seed=seed), name="calibration").profile
    out = []
    runs = [(k, CALIBRATION, profile, False) for profile in (None, deck) for k in range(tables)]
    runs += [(k, faded(seed + k), None, False) for k in range(tables)]
    runs += [(k, CALIBRATION, profile, True) for profile in (None, deck) for k in range(tables)]
    for k, design, profile, shaken in runs:
        table = render_table(seed + k, design)
        image = unsteady(table.image, table.card_width, seed + k) if shaken else table.image
        result = recognize(image, deck=profile)
        match = match_cards([(x, y) for _, x, y, _ in table.truth], result, table.card_width)
        right = {j for i, j in match.items() if result.cards[j].card == table.truth[i][0]}
        for j, seen in enumerate(result.cards):
            score = seen.score if seen.score is not None else seen.confidence
            out.append((score, seen.indices, j in right, seen.confirmed, result.sharpened))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--seed", type=int, default=5000)
    args = parser.parse_args()
    every = collect(args.tables, args.seed)
    for sharpened, name in ((False, "PLATT"), (True, "PLATT_SHARPENED")):
        lines = {}
        for corners in (1, 2):
            rows = [(s, r) for s, c, r, _, p in every if min(c, 2) == corners and p == sharpened]
            wrong = sum(not r for _, r in rows)
            lines[corners] = (
                fit_platt([s for s, _ in rows], [r for _, r in rows]) if rows else (1.0, 0.0)
            )
            print(f"{name}, {corners} corner(s): {len(rows)} cards, {wrong} wrong")
        getattr(calibration, name).update(lines)
        print(f"{name} = {lines}")
    # The threshold and the meld's confirmation are chosen on the photos read as they are.
    cards = [(s, c, r, m) for s, c, r, m, p in every if not p]
    probs = [calibrated(s, c) for s, c, _, _ in cards]
    right = [r for _, _, r, _ in cards]
    flag_at = choose_threshold(probs, right)
    print(f"FLAG_AT = {flag_at:.4f}")
    blurred = [(s, c, r) for s, c, r, _, p in every if p]
    flag_sharpened = choose_threshold([calibrated(s, c, False, True) for s, c, _ in blurred],
                                      [r for _, _, r in blurred])  # fmt: skip
    print(f"FLAG_AT_SHARPENED = {flag_sharpened:.4f}")
    calibration.FLAG_AT_SHARPENED = flag_sharpened
    held = [r for s, c, r, m in cards if m and unsure(s, c, flag_at=flag_at)]
    confirmed = (sum(held) + 1) / (len(held) + 2)
    wrong = len(held) - sum(held)
    print(
        f"CONFIRMED = {confirmed:.4f}  # {len(held)} such cards the lines would flag, {wrong} wrong"
    )
    calibration.CONFIRMED = confirmed
    for sharpened in (False, True):
        rows = [(s, c, r, m) for s, c, r, m, p in every if p == sharpened]
        probs = [calibrated(s, c, m, sharpened) for s, c, _, m in rows]
        unflagged_wrong = sum(
            not r and not unsure(s, c, m, flag_sharpened if sharpened else flag_at, sharpened)
            for s, c, r, m in rows
        )
        print(f"\nread {'sharpened' if sharpened else 'as they are'}: {len(rows)} cards, "
              f"{unflagged_wrong} wrong and unflagged")  # fmt: skip
        print("| confidence | cards | mean confidence | share right |\n|---|---:|---:|---:|")
        for lo, hi, n, mean, share in reliability(probs, [r for _, _, r, _ in rows]):
            print(f"| {lo:.2f}–{hi:.2f} | {n} | {mean:.3f} | {share:.3f} |")


if __name__ == "__main__":
    main()
