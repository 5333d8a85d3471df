"""Cross Kings speed: hand scoring, exact analysis by cards and face-down cards left, the exact
horizon, the anytime search's accuracy, and matches between bot levels.

Positions come from seeded random play on seeded deals (deal seed s, moves from Random(s)),
stopped when the wanted number of cards is left. Every section prints a markdown table.

    nice python benchmarks/crosskings_bench.py scoring
    nice python benchmarks/crosskings_bench.py exact --sizes 8 10 12 14 16 18 --per-size 20
    nice python benchmarks/crosskings_bench.py horizon --sizes 18 20 22 --per-size 5
    nice python benchmarks/crosskings_bench.py anytime --mix 16:40 17:35 18:25 --seconds 1
    nice python benchmarks/crosskings_bench.py anytime --mix 16:40 17:35 18:25 --nodes 2500000 2300000
    nice python benchmarks/crosskings_bench.py anytime --mix 19:10:6 20:10:6 --exact-timeout 600 --reference result --prepare
    nice python benchmarks/crosskings_bench.py match --games 20 --levels 0 1 2
"""

from __future__ import annotations

import argparse
import array
import json
import math
import random
import statistics
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/ for the references

from tests.crosskings_reference import brute_force_score, move_value

from cardscore.crosskings import Bot, Game, analyse, search
from cardscore.crosskings import anytime as anytime_module
from cardscore.crosskings._c_solver import Solver, score_buffer
from cardscore.crosskings.cards import card_number
from cardscore.crosskings.game import FACE_DOWN, cell_name
from cardscore.crosskings.solver import clear_solvers, position, solver_cells, solver_for

KINGS = (1 << 8) | (1 << 17) | (1 << 26) | (1 << 35)


def positions(cards_left: int, count: int, first_seed: int = 0) -> Iterator[tuple[int, Game]]:
    seed = first_seed
    found = 0
    while found < count:
        game = Game.deal(seed=seed)
        rng = random.Random(seed)
        while game.cards_left > cards_left and not game.is_over:
            game = game.random_move(rng)
        if not game.is_over and game.cards_left == cards_left:
            found += 1
            yield seed, game
        seed += 1


def fresh() -> None:
    """Forget every solver, so each position starts with an empty transposition table."""
    clear_solvers()


def timed_rate(hands: array.array[int], repeat: int = 3) -> float:
    best = math.inf
    for _ in range(repeat):
        started = time.perf_counter()
        score_buffer(hands)
        best = min(best, time.perf_counter() - started)
    return len(hands) / best


def bench_scoring() -> None:
    rng = random.Random(0)
    finals = []
    for seed in range(3000):  # hands players really end with
        game = Game.deal(seed=seed)
        r = random.Random(seed)
        while not game.is_over:
            game = game.random_move(r)
        finals.extend(game.hand_masks)
    rows = [("final hands of random games", array.array("Q", finals * 20))]
    naturals = [c for c in range(36) if c % 9 != 8]
    for kings in range(5):
        hands = array.array("Q")
        for _ in range(50_000):
            chosen = rng.sample(naturals, 18 - kings)
            king_bits = rng.sample([8, 17, 26, 35], kings)
            hands.append(sum(1 << c for c in chosen + king_bits))
        rows.append((f"18 cards, {kings} kings", hands))
    mixed = array.array(
        "Q", (sum(1 << c for c in rng.sample(range(36), 18)) for _ in range(100_000))
    )
    rows.append(("18 random cards of 36", mixed))
    print("| hands | C scorer (hands/s) | Python brute force (hands/s) | ratio |")
    print("|---|---:|---:|---:|")
    for name, hands in rows:
        c_rate = timed_rate(hands)
        sample = hands[:: max(1, len(hands) // 200)][:200]
        started = time.perf_counter()
        for hand in sample:
            brute_force_score(hand)
        py_rate = len(sample) / (time.perf_counter() - started)
        print(f"| {name} | {c_rate:,.0f} | {py_rate:,.0f} | {c_rate / py_rate:,.0f}× |")
    # what the solver's inner loop sees: final positions scored per second, cache included
    game = next(positions(14, 1, 3))[1]
    cells = solver_cells(game)
    solver = Solver(cells, 0, 23, False)
    started = time.perf_counter()
    solver.evaluate(*position(game))
    seconds = time.perf_counter() - started
    stats = solver.stats()
    print(
        f"\nSolver inner loop (plain expectimax, 14 cards left, seed 3): {stats['terminals']:,} "
        f"final positions = {2 * stats['terminals']:,} hands in {seconds:.2f} s of search, "
        f"{2 * stats['terminals'] / seconds:,.0f} hands/s including all search work "
        f"({stats['hands_scored']:,} scored, the rest from the king-hand cache)."
    )


def bench_exact(sizes: list[int], per_size: int, timeout: float, peers: bool) -> None:
    by_size: dict[int, list[float]] = defaultdict(list)
    by_face_down: dict[tuple[int, int], list[float]] = defaultdict(list)
    nodes: dict[int, list[int]] = defaultdict(list)
    plain: dict[int, list[float]] = defaultdict(list)
    python: dict[int, list[float]] = defaultdict(list)
    for size in sizes:
        for seed, game in positions(size, per_size):
            fresh()
            started = time.perf_counter()
            try:
                result = analyse(game, timeout=timeout)
                seconds = time.perf_counter() - started
                nodes[size].append(result.nodes)
            except TimeoutError:
                seconds = math.inf
            by_size[size].append(seconds)
            by_face_down[(size, game.face_down_left)].append(seconds)
            if peers and size <= 14:
                cells = solver_cells(game)
                started = time.perf_counter()
                Solver(cells, 0, 23, False).evaluate(*position(game))
                plain[size].append(time.perf_counter() - started)
            if peers and size <= 8:
                cells_py: list[int | None] = [
                    None if c in FACE_DOWN else card_number(game.cards[c]) for c in range(36)
                ]
                left = frozenset(c for c in range(36) if game.cells_left >> c & 1)
                started = time.perf_counter()
                for cell in game.legal_cells:
                    move_value(cells_py, left, game.hand_masks, cell)
                python[size].append(time.perf_counter() - started)
            print(
                f"  {size} cards, seed {seed}, {game.face_down_left} face down: {seconds:.3f} s",
                file=sys.stderr,
                flush=True,
            )
    print(
        f"Exact analysis of every move (2 threads), {per_size} positions per size, timeout {timeout:g} s"
    )
    print()
    print(
        "| cards left | median s | mean s | worst s | ≤ 1 s | median nodes | plain expectimax median s | pure Python median s |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for size in sizes:
        times = by_size[size]
        finite = [t for t in times if math.isfinite(t)]
        med = statistics.median(times)
        mean = statistics.mean(finite) if len(finite) == len(times) else math.inf
        share = sum(t <= 1 for t in times) / len(times)
        plain_med = f"{statistics.median(plain[size]):.3f}" if plain[size] else "–"
        py_med = f"{statistics.median(python[size]):.3f}" if python[size] else "–"
        node_med = f"{statistics.median(nodes[size]):,.0f}" if nodes[size] else "–"
        print(
            f"| {size} | {fmt(med)} | {fmt(mean)} | {fmt(max(times))} | {share:.0%} | {node_med} | "
            f"{plain_med} | {py_med} |"
        )
    print()
    print("| cards left | face down left | positions | median s | worst s |")
    print("|---:|---:|---:|---:|---:|")
    for (size, down), times in sorted(by_face_down.items()):
        print(
            f"| {size} | {down} | {len(times)} | {fmt(statistics.median(times))} | {fmt(max(times))} |"
        )


def fmt(seconds: float) -> str:
    return "> timeout" if not math.isfinite(seconds) else f"{seconds:.3f}"


def bench_horizon(sizes: list[int], per_size: int, limit: float) -> None:
    print(f"Exact horizon: share of positions fully analysed within {limit:g} s (2 threads)")
    print()
    print("| cards left | positions | solved | median s (solved) |")
    print("|---:|---:|---:|---:|")
    for size in sizes:
        solved = []
        for seed, game in positions(size, per_size, 1000):
            fresh()
            started = time.perf_counter()
            try:
                analyse(game, timeout=limit)
                solved.append(time.perf_counter() - started)
            except TimeoutError:
                pass
            print(
                f"  {size} cards seed {seed}: {len(solved)} solved so far",
                file=sys.stderr,
                flush=True,
            )
        med = f"{statistics.median(solved):.1f}" if solved else "–"
        print(f"| {size} | {per_size} | {len(solved)} | {med} |")


def for_mover(game: Game, er: int) -> int:
    """A doubled expected result (scaled by f!) turned from player 1's side to the mover's."""
    return er if game.to_move == 1 else 2 * math.factorial(game.face_down_left) - er


def exact_moves(game: Game, timeout: float) -> dict[str, list[int]] | None:
    """Every legal move's exact (expected result, expected margin) for the mover, scaled by
    2 * f! and f! (integers, so ties are exact); None when it takes longer than ``timeout``.
    Two threads, each with a fresh solver, share the moves (values only, no distributions)."""
    cells = solver_cells(game)
    legal = game.legal_cells
    groups = [legal[0::2], legal[1::2]]
    pos = position(game)

    def part(group: list[int]) -> list[tuple[int, int, int]] | None:
        solver = Solver(cells, 0)
        solver.set_deadline(timeout)
        return solver.evaluate(*pos, sum(1 << c for c in group)) if group else []

    with ThreadPoolExecutor(2) as pool:
        parts = list(pool.map(part, groups))
    if any(p is None for p in parts):
        return None
    found: dict[str, list[int]] = {}
    sign = 1 if game.to_move == 1 else -1
    for cell, er, em in (x for p in parts for x in p or ()):
        found[cell_name(cell)] = [for_mover(game, er), sign * em]
    return found


def exact_results(game: Game, timeout: float) -> dict[str, list[int | None]] | None:
    """Every legal move's exact expected result for the mover (scaled by 2 * f!; the margin
    None), or None when it takes longer than ``timeout``: the result-only objective, much
    faster than ``exact_moves``, for positions too large for it. Two threads share the moves
    and one transposition table (``Solver.share_table``)."""
    cells = solver_cells(game)
    pos = position(game)
    first, second = Solver(cells, 2), Solver(cells, 2)
    second.share_table(first)
    queue = list(game.legal_cells)
    found: dict[int, int] = {}
    lock = threading.Lock()

    def work(solver: Solver) -> None:
        solver.set_deadline(timeout)
        while True:
            with lock:
                if not queue:
                    return
                cell = queue.pop(0)
            value = solver.search_depth(*pos, game.cards_left, 1 << cell)
            if value is None:
                return
            found[cell] = value[0]

    with ThreadPoolExecutor(2) as pool:
        list(pool.map(work, (first, second)))
    second.share_table(None)
    if len(found) < len(game.legal_cells):
        return None
    return {cell_name(cell): [for_mover(game, er), None] for cell, er in found.items()}


def load_cache(path: Path) -> dict[str, object]:
    return json.loads(path.read_text()) if path.exists() else {}


def bench_anytime(
    mix: list[tuple[int, int, int]],
    seconds: float,
    exact_timeout: float,
    cache: Path,
    prepare: bool,
    nodes: tuple[int, int] | None = None,
    reference: str = "full",
) -> None:
    """Exact values first (untimed, cached in ``cache`` by cards left and deal seed; positions
    whose exact values take longer than ``exact_timeout`` are skipped and counted), then the
    anytime search under the time budget (or, with ``nodes``, node budgets for its deepening
    and its proof: deterministic, for comparing variants). ``mix`` says how many usable
    positions of each size, and the most face-down cards they may have (more: skipped, without
    trying); skipped ones are replaced by the next seeds. ``reference="result"``
    computes missing exact values with the result-only objective (no margins: the tie-break
    column then counts only the positions with margins)."""
    compute = exact_results if reference == "result" else exact_moves
    known = load_cache(cache)
    rows = []
    skipped: dict[int, int] = defaultdict(int)
    for size, wanted, most_face_down in mix:
        seed, usable = 2000 + 100 * size, 0
        while usable < wanted:
            seed_used, game = next(positions(size, 1, seed))
            seed = seed_used + 1
            if game.face_down_left > most_face_down:
                skipped[size] += 1
                continue
            key = f"{size}:{seed_used}"
            entry = known.get(key)
            # Value it when not cached, or cached as timing out within a shorter timeout.
            if entry is None or ("timeout" in entry and entry["timeout"] < exact_timeout):
                started = time.perf_counter()
                moves = compute(game, exact_timeout)
                entry = moves if moves is not None else {"timeout": exact_timeout}
                known[key] = entry
                cache.write_text(json.dumps(known, indent=0))
                print(
                    f"  exact {key} ({game.face_down_left} face down): "
                    f"{time.perf_counter() - started:.1f} s"
                    f"{'' if moves is not None else ' (timeout)'}",
                    file=sys.stderr,
                    flush=True,
                )
            assert isinstance(entry, dict)
            if "timeout" in entry:
                skipped[size] += 1
                continue
            usable += 1
            rows.append((size, seed_used, game, entry))
    if prepare:
        print(f"{len(rows)} positions ready, skipped {dict(skipped)}")
        return
    by_size: dict[int, list[tuple[bool, bool | None, bool]]] = defaultdict(list)
    for size, seed_used, game, values in rows:
        clear_solvers()
        result = search(game, seconds, nodes=nodes)
        best_result = max(er for er, _ in values.values())
        margins_known = all(em is not None for _, em in values.values())
        best = max((er, em) for er, em in values.values()) if margins_known else None
        hit = values[result.cell][0] == best_result
        strict = tuple(values[result.cell]) == best if margins_known else None
        by_size[size].append((hit, strict, result.exact))
        print(
            f"  {size} cards seed {seed_used}: picked {result.cell} "
            f"({'exact' if result.exact_margin else 'exact result' if result.exact else f'depth {result.depth}'}) "
            f"{'ok' if hit else 'WRONG'}, optimal "
            f"{sorted(c for c, v in values.items() if v[0] == best_result)}; deepening "
            f"{solver_for(game, 'result', 1).stats()['nodes'] / result.seconds:,.0f} nodes/s",
            file=sys.stderr,
            flush=True,
        )
    budget = f"{nodes[0]:,} + {nodes[1]:,} nodes" if nodes else f"{seconds:g} s"
    print(f"Anytime search, {budget} a move (exact values precomputed, cached in {cache})")
    print()
    print(
        "| cards left | positions | optimal expected result | optimal incl. margin tie-break "
        "| search proved its move exact | skipped (exact values > "
        f"{exact_timeout:g} s, or too many face-down cards) |"
    )
    print("|---:|---:|---:|---:|---:|---:|")
    everything: list[tuple[bool, bool | None, bool]] = []
    for size, _, _ in mix:
        got = by_size[size]
        everything += got
        print(row_of(str(size), got, skipped[size]))
    print(row_of("**all**", everything, sum(skipped.values())))


def row_of(name: str, got: list[tuple[bool, bool | None, bool]], skipped: int) -> str:
    n = len(got)
    shares = [sum(bool(g[i]) for g in got) / n for i in (0, 2)]
    strict = [g[1] for g in got if g[1] is not None]
    tie_break = f"{sum(strict) / len(strict):.1%}" if strict else "n/a"
    if strict and len(strict) < n:
        tie_break += f" of {len(strict)}"
    return f"| {name} | {n} | {shares[0]:.1%} | {tie_break} | {shares[1]:.1%} | {skipped} |"


def bench_match(games: int, levels: list[int]) -> None:
    print(
        f"Matches between levels: {games} deals per pair, each deal played twice with seats swapped"
    )
    print()
    print("| level A | level B | A wins | draws | B wins | A's mean margin |")
    print("|---:|---:|---:|---:|---:|---:|")
    for i, a in enumerate(levels):
        for b in levels[i + 1 :]:
            wins = draws = losses = 0
            margin = 0
            for deal in range(games):
                for a_first in (True, False):
                    game = Game.deal(seed=5000 + deal)
                    bots = {1: Bot(a, seed=deal), 2: Bot(b, seed=deal + 1)}
                    if not a_first:
                        bots = {1: bots[2], 2: bots[1]}
                    while not game.is_over:
                        game = game.move(bots[game.to_move].choose(game))
                    diff = game.score if a_first else -game.score
                    margin += diff
                    wins += diff > 0
                    draws += diff == 0
                    losses += diff < 0
            n = 2 * games
            print(f"| {a} | {b} | {wins} | {draws} | {losses} | {margin / n:+.2f} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="section", required=True)
    sub.add_parser("scoring")
    exact = sub.add_parser("exact")
    exact.add_argument("--sizes", type=int, nargs="+", default=[8, 10, 12, 14, 16])
    exact.add_argument("--per-size", type=int, default=20)
    exact.add_argument("--timeout", type=float, default=300)
    exact.add_argument("--no-peers", action="store_true")
    horizon = sub.add_parser("horizon")
    horizon.add_argument("--sizes", type=int, nargs="+", default=[18, 20, 22])
    horizon.add_argument("--per-size", type=int, default=5)
    horizon.add_argument("--limit", type=float, default=60)
    anytime = sub.add_parser("anytime")
    anytime.add_argument(
        "--mix",
        nargs="+",
        default=["16:40", "17:35", "18:25"],
        help="CARDS:COUNT[:FACEDOWN]: how many positions with that many cards left (and at "
        "most that many face-down cards: 12 unless said)",
    )
    anytime.add_argument("--seconds", type=float, default=1.0)
    anytime.add_argument("--exact-timeout", type=float, default=60)
    anytime.add_argument(
        "--cache", type=Path, default=Path("/tmp/ck_exact.json"), help="exact values (JSON)"
    )
    anytime.add_argument("--prepare", action="store_true", help="only compute exact values")
    anytime.add_argument(
        "--reference",
        choices=["full", "result"],
        default="full",
        help="objective for missing exact values: full (result and margin) or result only",
    )
    anytime.add_argument(
        "--nodes",
        type=int,
        nargs=2,
        metavar=("DEEPENING", "PROOF"),
        help="node budgets for the deepening and the proof instead of --seconds",
    )
    anytime.add_argument(
        "--weights", help="comma-separated horizon weights to use instead of anytime.WEIGHTS"
    )
    match = sub.add_parser("match")
    match.add_argument("--games", type=int, default=10)
    match.add_argument("--levels", type=int, nargs="+", default=[0, 1, 2, 3])
    args = parser.parse_args()
    if args.section == "scoring":
        bench_scoring()
    elif args.section == "exact":
        bench_exact(args.sizes, args.per_size, args.timeout, not args.no_peers)
    elif args.section == "horizon":
        bench_horizon(args.sizes, args.per_size, args.limit)
    elif args.section == "anytime":
        mix = [(*map(int, m.split(":")), 12)[:3] for m in args.mix]
        if args.weights:
            anytime_module.WEIGHTS = tuple(float(w) for w in args.weights.split(","))
        bench_anytime(
            mix,
            args.seconds,
            args.exact_timeout,
            args.cache,
            args.prepare,
            tuple(args.nodes) if args.nodes else None,
            args.reference,
        )
    else:
        bench_match(args.games, args.levels)


if __name__ == "__main__":
    main()
