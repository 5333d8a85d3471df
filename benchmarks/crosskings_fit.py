"""Fit the Cross Kings horizon estimate (``cardscore.crosskings.anytime.WEIGHTS``).

The anytime search's deep iterations stop a few cards before the end (4-7 cards left from
16-18), so the estimate is fitted there: positions from seeded random play on seeded deals
(deal seed s, moves from Random(s)), each position where 4..7 cards are left, valued exactly
(player 1's expected result, win 1, draw ½, loss 0), with the C solver's features
(``Solver.features``). The win chance is logistic in sum((a + b / cards left) * feature); a and
b come from Newton's method on the cross-entropy against the exact expected results, with a
little L2 regularisation. Reproducible (no randomness beyond the seeds):

    nice python benchmarks/crosskings_fit.py --deals 3000

prints the fitted WEIGHTS, the held-out fit (log-loss, Brier) against the current weights,
and how often a search ``--check-depth`` plies deep from ``--check-size`` cards (horizon at
4-7 cards) picks an exactly optimal move with each set of weights.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.crosskings_bench import positions

from cardscore.crosskings._c_solver import Solver
from cardscore.crosskings.anytime import WEIGHTS
from cardscore.crosskings.cards import card_number
from cardscore.crosskings.game import FACE_DOWN, Game
from cardscore.crosskings.scoring import score_mask
from cardscore.crosskings.solver import position, solver_cells

FEATURES = len(WEIGHTS) // 2


def greedy_or_random(game: Game, rng: random.Random, greedy: float) -> Game:
    """With probability ``greedy`` the face-up card that raises the mover's score most (ties
    at random), else a random move: positions nearer those the search's lines reach."""
    if rng.random() >= greedy:
        return game.random_move(rng)
    own = game.hand_masks[game.to_move - 1]
    gains = {
        cell: score_mask(own | 1 << card_number(game.cards[cell])) - score_mask(own)
        for cell in game.legal_cells
        if cell not in FACE_DOWN
    }
    if not gains:
        return game.random_move(rng)
    top = max(gains.values())
    return game.move(rng.choice(sorted(c for c, g in gains.items() if g == top)))


def samples(
    deals: int, first_seed: int, sizes: set[int], greedy: float = 0.0
) -> tuple[np.ndarray, np.ndarray]:
    """(rows of [features, features / cards left], player 1's exact expected results)."""
    rows, targets = [], []
    for seed in range(first_seed, first_seed + deals):
        game = Game.deal(seed=seed)
        rng = random.Random(seed)
        solver = Solver(solver_cells(game), 0, 18)
        while not game.is_over:
            if game.cards_left in sizes:
                pos = position(game)
                found = solver.value(*pos)
                assert found is not None
                scale = 2 * np.prod(range(1, game.face_down_left + 1), dtype=float)
                f = np.array(solver.features(*pos))
                rows.append(np.concatenate([f, f / game.cards_left]))
                targets.append(found[0] / scale)
            game = greedy_or_random(game, rng, greedy) if greedy else game.random_move(rng)
    return np.array(rows), np.array(targets)


def fit(x: np.ndarray, y: np.ndarray, used: list[int], ridge: float = 1e-3) -> np.ndarray:
    """Logistic regression on soft targets by Newton's method; unused features weigh 0."""
    cols = used + [FEATURES + i for i in used]
    a = x[:, cols]
    w = np.zeros(len(cols))
    for _ in range(50):
        p = 1 / (1 + np.exp(-(a @ w)))
        grad = a.T @ (p - y) + ridge * len(y) * w
        hess = (a * (p * (1 - p))[:, None]).T @ a + ridge * len(y) * np.eye(len(cols))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    full = np.zeros(2 * FEATURES)
    full[cols] = w
    return full


def losses(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> tuple[float, float]:
    p = np.clip(1 / (1 + np.exp(-(x @ w))), 1e-9, 1 - 1e-9)
    log_loss = float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
    return log_loss, float(np.mean((p - y) ** 2))


def move_accuracy(weights: dict[str, np.ndarray], size: int, depth: int, count: int) -> None:
    """Share of positions (not every move optimal) where a search ``depth`` plies deep picks an
    exactly optimal move (expected result), for each set of weights."""
    hits = dict.fromkeys(weights, 0)
    used = 0
    for _, game in positions(size, count, 20000):
        cells = solver_cells(game)
        values = Solver(cells, 0, 18).evaluate(*position(game))
        assert values is not None
        sign = 1 if game.to_move == 1 else -1
        results = {cell: sign * er for cell, er, _ in values}
        best = max(results.values())
        if all(r == best for r in results.values()):
            continue
        used += 1
        for name, w in weights.items():
            solver = Solver(cells, 0, 18)
            solver.set_heuristic([float(v) for v in w])
            for d in range(1, depth + 1):
                found = solver.search_depth(*position(game), d)
            assert found is not None
            hits[name] += results[found[2]] == best
    print(f"\nSearch {depth} plies deep from {size} cards, {used} positions where not every move")
    print("is optimal: share picking an exactly optimal move (expected result)\n")
    print("| weights | optimal |")
    print("|---|---:|")
    for name, h in hits.items():
        print(f"| {name} | {h / used:.1%} |")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--first-seed", type=int, default=10000)
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 5, 6, 7])
    parser.add_argument(
        "--features", type=int, nargs="+", default=list(range(FEATURES)), help="those fitted"
    )
    parser.add_argument(
        "--greedy", type=float, default=0.0, help="share of greedy moves in the play (else random)"
    )
    parser.add_argument("--check-size", type=int, default=12)
    parser.add_argument("--check-depth", type=int, default=6)
    parser.add_argument("--check-positions", type=int, default=150)
    args = parser.parse_args()
    x, y = samples(args.deals, args.first_seed, set(args.sizes), args.greedy)
    held = np.arange(len(y)) % 5 == 0  # every fifth position is held out
    w = fit(x[~held], y[~held], args.features)
    current = np.array(WEIGHTS)
    print(
        f"{len(y)} positions ({args.sizes} cards left, {args.deals} deals from seed "
        f"{args.first_seed}), {held.sum()} held out\n"
    )
    print("| weights | held-out log-loss | held-out Brier |")
    print("|---|---:|---:|")
    for name, v in (("current", current), ("fitted", w)):
        print(
            f"| {name} | {losses(x[held], y[held], v)[0]:.4f} | {losses(x[held], y[held], v)[1]:.4f} |"
        )
    final = fit(x, y, args.features)  # all positions for the weights themselves
    print("\nWEIGHTS = (" + ", ".join(f"{v:.3f}" for v in final) + ")")
    if args.check_positions:
        move_accuracy(
            {"current": current, "fitted": final},
            args.check_size,
            args.check_depth,
            args.check_positions,
        )


if __name__ == "__main__":
    main()
