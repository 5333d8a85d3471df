"""Every command's --json against the shapes docs/json.md documents; that guide's examples run."""

from __future__ import annotations

import doctest
import json
import re
import shlex
from typing import Any

import pytest

from cardscore.cli import main
from tests.conftest import ROOT
from tests.test_readme import _commands

GUIDE = (ROOT / "docs" / "json.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```(pycon|console)\n(.*?)```", GUIDE, re.DOTALL)
CODE = re.compile(r"(?:[2-9TJQKA][shdc])\Z")
ROUND = str(ROOT / "examples" / "tranca" / "round1.json")


def check_score(score: Any) -> None:
    """``{"total", "terms": [{"term", "points", "cards", "note"}]}``, terms adding to total."""
    assert isinstance(score["total"], int)
    assert score["terms"], "a score has at least one term"
    for term in score["terms"]:
        assert set(term) == {"term", "points", "cards", "note"}
        assert re.fullmatch(r"[a-z_]+", term["term"])
        assert isinstance(term["points"], int)
        assert isinstance(term["note"], str)
        assert all(CODE.match(code) for code in term["cards"]), term
    assert sum(term["points"] for term in score["terms"]) == score["total"]


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    code = main([*args, "--json"])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    return json.loads(out)


def test_gongzhu_scores(capsys: pytest.CaptureFixture[str]) -> None:
    for pile in ("G2P6D4", "23456789TJQKAPGD", "", "234"):
        data = run_json(capsys, "gongzhu", "score", pile or "--cards", *([] if pile else ["2c"]))
        check_score(data)
        assert all(CODE.match(code) for code in data["cards"])
    hand = run_json(capsys, "gongzhu", "hand", "23456789TJQK", "AP", "G", "D")
    for score in hand["scores"]:
        check_score(score)


def test_crosskings_scores(capsys: pytest.CaptureFixture[str]) -> None:
    for cards in (["2s", "3s", "4s", "kh"], ["as", "3d"], ["ks", "kh", "kd", "kc", "5s"]):
        data = run_json(capsys, "crosskings", "score", *cards)
        check_score(data)
        assert all(CODE.match(code) for code in [*data["cards"], *data["kings"]])


def test_tranca_scores_and_matches(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "tranca", "score", ROUND)
    for team in data["teams"]:
        assert set(team) == {"name", "total", "terms"}
        check_score(team)
    match = run_json(capsys, "tranca", "match", ROUND)
    assert set(match) >= {"target", "teams", "rounds", "totals", "winner"}
    assert match["rounds"][0]["totals"] == {t["name"]: t["total"] for t in data["teams"]}


def test_poker_answers(capsys: pytest.CaptureFixture[str]) -> None:
    ranked = run_json(capsys, "poker", "rank", "AsAh", "KdKc2h")
    assert set(ranked) == {"cards", "best", "rank", "category", "description"}
    assert ranked["cards"] == ["As", "Ah", "Kd", "Kc", "2h"]
    compared = run_json(capsys, "poker", "compare", "As Ad Kc Kd 2h", "Ah Ac Ks Kh 2d")
    assert set(compared) == {"hands", "winners"}
    assert set(compared["hands"][0]) == {
        *("cards", "rank", "category", "description", "percentile", "wins")
    }
    odds = run_json(capsys, "poker", "odds", "8s 8h Kc 5d 2h", "-d", "Kc 5d 2h")
    assert odds["kept"] == ["8s", "8h"]


@pytest.mark.parametrize(
    ("command", "expected"),
    [pair for kind, body in BLOCKS if kind == "console" for pair in _commands(body)],
)
def test_guide_console_examples(
    command: str, expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = shlex.split(command)
    assert args[0] == "cardscore"
    assert main(args[1:]) == 0
    assert capsys.readouterr().out == expected


SOLVER = (ROOT / "docs" / "crosskings-solver.md").read_text(encoding="utf-8")
PYCON = [body for kind, body in BLOCKS if kind == "pycon"]
PYCON += re.findall(r"```pycon\n(.*?)```", SOLVER, re.DOTALL)


@pytest.mark.parametrize("number", range(len(PYCON)))
def test_guide_python_examples(number: int) -> None:
    """docs/json.md's examples, and docs/crosskings-solver.md's."""
    test = doctest.DocTestParser().get_doctest(PYCON[number], {}, f"docs[{number}]", "docs", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0
