"""Tranca rounds: reading, every rule checked with every problem reported, and scoring by hand."""

from __future__ import annotations

import ast
import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from cardscore.breakdown import Breakdown
from cardscore.cards import Card, parse_cards
from cardscore.errors import CardscoreError
from cardscore.tranca import (
    TERMS,
    InvalidRoundError,
    Meld,
    Round,
    RoundScore,
    TeamRound,
    TeamScore,
    TrancaRules,
    parse_round,
    score_round,
)
from tests.conftest import ROOT

EXAMPLES = ROOT / "examples" / "tranca"

# The seed's sample table (000_c5fb658cd7b130f9.txt, "Code preparation and execution"), its
# three 3♥ laid apart as dollars, for one team that went out without its morto.
SEED_MELDS = [
    ["four_hearts", "five_hearts", "six_hearts", "seven_hearts", "eight_hearts", "nine_hearts", "two_clubs"],
    ["seven_diamonds", "eight_diamonds", "nine_diamonds", "two_hearts", "jack_diamonds", "king_diamonds"],
    ["four_spades", "five_spades", "six_spades", "seven_spades", "eight_spades", "nine_spades"],
    ["two_hearts", "two_clubs", "two_spades", "two_diamonds", "two_hearts", "two_hearts", "two_hearts"],
    ["five_clubs", "six_clubs", "seven_clubs", "eight_clubs", "nine_clubs", "two_diamonds"],
    ["ace_hearts", "ace_hearts", "ace_hearts", "ace_hearts", "ace_hearts", "ace_hearts"],
]  # fmt: skip
SEED_DOLLARS = ["three_hearts", "three_hearts", "three_hearts"]
SEED_HAND = ["ace_spades", "two_diamonds", "nine_hearts", "three_clubs", "seven_diamonds"]
OPPONENT = {"name": "Them", "took_morto": True, "went_out": False}

SEED_REASONS = [
    "team 'Us', meld 2: 7♦ 8♦ 9♦ 2♥ J♦ K♦ is no sequence: it lacks 10♦ and Q♦, and one 2 fills "
    "only one gap",
    "2♥ is used 5 times (team 'Us' meld 2, team 'Us' meld 4 ×4), but 2 decks hold only 2",
    "2♦ is used 3 times (team 'Us' meld 4, team 'Us' meld 5, team 'Us' hand), but 2 decks hold "
    "only 2",
    "3♥ is used 3 times (team 'Us' dollars ×3), but 2 decks hold only 2",
    "A♥ is used 6 times (team 'Us' meld 6 ×6), but 2 decks hold only 2",
]


def seed_round(melds: list[list[str]], dollars: list[str], hand: list[str]) -> dict[str, Any]:
    us = {
        "name": "Us",
        "melds": melds,
        "dollars": dollars,
        "hand": hand,
        "took_morto": False,
        "went_out": True,
    }
    return {"players": 4, "teams": [us, dict(OPPONENT)]}


def legal_seed_round() -> dict[str, Any]:
    """The issue's legal version: melds 4♥–9♥ + 2♣, 4♠–9♠, 5♣–9♣ + 2♦; dollars 3♥ 3♦ 3♥."""
    melds = [SEED_MELDS[0], SEED_MELDS[2], SEED_MELDS[4]]
    return seed_round(melds, ["three_hearts", "three_diamonds", "three_hearts"], SEED_HAND)


def problems_of(data: Any, **kwargs: Any) -> tuple[str, ...]:
    with pytest.raises(InvalidRoundError) as raised:
        parse_round(data, **kwargs)
    return raised.value.problems


def side(name: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, "took_morto": True, "went_out": False} | fields


def two(*teams: dict[str, Any], players: int = 2, **extra: Any) -> dict[str, Any]:
    return {"players": players, "teams": list(teams)} | extra


CANASTRA = ["8h", "9h", "Th", "Jh", "Qh", "Kh", "Ah"]  # clean: 6×10 + 15 = 75 card points


# --- the seed's sample ------------------------------------------------------------------------


def test_seed_sample_is_refused_with_all_its_reasons() -> None:
    problems = problems_of(seed_round(SEED_MELDS, SEED_DOLLARS, SEED_HAND))
    assert list(problems) == SEED_REASONS


def test_seed_sample_read_from_the_seed_itself(shared: Path) -> None:
    text = (shared / "seeds" / "000_c5fb658cd7b130f9.txt").read_text(encoding="utf-8")
    hand = ast.literal_eval(re.search(r"finalHand = (\[.*?\])", text, re.DOTALL)[1])  # type: ignore[index]
    table = ast.literal_eval(re.search(r"nominalResults = (\[.*?\]\n\])", text, re.DOTALL)[1])  # type: ignore[index]
    *melds, threes = table
    assert threes == SEED_DOLLARS  # the seed lays its dollars as a "sequence"; they lie apart
    assert re.search(r"scoreRound\(finalHand,False,nominalResults,True\)", text)
    assert list(problems_of(seed_round(melds, threes, hand))) == SEED_REASONS


def test_seed_sample_with_its_threes_as_a_meld_is_also_refused_for_that() -> None:
    problems = problems_of(seed_round([*SEED_MELDS, SEED_DOLLARS], [], SEED_HAND))
    assert any("meld 7" in p and "3s never go in melds" in p for p in problems)


def test_legal_seed_sample_scores_410() -> None:
    score = score_round(parse_round(legal_seed_round()))
    us = score["Us"]
    # By hand. Table: 4♥–7♥ 20 + 8♥ 9♥ 20 + 2♣ 10 = 50; 4♠–7♠ 20 + 8♠ 9♠ 20 = 40;
    # 5♣–7♣ 15 + 8♣ 9♣ 20 + 2♦ 10 = 45; in all 135. One dirty canastra (4♥–9♥ + 2♣): +100.
    # Dollars: 3 × 5 = 15 as cards, and 3 × +100 with a canastra. Morto never taken: −100.
    # Went out: +100. Hand: A♠ 15 + 2♦ 10 + 9♥ 10 + 7♦ 5 = −40; 3♣ a tranca: −100.
    assert us.breakdown.points() == {
        "table_cards": 135,
        "dirty_canastras": 100,
        "dollar_cards": 15,
        "dollar_bonus": 300,
        "morto": -100,
        "final_move": 100,
        "hand_cards": -40,
        "trancas": -100,
    }
    assert us.total == 410
    assert score["Them"].total == 0


def test_the_seeds_buggy_725_is_not_what_we_score() -> None:
    # The seed's code scored its impossible table 725 (twos canastra taken as dirty, etc.).
    assert score_round(parse_round(legal_seed_round()))["Us"].total != 725


# --- scoring worked by hand ------------------------------------------------------------------


def test_dollars_without_a_canastra_cost_100_each_but_keep_their_card_value() -> None:
    round_ = parse_round(
        two(side("A", dollars=["3h", "3d"], melds=[["Kh", "Kd", "Ks"]]), side("B"))
    )
    a = score_round(round_)["A"].breakdown
    assert (a["table_cards"], a["dollar_cards"], a["dollar_bonus"]) == (30, 10, -200)
    assert a.total == 30 + 10 - 200


def test_a_pile_is_a_canastra_for_the_dollars_and_for_going_out() -> None:
    data = two(
        side("A", piles=[{"pile": "K", "clean": False}], dollars=["3h"], went_out=True), side("B")
    )
    a = score_round(parse_round(data))["A"]
    # 6 K + a 2 = 70, dirty +100, 3♥ 5 + 100, went out +100
    assert a.breakdown.points() == {
        "table_cards": 70,
        "dirty_canastras": 100,
        "dollar_cards": 5,
        "dollar_bonus": 100,
        "morto": 0,
        "final_move": 100,
        "hand_cards": 0,
        "trancas": 0,
    }
    assert a.total == 375


def test_trancas_cost_100_each_and_not_their_card_value() -> None:
    data = two(side("A"), side("B", hand=["3c", "3s", "3c", "Ah", "7d"]))
    b = score_round(parse_round(data))["B"].breakdown
    assert (b["hand_cards"], b["trancas"], b.total) == (-20, -300, -320)


def test_canastra_of_twos_is_worth_1000_plus_its_cards() -> None:
    twos = ["2h", "2s", "2d", "2c", "2h", "2s", "2d"]
    a = score_round(parse_round(two(side("A", melds=[twos]), side("B"))))["A"].breakdown
    assert (a["table_cards"], a["twos_canastras"], a.total) == (70, 1000, 1070)
    assert (a["clean_canastras"], a["dirty_canastras"]) == (0, 0)


def test_every_canastra_is_its_own_line_with_its_kind() -> None:
    melds = [
        CANASTRA,
        ["4s", "5s", "6s", "7s", "8s", "9s", "2c"],
        ["Kd", "Kd", "Kc", "Kc", "Ks", "Ks", "Kh"],
    ]
    piles = [{"pile": "A", "clean": True, "cards": 7}, {"pile": "2", "cards": 7}]
    data = two(side("A", melds=melds, piles=piles), side("B"), players=6)
    terms = [(t.name, t.points) for t in score_round(parse_round(data))["A"].breakdown]
    assert terms[1:6] == [
        ("clean_canastras", 200),
        ("dirty_canastras", 100),
        ("clean_canastras", 200),
        ("clean_canastras", 200),
        ("twos_canastras", 1000),
    ]


def test_morto_final_move_and_hand_by_hand() -> None:
    data = two(
        side("A", melds=[CANASTRA], hand=[], went_out=True, took_morto=False),
        side("B", melds=[["4c", "5c", "6c"]], hand=["Kd", "2d", "4s"]),
    )
    score = score_round(parse_round(data))
    # A: 75 + 200 clean + 100 out − 100 morto never taken = 275 (going out without the morto
    # is allowed: it replaced the stock)
    assert score["A"].total == 275
    # B: 15 on the table, −(10 + 10 + 5) in hand
    assert score["B"].total == 15 - 25
    assert score.totals == {"A": 275, "B": -10}


def test_as_dict_has_every_term_and_sums_to_total() -> None:
    score = score_round(parse_round(legal_seed_round()))
    data = score.as_dict()
    assert [list(team) for team in data["teams"]] == [["name", "total", "terms"]] * 2
    for team in data["teams"]:
        assert team["total"] == sum(term["points"] for term in team["terms"])
        assert {term["term"] for term in team["terms"]} <= set(TERMS)
    assert isinstance(score, RoundScore)
    assert isinstance(score.teams[0], TeamScore)
    assert isinstance(score.teams[0].breakdown, Breakdown)
    assert "<table>" in score._repr_html_()
    with pytest.raises(KeyError):
        score["Nobody"]


# --- what a round must say -------------------------------------------------------------------


def test_missing_morto_and_went_out_say_a_draft_lacks_them() -> None:
    problems = problems_of(
        two({"name": "A", "melds": [CANASTRA]}, {"name": "B", "went_out": False})
    )
    assert len(problems) == 3
    for problem in problems:
        assert "draft (e.g. read from a photo)" in problem
        assert "add" in problem
    assert problems[0].startswith("team 'A': \"took_morto\" is missing")
    assert problems[1].startswith("team 'A': \"went_out\" is missing")
    assert problems[2].startswith("team 'B': \"took_morto\" is missing")


def test_flags_must_be_booleans() -> None:
    (problem,) = problems_of(two(side("A", went_out="no"), side("B")))
    assert problem == "team 'A': \"went_out\" must be true or false, not 'no'"


@pytest.mark.parametrize(
    ("team", "reason"),
    [
        (side("A", hand=["3h"]), "team 'A', hand: 3♥ is a dollar (a red 3)"),
        (side("A", dollars=["3c"]), "team 'A', dollars: 3♣ is a tranca (a black 3)"),
        (side("A", dollars=["4h"]), "team 'A', dollars: 4♥ is no dollar"),
        (side("A", melds=[["3s", "4s", "5s"]]), "team 'A', meld 1: 3♠ 4♠ 5♠ holds 3♠: 3s never"),
        (side("A", went_out=True), "team 'A' went out without a canastra"),
        (
            side("A", melds=[CANASTRA], went_out=True, hand=["4d"]),
            "team 'A' plays alone and went out, yet still holds 1 card (4♦)",
        ),
        (side("A", melds=[["Kh", "Kd"]]), "team 'A', meld 1: K♥ K♦ has 2 cards"),
        (side("A", melds=[["Kh", "Kd", "Zz"]]), "team 'A', meld 1: card 3 'Zz' is not a card"),
        (side("A", hand="Ah Kx"), "team 'A', hand: card 2 'Kx' is not a card"),
        (side("A", melds="Ah"), "team 'A': melds must be a list"),
        (side("A", melds=[5]), "team 'A', meld 1 must be a list of cards"),
        (side("A", piles=[{"pile": "K", "cards": 5}]), "team 'A', pile 1: a pile is a closed"),
        (side("A", piles={"pile": "K"}), "team 'A': piles must be a list"),
        (side("A", players="Ana"), "team 'A': players must be a list of names"),
        (
            side("A", players=["Ana", "Bo"]),
            "team 'A' lists 2 players, but with 2 players each team has 1",
        ),
        (
            side("A", tookmorto=True),
            "team 'A': unknown key 'tookmorto' (did you mean 'took_morto'?)",
        ),
        (
            side("A", went_out_player="A"),
            "team 'A': went_out_player is 'A', but the team did not go out",
        ),
        (side("A", went_out_player=3), "team 'A': went_out_player must be a player's name"),
        (side(""), "team 1: needs a name"),
        ("A", "team 1: expected an object"),
    ],
)
def test_one_problem_each(team: Any, reason: str) -> None:
    problems = problems_of(two(team, side("B")))
    assert len(problems) == 1, problems
    assert problems[0].startswith(reason)


def test_every_problem_of_a_round_at_once() -> None:
    data = two(
        side("A", hand=["3h", "Zz"], dollars=["3c"], melds=[["7h", "9h", "Jh"]], took_morto=None),
        side("A", went_out=True),
        side("C"),
        rulez={},
    )
    problems = problems_of(data)
    assert len(problems) == 9, problems
    expected = [
        "round: unknown key 'rulez'",
        "team 'A', hand: card 2 'Zz'",
        "team 'A': \"took_morto\" is missing",
        "2 players play as 2 players alone, but the round has 3 teams",
        "team name 'A' is used 2 times",
        "team 'A', meld 1: 7♥ 9♥ J♥ is no sequence",
        "team 'A', dollars: 3♣ is a tranca",
        "team 'A', hand: 3♥ is a dollar",
        "team 'A' went out without a canastra",
    ]
    for problem, start in zip(problems, expected, strict=True):
        assert problem.startswith(start)


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ({"teams": [side("A"), side("B")]}, "players must be 2, 3, 4 or 6, not missing"),
        (two(side("A"), side("B"), players=5), "players must be 2, 3, 4 or 6, not 5"),
        (two(side("A"), side("B"), players=True), "players must be 2, 3, 4 or 6, not True"),
        (two(side("A"), side("B"), decks=0), "decks must be a positive whole number, not 0"),
        ({"players": 2, "teams": []}, "teams must be a non-empty list"),
        (two(side("A"), side("B"), rules={"edges": True}), "rules: unknown key 'edges'"),
        (two(side("A"), side("B"), rules=[]), "rules must be an object"),
        (two(side("A"), side("B"), rules={"edges_only": 1}), 'rules: "edges_only" must be true or'),
        (two(side("A"), players=4), "4 players play as 2 teams, but the round has 1 team"),
        (two(side("A"), side("B"), side("C"), players=6), "6 players play as 2 teams, but"),
        (two(side("A"), side("B"), players=3), "3 players play as 3 players alone, but"),
    ],
)
def test_round_level_problems(data: Any, reason: str) -> None:
    problems = problems_of(data)
    assert any(p.startswith(reason) for p in problems), problems


def test_a_round_must_be_an_object() -> None:
    assert problems_of([1, 2]) == ("a round is a JSON object with players and teams, not list",)  # type: ignore[arg-type]


def test_at_most_one_team_goes_out() -> None:
    data = two(
        side("A", melds=[CANASTRA], went_out=True), side("B", piles=[{"pile": "K"}], went_out=True)
    )
    assert problems_of(data) == (
        "team 'A' and team 'B' both went out; at most one team goes out in a round",
    )
    three = {
        "players": 3,
        "teams": [
            side(n, piles=[{"pile": r}], went_out=True) for n, r in zip("ABC", "KQJ", strict=True)
        ],
    }
    assert problems_of(three)[-1].startswith("team 'A' and team 'B' and team 'C' all went out")


def test_only_two_teams_take_a_morto() -> None:
    """Two mortos are set aside whatever the number of players: a third team cannot take one."""
    three = {
        "players": 3,
        "teams": [side(n, piles=[{"pile": r}]) for n, r in zip("ABC", "KQJ", strict=True)],
    }
    (problem,) = problems_of(three)
    assert problem == "team 'A', team 'B', team 'C' all took a morto, but there are only 2 mortos"
    assert problem.code == "too_many_mortos"
    assert problem.params["n"] == 3
    three["teams"][2]["took_morto"] = False
    assert parse_round(three).players == 3


def test_a_pile_of_twos_is_neither_clean_nor_dirty() -> None:
    dirty_twos = two(side("A", piles=[{"pile": "2", "clean": False}]), side("B"))
    assert problems_of(dirty_twos) == (
        "team 'A', pile 1: pile 2 cannot be dirty: a canastra of 2s is its own kind "
        '(leave out "clean")',
    )
    assert parse_round(two(side("A", piles=[{"pile": "2"}]), side("B"))).teams[0].piles[0].clean


def test_players_in_teams_and_who_went_out() -> None:
    pairs = two(
        side("A", players=["Ana", "Bia"], melds=[CANASTRA], went_out=True, went_out_player="Caio"),
        side("B", players=["Caio", "Ana"], hand={"Caio": ["4d"], "Zed": []}),
        players=4,
    )
    problems = problems_of(pairs)
    assert problems == (
        "player 'Ana' is in both team 'A' and team 'B'",
        "team 'A': went_out_player 'Caio' is not among the team's players ['Ana', 'Bia']",
        "team 'B', hand: 'Zed' is not among the team's players ['Caio', 'Ana']",
    )
    holds = two(
        side(
            "A",
            melds=[CANASTRA],
            went_out=True,
            went_out_player="Bia",
            hand={"Ana": [], "Bia": ["4d"]},
        ),
        side("B"),
        players=4,
    )
    assert problems_of(holds) == ("team 'A': Bia went out, yet still holds 4♦",)
    many = two(side("A", hand={"Ana": [], "Bia": [], "Cy": []}), side("B"), players=4)
    assert problems_of(many) == ("team 'A', hand: 3 players' hands, but each team has 2",)
    twice = two(side("A", players=["Ana", "Ana"]), side("B"), players=4)
    assert problems_of(twice) == ("team 'A': a player is listed twice in ['Ana', 'Ana']",)
    bad_key = two(side("A", hand={"": ["4d"]}), side("B"), players=4)
    assert problems_of(bad_key) == ("team 'A', hand: '' is not a player's name",)


# --- card counts -----------------------------------------------------------------------------


def test_card_counts_span_every_team_and_place() -> None:
    data = two(
        side("A", melds=[["Kh", "Kh", "Kd"]], hand=["Kh"]), side("B", hand=["Kh"], dollars=["3h"])
    )
    assert problems_of(data) == (
        "K♥ is used 4 times (team 'A' meld 1 ×2, team 'A' hand, team 'B' hand), but 2 decks "
        "hold only 2",
    )


def test_six_players_play_with_three_decks() -> None:
    trio = two(side("A", melds=[["Kh", "Kh", "Kh"]]), side("B"), players=6)
    assert parse_round(trio).decks == 3
    assert problems_of(trio | {"decks": 2})[0].startswith("K♥ is used 3 times")
    assert problems_of(two(side("A", melds=[["Kh", "Kh", "Kh"]]), side("B")))


def test_piles_count_against_their_rank() -> None:
    # 7 kings in a pile and 1 in a hand: all 8 kings of two decks
    assert parse_round(two(side("A", piles=[{"pile": "K"}]), side("B", hand=["Kh"])))
    # 7 + 3 = 10 kings
    data = two(side("A", piles=[{"pile": "K"}]), side("B", melds=[["Kh", "Kd", "Kc"]]))
    assert problems_of(data) == (
        "10 cards of rank K are used (team 'B' meld 1 ×3, team 'A' pile 1 ×7), but 2 decks hold "
        "only 8",
    )
    # a dirty pile of 7 holds 6 kings: 6 + 2 fit
    dirty = two(side("A", piles=[{"pile": "K", "clean": False}]), side("B", hand=["Kh", "Kd"]))
    assert parse_round(dirty)


def test_a_dirty_piles_two_counts_against_the_twos() -> None:
    twos = ["2h", "2s", "2d", "2c", "2h", "2s", "2d"]  # seven of the eight 2s
    ok = two(side("A", melds=[twos]), side("B", piles=[{"pile": "K", "clean": False}]))
    assert parse_round(ok)
    clash = two(
        side("A", melds=[twos]), side("B", piles=[{"pile": "K", "clean": False}], hand=["2c"])
    )
    (problem,) = problems_of(clash)
    assert problem == (
        "9 cards of rank 2 are used (team 'A' meld 1 ×7, team 'B' hand, team 'B' pile 1 (its 2)), "
        "but 2 decks hold only 8"
    )


def test_an_excess_already_reported_per_card_is_not_reported_again_per_rank() -> None:
    data = two(side("A", melds=[["Kh", "Kh", "Kh"]], piles=[{"pile": "K", "cards": 7}]), side("B"))
    # K♥ ×3 is one problem; counting it twice, 2 + 7 = 9 kings is another
    problems = problems_of(data)
    assert len(problems) == 2
    assert problems[0].startswith("K♥ is used 3 times")
    assert problems[1].startswith("10 cards of rank K are used")


# --- rules and round trips -------------------------------------------------------------------


def test_edges_only_from_the_round_or_the_caller() -> None:
    nines = two(side("A", melds=[["9h", "9s", "9d"]]), side("B"))
    assert parse_round(nines)
    assert "'edges only'" in problems_of(nines, rules=TrancaRules(edges_only=True))[0]
    assert "'edges only'" in problems_of(nines | {"rules": {"edges_only": True}})[0]
    kings = two(side("A", melds=[["Kh", "Ks", "Kd"]]), side("B"), rules={"edges_only": True})
    assert parse_round(kings).rules == TrancaRules(edges_only=True)
    assert problems_of(kings, rules=TrancaRules()) == (
        "the round's rules {'edges_only': True} differ from the given {'edges_only': False}",
    )


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.json")), ids=lambda p: p.name)
def test_round_trips_through_json(path: Path) -> None:
    round_ = parse_round(json.loads(path.read_text(encoding="utf-8")))
    again = parse_round(json.loads(json.dumps(round_.as_dict())))
    assert again == round_
    assert score_round(again) == score_round(round_)


def test_round_trip_keeps_piles_hands_rules_and_who_went_out() -> None:
    data = two(
        side("A", players=["Ana", "Bia"], melds=[CANASTRA], piles=[{"pile": "2"}],
             hand={"Ana": ["4d"], "Bia": []}, went_out=True, went_out_player="Bia"),
        side("B", dollars=["3h"], hand=["Kc", "3s"]),
        players=4,
        rules={"edges_only": True},
    )  # fmt: skip
    round_ = parse_round(data)
    out = round_.as_dict()
    assert out["rules"] == {"edges_only": True}
    assert out["teams"][0]["hand"] == {"Ana": ["4d"], "Bia": []}
    assert out["teams"][0]["piles"] == [{"pile": "2", "clean": True, "cards": 7}]
    assert out["teams"][0]["went_out_player"] == "Bia"
    assert parse_round(out) == round_
    assert round_.team("A").player_hand("Ana") == (Card("4d"),)
    assert round_.names == ("A", "B")
    with pytest.raises(KeyError):
        round_.team("Z")


def test_rounds_built_directly_are_checked_too() -> None:
    good = TeamRound("A", took_morto=True, went_out=True, melds=(Meld(CANASTRA),))
    other = TeamRound("B", took_morto=True, went_out=False, hand=parse_cards("3h"))
    with pytest.raises(InvalidRoundError) as raised:
        Round(2, (good, other))
    assert raised.value.problems == ("team 'B', hand: 3♥ is a dollar (a red 3): dollars are laid "
                                     "apart, never held — move it to \"dollars\"",)  # fmt: skip
    assert Round(2, (good, TeamRound("B", True, False))).decks == 2
    with pytest.raises(InvalidRoundError):
        Round(5, (good,))
    with pytest.raises(ValueError, match="hand must hold exactly"):
        TeamRound("A", True, False, hand=parse_cards("4d"), hands=(("Ana", parse_cards("5d")),))


def test_parse_does_not_change_its_input() -> None:
    data = legal_seed_round()
    before = copy.deepcopy(data)
    parse_round(data)
    assert data == before


def test_errors_are_cardscore_errors() -> None:
    assert issubclass(InvalidRoundError, CardscoreError)
    assert issubclass(InvalidRoundError, ValueError)
