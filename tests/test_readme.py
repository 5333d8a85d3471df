"""Every example in the README and the guides in docs/ runs: ``pycon`` blocks as doctests,
``console`` blocks through the CLI (each ``$ cardscore …`` line, then its exact output)."""

from __future__ import annotations

import doctest
import re
import shlex

import pytest

from cardscore.cli import main
from tests.conftest import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCKS = [
    (page.relative_to(ROOT).as_posix(), kind, body)
    for page in PAGES
    for kind, body in re.findall(
        r"```(pycon|console)\n(.*?)```", page.read_text("utf-8"), re.DOTALL
    )
]


def _commands(body: str) -> list[tuple[str, str]]:
    """Split a console block into (command, expected output) pairs."""
    pairs: list[tuple[str, str]] = []
    for line in body.splitlines(keepends=True):
        if line.startswith("$ "):
            pairs.append((line[2:].strip(), ""))
        elif pairs:
            pairs[-1] = (pairs[-1][0], pairs[-1][1] + line)
    return pairs


CONSOLE = [
    pytest.param(command, expected, id=f"{page}: {command}")
    for page, kind, body in BLOCKS
    if kind == "console"
    for command, expected in _commands(body)
]
PYCON = [
    pytest.param(page, body, id=f"{page}[{number}]")
    for page in dict.fromkeys(page for page, _, _ in BLOCKS)
    for number, body in enumerate(b for p, kind, b in BLOCKS if p == page and kind == "pycon")
]


def test_readme_has_examples() -> None:
    readme = {kind for page, kind, _ in BLOCKS if page == "README.md"}
    assert readme == {"pycon", "console"}


@pytest.mark.parametrize(("command", "expected"), CONSOLE)
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


@pytest.mark.parametrize(("page", "body"), PYCON)
def test_python_example(page: str, body: str) -> None:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(body, {}, page, page, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0, f"an example in {page} failed (see output above)"
