"""Poker hand evaluation speed: cardscore against its peers, side by side in one run.

    python benchmarks/poker_bench.py            # all peers that are installed
    python benchmarks/poker_bench.py --quick    # fewer hands, for a smoke run

Peers come from the ``bench`` extra (``pip install -e '.[bench]'``): treys, deuces,
phevaluator (public ``evaluate_cards`` and its C entry points ``_pheval.evaluate_Ncards``),
eval7, pokerkit. Every per-call figure is a Python loop over pre-built inputs in each library's
own card type; each figure is the best of ``--repeat`` runs. Ratios are against treys and
eval7 (the fastest per-call peer).
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from cardscore.cards import Card
from cardscore.poker import evaluate, rank, rank_batch, rank_ids
from cardscore.poker.equity import all_hands

Row = tuple[str, str, float]  # (who, how, hands per second)


def best_rate(run: Callable[[], Any], hands: int, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return hands / best


def per_call_rows(size: int, hands: np.ndarray, repeat: int) -> list[Row]:
    n = len(hands)
    rows: list[Row] = []
    ids = [tuple(h) for h in hands.tolist()]
    cards = [[Card.from_id(i) for i in h] for h in ids]

    def ours_typed() -> None:
        for hand in cards:
            evaluate(hand)

    def ours_ids() -> None:
        for hand in ids:
            rank(*hand)

    def ours_rank_ids() -> None:
        for hand in ids:
            rank_ids(hand)

    rows.append(("cardscore", "evaluate(Cards) -> HandRank", best_rate(ours_typed, n, repeat)))
    rows.append(("cardscore", "rank(*ids) -> int", best_rate(ours_ids, n, repeat)))
    rows.append(("cardscore", "rank_ids(ids) -> int", best_rate(ours_rank_ids, n, repeat)))

    codes = [[Card.from_id(i).code for i in h] for h in ids]
    try:
        import treys

        evaluator = treys.Evaluator()
        treys_hands = [[treys.Card.new(c) for c in h] for h in codes]

        def run_treys() -> None:
            for hand in treys_hands:
                evaluator.evaluate(hand[:5], hand[5:])

        rows.append(("treys", "Evaluator.evaluate", best_rate(run_treys, n, repeat)))
    except ImportError:
        pass
    try:
        import deuces

        d_eval = deuces.Evaluator()
        d_hands = [[deuces.Card.new(c) for c in h] for h in codes]

        def run_deuces() -> None:
            for hand in d_hands:
                d_eval.evaluate(hand[:5], hand[5:])

        rows.append(("deuces", "Evaluator.evaluate", best_rate(run_deuces, n, repeat)))
    except Exception as error:  # deuces is Python 2 era code; report why it is missing
        rows.append(("deuces", f"unavailable: {type(error).__name__}", float("nan")))
    try:
        from phevaluator import _pheval
        from phevaluator import evaluate_cards as ph_public
        from phevaluator.card import Card as PhCard

        ph_ids = [tuple(PhCard.to_id(c) for c in h) for h in codes]
        native = {
            5: _pheval.evaluate_5cards,
            6: _pheval.evaluate_6cards,
            7: _pheval.evaluate_7cards,
        }[size]

        def run_ph_public() -> None:
            for hand in ph_ids:
                ph_public(*hand)

        def run_ph_native() -> None:
            for hand in ph_ids:
                native(*hand)

        rows.append(("phevaluator", "evaluate_cards(*ids)", best_rate(run_ph_public, n, repeat)))
        rows.append(
            (
                "phevaluator",
                f"_pheval.evaluate_{size}cards (C)",
                best_rate(run_ph_native, n, repeat),
            )
        )
    except ImportError:
        pass
    try:
        import eval7

        e7_hands = [[eval7.Card(c) for c in h] for h in codes]

        def run_eval7() -> None:
            for hand in e7_hands:
                eval7.evaluate(hand)

        rows.append(("eval7", "evaluate(Cards)", best_rate(run_eval7, n, repeat)))
    except ImportError:
        pass
    try:
        from pokerkit import Card as PkCard
        from pokerkit import StandardHighHand

        few = max(200, n // 100)
        pk_hands = [list(PkCard.parse("".join(h))) for h in codes[:few]]

        def run_pokerkit() -> None:
            for hand in pk_hands:
                StandardHighHand.from_game(hand)

        rows.append(("pokerkit", "StandardHighHand.from_game", best_rate(run_pokerkit, few, 1)))
    except ImportError:
        pass
    return rows


def batch_rows(hands7: np.ndarray, repeat: int) -> list[Row]:
    every = all_hands(5)
    rows: list[Row] = [
        (
            "cardscore",
            "rank_batch, all 2,598,960 5-card",
            best_rate(lambda: rank_batch(every), len(every), repeat),
        ),
        (
            "cardscore",
            f"rank_batch, {len(hands7):,} random 7-card",
            best_rate(lambda: rank_batch(hands7), len(hands7), repeat),
        ),
    ]
    # The baseline the issue quotes: a plain numpy lookup of every hand's rank by its colex index.
    table = rank_batch(every)
    binom = np.array(
        [
            [
                0 if k > n else int(np.prod(range(n - k + 1, n + 1)) // np.prod(range(1, k + 1)))
                for k in range(6)
            ]
            for n in range(52)
        ],
        dtype=np.int64,
    )

    def numpy_lookup() -> None:
        ordered = np.sort(every, axis=1).astype(np.int64)
        index = sum(binom[ordered[:, k], k + 1] for k in range(5))
        table[index]

    rows.append(
        (
            "numpy",
            "sort + colex index + table lookup, 5-card",
            best_rate(numpy_lookup, len(every), repeat),
        )
    )
    return rows


def show(title: str, rows: list[Row]) -> None:
    def peer(name: str) -> float | None:
        return next((rate for who, _, rate in rows if who == name and rate == rate), None)

    treys, eval7 = peer("treys"), peer("eval7")
    print(f"\n{title}")
    print(f"{'library':<12} {'entry point':<44} {'M hands/s':>10} {'× treys':>8} {'× eval7':>8}")
    for who, how, rate in rows:
        shown = f"{rate / 1e6:10.3g}" if rate == rate else f"{'—':>10}"
        ratios = "".join(
            f"{rate / base:9.1f}" if base and rate == rate else f"{'':>9}"
            for base in (treys, eval7)
        )
        print(f"{who:<12} {how:<44} {shown}{ratios}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer hands")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    n = 20_000 if args.quick else 200_000
    rng = np.random.default_rng(2024)
    hands5 = np.array([rng.choice(52, 5, replace=False) for _ in range(n)], dtype=np.uint8)
    hands7 = np.argsort(rng.random((1_000_000 if not args.quick else 100_000, 52)), axis=1)[
        :, :7
    ].astype(np.uint8)
    print(f"Python {platform.python_version()} on {platform.machine()}, numpy {np.__version__}")
    print(f"per call: {n:,} random hands in a Python loop; best of {args.repeat}")
    show("5 cards, per call", per_call_rows(5, hands5, args.repeat))
    show("7 cards, per call", per_call_rows(7, hands7[:n], args.repeat))
    show("batch (numpy array in, numpy array out)", batch_rows(hands7, args.repeat))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
