"""Fits the confidence calibration and the flag threshold (cardscore.vision.calibration).

    python benchmarks/vision_calibrate.py [--tables 40] [--seed 5000]

Reads rendered Tranca tables of the calibration design only (``tests/render_tables.py``'s
``CALIBRATION``, never used to measure), once without a deck profile and once with one
learnt from that design's spread, and as many again printed faded (cream paper, grey ink),
without: where a reading goes wrong a line needs those cards to be fitted at all. Every
reported card is right (its table's card there) or wrong (another card, or none there).
Prints the Platt lines per number of corners read, the threshold chosen (the lowest above
which at most 0.5% of the cards were wrong), the share right of the cards their meld confirms
that the lines would flag (``CONFIRMED``: (right + 1) / (cards + 2)), and the reliability of
the fitted confidences on these tables; paste the first three into ``calibration.py``.
``vision_bench.py`` measures the reliability on other designs.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

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


def collect(tables: int, seed: int) -> list[tuple[float, int, bool, bool]]:
    """(score, corners, right, confirmed by its meld) of every card reported: the calibration
    design's tables with and without its deck, and as many more printed faded
    (:func:`faded`), without."""
    deck = learn_from_spread(spread(CALIBRATION, seed=seed), name="calibration").profile
    out = []
    runs = [(k, CALIBRATION, profile) for profile in (None, deck) for k in range(tables)]
    runs += [(k, faded(seed + k), None) for k in range(tables)]
    for k, design, profile in runs:
        table = render_table(seed + k, design)
        result = recognize(table.image, deck=profile)
        match = match_cards([(x, y) for _, x, y, _ in table.truth], result, table.card_width)
        right = {j for i, j in match.items() if result.cards[j].card == table.truth[i][0]}
        for j, seen in enumerate(result.cards):
            score = seen.score if seen.score is not None else seen.confidence
            out.append((score, seen.indices, j in right, seen.confirmed))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--seed", type=int, default=5000)
    args = parser.parse_args()
    cards = collect(args.tables, args.seed)
    lines = {}
    for corners in (1, 2):
        rows = [(s, r) for s, c, r, _ in cards if min(c, 2) == corners]
        wrong = sum(not r for _, r in rows)
        lines[corners] = (
            fit_platt([s for s, _ in rows], [r for _, r in rows]) if rows else (1.0, 0.0)
        )
        print(f"{corners} corner(s): {len(rows)} cards, {wrong} wrong: a, b = {lines[corners]}")
    calibration.PLATT.update(lines)
    probs = [calibrated(s, c) for s, c, _, _ in cards]
    right = [r for _, _, r, _ in cards]
    flag_at = choose_threshold(probs, right)
    print(f"PLATT = {lines}")
    print(f"FLAG_AT = {flag_at:.4f}")
    held = [r for s, c, r, m in cards if m and unsure(s, c, flag_at=flag_at)]
    confirmed = (sum(held) + 1) / (len(held) + 2)
    wrong = len(held) - sum(held)
    print(
        f"CONFIRMED = {confirmed:.4f}  # {len(held)} such cards the lines would flag, {wrong} wrong"
    )
    calibration.CONFIRMED = confirmed
    probs = [calibrated(s, c, m) for s, c, _, m in cards]
    print("\n| confidence | cards | mean confidence | share right |\n|---|---:|---:|---:|")
    for lo, hi, n, mean, share in reliability(probs, right):
        print(f"| {lo:.2f}–{hi:.2f} | {n} | {mean:.3f} | {share:.3f} |")


if __name__ == "__main__":
    main()
