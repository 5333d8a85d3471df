"""Shared test helpers.

Tests that need something a new user may lack (``../shared``, PostgreSQL, Chromium) call
:func:`need`: it skips with a message on a developer's machine, but fails when
``CARDSCORE_REQUIRE_ALL=1`` (set by ``.ci/run``), so CI always runs them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("CARDSCORE_SHARED", ROOT.parent / "shared"))


def need(available: bool, why: str) -> None:
    """Skip (or, in CI, fail) the calling test unless ``available``."""
    if available:
        return
    if os.environ.get("CARDSCORE_REQUIRE_ALL") == "1":
        pytest.fail(f"required in CI but missing: {why}")
    pytest.skip(why)


@pytest.fixture
def shared() -> Path:
    """The project's ``../shared`` folder (seeds and data)."""
    need((SHARED / "seeds").is_dir(), f"../shared not found at {SHARED} (set CARDSCORE_SHARED)")
    return SHARED
