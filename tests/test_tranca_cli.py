"""``cardscore tranca score`` and ``cardscore tranca match`` from the command line."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from cardscore.cli import main
from cardscore.tranca import TERMS, parse_round, score_round
from tests.conftest import ROOT
from tests.test_tranca_round import SEED_DOLLARS, SEED_HAND, SEED_MELDS, SEED_REASONS, seed_round

EXAMPLES = ROOT / "examples" / "tranca"
ROUNDS = [str(EXAMPLES / f"round{n}.json") for n in (1, 2, 3)]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, name: str, data: object) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_score_prints_every_term_per_team(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "tranca", "score", ROUNDS[0])
    assert (code, err) == (0, "")
    lines = [line.rstrip() for line in out.splitlines()]
    assert lines[0] == "Ana & Bia"
    assert "Caio & Duda" in lines
    for term in ("table_cards", "dirty_canastras", "dollar_bonus", "morto", "trancas"):
        assert any(line.startswith(term) for line in lines)
    totals = [line.split() for line in lines if line.startswith("total")]
    assert totals == [["total", "410"], ["total", "525"]]
    assert "4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 2♣" in out
    assert "pile of 7 A (clean)" in out


def test_score_json_is_the_api_as_dict(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "tranca", "score", ROUNDS[0], "--json")
    assert code == 0
    data = json.loads(out)
    round_ = parse_round(json.loads(Path(ROUNDS[0]).read_text(encoding="utf-8")))
    assert data == score_round(round_).as_dict()
    assert [t["name"] for t in data["teams"]] == ["Ana & Bia", "Caio & Duda"]
    assert list(data["teams"][0]) == ["name", "total", "terms"]
    assert {term["term"] for term in data["teams"][0]["terms"]} <= set(TERMS)
    assert data["teams"][0]["total"] == 410


def test_score_reads_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(Path(ROUNDS[1]).read_text(encoding="utf-8")))
    code, out, _ = run(capsys, "tranca", "score", "-", "--json")
    assert code == 0
    assert [t["total"] for t in json.loads(out)["teams"]] == [1330, 540]


def test_seed_sample_exits_2_with_one_line_per_reason(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(tmp_path, "seed.json", seed_round(SEED_MELDS, SEED_DOLLARS, SEED_HAND))
    code, out, err = run(capsys, "tranca", "score", path)
    assert (code, out) == (2, "")
    assert err.splitlines() == [f"cardscore: error: {reason}" for reason in SEED_REASONS]


@pytest.mark.parametrize(
    ("content", "line"),
    [
        (
            "{",
            "{path}: not valid JSON (Expecting property name enclosed in double quotes at line 1 "
            "column 2)",
        ),
        ("[]", "a round is a JSON object with players and teams, not list"),
    ],
)
def test_unreadable_round_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str, line: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    code, out, err = run(capsys, "tranca", "score", str(path))
    assert (code, out) == (2, "")
    assert err.splitlines() == ["cardscore: error: " + line.replace("{path}", str(path))]


def test_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, "tranca", "score", str(tmp_path / "nope.json"))
    assert (code, out) == (2, "")
    assert err.startswith("cardscore: error: ")
    assert "nope.json: cannot read it" in err
    assert len(err.splitlines()) == 1


def test_edges_only_flag(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    nines = {
        "players": 2,
        "teams": [
            {"name": "A", "melds": [["9h", "9s", "9d"]], "took_morto": True, "went_out": False},
            {"name": "B", "took_morto": True, "went_out": False},
        ],
    }
    path = write(tmp_path, "nines.json", nines)
    assert run(capsys, "tranca", "score", path, "--json")[0] == 0
    code, out, err = run(capsys, "tranca", "score", path, "--edges-only")
    assert (code, out) == (2, "")
    assert "'edges only'" in err


def test_match_prints_running_totals_and_winner(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "tranca", "match", *ROUNDS, "--target", "2000")
    assert (code, err) == (0, "")
    lines = [line.split() for line in out.splitlines()]
    assert lines[1] == ["1", "410", "(+410)", "525", "(+525)"]
    assert lines[2] == ["2", "1,740", "(+1,330)", "1,065", "(+540)"]
    assert lines[3] == ["3", "2,200", "(+460)", "750", "(-315)"]
    assert out.splitlines()[4] == "winner: Ana & Bia, 2,200 to 750 (target 2,000)"
    code, out, _ = run(capsys, "tranca", "match", *ROUNDS)
    assert out.splitlines()[-1] == "no winner yet: the target is 3,500"


def test_match_json_and_stats(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "tranca", "match", *ROUNDS, "--target", "2000", "--json", "--stats")
    assert code == 0
    data = json.loads(out)
    assert data["winner"] == "Ana & Bia"
    assert data["target"] == 2000
    assert data["totals"] == {"Ana & Bia": 2200, "Caio & Duda": 750}
    assert [r["number"] for r in data["rounds"]] == [1, 2, 3]
    assert data["stats"]["teams"][0]["rounds_won"] == 2
    code, out, _ = run(capsys, "tranca", "match", *ROUNDS, "--stats")
    assert "trancas" in out
    assert "Duda" in out


def test_match_problems_name_their_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    renamed = json.loads(Path(ROUNDS[1]).read_text(encoding="utf-8"))
    renamed["teams"][1]["name"] = "Caio & Dani"
    bad = write(tmp_path, "r2.json", renamed)
    broken = write(tmp_path, "r3.json", {"players": 4})
    code, out, err = run(capsys, "tranca", "match", ROUNDS[0], bad, broken)
    assert (code, out) == (2, "")
    assert err.splitlines() == [
        f"cardscore: error: {broken}: teams must be a non-empty list of teams, not None"
    ]
    code, out, err = run(capsys, "tranca", "match", ROUNDS[0], bad, ROUNDS[2])
    assert (code, out) == (2, "")
    assert err.splitlines() == [
        f"cardscore: error: {bad}: the round's teams ['Ana & Bia', 'Caio & Dani'] differ from "
        "the match's ['Ana & Bia', 'Caio & Duda']; teams keep their names and order"
    ]


def test_rounds_after_the_end_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "tranca", "match", *ROUNDS, "--target", "1000")
    assert (code, out) == (2, "")
    assert err.splitlines() == [
        f"cardscore: error: {ROUNDS[2]}: the match already ended with round 2 (Ana & Bia won)"
    ]


def test_help_and_games(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "tranca", "--help")
    assert code == 0
    assert "score" in out
    assert "match" in out
    code, out, _ = run(capsys, "games", "--json")
    assert "tranca" in [g["name"] for g in json.loads(out)]
    code, _, err = run(capsys, "tranca", "match")
    assert code == 2
    assert "Missing argument" in err
