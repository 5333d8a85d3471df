from __future__ import annotations

import json

import pytest

from cardscore import __version__
from cardscore.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_issue_example_prints_800(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "gongzhu", "score", "23456789TJQKAPGD") == (0, "800\n", "")


def test_cards_flag_reads_standard_cards(capsys: pytest.CaptureFixture[str]) -> None:
    # JD is the goat with --cards, but ♥J + ♣10 as a pile string.
    assert run(capsys, "gongzhu", "score", "--cards", "AH", "QS", "JD", "10C")[1] == "-100\n"
    assert run(capsys, "gongzhu", "score", "JD")[1] == "-40\n"
    assert run(capsys, "gongzhu", "score", "--cards", "2C", "10C", "as")[1] == "50\n"


def test_json_uses_terms_as_keys(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "gongzhu", "score", "G2P6D4", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["total"] == -20
    assert [(t["term"], t["points"], t["cards"]) for t in data["terms"]] == [
        ("hearts", -10, ["6h"]),
        ("all_hearts", 0, []),
        ("pig", -100, ["Qs"]),
        ("goat", 100, ["Jd"]),
        ("doubler", -10, ["Tc"]),
    ]
    assert data["terms"][-1]["note"] == "doubles the other points"


def test_explain_shows_every_term(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "gongzhu", "score", "--explain", "23456789TJQKAPGD")
    assert code == 0
    for word in ("hearts", "all_hearts", "pig", "goat", "doubler", "total", "800"):
        assert word in out


def test_house_rules_from_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        run(capsys, "gongzhu", "score", "--pig-plus-with-all-hearts", "23456789TJQKAP")[1]
        == "300\n"
    )
    assert run(capsys, "gongzhu", "score", "--low-hearts-double", "2D")[1] == "0\n"


@pytest.mark.parametrize(
    ("args", "lines"),
    [
        (["gongzhu", "score", "2x5y"], ["symbol 2 'x'", "symbol 4 'y'"]),
        (["gongzhu", "score", "55"], ["'5' (5♥) appears 2 times"]),
        (["gongzhu", "score", "--cards", "QS", "Qs"], ["Q♠ appears 2 times"]),
        (["gongzhu", "score", "--cards", "QS", "Zz", "11h"], ["card 2 'Zz'", "card 3 '11h'"]),
        (["gongzhu", "score", "--nope"], ["No such option"]),
        (["gongzhu", "hand", "P", "P", "", "x"], ["pile 4: symbol 1 'x'"]),
        (["gongzhu", "hand", "P", "P23456789TJQKA", "G", "D"], ["Q♠ is in piles 1 and 2"]),
        (["gongzhu", "hand", "2", "3", "", ""], ["the piles lack 4♥ 5♥"]),
        (["nosuchgame"], ["No such command"]),
    ],
)
def test_bad_input_exits_2_with_one_line_per_problem(
    capsys: pytest.CaptureFixture[str], args: list[str], lines: list[str]
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2
    assert out == ""
    err_lines = err.splitlines()
    assert len(err_lines) == len(lines)
    for line, expected in zip(err_lines, lines, strict=True):
        assert line.startswith("cardscore: error: ")
        assert expected in line


def test_hand_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "gongzhu", "hand", "23456789TJQK", "AP", "G", "D", "--json")
    assert code == 0
    assert [p["total"] for p in json.loads(out)["scores"]] == [-150, -150, 100, 50]


def test_version_help_and_games(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--version")
    assert code == 0
    assert __version__ in out
    code, out, _ = run(capsys, "gongzhu", "score", "--help")
    assert code == 0
    assert "--cards" in out
    code, out, _ = run(capsys, "games", "--json")
    assert "gongzhu" in [g["name"] for g in json.loads(out)]
    code, out, _ = run(capsys)
    assert code == 0
    assert "games" in out


@pytest.mark.parametrize(
    ("args", "codes"),
    [
        (["gongzhu", "hand", "--json", "2", "3", "", ""], ["piles_lack"]),
        (["gongzhu", "score", "--json", "2x5y"], ["not_pile_notation", "not_pile_notation"]),
        (["poker", "rank", "--json", "Ah Kx"], ["not_a_card_at"]),
        (["gongzhu", "score", "--json", "--nope"], ["usage"]),
    ],
)
def test_json_errors_are_problem_objects_on_stderr(
    capsys: pytest.CaptureFixture[str], args: list[str], codes: list[str]
) -> None:
    code, out, err = run(capsys, *args)
    assert (code, out) == (2, "")
    problems = json.loads(err)["problems"]
    assert [p["code"] for p in problems] == codes
    for problem in problems:
        assert set(problem) == {"code", "params", "message"}
        assert all(isinstance(v, str | int) for v in problem["params"].values())
    first = problems[0]
    if first["code"] == "not_pile_notation":
        assert first["params"] == {"position": 2, "symbol": "x"}
        assert first["message"].startswith("symbol 2 'x' is not in the pile notation")
