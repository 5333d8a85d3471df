"""docs/tranca-rules.md: every Python example runs as a doctest."""

from __future__ import annotations

import doctest
import re

import pytest

from tests.conftest import ROOT

DOC = (ROOT / "docs" / "tranca-rules.md").read_text(encoding="utf-8")
PYCON = re.findall(r"```pycon\n(.*?)```", DOC, re.DOTALL)


def test_the_rules_document_has_examples() -> None:
    assert PYCON


@pytest.mark.parametrize("number", range(len(PYCON)))
def test_python_example(number: int) -> None:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(PYCON[number], {}, f"tranca-rules[{number}]", "tranca-rules.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0, f"docs/tranca-rules.md example {number} failed (see above)"
