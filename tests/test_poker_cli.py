"""``cardscore poker``: rank, compare, odds, equity and play from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardscore.cli import cli, main
from cardscore.poker.dealer import Dealer


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_rank_prints_the_class_and_category(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "poker", "rank", "As", "Ks", "Qs", "Js", "Ts") == (0, "1 royal flush\n", "")
    assert run(capsys, "poker", "rank", "A♠ K♠ Q♠ J♠ 10♠")[1] == "1 royal flush\n"
    assert run(capsys, "poker", "rank", "7s 5h 4d 3c 2s")[1] == "7462 high card\n"
    assert run(capsys, "poker", "rank", "Ah Ad Ac As Kh")[1] == "11 four of a kind\n"


def test_rank_json_and_seven_cards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "poker", "rank", "Kh Ks Kd 5c 5s 2h 3d", "--json")
    assert code == 0
    assert json.loads(out) == {
        "cards": ["Kh", "Ks", "Kd", "5c", "5s", "2h", "3d"],
        "best": ["Kh", "Ks", "Kd", "5c", "5s"],
        "rank": 187,
        "category": "full house",
        "description": "Full house, kings over fives",
    }


def test_bad_hands_are_errors_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "poker", "rank", "Ah", "Kh")
    assert (code, out) == (2, "")
    assert err == "cardscore: error: a poker hand has 5 to 7 cards, not 2\n"
    code, out, err = run(capsys, "poker", "rank", "Ah Ah Kd Qs Js Xx")
    assert (code, out) == (2, "")
    assert "'Xx' is not a card" in err


def test_odds_of_a_four_flush(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "poker", "odds", "Ah Kh 7h 2h 9c", "--discard", "9c", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["draws"] == 47
    assert data["categories"]["flush"] == pytest.approx(9 / 47)
    assert data["categories"]["pair"] == pytest.approx(12 / 47)  # three aces, three kings…


def test_equity_exact_and_sampled(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "poker", "equity", "AsAh", "KdKc", "--board", "2s 7h 9d", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["exact"]
    assert data["trials"] == 990
    assert data["equities"][1] == pytest.approx(83 / 990)
    out = run(capsys, "poker", "equity", "AsAh", "QQ+", "--trials", "5000", "--seed", "3")[1]
    assert out.endswith("(sampled, 5,000 deals)\n")


def test_compare_marks_the_winner(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "poker", "compare", "As Ad Kc Kd 2h", "Ks Kh Qc Qd Ah")[1]
    assert out.splitlines()[0].startswith("* A♠ A♦ K♣ K♦ 2♥")
    assert out.splitlines()[1].startswith("  K♠")


def test_play_a_watched_hand_and_save_its_history(tmp_path: Path) -> None:
    saved = tmp_path / "hand.json"
    args = [
        "poker",
        "play",
        "--watch",
        "--hands",
        "2",
        "--seed",
        "7",
        "-n",
        "4",
        "--save",
        str(saved),
    ]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "Hand 2" in result.output
    assert "Stacks:" in result.output
    dealer = Dealer.replay(saved.read_text(encoding="utf-8"))
    assert dealer.history()["hand_number"] == 2
    last = result.output.strip().splitlines()[-1]
    assert last == "Stacks: " + ", ".join(f"{s.name} {s.stack}" for s in dealer.seats)


def test_play_against_the_computer_with_typed_moves() -> None:
    moves = "bet 1000\ncall\nxyz 3\n\nwhat\ncall\nn\n"
    result = CliRunner().invoke(cli, ["poker", "play", "--seed", "3", "-n", "3"], input=moves)
    assert result.exit_code == 0, result.output
    assert "You" in result.output
    assert "the raise must go to between 4 and 100, not 1000" in result.output
    assert "say fold, check, call" in result.output  # bad moves are refused, then retried
    assert "Stacks: You" in result.output


def test_compare_refuses_a_card_in_two_hands(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "poker", "compare", "As Ad Kc Kd 2h", "As Ac Kh Ks 2d")
    assert (code, out) == (2, "")
    assert err == "cardscore: error: A♠ is in hands 1 and 2; one deck holds only one\n"
    code, out, _ = run(capsys, "poker", "compare", "--json", "As Ad Kc Kd 2h", "Ah Ac Kh Ks 2d")
    data = json.loads(out)
    assert data["winners"] == [0, 1]
    assert data["hands"][0]["cards"] == ["As", "Ad", "Kc", "Kd", "2h"]
    assert [h["wins"] for h in data["hands"]] == [True, True]


def test_codes_run_together_read_the_same_in_every_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert (
        run(capsys, "poker", "rank", "AsAh", "KdKc", "2h")[1]
        == run(capsys, "poker", "rank", "As Ah Kd Kc 2h")[1]
    )
    assert run(capsys, "poker", "odds", "AsAhKdKc2h", "-d", "2h")[0] == 0


@pytest.mark.parametrize("typed", ["", "quit\n", "call\nq\n"])
def test_play_quits_cleanly_on_quit_or_the_end_of_input(typed: str) -> None:
    result = CliRunner().invoke(cli, ["poker", "play", "--seed", "3", "-n", "3"], input=typed)
    assert result.exit_code == 0, result.output
    assert "You leave the table." in result.output
    assert result.output.strip().splitlines()[-1].startswith("Stacks: You")
