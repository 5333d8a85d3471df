"""The benchmark scripts' docstring examples run, as the package's do (pytest's doctest
collection covers ``src/`` and ``train/`` only: the scripts import what their area needs)."""

from __future__ import annotations

import doctest
import importlib
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT, need_module

BENCHMARKS = ROOT / "benchmarks"
WITH_EXAMPLES = sorted(p.stem for p in BENCHMARKS.glob("*.py") if ">>> " in p.read_text("utf-8"))
# What each script with examples imports from an extra (the vision extra: OpenCV, Pillow).
NEEDS = {"glyph_decks": ("cv2", "PIL")}


@pytest.fixture
def benchmarks_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    monkeypatch.syspath_prepend(str(ROOT))


def test_the_scripts_with_examples_are_known() -> None:
    assert set(WITH_EXAMPLES) <= set(NEEDS), "name a new script's extra modules in NEEDS"
    assert WITH_EXAMPLES


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_a_benchmark_scripts_examples_run(name: str, benchmarks_on_path: None) -> None:
    for module in NEEDS[name]:
        need_module(module, f"benchmarks/{name}.py needs the vision extra")
    script = importlib.import_module(name)
    failed, tried = doctest.testmod(
        script, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False
    )
    assert tried > 0
    assert failed == 0, f"benchmarks/{name}.py: {failed} of {tried} examples failed (see above)"


def test_the_glyph_section_says_skipped_when_its_fonts_cannot_be_fetched(
    benchmarks_on_path: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Offline and without the fonts, the bench prints a skipped row per design, not a trace."""
    need_module("cv2", "benchmarks/vision_bench.py needs the vision extra")
    need_module("torch", "benchmarks/vision_bench.py needs the train extra")
    import train.fontdecks

    def offline(cache: Path) -> dict[str, Path]:
        raise subprocess.CalledProcessError(100, ["apt-get", "download", "fonts-noto-core"])

    monkeypatch.setattr(train.fontdecks, "font_files", offline)
    bench = importlib.import_module("vision_bench")
    bench.glyphs_rendered(1, 100)
    lines = capsys.readouterr().out.splitlines()
    skipped = [line for line in lines if "skipped" in line]
    assert [line.split(":")[0] for line in skipped] == ["font/symbola", "font/noto-symbols2"]
    assert "apt-get" in skipped[0]
