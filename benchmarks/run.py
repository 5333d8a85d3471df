"""One runner for every benchmark area: peers or the baseline side by side, in the same run.

    python benchmarks/run.py cli            # start-up of typed commands, this tree vs the baseline
    python benchmarks/run.py poker          # the evaluator vs treys, eval7, phevaluator, pokerkit
    python benchmarks/run.py crosskings     # hand scoring and exact analysis (crosskings_bench.py)
    python benchmarks/run.py vision         # recognition speed at 12/24 MP, memory at 50 MP
    python benchmarks/run.py web            # the web app under load, vs web session 2's code
    python benchmarks/run.py cli --write    # ... and replace that area's table in RESULTS.md

Every table says where it ran: the machine, the CPUs this process may use, and the load average
before and after (``os.getloadavg``) — on a busy machine absolute times inflate and ratios are
the figures to read. Ratios come first in each row.

The baseline is the code before the start-up work (``BASELINE``; web: ``BASELINES``;
``--baseline REV`` for another commit, ``--no-baseline`` for none): ``git archive`` into
``build/baseline-REV``, its C extensions built in place, and the same measurement run there in
a second process. Peers come from the ``bench`` extra (``pip install -e '.[bench]'``).
``--write`` rewrites only its own area's ``## AREA`` section of ``benchmarks/RESULTS.md`` (only
the part between the ``run.py`` markers, when the section has them); other sections are left as
they are. ``cli`` and ``poker`` take 1–3 minutes on the project's two-core machine.
"""

from __future__ import annotations

import argparse
import datetime
import io
import json
import os
import platform
import re
import resource
import shlex
import statistics
import subprocess
import sys
import tarfile
import time
from collections.abc import Callable, Sequence
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "RESULTS.md"
BASELINE = "c8903dd"
"""The last commit before the start-up and interning work (the figures measured before it)."""
BASELINES = {"web": "9fa6d65"}
"""Areas compared with another commit: web with the end of web session 2 (its recorded table)."""

# --- where it ran -----------------------------------------------------------------------------


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.partition(":")[2].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _cpus() -> str:
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    quota = ""
    try:
        limit, period = Path("/sys/fs/cgroup/cpu.max").read_text().split()
        if limit != "max":
            quota = f", cgroup quota {int(limit) / int(period):g}"
    except (OSError, ValueError):
        pass
    return f"{usable} usable of {os.cpu_count()}{quota}"


def machine_line() -> str:
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return (
        f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC · {_cpu_model()} · "
        f"CPUs {_cpus()} · Python {platform.python_version()} · load average {load}"
    )


# --- the baseline -----------------------------------------------------------------------------


def baseline_tree(rev: str) -> Path:
    """``rev``'s source, its C extensions built in place (cached in build/baseline-REV)."""
    full = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", rev],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    tree = ROOT / "build" / f"baseline-{full}"
    done = tree / ".built"
    if done.exists():
        return tree
    tree.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", full], capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(tree, filter="data")
    print(f"building the baseline {full} in {tree.relative_to(ROOT)} …", file=sys.stderr)
    # The tree's own setup.py says what to build (and writes any generated header); setup()
    # itself is replaced, so the venv's setuptools need not read the tree's pyproject.toml.
    build = (
        "import runpy, setuptools; found = {}; setuptools.setup = found.update; "
        "runpy.run_path('setup.py', run_name='__main__'); "
        "dist = setuptools.Distribution({'ext_modules': found['ext_modules'], 'package_dir': {'': 'src'}, "
        "'script_args': ['build_ext', '--inplace', '-q']}); "
        "dist.parse_command_line(); dist.run_commands()"
    )
    built = subprocess.run(["nice", sys.executable, "-c", build], cwd=tree, capture_output=True)
    if built.returncode:
        raise SystemExit(f"building {full} failed:\n{built.stderr.decode()[-3000:]}")
    done.touch()
    return tree


def in_tree(tree: Path | None) -> dict[str, str]:
    """The environment that imports cardscore from ``tree``'s src (None: this checkout)."""
    env = dict(os.environ)
    src = str((tree or ROOT) / "src")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH")) if p)
    return env


# --- tables -----------------------------------------------------------------------------------


def table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A markdown table, numbers right-aligned."""
    cells = [[str(c) for c in header], *[[_cell(c) for c in row] for row in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    numeric = [all(_is_number(row[i]) for row in rows) for i in range(len(header))]

    def line(row: Sequence[str]) -> str:
        return "| " + " | ".join(
            c.rjust(w) if n else c.ljust(w) for c, w, n in zip(row, widths, numeric, strict=True)
        )

    rule = "|" + "|".join(
        ("-" * (w + 1) + ":") if n else "-" * (w + 2) for w, n in zip(widths, numeric, strict=True)
    )
    return "\n".join([line(cells[0]) + " |", rule + "|", *(line(r) + " |" for r in cells[1:])])


def _is_number(value: Any) -> bool:
    try:
        float(str(value).replace(",", "").replace("≤", ""))
    except ValueError:
        return value in ("", "—")
    return True


def _cell(value: Any) -> str:
    if isinstance(value, float):
        if value != value:
            return "—"
        return f"{value:.3g}" if value < 100 else f"{value:,.0f}"
    return str(value)


# --- cli --------------------------------------------------------------------------------------

# As the console script runs it: import the CLI, call main (process start included).
_SCRIPT = "import sys; from cardscore.cli import main; sys.exit(main())"
CLI_COMMANDS: list[tuple[list[str], float | None]] = [
    (["--help"], 0.15),
    (["poker", "--help"], 0.15),
    (["gongzhu", "score", "23456789TJQKAPGD"], 0.15),
    (["crosskings", "score", "AC", "AD", "2H"], 0.15),
    (["tranca", "score", "examples/tranca/round1.json"], 0.15),
    (["poker", "rank", "AS", "KS", "QS", "JS", "TS"], 0.2),
]


def _time_command(command: list[str], env: dict[str, str] | None, runs: int) -> tuple[float, float]:
    """Median wall-clock and CPU seconds (user + system, the child's own) of ``command``.

    On a busy machine the wall clock also counts waiting for a core; the CPU time hardly
    moves with the load, and on a quiet machine the two agree.
    """
    wall, cpu = [], []
    for i in range(runs + 1):
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, env=env, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        elapsed = time.perf_counter() - start
        now = resource.getrusage(resource.RUSAGE_CHILDREN)
        if i:  # the first run warms the file cache and writes the .pyc files
            wall.append(elapsed)
            cpu.append(now.ru_utime + now.ru_stime - used.ru_utime - used.ru_stime)
    return statistics.median(wall), statistics.median(cpu)


def area_cli(args: argparse.Namespace) -> str:
    base = None if args.no_baseline else baseline_tree(args.baseline)
    label = f"baseline {args.baseline}"
    python = [sys.executable]
    wall, cpu = _time_command([*python, "-c", "pass"], None, args.runs)
    rows: list[list[Any]] = [["`python -c pass`", "", f"{wall:.3f}", f"{cpu:.3f}", "", "", "", ""]]
    for words, target in CLI_COMMANDS:
        command = [*python, "-c", _SCRIPT, *words]
        wall, cpu = _time_command(command, in_tree(None), args.runs)
        then, then_cpu = _time_command(command, in_tree(base), args.runs) if base else (0, 0)
        rows.append(
            [
                f"`cardscore {' '.join(words)}`",
                f"{then_cpu / cpu:.1f}" if base else "",
                f"{wall:.3f}",
                f"{cpu:.3f}",
                f"{then:.3f}" if base else "",
                f"{then_cpu:.3f}" if base else "",
                f"≤ {target}",
                "yes" if wall <= target else "no",
            ]
        )
    return (
        f"Seconds per command, median of {args.runs} runs after one warm-up, process start "
        "included (`python -c 'from cardscore.cli import main; main()' ARGS`, as the console "
        "script runs it); wall clock and the process's own CPU time (on a busy machine the "
        "wall clock inflates, the CPU time hardly; on a quiet one they agree). *met*: "
        "the wall clock against the target.\n\n"
        + table(
            [
                "command",
                f"× less CPU than {label}",
                "wall (s)",
                "CPU (s)",
                f"{label} wall (s)",
                f"{label} CPU (s)",
                "target",
                "met",
            ],
            rows,
        )
    )


# --- poker ------------------------------------------------------------------------------------


Job = tuple[Callable[[], Any], int]  # (run once, hands it ranks)


def _loop(function: Callable[..., Any], hands: Sequence[Any], star: bool) -> Job:
    """``function(hand)`` (``function(*hand)`` with ``star``) over ``hands`` in a Python loop."""
    if star:

        def run() -> None:
            for hand in hands:
                function(*hand)

    else:

        def run() -> None:
            for hand in hands:
                function(hand)

    return run, len(hands)


def measure(jobs: dict[str, Job], repeat: int) -> dict[str, float]:
    """Hands per second of each job, the best of ``repeat`` rounds; every round runs every job
    once, so a change in the machine's load touches all of them alike. The best, not the
    median: a loop of a few milliseconds either ran undisturbed or was preempted, and on a
    shared machine the median mixes the two."""
    times: dict[str, list[float]] = {key: [] for key in jobs}
    for _ in range(repeat):
        for key, (run, _) in jobs.items():
            run()  # warm: the previous job (a batch of millions) left other data in the caches
            start = time.perf_counter()
            run()
            times[key].append(time.perf_counter() - start)
    return {key: jobs[key][1] / min(t) for key, t in times.items()}


def poker_ours(n: int, seed: int) -> dict[str, Job]:
    """cardscore's own entry points, keyed by name; in whichever tree imports as cardscore."""
    import numpy as np

    from cardscore.cards import Card, Rank, Suit, parse_cards
    from cardscore.poker import evaluate, rank, rank_batch, rank_ids
    from cardscore.poker.equity import all_hands

    rng = np.random.default_rng(seed)
    out: dict[str, Job] = {}
    for size in (5, 7):
        ids = [tuple(rng.choice(52, size, replace=False).tolist()) for _ in range(n)]
        codes = [[Card.from_id(i).code for i in hand] for hand in ids]
        built = {
            "Card.from_id(id)": [[Card.from_id(i) for i in hand] for hand in ids],
            "Card('As')": [[Card(c) for c in hand] for hand in codes],
            "Card(Rank, Suit)": [[Card(Rank(c[0]), Suit(c[1])) for c in hand] for hand in codes],
            "parse_cards('As Ks …')": [parse_cards(" ".join(hand)) for hand in codes],
        }
        for how, hands in built.items():
            out[f"{size}|evaluate(cards from {how})"] = _loop(evaluate, hands, False)
        out[f"{size}|rank(*ids)"] = _loop(rank, ids, True)
        out[f"{size}|rank_ids(ids)"] = _loop(rank_ids, ids, False)
    every = all_hands(5)
    sevens = np.argsort(rng.random((1_000_000, 52)), axis=1)[:, :7].astype(np.uint8)
    out["batch|rank_batch, all 2,598,960 5-card hands"] = (lambda: rank_batch(every), len(every))
    out["batch|rank_batch, 1,000,000 random 7-card hands"] = (
        lambda: rank_batch(sevens),
        len(sevens),
    )
    return out


def poker_peers(n: int, seed: int) -> dict[str, Job]:
    """The peers' rates on the same hands (each in its own card type, built beforehand)."""
    import numpy as np

    from cardscore.cards import Card

    rng = np.random.default_rng(seed)
    out: dict[str, Job] = {}
    for size in (5, 7):
        ids = [tuple(rng.choice(52, size, replace=False).tolist()) for _ in range(n)]
        codes = [[Card.from_id(i).code for i in hand] for hand in ids]
        try:
            import eval7

            e7 = [[eval7.Card(c) for c in hand] for hand in codes]
            out[f"{size}|eval7|evaluate(Cards)"] = _loop(eval7.evaluate, e7, False)
        except ImportError:
            pass
        try:
            from phevaluator import _pheval
            from phevaluator import evaluate_cards as ph_public
            from phevaluator.card import Card as PhCard

            ph = [tuple(PhCard.to_id(c) for c in hand) for hand in codes]
            native = {5: _pheval.evaluate_5cards, 7: _pheval.evaluate_7cards}[size]
            out[f"{size}|phevaluator|_pheval.evaluate_{size}cards(*ids) (C)"] = _loop(
                native, ph, True
            )
            out[f"{size}|phevaluator|evaluate_cards(*ids)"] = _loop(ph_public, ph, True)
        except ImportError:
            pass
        try:
            import treys

            th = [
                ([treys.Card.new(c) for c in h[:5]], [treys.Card.new(c) for c in h[5:]])
                for h in codes
            ]
            out[f"{size}|treys|Evaluator.evaluate"] = _loop(treys.Evaluator().evaluate, th, True)
        except ImportError:
            pass
        try:
            from pokerkit import Card as PkCard
            from pokerkit import StandardHighHand

            pk = [list(PkCard.parse("".join(hand))) for hand in codes[: max(100, n // 200)]]
            out[f"{size}|pokerkit|StandardHighHand.from_game"] = _loop(
                StandardHighHand.from_game, pk, False
            )
        except ImportError:
            pass
    return out


_POKER_WORKER = (
    "import json, sys; sys.path.insert(0, 'benchmarks'); import run; "
    "n, seed = int(sys.argv[1]), int(sys.argv[2]); "
    "jobs = run.poker_ours(n, seed) | run.poker_peers(n, seed); "
    "print(json.dumps(list(jobs)), flush=True)\n"
    "for line in sys.stdin:\n"
    "    key = json.loads(line); print(run.measure({key: jobs[key]}, 1)[key], flush=True)"
)


class _Worker:
    """A process holding every poker job of one tree, timing one when asked."""

    def __init__(self, tree: Path | None, n: int, seed: int) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", _POKER_WORKER, str(n), str(seed)],
            env=in_tree(tree),
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.ask, self.answer = self.process.stdin, self.process.stdout
        self.keys: list[str] = json.loads(self.answer.readline())

    def rate(self, key: str) -> float:
        self.ask.write(json.dumps(key) + "\n")
        self.ask.flush()
        return float(self.answer.readline())

    def close(self) -> None:
        self.process.communicate()


def area_poker(args: argparse.Namespace) -> str:
    n, repeat = args.hands, args.repeat
    # Two like processes, this tree's and the baseline's, each holding the same jobs (the
    # peers' too, so both have the same data in memory); each loop of one is timed right after
    # the same loop of the other, so a change in the machine's load touches both alike.
    this = _Worker(None, n, args.seed)
    base = None if args.no_baseline else _Worker(baseline_tree(args.baseline), n, args.seed)
    rates: dict[str, float] = {}
    then: dict[str, float] = {}
    paired: dict[str, list[float]] = {}
    for _ in range(repeat):
        for key in this.keys:
            rate = this.rate(key)
            rates[key] = max(rate, rates.get(key, 0.0))
            if base is not None and key in base.keys and key.count("|") == 1:
                old = base.rate(key)
                then[key] = max(old, then.get(key, 0.0))
                paired.setdefault(key, []).append(rate / old)
    this.close()
    if base is not None:
        base.close()
    # × baseline: the median of the ratios of back-to-back pairs, steadier under a changing
    # load than the ratio of two bests
    speedup = {key: statistics.median(ratios) for key, ratios in paired.items()}
    ours = {k: v for k, v in rates.items() if k.count("|") == 1}
    peers = {k: v for k, v in rates.items() if k.count("|") == 2}
    label = f"baseline {args.baseline}"
    parts = [
        f"Hands per second in a Python loop over {n:,} random hands built beforehand (each "
        f"library's own card type), best of {repeat} rounds, each loop run once untimed "
        "first; batches over numpy arrays. This tree and the baseline each run in a process of "
        "their own holding the same jobs, each loop of the baseline timed right after this "
        "tree's; × baseline is the median of those pairs' ratios, M hands/s the best."
    ]
    for size in (5, 7):
        e7 = peers.get(f"{size}|eval7|evaluate(Cards)", float("nan"))
        ph = peers.get(f"{size}|phevaluator|_pheval.evaluate_{size}cards(*ids) (C)", float("nan"))
        rows = []
        for key, rate in [*ours.items(), *peers.items()]:
            where, _, what = key.partition("|")
            if where != str(size):
                continue
            who, _, how = what.partition("|") if "|" in what else ("cardscore", "", what)
            old = then.get(key, float("nan"))
            rows.append(
                [
                    who,
                    how,
                    rate / e7,
                    rate / ph,
                    rate / 1e6,
                    old / 1e6 if who == "cardscore" else float("nan"),
                    speedup.get(key, float("nan")),
                ]
            )
        parts.append(
            f"**{size} cards, per call**\n\n"
            + table(
                [
                    "library",
                    "entry point",
                    "× eval7",
                    "× phevaluator C",
                    "M hands/s",
                    f"{label}",
                    f"× {label}",
                ],
                rows,
            )
        )
    rows = []
    for key, rate in ours.items():
        if key.startswith("batch|"):
            old = then.get(key, float("nan"))
            rows.append(
                [key.partition("|")[2], speedup.get(key, float("nan")), rate / 1e6, old / 1e6]
            )
    parts.append(
        "**batch** (`rank_batch`, numpy array in, numpy array out)\n\n"
        + table(["what", f"× {label}", "M hands/s", f"{label} (M hands/s)"], rows)
    )
    return "\n\n".join(parts)


# --- areas folded from their own scripts ------------------------------------------------------


def _script(name: str, argv: list[str], nice: bool = True) -> str:
    """Run benchmarks/NAME.py with ``argv`` (in a subprocess, nice unless told otherwise) and
    return what it prints."""
    done = subprocess.run(
        [
            *(["nice"] if nice else []),
            sys.executable,
            str(ROOT / "benchmarks" / f"{name}.py"),
            *argv,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise SystemExit(f"{name}.py failed:\n{done.stderr[-3000:]}")
    return _demoted(done.stdout.strip())


def _demoted(markdown: str) -> str:
    """Headings one level down, so a script's ``## …`` stays inside its area's section."""
    return re.sub(r"^(#+) ", r"#\1 ", markdown, flags=re.MULTILINE)


def area_crosskings(args: argparse.Namespace) -> str:
    scoring = _script("crosskings_bench", ["scoring"])
    sizes = [str(s) for s in args.sizes]
    exact = _script(
        "crosskings_bench", ["exact", "--sizes", *sizes, "--per-size", str(args.per_size)]
    )
    return f"{scoring}\n\n{exact}"


def area_vision(args: argparse.Namespace) -> str:
    argv = [
        "--skip",
        "real",
        "synthetic",
        "tilted",
        "rendered",
        "printed",
        "glyphs",
        "folds",
        "--runs",
        str(args.runs),
    ]
    if args.shared:
        argv += ["--shared", args.shared]
    # Not nice: its figures are wall-clock seconds against the absolute targets.
    return _script("vision_bench", argv, nice=False)


def area_web(args: argparse.Namespace) -> str:
    argv = ["--seconds", str(args.seconds), "--workers", str(args.workers)]
    now = _script("web_bench", argv)
    if args.no_baseline:
        return now
    tree = baseline_tree(args.baseline)
    done = subprocess.run(
        ["nice", sys.executable, str(tree / "benchmarks" / "web_bench.py"), *argv],
        cwd=ROOT,
        env=in_tree(tree),
        capture_output=True,
        text=True,
        check=False,
    )
    ok = done.returncode == 0
    then = _demoted(done.stdout.strip()) if ok else f"failed: {done.stderr[-2000:]}"
    return (
        f"This tree:\n\n{now}\n\nBaseline {args.baseline} (its own "
        f"`benchmarks/web_bench.py`, run right after):\n\n{then}"
    )


AREAS: dict[str, Callable[[argparse.Namespace], str]] = {
    "cli": area_cli,
    "poker": area_poker,
    "crosskings": area_crosskings,
    "vision": area_vision,
    "web": area_web,
}


# --- RESULTS.md -------------------------------------------------------------------------------


BEGIN, END = "<!-- run.py: from here -->", "<!-- run.py: to here -->"


def write_section(area: str, body: str) -> None:
    """Put ``body`` in the ``## AREA`` section of RESULTS.md; the other sections stay as they are.

    A section holding the two markers ``BEGIN`` and ``END`` keeps what lies outside them (notes
    written by hand: what a figure means, why an old one was not reproduced); otherwise the
    whole section is replaced (or appended, when there is none).
    """
    text = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else "# Benchmark results\n"
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip() == f"## {area}"), None)
    generated = [BEGIN, "", *body.strip().splitlines(), "", END]
    if start is None:
        lines = [*lines, "", f"## {area}", "", *generated, ""]
    else:
        end = next(
            (i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines)
        )
        section = lines[start:end]
        if BEGIN in section and END in section:
            a, b = section.index(BEGIN), section.index(END)
            section = [*section[:a], *generated, *section[b + 1 :]]
        else:
            section = [f"## {area}", "", *generated, ""]
        lines = [*lines[:start], *section, *lines[end:]]
    RESULTS.write_text("\n".join(lines).rstrip() + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("area", choices=sorted(AREAS))
    parser.add_argument("--write", action="store_true", help="replace the area in RESULTS.md")
    parser.add_argument("--baseline", default=None, help="commit to compare with")
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument("--runs", type=int, default=7, help="cli, vision: runs per figure")
    parser.add_argument("--hands", type=int, default=20_000, help="poker: hands per loop")
    parser.add_argument("--repeat", type=int, default=15, help="poker: rounds")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--sizes", type=int, nargs="+", default=[12, 14, 16])
    parser.add_argument("--per-size", type=int, default=5, help="crosskings: positions per size")
    parser.add_argument("--shared", default=None, help="vision: the shared data folder")
    parser.add_argument("--seconds", type=float, default=5.0, help="web: seconds per scenario")
    parser.add_argument("--workers", type=int, default=1, help="web: server processes")
    args = parser.parse_args(argv)
    args.baseline = args.baseline or BASELINES.get(args.area, BASELINE)
    given = " ".join(shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:]))
    command = "python benchmarks/run.py " + given.replace("--write", "").strip()
    before = machine_line()
    buffer = io.StringIO()
    with redirect_stdout(buffer):
        body = AREAS[args.area](args)
    after = " ".join(f"{x:.2f}" for x in os.getloadavg())
    report = f"Command: `{command}`\n\n{before} (after: {after})\n\n{body}"
    print(report)
    if args.write:
        write_section(args.area, report)
        print(f"\n(wrote the {args.area} section of {RESULTS.relative_to(ROOT)})")


if __name__ == "__main__":
    main()
