"""Fits the confidence calibration and the flag threshold (cardscore.vision.calibration).

    python benchmarks/vision_calibrate.py [--tables 40] [--seed 5000]

Reads rendered Tranca tables of the calibration design only (``tests/render_tables.py``'s
``CALIBRATION``, never used to measure), once without a deck profile and once with one
learnt from that design's spread, as many again printed faded (cream paper, grey ink),
and as many photographed from a seat, turned or with the melds in columns (:func:`view`),
without: where a reading goes wrong a line needs those cards to be fitted at all; and as
many again blurred or shaken, with and without: the photos sharpened for a blur
(``cardscore.vision.focus``, ``calibration.blurred_lines``) get lines of their own
(``PLATT_BLURRED``, ``FLAG_AT_BLURRED``). Every
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
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.render_tables import CALIBRATION, Design, render_table, spread  # noqa: E402

from cardscore.vision import calibration, recognize  # noqa: E402
from cardscore.vision.calibration import (  # noqa: E402
    blurred_lines,
    calibrated,
    choose_threshold,
    fit_platt,
    fit_platt_blurred,
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


def unsteady(image: np.ndarray, card_width: float, seed: int) -> tuple[np.ndarray, str]:
    """The photo out of focus or shaken (seeded, half each): a Gaussian of 1.2-2.4 px, or a
    line 5-9 px long at any angle, in px of a card 120 px wide; and which ("lens", "shake")."""
    rng = np.random.default_rng([seed, 2])
    unit = card_width / 120
    if rng.random() < 0.5:
        return cv2.GaussianBlur(image, (0, 0), rng.uniform(1.2, 2.4) * unit), "lens"
    length = max(2, round(rng.uniform(5, 9) * unit))
    line = np.zeros((length, length), np.float32)
    line[length // 2] = 1 / length
    turn = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), rng.uniform(0, 180), 1)
    line = cv2.warpAffine(line, turn, (length, length))
    return cv2.filter2D(image, -1, line / line.sum()), "shake"


def view(seed: int) -> dict[str, Any]:
    """How a table of the calibration design is photographed besides flat (seeded, a third
    each): from a seat (the far edge 0.55-0.75 of the near one), turned 10-40 degrees either
    way, or with its melds fanned down columns."""
    rng = np.random.default_rng([seed, 3])
    pick = int(rng.integers(3))
    if pick == 0:
        return {"keystone": float(rng.uniform(0.55, 0.75))}
    if pick == 1:
        return {"turn": float(rng.choice([-1, 1]) * rng.uniform(10, 40))}
    return {"columns": True}


def collect(
    tables: int, seed: int
) -> list[tuple[float, int, bool, bool, tuple[float, float] | None, str]]:
    """(score, corners, right, confirmed by its meld, the photo's blur in its worst and best
    direction where it reads on the blurred lines, the unsteadiness drawn) of every card
    reported: the calibration
    design's tables with and without its deck, as many more printed faded (:func:`faded`)
    and as many seen otherwise than flat (:func:`view`), without, and as many blurred or
    shaken (:func:`unsteady`), both."""
    deck = learn_from_spread(spread(CALIBRATION, seed=seed), name="calibration").profile
    out = []
    plain: dict[str, Any] = {}
    runs = [
        (k, CALIBRATION, profile, False, plain) for profile in (None, deck) for k in range(tables)
    ]
    runs += [(k, faded(seed + k), None, False, plain) for k in range(tables)]
    runs += [(k, CALIBRATION, None, False, view(seed + k)) for k in range(tables)]
    runs += [
        (k, CALIBRATION, profile, True, plain) for profile in (None, deck) for k in range(tables)
    ]
    for k, design, profile, shaken, how in runs:
        table = render_table(seed + k, design, **how)
        image, kind = (
            unsteady(table.image, table.card_width, seed + k) if shaken else (table.image, "")
        )
        result = recognize(image, deck=profile)
        match = match_cards([(x, y) for _, x, y, _ in table.truth], result, table.card_width)
        right = {j for i, j in match.items() if result.cards[j].card == table.truth[i][0]}
        for j, seen in enumerate(result.cards):
            score = seen.score if seen.score is not None else seen.confidence
            blurred = blurred_lines(result.sharpened, result.tilt > 0, result.blur.worst)
            out.append((score, seen.indices, j in right, seen.confirmed,
                        (result.blur.worst, result.blur.least) if blurred else None, kind))  # fmt: skip
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--seed", type=int, default=5000)
    args = parser.parse_args()
    every = collect(args.tables, args.seed)
    cards = [(s, c, r, m) for s, c, r, m, blur, _ in every if blur is None]
    soft = [(s, c, r, blur) for s, c, r, _, blur, _ in every if blur is not None]
    kinds = [kind for *_, blur, kind in every if blur is not None]
    lines: dict[int, tuple[float, float]] = {}
    soft_lines: dict[int, tuple[float, float, float, float]] = {}
    for corners in (1, 2):
        rows = [(s, r) for s, c, r, _ in cards if min(c, 2) == corners]
        lines[corners] = fit_platt([s for s, _ in rows], [r for _, r in rows])
        blurred = [(s, r, blur) for s, c, r, blur in soft if min(c, 2) == corners]
        soft_lines[corners] = fit_platt_blurred(
            [s for s, _, _ in blurred], [b for _, _, b in blurred], [r for _, r, _ in blurred]
        )
        for name, group in (("PLATT", rows), ("PLATT_BLURRED", blurred)):
            wrong = sum(not row[1] for row in group)
            print(f"{name}, {corners} corner(s): {len(group)} cards, {wrong} wrong")
    calibration.PLATT.update(lines)
    calibration.PLATT_BLURRED.update(soft_lines)
    print(f"PLATT = {lines}")
    print(f"PLATT_BLURRED = {soft_lines}")
    # The meld's confirmation is measured on the photos that did not blur.
    probs = [calibrated(s, c) for s, c, _, _ in cards]
    flag_at = choose_threshold(probs, [r for _, _, r, _ in cards])
    print(f"FLAG_AT = {flag_at:.4f}")
    soft_probs = [calibrated(s, c, False, blur) for s, c, _, blur in soft]
    # At most WRONG_SHARE wrong above it for a lens's blur and for a shake, each.
    flag_blurred = max(
        choose_threshold(
            [p for p, k in zip(soft_probs, kinds, strict=True) if k == kind],
            [row[2] for row, k in zip(soft, kinds, strict=True) if k == kind],
        )
        for kind in sorted(set(kinds))
    )
    print(f"FLAG_AT_BLURRED = {flag_blurred:.4f}")
    calibration.FLAG_AT_BLURRED = flag_blurred
    held = [r for s, c, r, m in cards if m and unsure(s, c, flag_at=flag_at)]
    confirmed = (sum(held) + 1) / (len(held) + 2)
    wrong = len(held) - sum(held)
    print(
        f"CONFIRMED = {confirmed:.4f}  # {len(held)} such cards the lines would flag, {wrong} wrong"
    )
    calibration.CONFIRMED = confirmed
    groups = (
        ("not blurred", [(s, c, r, m, None) for s, c, r, m in cards], flag_at),
        ("blurred", [(s, c, r, False, blur) for s, c, r, blur in soft], flag_blurred),
    )
    for label, rows_, flag in groups:
        probs = [calibrated(s, c, m, blur) for s, c, _, m, blur in rows_]
        missed = sum(not r and not unsure(s, c, m, flag, blur) for s, c, r, m, blur in rows_)
        print(f"\nphotos {label}: {len(rows_)} cards, {missed} wrong and unflagged")
        print("| confidence | cards | mean confidence | share right |\n|---|---:|---:|---:|")
        for lo, hi, n, mean, share in reliability(probs, [row[2] for row in rows_]):
            print(f"| {lo:.2f}–{hi:.2f} | {n} | {mean:.3f} | {share:.3f} |")


if __name__ == "__main__":
    main()
