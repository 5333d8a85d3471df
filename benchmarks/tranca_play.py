"""Tranca engine: random rounds per second, and strength matches between computer levels.

Speed — random (level 0) 4-player rounds played to the end and scored by the scorer, on one
core, after a warm-up (the meld check is memoised, so the first rounds are slower); the rate is
per CPU-second of the process (the wall-clock rate is printed too: on a shared machine it
understates the engine)::

    nice python benchmarks/tranca_play.py speed --rounds 300

Strength — level A's team against level B's team; every deal is played twice with the teams'
seats swapped, and the mean points per round of A's team minus B's team is printed with its 95%
interval (normal approximation over rounds) — outside CI, niced, one core::

    nice python benchmarks/tranca_play.py match --a 2 --b 1 --deals 200
    nice python benchmarks/tranca_play.py match --a 3 --b 2 --deals 100 --budget 0.25

Deal ``d`` is dealt by seed ``d`` for ``d`` in ``--first-seed`` … ``--first-seed + --deals - 1``
(0 … 199 by default): tune a player on one range and judge it on another it never saw.
``--log FILE`` appends one JSON line per round, so a long match can be stopped and summarised
(or split into ranges of seeds run side by side and summarised together).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from cardscore.tranca.game import TrancaState
from cardscore.tranca.players import computer


def speed(rounds: int, players: int, warmup: int) -> None:
    def play(seeds: range) -> int:
        actions = 0
        for seed in seeds:
            game = TrancaState(players, seed=seed)
            rng = random.Random(seed)
            while not game.is_over:
                game.apply_legal(rng.choice(game.legal_actions()))
                actions += 1
            game.score()
        return actions

    play(range(10_000, 10_000 + warmup))
    start, cpu = time.perf_counter(), time.process_time()
    actions = play(range(rounds))
    elapsed, used = time.perf_counter() - start, time.process_time() - cpu
    print(
        f"random {players}-player rounds, played and scored: {rounds / used:.1f} rounds per "
        f"CPU-second ({rounds / elapsed:.1f} per wall second), {actions / rounds:.0f} actions "
        f"a round; {rounds} rounds after {warmup} warm-up"
    )


def match(
    a: int, b: int, deals: int, players: int, budget: float, log: Path | None, first_seed: int = 0
) -> None:
    diffs: list[float] = []
    thinking: list[float] = []
    start = time.perf_counter()
    for deal in range(first_seed, first_seed + deals):
        for swap in (False, True):
            game = TrancaState(players, seed=deal, first=deal % players)
            levels = (b, a) if swap else (a, b)
            bots = [
                computer(levels[s % 2], seed=deal * 100 + s, budget=budget) for s in range(players)
            ]
            while not game.is_over:
                seat = game.to_act
                tick = time.perf_counter()
                action = bots[seat].choose(game)
                if levels[seat % 2] == 3:
                    thinking.append(time.perf_counter() - tick)
                game.play(action)
            totals = [t.total for t in game.score().teams]
            diff = (totals[1] - totals[0]) if swap else (totals[0] - totals[1])
            diffs.append(diff)
            if log is not None:
                with log.open("a", encoding="utf-8") as out:
                    out.write(
                        json.dumps({"deal": deal, "swap": swap, "a": a, "b": b, "diff": diff})
                        + "\n"
                    )
    summarise(diffs, a, b, players)
    per_round = (time.perf_counter() - start) / len(diffs)
    extra = ""
    if thinking:
        extra = (
            f"; level 3: mean {statistics.mean(thinking):.3f} s, max {max(thinking):.3f} s a move"
        )
    print(f"{per_round:.2f} s a round{extra}")


def summarise(diffs: list[float], a: int, b: int, players: int) -> None:
    mean = statistics.mean(diffs)
    half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else float("nan")
    print(
        f"level {a} vs level {b}, {players} players: {mean:+.1f} points a round "
        f"(95% interval {mean - half:+.1f} … {mean + half:+.1f}) over {len(diffs)} rounds"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    fast = sub.add_parser("speed")
    fast.add_argument("--rounds", type=int, default=300)
    fast.add_argument("--players", type=int, default=4)
    fast.add_argument("--warmup", type=int, default=100)
    strong = sub.add_parser("match")
    strong.add_argument("--a", type=int, default=2)
    strong.add_argument("--b", type=int, default=1)
    strong.add_argument("--deals", type=int, default=200)
    strong.add_argument("--players", type=int, default=4)
    strong.add_argument("--budget", type=float, default=0.25)
    strong.add_argument("--log", type=Path, default=None)
    strong.add_argument(
        "--first-seed", type=int, default=0, help="deal seeds first-seed … first-seed+deals-1"
    )
    summary = sub.add_parser("summary", help="summarise a --log file")
    summary.add_argument("log", type=Path)
    args = parser.parse_args()
    if args.mode == "speed":
        speed(args.rounds, args.players, args.warmup)
    elif args.mode == "match":
        match(args.a, args.b, args.deals, args.players, args.budget, args.log, args.first_seed)
    else:
        rows = [json.loads(line) for line in args.log.read_text(encoding="utf-8").splitlines()]
        summarise([r["diff"] for r in rows], rows[0]["a"], rows[0]["b"], 4)


if __name__ == "__main__":
    main()
