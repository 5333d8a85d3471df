"""``cardscore crosskings``: score, deal, analyse and play from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardscore.cli import main
from cardscore.crosskings import Bot, Game
from cardscore.crosskings.cli import group


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_score_prints_only_the_score(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "crosskings", "score", "2S", "3S", "4S", "KH") == (0, "4\n", "")
    assert (
        run(capsys, "crosskings", "score", "AC AD 2H 2D 3H 3C 3D 4H 4C 5H 5D KS KH KD KC")[1]
        == "28\n"
    )


def test_score_json_and_explain(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "crosskings", "score", "2s", "3s", "4s", "kh", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["score"] == 4
    assert data["kings"] == {"Kh": "As"}
    code, out, _ = run(capsys, "crosskings", "score", "--explain", "2S", "3S", "4S", "KH")
    assert code == 0
    assert "K♥ stands for A♠" in out
    assert "run" in out


def test_bad_cards_are_reported_one_per_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "crosskings", "score", "9S", "2S", "2S", "Zz")
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert "'Zz'" in lines[0]
    code, out, err = run(capsys, "crosskings", "score", "9S", "2S", "2S")
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 2


def test_deal_then_analyse(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(
        capsys, "crosskings", "deal", "--seed", "7", "--random-moves", "24", "--move-seed", "3"
    )
    assert code == 0
    path = tmp_path / "game.json"
    path.write_text(out)
    game = Game.load(path)
    assert len(game.moves) == 24
    svg = tmp_path / "board.svg"
    code, out, _ = run(capsys, "crosskings", "analyse", str(path), "--svg", str(svg))
    assert code == 0
    assert "best line:" in out
    assert svg.read_text().startswith("<svg")
    code, out, _ = run(capsys, "crosskings", "analyse", str(path), "--json")
    data = json.loads(out)
    assert data["best"] == game.analyse().best.cell
    assert {m["cell"] for m in data["moves"]} == set(game.legal_moves)
    code, out, _ = run(capsys, "crosskings", "analyse", str(path), "--seconds", "1", "--json")
    assert code == 0
    assert json.loads(out)["best"] in game.legal_moves


def test_analyse_reports_bad_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, "crosskings", "analyse", str(tmp_path / "missing.json"))
    assert code == 2
    assert out == ""
    assert "cannot read" in err
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    code, out, err = run(capsys, "crosskings", "analyse", str(bad))
    assert code == 2
    assert "not a Cross Kings game record" in err


def test_play_against_the_computer(tmp_path: Path) -> None:
    """A whole game typed in (the first legal cell each turn), with bad input on the way."""
    game, bot, typed = Game.deal(seed=5), Bot(1, seed=5), ["a1", "zz"]
    while not game.is_over:  # replay what the command will do, to know what to type
        if game.to_move == 1:
            typed.append(game.legal_moves[0])
            game = game.move(game.legal_moves[0])
        else:
            game = game.move(bot.choose(game))
    saved = tmp_path / "played.json"
    result = CliRunner().invoke(
        group,
        ["play", "--seed", "5", "--level", "1", "--save", str(saved)],
        input="\n".join(typed) + "\n",
    )
    assert result.exit_code == 0, result.output
    assert "not in the marker's row or column" in result.output
    assert "is not a cell" in result.output
    assert "game over: P1" in result.output
    assert Game.load(saved) == game
