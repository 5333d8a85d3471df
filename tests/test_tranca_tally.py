"""Quick entry: tally rounds (numbers per team) score as the card-by-card round of the same
table, and numbers no table could show are refused with every reason, by code."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardscore.cards import Card, Rank
from cardscore.cli import main
from cardscore.errors import CardscoreError
from cardscore.tranca import (
    TERMS,
    Match,
    TallyRound,
    TallyTeam,
    parse_round,
    parse_tally,
    read_round,
    score_round,
)
from tests.test_tranca_properties import VALUE, rounds

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "tranca"


def tally_team(
    name: str, took_morto: bool = True, went_out: bool = False, **counts: int
) -> dict[str, Any]:
    return {"name": name, "took_morto": took_morto, "went_out": went_out, **counts}


# Each example round's table, counted by hand from its cards (A 15, 8-K and 2 10, 4-7 5; dollars
# and trancas counted apart), with the total worked out by hand from the seed's values.
HAND_TALLIES: dict[str, list[tuple[dict[str, Any], int]]] = {
    "round1.json": [
        # 4-9♥+2♣ 50 (dirty), 4-9♠ 40, 5-9♣+2♦ 45; hand A♠ 2♦ 9♥ 7♦ 40 and 3♣
        # 135 + 100 + 15 + 300 - 100 + 100 - 40 - 100
        (
            tally_team(
                "Ana & Bia",
                False,
                True,
                table_points=135,
                dirty_canastras=1,
                dollars=3,
                trancas=1,
                hand_points=40,
            ),
            410,
        ),
        # K×6+2♥ 70 (dirty), 8-Q♦ 50, pile of 7 A 105 (clean); hand 5♦ and 3♠
        # 225 + 100 + 200 + 5 + 100 - 5 - 100
        (
            tally_team(
                "Caio & Duda",
                table_points=225,
                clean_canastras=1,
                dirty_canastras=1,
                dollars=1,
                trancas=1,
                hand_points=5,
            ),
            525,
        ),
    ],
    "round2.json": [
        # seven 2s 70 (2s), 8-A♥ 75 (clean); hand 4♣ K♠ 15: 145 + 1000 + 200 - 15
        (
            tally_team(
                "Ana & Bia", table_points=145, clean_canastras=1, twos_canastras=1, hand_points=15
            ),
            1330,
        ),
        # 5-J♦ 55 (clean), 4♠4♥4♦ 15, pile of 8 Q with its 2 80 (dirty); hand A♣ and 3♣
        # 150 + 200 + 100 + 5 + 100 + 100 - 15 - 100
        (
            tally_team(
                "Caio & Duda",
                True,
                True,
                table_points=150,
                clean_canastras=1,
                dirty_canastras=1,
                dollars=1,
                trancas=1,
                hand_points=15,
            ),
            540,
        ),
    ],
    "round3.json": [
        # K×7 70 (clean); hand 7♣ 8♣ 15: 70 + 200 + 5 + 100 + 100 - 15
        (
            tally_team(
                "Ana & Bia",
                True,
                True,
                table_points=70,
                clean_canastras=1,
                dollars=1,
                hand_points=15,
            ),
            460,
        ),
        # 6-8♠ 20; a dollar without a canastra; hand A♠ A♦ Q♥ 40 and 3♠
        # 20 + 5 - 100 - 100 - 40 - 100
        (
            tally_team(
                "Caio & Duda", False, False, table_points=20, dollars=1, trancas=1, hand_points=40
            ),
            -315,
        ),
    ],
}


def tally_of(example: str) -> dict[str, Any]:
    return {"players": 4, "tally": True, "teams": [team for team, _ in HAND_TALLIES[example]]}


@pytest.mark.parametrize("example", sorted(HAND_TALLIES))
def test_a_hand_counted_tally_scores_as_its_cards(example: str) -> None:
    cards = score_round(parse_round(json.loads((EXAMPLES / example).read_text())))
    tally = score_round(parse_tally(tally_of(example)))
    assert [t.total for t in tally.teams] == [total for _, total in HAND_TALLIES[example]]
    assert tally.totals == cards.totals
    for by_tally, by_cards in zip(tally.teams, cards.teams, strict=True):
        assert by_tally.breakdown.points() == by_cards.breakdown.points()
        assert sorted(t.name for t in by_tally.breakdown) == sorted(
            t.name for t in by_cards.breakdown
        )
        assert {t.name for t in by_tally.breakdown} <= set(TERMS)


def test_a_tally_reads_back_from_its_json() -> None:
    round_ = parse_tally(tally_of("round2.json"))
    assert parse_tally(round_.as_dict()) == round_
    assert read_round(round_.as_dict()) == round_
    assert round_.team("Ana & Bia") == TallyTeam(
        "Ana & Bia",
        True,
        False,
        table_points=145,
        clean_canastras=1,
        twos_canastras=1,
        hand_points=15,
    )


def test_tally_false_is_a_card_round_and_anything_else_is_named() -> None:
    cards = json.loads((EXAMPLES / "round1.json").read_text())
    assert read_round({**cards, "tally": False}) == parse_round(cards)
    assert codes({**cards, "tally": "yes"}) == ["unknown_key"]


def test_the_example_tally_file_scores_from_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["tranca", "score", str(EXAMPLES / "tally" / "round1.json"), "--json"])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    assert [t["total"] for t in json.loads(out)["teams"]] == [410, 525]


def test_a_bad_tally_file_is_exit_2_with_one_line_per_problem(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(
        json.dumps(four(tally_team("A", table_points=12, went_out=True), tally_team("B")))
    )
    code = main(["tranca", "score", str(path)])
    err = capsys.readouterr().err
    assert code == 2
    assert "table_points must be a multiple of 5" in err
    assert "went out without a canastra" in err


def codes(data: dict[str, Any]) -> list[str]:
    with pytest.raises(CardscoreError) as caught:
        read_round(data)
    return [p.code for p in caught.value.problems]


def four(*teams: dict[str, Any]) -> dict[str, Any]:
    return {"players": 4, "tally": True, "teams": list(teams)}


@pytest.mark.parametrize(
    ("teams", "expected"),
    [
        # table points come in 5s, and never below what the canastras show (7 fives: 35)
        ([tally_team("A", table_points=12), tally_team("B")], ["tally_points_step"]),
        (
            [tally_team("A", table_points=30, clean_canastras=1), tally_team("B")],
            ["tally_table_below_canastras"],
        ),
        (
            [
                tally_team("A", table_points=105, dirty_canastras=1, twos_canastras=1),
                tally_team("B"),
            ],
            ["tally_table_below_canastras"],
        ),  # 40 + 70 = 110 at least
        # counts are whole, non-negative and bounded
        ([tally_team("A", dollars=-1), tally_team("B")], ["tally_count"]),
        ([tally_team("A", hand_points=5000), tally_team("B")], ["tally_count"]),
        ([{**tally_team("A"), "trancas": "2"}, tally_team("B")], ["tally_count"]),
        ([{**tally_team("A"), "went_out": "yes"}, tally_team("B")], ["not_a_bool"]),
        ([{"name": "A", "went_out": False}, tally_team("B")], ["took_morto_missing"]),
        ([{**tally_team("A"), "melds": []}, tally_team("B")], ["unknown_key"]),
        # going out needs a canastra, and only one team goes out
        ([tally_team("A", went_out=True), tally_team("B")], ["out_without_canastra"]),
        (
            [
                tally_team("A", True, True, table_points=35, clean_canastras=1),
                tally_team("B", True, True, table_points=35, clean_canastras=1),
            ],
            ["many_went_out"],
        ),
        # what the two decks hold: 4 red 3s, 4 black 3s, 8 2s, 840 points without the 3s
        ([tally_team("A", dollars=3), tally_team("B", dollars=2)], ["tally_dollars_overcount"]),
        ([tally_team("A", trancas=5), tally_team("B")], ["tally_trancas_overcount"]),
        (
            [
                tally_team("A", table_points=150, dirty_canastras=2, twos_canastras=1),
                tally_team("B"),
            ],
            ["tally_twos_overcount"],
        ),
        (
            [tally_team("A", table_points=800), tally_team("B", hand_points=45)],
            ["tally_points_overcount"],
        ),
    ],
)
def test_numbers_no_table_could_show_are_refused(
    teams: list[dict[str, Any]], expected: list[str]
) -> None:
    assert codes(four(*teams)) == expected


def test_every_reason_at_once_and_the_morto_count() -> None:
    three = {
        "players": 3,
        "tally": True,
        "teams": [tally_team("A"), tally_team("B"), tally_team("C", dollars=9)],
    }
    assert codes(three) == ["too_many_mortos", "tally_dollars_overcount"]
    alone = {
        "players": 2,
        "tally": True,
        "teams": [
            tally_team("A", True, True, table_points=35, clean_canastras=1, hand_points=10),
            tally_team("B", table_points=7),
        ],
    }
    assert codes(alone) == ["tally_out_holds", "tally_points_step"]
    assert codes(four(tally_team("A"))) == ["side_count"]


def test_a_tally_round_built_in_code_is_checked_too() -> None:
    with pytest.raises(CardscoreError) as caught:
        TallyRound(4, (TallyTeam("A", True, True), TallyTeam("B", True, False)))
    assert [p.code for p in caught.value.problems] == ["out_without_canastra"]


@given(
    table=st.integers(0, 80).map(lambda n: 5 * n),
    clean=st.integers(0, 2),
    dollars=st.integers(0, 4),
    trancas=st.integers(0, 4),
    hand=st.integers(0, 20).map(lambda n: 5 * n),
    took=st.booleans(),
)
def test_each_number_moves_the_total_by_its_rule(
    table: int, clean: int, dollars: int, trancas: int, hand: int, took: bool
) -> None:
    table = max(table, 35 * clean)
    team = TallyTeam("A", took, False, table, clean, 0, 0, dollars, trancas, hand)
    score = score_round(TallyRound(4, (team, TallyTeam("B", True, False))))
    dollar = 100 if clean else -100
    expected = (
        table + 200 * clean + dollars * (5 + dollar) - 100 * (not took) - hand - 100 * trancas
    )
    assert score["A"].total == expected
    assert score["B"].total == 0


def test_a_match_mixes_tally_and_card_rounds_with_stats() -> None:
    match = Match(["Ana & Bia", "Caio & Duda"], players=4, target=10_000)
    match.add_round(json.loads((EXAMPLES / "round1.json").read_text()))
    match.add_round(tally_of("round2.json"))
    match.add_round(tally_of("round3.json"))
    assert match.totals == {"Ana & Bia": 410 + 1330 + 460, "Caio & Duda": 525 + 540 - 315}
    again = Match.from_json(match.as_dict())
    assert again.totals == match.totals
    stats = {t.name: t for t in match.stats().teams}
    assert stats["Ana & Bia"].twos_canastras == 1
    assert stats["Ana & Bia"].dollars == 3 + 0 + 1
    assert stats["Caio & Duda"].trancas == 3
    assert stats["Caio & Duda"].went_out == 1


def counted_on_paper(team: dict[str, Any]) -> dict[str, Any]:
    """A card-by-card team as a table counts it on paper (the seed's values, read here)."""
    counts = dict.fromkeys(("clean_canastras", "dirty_canastras", "twos_canastras"), 0)
    table = sum(VALUE[Card(c).rank] for meld in team["melds"] for c in meld)
    for meld in team["melds"]:
        if len(meld) >= 7:
            twos = sum(Card(c).rank is Rank.TWO for c in meld)
            kind = "twos" if twos == len(meld) else "dirty" if twos else "clean"
            counts[f"{kind}_canastras"] += 1
    for pile in team["piles"]:
        rank = Rank(pile["pile"])
        if rank is Rank.TWO:
            table += 10 * pile["cards"]
            counts["twos_canastras"] += 1
        elif pile["clean"]:
            table += VALUE[rank] * pile["cards"]
            counts["clean_canastras"] += 1
        else:
            table += VALUE[rank] * (pile["cards"] - 1) + 10
            counts["dirty_canastras"] += 1
    held = [Card(c) for c in team["hand"]]
    return {
        "name": team["name"],
        "table_points": table,
        **counts,
        "dollars": len(team["dollars"]),
        "trancas": sum(c.rank is Rank.THREE for c in held),
        "hand_points": sum(VALUE[c.rank] for c in held if c.rank is not Rank.THREE),
        "took_morto": team["took_morto"],
        "went_out": team["went_out"],
    }


@settings(max_examples=150, deadline=None)
@given(rounds())
def test_every_legal_table_counted_on_paper_is_plausible_and_scores_the_same(
    data: dict[str, Any],
) -> None:
    tally = {"players": data["players"], "tally": True,
             "teams": [counted_on_paper(t) for t in data["teams"]]}  # fmt: skip
    by_tally = score_round(read_round(tally))
    by_cards = score_round(parse_round(data))
    assert by_tally.totals == by_cards.totals
    for a, b in zip(by_tally.teams, by_cards.teams, strict=True):
        assert a.breakdown.points() == b.breakdown.points()
