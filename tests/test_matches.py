"""Every game's match keeps one protocol, and one rule for the leader."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardscore import gongzhu, tranca
from cardscore.errors import IllegalMoveError
from cardscore.matches import Match, sole_leader
from tests.test_tranca_match import A_OUT, B_OUT, CANASTRA, duel, side

ALL = "23456789TJQKA"


@given(st.dictionaries(st.text(max_size=3), st.integers(-50, 50), max_size=5))
def test_sole_leader_is_the_one_highest_total(totals: dict[str, int]) -> None:
    leader = sole_leader(totals)
    if not totals or list(totals.values()).count(max(totals.values())) > 1:
        assert leader is None
    else:
        assert leader is not None
        assert all(totals[leader] > t for k, t in totals.items() if k != leader)
        assert sole_leader(totals, reaching=totals[leader] + 1) is None


@pytest.mark.parametrize(
    ("match", "first", "second"),
    [
        (tranca.Match(["A", "B"], players=2, target=700), A_OUT, B_OUT),
        (
            gongzhu.Match(("A", "B", "C", "D"), limit=-1000),
            ["P", ALL, "G", "D"],  # -100 200 100 50
            [ALL, "P", "D", "G"],  # 200 -100 50 100
        ),
    ],
)
def test_both_matches_keep_the_protocol(match: Any, first: Any, second: Any) -> None:
    assert isinstance(match, Match)
    assert match.leader is None
    match.add(first)
    match.add(first)
    leader, totals = match.leader, match.totals
    assert leader == sole_leader(totals)
    match.replace(1, second)  # first + second: a tie
    assert match.leader is None
    again = type(match).from_json(match.to_json())
    assert again.totals == match.totals
    assert again.to_json() == match.to_json()
    match.undo()
    match.add(first)
    assert (match.leader, match.totals) == (leader, totals)
    with pytest.raises(IllegalMoveError, match="there is no round 5"):
        match.replace(5, second)


def test_a_tie_at_the_target_plays_on() -> None:
    match = tranca.Match(["A", "B"], players=2, target=500)
    both = duel(side("A", melds=[CANASTRA]), side("B", melds=[CANASTRA]))  # 275 each
    match.add(both)
    assert match.status() == "no winner yet: the target is 500"
    match.add(both)
    assert (match.winner, match.tied, match.is_over) == (None, True, False)
    assert match.status() == "tied at 550: play on (target 500)"
    match.add(A_OUT)
    assert match.status() == "winner: A, 925 to 550 (target 500)"


def test_a_gongzhu_edit_that_ends_the_match_early_is_refused() -> None:
    match = gongzhu.Match(("A", "B", "C", "D"), limit=-300)
    match.add(["P", ALL, "G", "D"])
    match.add(["P", ALL, "G", "D"])
    with pytest.raises(IllegalMoveError, match="round 1 would end the match"):
        match.replace(0, ["P56789TJQKA", "234", "G", "D"])
    assert match.totals == {"A": -200, "B": 400, "C": 200, "D": 100}


def test_tranca_statistics_kept_round_by_round_equal_the_whole_match_count() -> None:
    from cardscore.tranca.stats import match_stats

    match = tranca.Match(["A", "B"], players=2, target=5000)
    for data in (A_OUT, B_OUT, A_OUT):
        match.add(data)
        assert match.stats() == match_stats(
            match.teams, [r.round for r in match.rounds], [r.score for r in match.rounds]
        )
    match.undo()
    match.add(B_OUT)
    assert match.stats().teams[1].rounds_won == 2
    assert match.stats() == match_stats(
        match.teams, [r.round for r in match.rounds], [r.score for r in match.rounds]
    )
