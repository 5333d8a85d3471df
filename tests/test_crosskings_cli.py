"""``cardscore crosskings``: score, deal, analyse and play from the command line."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardscore.cli import main
from cardscore.crosskings import Bot, Game, analyse
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
    assert data["total"] == 4
    assert data["kings"] == {"Kh": "As"}
    assert data["terms"] == [
        {"term": "run", "points": 4, "cards": ["As", "2s", "3s", "4s"], "note": "(K♥ as A♠)"}
    ]
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
    assert data["best"] == analyse(game).best.cell
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


def test_play_prints_every_board_cell_and_quits_at_the_end_of_input() -> None:
    """The marker's cell is drawn ``[##]``: text, not rich markup to swallow."""
    result = CliRunner().invoke(group, ["play", "--seed", "5", "--level", "0"], input="")
    assert result.exit_code == 0, result.output
    rows = [line for line in result.output.splitlines() if line[:1] in "123456" and line[:1]]
    assert len(rows) == 6
    assert "[##]" in rows[2]
    for row in rows:
        assert row[1:3] == "  "
        assert len(row[3:].replace("[", " ").replace("]", " ").split()) == 6, row
    quit_typed = CliRunner().invoke(group, ["play", "--seed", "5"], input="quit\n")
    assert quit_typed.exit_code == 0
    assert "game over" not in quit_typed.output


def test_long_analyses_report_progress_and_suggest_seconds() -> None:
    """The exact solve reports each legal move as it ends; early positions get a hint."""
    from cardscore.crosskings.cli import _slow_hint

    late = Game.deal(seed=7)
    for _ in range(26):
        late = late.random_move(3)
    seen: list[tuple[int, int]] = []
    analysis = analyse(late, progress=lambda done, total: seen.append((done, total)))
    total = len(late.legal_cells)
    assert seen == [(n, total) for n in range(1, total + 1)]
    assert len(analysis.moves) == total
    assert _slow_hint(late) is None
    hint = _slow_hint(Game.deal(seed=7))
    assert hint is not None
    assert "--seconds" in hint


def test_analyse_on_a_terminal_prints_the_same_result_with_its_progress_bar(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a terminal the exact analysis shows a bar of the moves solved on stderr; what it
    prints on stdout is what it prints elsewhere."""
    code, out, _ = run(
        capsys, "crosskings", "deal", "--seed", "7", "--random-moves", "26", "--move-seed", "3"
    )
    path = tmp_path / "game.json"
    path.write_text(out)
    code, plain, _ = run(capsys, "crosskings", "analyse", str(path))
    assert code == 0
    import rich.console

    moved: list[tuple[int, int]] = []
    from cardscore.cli import output

    real_bar = output.counting_bar

    @contextmanager
    def counting(what: str, err: rich.console.Console) -> Iterator[Callable[[int, int], None]]:
        with real_bar(what, err) as report:

            def seen(done: int, total: int) -> None:
                moved.append((done, total))
                report(done, total)

            yield seen

    monkeypatch.setattr(rich.console.Console, "is_terminal", property(lambda self: True))
    monkeypatch.setattr("cardscore.crosskings.cli.counting_bar", counting)
    code, shown, _ = run(capsys, "crosskings", "analyse", str(path))
    assert code == 0
    assert shown == plain
    legal = len(Game.load(path).legal_moves)
    assert moved[0] == (0, legal)
    assert moved[-1][0] == moved[-1][1]
