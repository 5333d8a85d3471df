"""Golden files: the totals chart and a Tranca match as the API answers it.

Tests never rewrite them: ``scripts/update-goldens`` does, after a deliberate change, and
prints the diff to review (tests/goldens.py makes each file's content).
"""

from __future__ import annotations

from tests import goldens


def test_totals_chart_svg() -> None:
    goldens.check("web_totals_chart.svg")


def test_a_tranca_match_as_the_api_answers_it() -> None:
    goldens.check("web_tranca_match.json")
