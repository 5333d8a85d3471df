"""``cardscore tranca play``: computer-only rounds the scorer accepts, and the terminal game fed by stdin."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from cardscore.cli import main
from cardscore.tranca import parse_round, score_round
from cardscore.tranca.game import TrancaState
from cardscore.tranca.play_cli import YOU, _names
from cardscore.tranca.players import computer, hint


def run(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    *args: str,
    stdin: str = "",
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_computer_only_json_round_is_accepted_by_tranca_score(
    players: int,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    args = ["tranca", "play", "--computer-only", "--players", str(players), "--seed", "7"]
    code, out, err = run(capsys, monkeypatch, *args, "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert set(data) == {"round", "scores"}
    path = tmp_path / "round.json"
    path.write_text(json.dumps(data["round"]), encoding="utf-8")
    code, scored, err = run(capsys, monkeypatch, "tranca", "score", str(path), "--json")
    assert (code, err) == (0, "")
    assert json.loads(scored)["teams"] == data["scores"]
    assert data["scores"] == [t.as_dict() for t in score_round(parse_round(data["round"])).teams]
    codes = [c for team in data["round"]["teams"] for meld in team["melds"] for c in meld]
    assert all(len(c) == 2 and c[0] in "23456789TJQKA" and c[1] in "shdc" for c in codes)
    again = run(capsys, monkeypatch, *args, "--json")[1]
    assert again == out  # the seed decides everything


def test_computer_only_text_shows_moves_and_the_breakdown(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run(
        capsys, monkeypatch, "tranca", "play", "--computer-only", "--players", "2", "--seed", "1"
    )
    assert code == 0
    assert "Ana draws" in out
    assert out.count("total") == 2


class Scripted(TrancaState):
    moves_of_you: list[str]


def scripted_state(
    players: int, seed: int, level: int, first: int = 0, seed_bots: int | None = None
) -> Scripted:
    """The round the CLI deals for this seed, played with level 2's hints at seat 1."""
    state = Scripted(players, seed=seed, names=_names(players, computer_only=False), first=first)
    bots_seed = seed if seed_bots is None else seed_bots
    bots = [computer(level, seed=bots_seed * 10 + s) for s in range(players)]
    state.moves_of_you = []
    while not state.is_over:
        if state.to_act == YOU:
            action = hint(state)
            state.moves_of_you.append(action.notation)
            state.play(action)
        else:
            state.play(bots[state.to_act].choose(state))
    return state


def scripted_moves(players: int, seed: int, level: int) -> list[str]:
    return scripted_state(players, seed, level).moves_of_you


def test_interactive_round_is_played_to_the_end_and_scored(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    moves = scripted_moves(2, 3, 1)
    code, out, err = run(
        capsys,
        monkeypatch,
        "tranca",
        "play",
        "--players",
        "2",
        "--seed",
        "3",
        "--level",
        "1",
        stdin="\n".join(moves) + "\n",
    )
    assert (code, err) == (0, "")
    assert "your hand (11):" in out
    assert "round over" in out
    assert out.count("total") == 2
    assert "refused" not in out


def test_interactive_refuses_illegal_moves_naming_the_rule_and_undoes(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stdin = "discard Kc\nfold\nhint\ndraw\nmeld 4s 9h Kd\nundo\nquit\n"
    code, out, _ = run(
        capsys, monkeypatch, "tranca", "play", "--players", "4", "--seed", "2", stdin=stdin
    )
    assert code == 0
    assert "refused: turn (6): You must first draw from the stock or take the pile" in out
    assert "refused: 'fold' is not a move" in out
    assert "hint: draw" in out or "hint: take" in out
    assert "refused: melds (4, 4.3)" in out or "refused: your hand" in out
    assert "undone: draw" in out
    assert "round over" not in out


def test_save_and_load_go_on_with_the_same_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    moves = scripted_moves(2, 4, 2)
    first = "\n".join(moves[:3]) + "\nquit\n"
    code, out, _ = run(
        capsys,
        monkeypatch,
        "tranca",
        "play",
        "--players",
        "2",
        "--seed",
        "4",
        "--save",
        str(path),
        stdin=first,
    )
    assert code == 0
    assert f"saved to {path}" in out
    saved = json.loads(path.read_text(encoding="utf-8"))
    played = len(saved["game"]["actions"])
    rest = "\n".join(moves[3:]) + "\n"
    code, out, _ = run(capsys, monkeypatch, "tranca", "play", "--load", str(path), stdin=rest)
    assert code == 0
    assert "round over" in out
    assert played >= 3


def test_load_of_a_file_that_is_no_saved_game_is_an_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"players": 2}', encoding="utf-8")
    code, out, err = run(capsys, monkeypatch, "tranca", "play", "--load", str(path))
    assert code == 2
    assert out == ""
    assert "not a game saved by 'cardscore tranca play --save'" in err


def test_a_match_to_a_target_plays_rounds_until_a_winner(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    moves: list[str] = []
    totals = [0, 0]
    rounds = 0
    while max(totals) < 600 or totals[0] == totals[1]:
        state = scripted_state(2, 5 + rounds, 2, first=rounds % 2, seed_bots=5)
        moves += state.moves_of_you
        totals = [t + s.total for t, s in zip(totals, state.score().teams, strict=True)]
        rounds += 1
    code, out, _ = run(
        capsys,
        monkeypatch,
        "tranca",
        "play",
        "--players",
        "2",
        "--seed",
        "5",
        "--target",
        "600",
        stdin="\n".join(moves) + "\n",
    )
    assert code == 0
    assert out.count("round over") == rounds
    assert "winner: " in out


def test_json_without_computer_only_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(capsys, monkeypatch, "tranca", "play", "--json")
    assert code == 2
    assert out == ""
    assert "--json goes with --computer-only" in err


def test_load_of_a_damaged_save_names_what_is_missing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"kind": "tranca-play", "level": 2}', encoding="utf-8")
    code, _, err = run(capsys, monkeypatch, "tranca", "play", "--load", str(path))
    assert code == 2
    assert "the saved game lacks 'seed'" in err
    assert "the saved game lacks 'game'" in err
