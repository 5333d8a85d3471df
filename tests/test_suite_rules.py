"""The suite's own rules: under CI nothing skips quietly, and a broken import of cardscore fails.

These run pytest in a subprocess, on a few of the suite's own files or on a small file written
for the purpose, with ``CARDSCORE_REQUIRE_ALL=1`` as ``.ci/run`` sets it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import ALLOWED_SKIPS, ROOT

# Imported first thing by Python (PYTHONPATH): makes ``import cardscore.tranca`` fail as a
# syntax error or a missing module inside the package would.
BREAK_TRANCA = """
import importlib.abc, sys

class _Broken(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "cardscore.tranca":
            raise ModuleNotFoundError("No module named 'cardscore.tranca._deliberately_broken'")
        return None

sys.meta_path.insert(0, _Broken())
"""


def _pytest(args: list[str], tmp_path: Path, *, broken: bool = False) -> tuple[int, str]:
    env = {**os.environ, "CARDSCORE_REQUIRE_ALL": "1"}
    env.pop("CARDSCORE_TEST_COUNTS", None)  # the outer run's count file (CI) is not ours
    env.pop("PYTEST_XDIST_WORKER", None)
    env.pop("PYTEST_ADDOPTS", None)
    if broken:
        (tmp_path / "sitecustomize.py").write_text(BREAK_TRANCA, encoding="utf-8")
        env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), env.get("PYTHONPATH", "")])
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", "-q", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return run.returncode, run.stdout + run.stderr


def test_a_broken_import_of_cardscore_tranca_fails_the_run(tmp_path: Path) -> None:
    files = ["tests/web/test_tranca_web.py", "tests/web/test_incremental.py"]
    files += ["tests/test_tranca_round.py", "tests/web/test_golden.py"]
    code, out = _pytest(["--collect-only", *files], tmp_path, broken=True)
    assert code != 0, out
    assert "cardscore.tranca._deliberately_broken" in out
    assert not re.search(r"\d+ skipped", out), out
    # The same files collect cleanly when nothing is broken.
    code, out = _pytest(["--collect-only", *files], tmp_path / "clean")
    assert code == 0, out


# The outer run's settings the inner runs must not inherit (CI sets both).
OUTER = ("CARDSCORE_REQUIRE_ALL", "CARDSCORE_TEST_COUNTS")

SKIPPING = """
import pytest

def test_passes():
    pass

def test_skips():
    pytest.skip("an optional thing is missing")
"""


def _run_skipping(tmp_path: Path, extra: str = "", **env: str) -> tuple[int, str]:
    """pytest on a small file that skips, with the suite's hooks (tests/conftest.py)."""
    (tmp_path / "conftest.py").write_text("from tests.conftest import *  # noqa\n", "utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\n", "utf-8")
    (tmp_path / "test_skips.py").write_text(SKIPPING + extra, "utf-8")
    where = ["-c", str(tmp_path / "pytest.ini"), "--rootdir", str(tmp_path), str(tmp_path)]
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "-q", *where],
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k not in OUTER} | env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return run.returncode, run.stdout + run.stderr


def test_a_skip_not_in_the_allow_list_fails_the_run_under_ci(tmp_path: Path) -> None:
    counts = tmp_path / "counts.txt"
    code, out = _run_skipping(
        tmp_path, CARDSCORE_REQUIRE_ALL="1", CARDSCORE_TEST_COUNTS=str(counts)
    )
    assert code == 1, out
    assert "skips not allowed in CI" in out
    assert "test_skips.py::test_skips: an optional thing is missing" in out
    assert counts.read_text("utf-8") == "tests: 1 passed, 0 failed, 1 skipped\n"
    # A developer's run (no CARDSCORE_REQUIRE_ALL) skips and passes.
    code, out = _run_skipping(tmp_path, CARDSCORE_TEST_COUNTS=str(counts))
    assert code == 0, out
    assert "1 passed, 1 skipped" in out


def test_a_module_skipped_at_collection_fails_the_run_under_ci(tmp_path: Path) -> None:
    extra = '\noptional = pytest.importorskip("no_such_module_anywhere")\n'
    code, out = _run_skipping(tmp_path, extra, CARDSCORE_REQUIRE_ALL="1")
    assert code == 1, out
    assert "no_such_module_anywhere" in out
    code, out = _run_skipping(tmp_path, extra)
    assert code == 5, out  # pytest's "no tests ran": the module was skipped whole
    assert "1 skipped" in out


def test_need_fails_under_ci_and_skips_elsewhere(tmp_path: Path) -> None:
    extra = (
        "\nfrom tests.conftest import need\n\n"
        "def test_needs():\n    need(False, 'PostgreSQL is not running')\n"
    )
    code, out = _run_skipping(tmp_path, extra, CARDSCORE_REQUIRE_ALL="1")
    assert code == 1, out
    assert "required in CI but missing: PostgreSQL is not running" in out
    code, out = _run_skipping(tmp_path, extra)
    assert (code, "1 passed, 2 skipped" in out) == (0, True), out


def test_no_test_imports_cardscore_through_importorskip() -> None:
    pattern = re.compile(r"importorskip\(\s*['\"]cardscore")
    offenders = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "tests").rglob("*.py")
        if pattern.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []


def test_every_allowed_skip_says_why() -> None:
    assert all(reason and why.strip() for reason, why in ALLOWED_SKIPS.items())
