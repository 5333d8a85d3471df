"""Mutation testing of the scoring modules: what share of deliberate bugs do the tests catch?

    nice -n 19 taskset -c 0 python benchmarks/mutation.py          # all five modules
    python benchmarks/mutation.py --module poker/betting.py        # one module
    python benchmarks/mutation.py --survivors                      # and list each survivor's diff

mutmut (the ``mutation`` extra: ``pip install -e '.[mutation]'``) changes one operator, constant
or call at a time in each module below, and runs the tests that reach the changed function
(mutmut maps tests to functions in a first, instrumented run of the listed test files). A
mutant the tests still pass is a bug they would miss, or an equivalent change (benchmarks/RESULTS.md
lists those). The work happens in a scratch copy of ``src/`` and ``tests/`` (``--work``, by
default a temporary folder), on one process: the machine is shared. Not part of CI.

Prints a table per module and the summary line ``mutants killed: NN.N% (K of N)``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Module (under src/cardscore) -> the fast test files that check it.
MODULES: dict[str, list[str]] = {
    "tranca/scoring.py": [
        "tests/test_tranca_round.py",
        "tests/test_tranca_match.py",
        "tests/test_tranca_properties.py",
        "tests/test_tranca_records.py",
    ],
    "tranca/melds.py": [
        "tests/test_tranca_melds.py",
        "tests/test_tranca_round.py",
        "tests/test_tranca_records.py",
    ],
    "gongzhu/scoring.py": ["tests/test_gongzhu.py", "tests/test_scoring_records.py"],
    "crosskings/scoring.py": ["tests/test_crosskings.py", "tests/test_scoring_records.py"],
    "poker/betting.py": ["tests/test_poker_betting.py", "tests/test_poker_dealer.py"],
}


def _config(modules: list[str]) -> str:
    tests = sorted({t for m in modules for t in MODULES[m]})

    def toml_list(items: list[str]) -> str:
        return "[" + ", ".join(f'"{i}"' for i in items) + "]"

    return (
        "\n[tool.mutmut]\n"
        'source_paths = ["src"]\n'
        'also_copy = ["examples"]\n'
        f"only_mutate = {toml_list(['src/cardscore/' + m for m in modules])}\n"
        f"pytest_add_cli_args_test_selection = {toml_list(tests)}\n"
        # No doctests (the scratch modules carry mutmut's trampolines), no xdist, no cache.
        'pytest_add_cli_args = ["-p", "no:xdist", "-p", "no:cacheprovider", "-o", "addopts=", "-q"]\n'
    )


def _scratch(work: Path, modules: list[str]) -> None:
    """A copy of what the tests need, with mutmut's settings in its pyproject.toml."""
    if work.exists():
        shutil.rmtree(work)
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", ".cache", "*.sqlite3")
    shutil.copytree(ROOT / "src", work / "src", ignore=ignore)
    shutil.copytree(ROOT / "tests", work / "tests", ignore=ignore)
    shutil.copytree(ROOT / "examples", work / "examples", ignore=ignore)  # tests read them
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    (work / "pyproject.toml").write_text(text + _config(modules), encoding="utf-8")


def _results(work: Path) -> dict[str, str]:
    """Mutant name -> status (killed, survived, timeout, ...)."""
    out = subprocess.run(
        [sys.executable, "-m", "mutmut", "results", "--all", "true"],
        cwd=work,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return dict(re.findall(r"^\s+(\S+): (.+)$", out, flags=re.M))


def _module_of(mutant: str, modules: list[str]) -> str:
    for module in modules:
        dotted = "cardscore." + module.removesuffix(".py").replace("/", ".") + "."
        if mutant.startswith(dotted):
            return module
    return "?"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--module", action="append", choices=sorted(MODULES))
    parser.add_argument("--work", type=Path, default=None, help="scratch folder (kept)")
    parser.add_argument("--survivors", action="store_true", help="print each survivor's diff")
    parser.add_argument(
        "--reuse", action="store_true", help="rerun in --work without copying afresh"
    )
    parser.add_argument(
        "--rerun-survivors",
        action="store_true",
        help="with --work: copy the current tests in and test again only the surviving mutants",
    )
    args = parser.parse_args(argv)
    modules = args.module or list(MODULES)
    work = args.work or Path(tempfile.mkdtemp(prefix="cardscore-mutation-"))
    names: list[str] = []
    if args.rerun_survivors:
        ignore = shutil.ignore_patterns("__pycache__")
        for tests in (work / "tests", work / "mutants" / "tests"):
            shutil.copytree(ROOT / "tests", tests, ignore=ignore, dirs_exist_ok=True)
        names = sorted(m for m, s in _results(work).items() if s not in ("killed", "timeout"))
    elif not args.reuse:
        _scratch(work, modules)
    env = {
        **os.environ,
        "CARDSCORE_SHARED": os.environ.get("CARDSCORE_SHARED", str(ROOT.parent / "shared")),
    }
    subprocess.run(
        [sys.executable, "-m", "mutmut", "run", "--max-children", "1", *names],
        cwd=work,
        env=env,
        check=False,
        stdout=subprocess.DEVNULL,
    )
    status = _results(work)
    print(
        f"{'module':<24} {'mutants':>8} {'killed':>8} {'survived':>9} {'other':>6} {'killed %':>9}"
    )
    total: Counter[str] = Counter()
    for module in modules:
        counts = Counter(s for m, s in status.items() if _module_of(m, modules) == module)
        n = sum(counts.values())
        killed = counts["killed"] + counts["timeout"]
        other = n - killed - counts["survived"]
        share = 100 * killed / n if n else 0.0
        print(f"{module:<24} {n:>8} {killed:>8} {counts['survived']:>9} {other:>6} {share:>8.1f}%")
        total.update(counts)
    n = sum(total.values())
    killed = total["killed"] + total["timeout"]
    survivors = sorted(m for m, s in status.items() if s not in ("killed", "timeout"))
    for mutant in survivors:
        print(f"  {status[mutant]}: {mutant}")
        if args.survivors:
            show = subprocess.run(
                [sys.executable, "-m", "mutmut", "show", mutant],
                cwd=work,
                capture_output=True,
                text=True,
                check=False,
            )
            print(show.stdout)
    print(f"mutants killed: {100 * killed / max(n, 1):.1f}% ({killed} of {n})")
    if args.work is None:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
