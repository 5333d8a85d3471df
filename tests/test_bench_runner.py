"""benchmarks/run.py rewrites only its own area's section of RESULTS.md (no timing here)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

RUNNER = Path(__file__).resolve().parents[1] / "benchmarks" / "run.py"


@pytest.fixture
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_runner", RUNNER)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "RESULTS", tmp_path / "RESULTS.md")
    return module


def test_write_section_replaces_its_own_and_keeps_the_others(runner: ModuleType) -> None:
    begin, end = runner.BEGIN, runner.END
    runner.RESULTS.write_text(
        "# Benchmark results\n\nintro\n\n## cli\n\nold cli\n\n"
        f"## vision\n\nnote above\n\n{begin}\n\nold table\n\n{end}\n\nnote below\n\n"
        "## tranca\n\nkept as is\n"
    )
    runner.write_section("cli", "new cli table")
    runner.write_section("vision", "new vision table")
    runner.write_section("poker", "poker table")
    assert runner.RESULTS.read_text() == (
        f"# Benchmark results\n\nintro\n\n## cli\n\n{begin}\n\nnew cli table\n\n{end}\n\n"
        f"## vision\n\nnote above\n\n{begin}\n\nnew vision table\n\n{end}\n\nnote below\n\n"
        f"## tranca\n\nkept as is\n\n## poker\n\n{begin}\n\npoker table\n\n{end}\n"
    )


def test_tables_put_numbers_right_and_words_left(runner: ModuleType) -> None:
    text = runner.table(["what", "× peer"], [["evaluate", 3.14159], ["rank", float("nan")]])
    assert text.splitlines() == [
        "| what     | × peer |",
        "|----------|-------:|",
        "| evaluate |   3.14 |",
        "| rank     |      — |",
    ]
