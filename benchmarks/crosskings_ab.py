"""Two or more builds of the Cross Kings C solver side by side, in one process.

Timing a solver change against the machine's load gives noise of ±30% here; loading each build
of ``_c_solver`` into the same process and alternating them position by position cancels
most of it. Each argument is a directory holding a built ``_c_solver*.so`` (for example a
worktree's ``src/cardscore/crosskings``, or a copy of the shipped one before a change):

    python benchmarks/crosskings_ab.py /tmp/before /work/main/src/cardscore/crosskings
    python benchmarks/crosskings_ab.py --cards 17 --count 5 /tmp/before /tmp/after

It times the result-only proof (the anytime search's, one thread: every root move of positions
reached by seeded random play), twice per build in alternating order, and prints a table with
the first build as the reference. The node counts show whether a change altered the search
itself or only its speed.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import time
from pathlib import Path
from types import ModuleType

from cardscore.crosskings import Game
from cardscore.crosskings.solver import position, solver_cells

RESULT_ONLY = 2


def load(folder: Path) -> ModuleType:
    """The ``_c_solver`` built in ``folder``, under its own name (several builds coexist)."""
    found = sorted(folder.glob("_c_solver*.so"))
    if not found:
        raise SystemExit(f"no _c_solver*.so in {str(folder)!r}")
    spec = importlib.util.spec_from_file_location("_c_solver", found[0])
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def games(cards: int, count: int, first_seed: int) -> list[Game]:
    found: list[Game] = []
    seed = first_seed
    while len(found) < count:
        game = Game.deal(seed=seed)
        rng = random.Random(seed)
        seed += 1
        while game.cards_left > cards and not game.is_over:
            game = game.random_move(rng)
        if not game.is_over and game.cards_left == cards:
            found.append(game)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("builds", nargs="+", type=Path)
    parser.add_argument("--cards", type=int, nargs="+", default=[15, 16])
    parser.add_argument("--count", type=int, default=8, help="positions of each size")
    parser.add_argument("--seed", type=int, default=5000, help="first deal seed")
    parser.add_argument(
        "--node-limit",
        type=int,
        default=0,
        help="stop each proof after this many nodes (default: none); a build that stops more "
        "proofs than another searched less, so its time is not comparable",
    )
    args = parser.parse_args()
    builds = {str(folder): load(folder) for folder in args.builds}
    names = list(builds)
    positions = [g for cards in args.cards for g in games(cards, args.count, args.seed)]
    seconds = dict.fromkeys(names, 0.0)
    nodes = dict.fromkeys(names, 0)
    stopped = dict.fromkeys(names, 0)
    for turn in range(2):
        for game in positions:
            for name in names if turn == 0 else names[::-1]:
                solver = builds[name].Solver(solver_cells(game), RESULT_ONLY)
                solver.set_node_limit(args.node_limit)
                started = time.perf_counter()
                found = solver.search_depth(*position(game), game.cards_left)
                seconds[name] += time.perf_counter() - started
                stopped[name] += found is None
                nodes[name] += solver.stats()["nodes"]
    print(
        f"Result-only proofs, one thread: {len(positions)} positions "
        f"({', '.join(map(str, args.cards))} cards), each twice per build\n"
    )
    print(
        "| build | seconds | nodes | M nodes/s | time vs first | proofs stopped by --node-limit |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for name in names:
        print(
            f"| {name} | {seconds[name]:.2f} | {nodes[name]:,} | "
            f"{nodes[name] / seconds[name] / 1e6:.2f} | ×{seconds[name] / seconds[names[0]]:.3f} | "
            f"{stopped[name]} |"
        )


if __name__ == "__main__":
    main()
