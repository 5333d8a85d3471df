"""Tranca matches: running totals, target and winner, undo, edits, statistics, JSON."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cardscore.errors import CardscoreError, IllegalMoveError
from cardscore.tranca import Match, RoundRecord, Team, TrancaRules, parse_round
from cardscore.tranca.round import InvalidRoundError
from tests.conftest import ROOT

EXAMPLES = ROOT / "examples" / "tranca"
CANASTRA = ["8h", "9h", "Th", "Jh", "Qh", "Kh", "Ah"]  # 75 card points, clean


def example(number: int) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / f"round{number}.json").read_text("utf-8"))
    return data


def side(name: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, "took_morto": True, "went_out": False} | fields


def duel(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    return {"players": 2, "teams": [a, b]}


# A went out with its canastra: 75 + 200 + 100 = 375; B scores nothing.
A_OUT = duel(side("A", melds=[CANASTRA], went_out=True), side("B"))
B_OUT = duel(side("A"), side("B", melds=[CANASTRA], went_out=True))
# A went out without its morto (it replaced the stock): 375 − 100 = 275; B's canastra, 275.
TIE = duel(
    side("A", melds=[CANASTRA], went_out=True, took_morto=False),
    side("B", melds=[["8s", "9s", "Ts", "Js", "Qs", "Ks", "As"]]),
)


def pairs() -> Match:
    return Match([Team("Ana & Bia", ("Ana", "Bia")), Team("Caio & Duda", ("Caio", "Duda"))])


def test_default_targets_by_players() -> None:
    assert Match(["A", "B"]).target == 3500
    assert Match(["A", "B"], players=2).target == 3500
    assert Match(["A", "B", "C"], players=3).target == 3500
    assert Match(["A", "B"], players=6).target == 5000
    assert Match(["A", "B"], players=6, target=2000).target == 2000


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        ((["A", "B"], 5), "players must be 2, 3, 4 or 6, not 5"),
        ((["A", "B", "C"], 4), "4 players play as 2 teams, but the round has 3 teams"),
        ((["A", "A"], 4), "team names must differ"),
        (
            ([Team("A", ("x", "y", "z")), "B"], 4),
            "team 'A' lists 3 players, but with 4 players each team has 2",
        ),
        (([Team("A", ("x", "y")), Team("B", ("x", "z"))], 4), "a player is in two teams"),
        ((["A", "B"], 4, 0), "the target must be a positive whole number"),
    ],
)
def test_bad_matches(args: tuple[Any, ...], reason: str) -> None:
    with pytest.raises(CardscoreError) as raised:
        Match(*args)
    assert any(reason in p for p in raised.value.problems)
    with pytest.raises(ValueError, match="a team needs a name"):
        Team("")


def test_three_example_rounds_by_hand() -> None:
    match = pairs()
    records = [match.add_round(example(n)) for n in (1, 2, 3)]
    assert all(isinstance(r, RoundRecord) for r in records)
    # round 1: the seed's legal sample 410; 225 table + 100 dirty + 200 clean (pile of aces)
    #          + 5 + 100 dollar − 5 hand − 100 tranca = 525
    # round 2: 145 + 1000 + 200 − 15 = 1330; 150 + 200 + 100 + 5 + 100 + 100 − 15 − 100 = 540
    # round 3: 70 + 200 + 5 + 100 + 100 − 15 = 460; 20 + 5 − 100 − 100 − 40 − 100 = −315
    assert [r.scores for r in records] == [
        {"Ana & Bia": 410, "Caio & Duda": 525},
        {"Ana & Bia": 1330, "Caio & Duda": 540},
        {"Ana & Bia": 460, "Caio & Duda": -315},
    ]
    assert [r.totals for r in records] == [
        {"Ana & Bia": 410, "Caio & Duda": 525},
        {"Ana & Bia": 1740, "Caio & Duda": 1065},
        {"Ana & Bia": 2200, "Caio & Duda": 750},
    ]
    assert [r.number for r in records] == [1, 2, 3]
    assert (match.is_over, match.winner) == (False, None)  # 3,500 not reached
    assert records[2].as_dict() == {
        "number": 3,
        "scores": {"Ana & Bia": 460, "Caio & Duda": -315},
        "totals": {"Ana & Bia": 2200, "Caio & Duda": 750},
    }


def test_the_match_ends_at_the_end_of_the_round_reaching_the_target() -> None:
    match = Match(["A", "B"], players=2, target=700)
    match.add_round(A_OUT)
    assert not match.is_over
    match.add_round(B_OUT)
    assert match.totals == {"A": 375, "B": 375}
    match.add_round(B_OUT)
    assert (match.is_over, match.winner, match.totals) == (True, "B", {"A": 375, "B": 750})
    assert not match.can_add_round(A_OUT)
    with pytest.raises(IllegalMoveError, match="the match is over: B won with 750"):
        match.add_round(A_OUT)


def test_both_past_the_target_the_higher_total_wins() -> None:
    match = Match(["A", "B"], players=2, target=300)
    match.add_round(TIE)
    assert match.totals == {"A": 275, "B": 275}
    assert not match.is_over
    match.add_round(TIE)  # 550 each: both past 300, but a tie plays on
    assert (match.totals, match.is_over, match.winner) == ({"A": 550, "B": 550}, False, None)
    match.add_round(B_OUT)
    assert (match.winner, match.totals) == ("B", {"A": 550, "B": 925})


def test_undo_and_edit_recompute_totals() -> None:
    match = Match(["A", "B"], players=2)
    match.add_round(A_OUT)
    match.add_round(TIE)
    match.add_round(B_OUT)
    assert match.totals == {"A": 650, "B": 650}
    undone = match.undo()
    assert undone.number == 3
    assert match.totals == {"A": 650, "B": 275}
    edited = match.edit_round(0, B_OUT)
    assert (edited.number, edited.scores) == (1, {"A": 0, "B": 375})
    assert [r.totals for r in match.rounds] == [{"A": 0, "B": 375}, {"A": 275, "B": 650}]
    with pytest.raises(IllegalMoveError, match="there is no round"):
        match.edit_round(2, A_OUT)
    match.undo()
    match.undo()
    with pytest.raises(IllegalMoveError, match="no round to undo"):
        match.undo()
    assert match.totals == {"A": 0, "B": 0}


def test_an_edit_that_would_end_the_match_early_is_refused() -> None:
    match = Match(["A", "B"], players=2, target=500)
    match.add_round(TIE)
    match.add_round(B_OUT)
    before = [r.totals for r in match.rounds]
    spades = ["8s", "9s", "Ts", "Js", "Qs", "Ks", "As"]
    # 75 + 200 + 30 (three 2s) + 75 + 200 + 100 (out) = 680: over 500 in round 1 already
    big = duel(side("A", melds=[CANASTRA, ["2h", "2s", "2d"], spades], went_out=True), side("B"))
    with pytest.raises(IllegalMoveError, match="round 1 would end the match"):
        match.edit_round(0, big)
    assert [r.totals for r in match.rounds] == before


def test_rounds_must_fit_the_match() -> None:
    match = pairs()
    renamed = example(1)
    renamed["teams"][0]["name"] = "Ana & Bea"
    with pytest.raises(InvalidRoundError) as raised:
        match.add_round(renamed)
    assert raised.value.problems == (
        "the round's teams ['Ana & Bea', 'Caio & Duda'] differ from the match's "
        "['Ana & Bia', 'Caio & Duda']; teams keep their names and order",
    )
    swapped = example(1)
    swapped["teams"].reverse()
    with pytest.raises(InvalidRoundError, match="are in another order than"):
        match.add_round(swapped)
    with pytest.raises(InvalidRoundError, match="the round has 2 players, the match 4"):
        match.add_round(duel(side("Ana & Bia"), side("Caio & Duda")))
    strangers = example(1)
    strangers["teams"][0]["players"] = ["Ana", "Bea"]
    strangers["teams"][0]["hand"] = {"Ana": ["AS"], "Bea": []}
    strangers["teams"][0]["went_out_player"] = "Bea"
    with pytest.raises(InvalidRoundError, match="'Bea' is not among the team's players"):
        match.add_round(strangers)
    edges = Match(["Ana & Bia", "Caio & Duda"], rules=TrancaRules(edges_only=True))
    with pytest.raises(InvalidRoundError, match="differ from the match's"):
        edges.add_round(parse_round(example(1)))
    assert not match.rounds
    assert match.can_add_round(example(1))


def test_statistics_per_team_and_per_player() -> None:
    match = pairs()
    for n in (1, 2, 3):
        match.add_round(example(n))
    stats = match.stats()
    ana_bia, caio_duda = stats.teams
    assert ana_bia.name == "Ana & Bia"
    assert (ana_bia.rounds, ana_bia.rounds_won, ana_bia.points) == (3, 2, 2200)
    assert (ana_bia.clean_canastras, ana_bia.dirty_canastras, ana_bia.twos_canastras) == (2, 1, 1)
    assert (ana_bia.dollars, ana_bia.trancas, ana_bia.went_out, ana_bia.took_morto) == (4, 1, 2, 2)
    assert (caio_duda.rounds_won, caio_duda.clean_canastras, caio_duda.dirty_canastras) == (1, 2, 2)
    assert (caio_duda.trancas, caio_duda.went_out, caio_duda.took_morto) == (3, 1, 2)
    players = {p.name: p for p in stats.players}
    assert list(players) == ["Ana", "Bia", "Caio", "Duda"]
    # Ana held A♠ 2♦ 9♥ 7♦ + 3♣, then 4♣, then 7♣ 8♣; Bia went out twice
    assert (players["Ana"].trancas, players["Ana"].hand_points, players["Ana"].went_out) == (
        1,
        -60,
        0,
    )
    assert (players["Bia"].went_out, players["Bia"].hand_points) == (2, -10)
    assert (players["Caio"].went_out, players["Caio"].hand_points) == (1, -35)
    assert (players["Duda"].trancas, players["Duda"].team) == (3, "Caio & Duda")
    assert stats.as_dict()["players"][0] == {
        "name": "Ana",
        "team": "Ana & Bia",
        "went_out": 0,
        "trancas": 1,
        "hand_points": -60,
        "rounds_recorded": 3,
    }


def test_players_alone_are_their_own_team_in_the_statistics() -> None:
    match = Match(["A", "B"], players=2)
    match.add_round(A_OUT)
    match.add_round(duel(side("A", hand=["3c", "Kd"]), side("B", melds=[CANASTRA], went_out=True)))
    players = {p.name: p for p in match.stats().players}
    assert (players["A"].went_out, players["A"].trancas, players["A"].hand_points) == (1, 1, -10)
    assert (players["B"].went_out, players["B"].team) == (1, "B")
    assert [t.rounds_won for t in match.stats().teams] == [1, 1]


def test_a_player_alone_may_be_named_apart_from_the_team() -> None:
    match = Match([Team("North", ("Ana",)), "South"], players=2)
    match.add_round(
        duel(
            side("North", melds=[CANASTRA], went_out=True, went_out_player="Ana"),
            side("South", hand=["3s"]),
        )
    )
    match.add_round(duel(side("North", hand={"Ana": ["Kd"]}), side("South", went_out=False)))
    players = {p.name: p for p in match.stats().players}
    assert list(players) == ["Ana", "South"]
    assert (
        players["Ana"].went_out,
        players["Ana"].hand_points,
        players["Ana"].rounds_recorded,
    ) == (1, -10, 2)
    assert (players["South"].trancas, players["South"].team) == (1, "South")


def test_json_round_trip() -> None:
    match = pairs()
    for n in (1, 2):
        match.add_round(example(n))
    text = match.to_json()
    again = Match.from_json(text)
    assert again.teams == match.teams
    assert (again.players, again.target, again.rules) == (4, 3500, TrancaRules())
    assert [r.round for r in again.rounds] == [r.round for r in match.rounds]
    assert again.rounds == match.rounds
    assert again.totals == match.totals
    assert json.loads(again.to_json()) == json.loads(text)
    assert "Ana & Bia vs Caio & Duda: 2 round(s)" in repr(again)
    assert "<td>1740 (+1330)</td>" in again._repr_html_()
    assert "Ana &amp; Bia" in again._repr_html_()


def test_from_json_reports_every_bad_round() -> None:
    data = json.loads(pairs().to_json())
    bad = example(1)
    del bad["teams"][0]["took_morto"]
    other = example(2)
    other["teams"][1]["name"] = "Zed"
    data["rounds"] = [bad, other]
    with pytest.raises(InvalidRoundError) as raised:
        Match.from_json(data)
    assert len(raised.value.problems) == 2
    assert raised.value.problems[0].startswith(
        "round 1: team 'Ana & Bia': \"took_morto\" is missing"
    )
    assert raised.value.problems[1].startswith("round 2: the round's teams")
    with pytest.raises(CardscoreError):
        Match.from_json("[]")
    with pytest.raises(CardscoreError, match="a match needs teams"):
        Match.from_json({"players": 4, "teams": [{"players": []}]})
    with pytest.raises(CardscoreError, match="a match needs teams"):
        Match.from_json({"players": 4, "teams": [], "rules": {"wild": True}})
