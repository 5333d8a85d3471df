"""Every example in the README runs: ``pycon`` blocks as doctests, ``console`` blocks through the CLI."""

from __future__ import annotations

import doctest
import re
import shlex

import pytest

from cardscore.cli import main
from tests.conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```(pycon|console)\n(.*?)```", README, re.DOTALL)
CONSOLE = [body for kind, body in BLOCKS if kind == "console"]
PYCON = [body for kind, body in BLOCKS if kind == "pycon"]


def _commands(body: str) -> list[tuple[str, str]]:
    """Split a console block into (command, expected output) pairs."""
    pairs: list[tuple[str, str]] = []
    for line in body.splitlines(keepends=True):
        if line.startswith("$ "):
            pairs.append((line[2:].strip(), ""))
        elif pairs:
            pairs[-1] = (pairs[-1][0], pairs[-1][1] + line)
    return pairs


def test_readme_has_examples() -> None:
    assert CONSOLE
    assert PYCON


@pytest.mark.parametrize(
    ("command", "expected"), [pair for body in CONSOLE for pair in _commands(body)]
)
def test_console_example(
    command: str, expected: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("COLUMNS", "200")
    argv = shlex.split(command)
    assert argv[0] == "cardscore"
    assert main(argv[1:]) == 0
    out, _ = capsys.readouterr()
    assert [line.rstrip() for line in out.splitlines()] == [
        line.rstrip() for line in expected.splitlines()
    ]


@pytest.mark.parametrize("number", range(len(PYCON)))
def test_python_example(number: int) -> None:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(PYCON[number], {}, f"README[{number}]", "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0, f"README example {number} failed (see output above)"
