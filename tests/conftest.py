"""Shared test helpers, and the rule that CI runs every test.

Tests that need something a new user may lack (``../shared``, PostgreSQL, Chromium, an extra's
third-party package) call :func:`need` or :func:`need_module`: they skip with a message on a
developer's machine, but fail when ``CARDSCORE_REQUIRE_ALL=1`` (set by ``.ci/run``), so CI always
runs them. Under ``CARDSCORE_REQUIRE_ALL=1`` the run also fails if any test was skipped for a
reason not in :data:`ALLOWED_SKIPS` (a ``pytest.skip`` or ``importorskip`` written past
:func:`need`), and cardscore's own packages are never imported through ``importorskip``: a
broken import inside cardscore is an error, never a skip.

``CARDSCORE_TEST_COUNTS=FILE`` writes the closing count (``tests: N passed, N failed, N
skipped``) to FILE, for ``.ci/run`` to print last.
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("CARDSCORE_SHARED", ROOT.parent / "shared"))
REQUIRE_ALL = "CARDSCORE_REQUIRE_ALL"

# The only skip reasons CI accepts: reason (a substring of the skip message) -> why it is
# acceptable there. Everything CI needs it installs, so no skip is expected; add an entry only
# for a test that cannot run on CI's machine by its nature, and say why.
ALLOWED_SKIPS: dict[str, str] = {}


def require_all() -> bool:
    return os.environ.get(REQUIRE_ALL) == "1"


def need(available: bool, why: str) -> None:
    """Skip (or, in CI, fail) the calling test, or module, unless ``available``."""
    if available:
        return
    if require_all():
        pytest.fail(f"required in CI but missing: {why}", pytrace=False)
    pytest.skip(why, allow_module_level=True)


def need_module(name: str, why: str) -> ModuleType:
    """Import a third-party module an extra installs, or :func:`need` it (fail in CI).

    Never for cardscore's own code: a broken import there must fail the run.
    """
    if name == "cardscore" or name.startswith("cardscore."):
        raise ValueError(f"import {name!r} directly: cardscore's own code is never optional")
    try:
        return importlib.import_module(name)
    except ImportError as error:
        need(False, f"{why} ({error})")
        raise  # unreachable: need() skipped or failed


@pytest.fixture
def shared() -> Path:
    """The project's ``../shared`` folder (seeds and data)."""
    need((SHARED / "seeds").is_dir(), f"../shared not found at {SHARED} (set CARDSCORE_SHARED)")
    return SHARED


# --- skips CI does not accept -----------------------------------------------------------------


def _skip_reason(report: pytest.CollectReport | pytest.TestReport) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple):  # (file, line, "Skipped: why")
        return str(longrepr[2]).removeprefix("Skipped: ")
    return str(longrepr)


def unexplained_skips(reports: list[pytest.CollectReport | pytest.TestReport]) -> list[str]:
    """``"nodeid: reason"`` for each skip whose reason is not in :data:`ALLOWED_SKIPS`."""
    bad = []
    for report in reports:
        reason = _skip_reason(report)
        if not any(allowed in reason for allowed in ALLOWED_SKIPS):
            bad.append(f"{report.nodeid}: {reason}")
    return bad


_session: pytest.Session | None = None


def pytest_sessionstart(session: pytest.Session) -> None:
    global _session
    _session = session


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, exitstatus: int, config: pytest.Config
) -> None:
    """Fail the run on unexplained skips (under ``CARDSCORE_REQUIRE_ALL=1``); write the count."""
    if hasattr(config, "workerinput"):  # an xdist worker: the controller sees every report
        return
    stats = terminalreporter.stats
    skipped = [r for r in stats.get("skipped", []) if getattr(r, "skipped", False)]
    if require_all():
        bad = unexplained_skips(skipped)
        if bad:
            terminalreporter.section("skips not allowed in CI", sep="=", red=True, bold=True)
            for line in bad:
                terminalreporter.line(line)
            terminalreporter.line(
                f"{REQUIRE_ALL}=1: every test must run; allow a skip only in "
                "tests/conftest.py ALLOWED_SKIPS, with its reason"
            )
            quiet = (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED)
            if _session is not None and _session.exitstatus in quiet:
                _session.exitstatus = pytest.ExitCode.TESTS_FAILED
    counts = os.environ.get("CARDSCORE_TEST_COUNTS")
    if counts:
        passed = len([r for r in stats.get("passed", []) if r.when == "call"])
        failed = len(stats.get("failed", [])) + len(stats.get("error", []))
        Path(counts).write_text(
            f"tests: {passed} passed, {failed} failed, {len(skipped)} skipped\n", encoding="utf-8"
        )
