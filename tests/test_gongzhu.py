from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardscore.cards import Card, full_deck, parse_cards
from cardscore.errors import IllegalMoveError, ImpossibleTableError, InvalidNotationError
from cardscore.gongzhu import (
    DOUBLER,
    GOAT,
    PIG,
    Match,
    Rules,
    parse_pile,
    parse_piles,
    score_hand,
    score_pile,
)

# The seed's table of cases (002_…), every one of them.
SEED_CASES = [
    ("234", 0),
    ("56789T", -60),
    ("T", -10),
    ("J", -20),
    ("Q", -30),
    ("K", -40),
    ("A", -50),
    ("TJQK", -100),
    ("P", -100),
    ("G", 100),
    ("TJQKP", -200),
    ("PG", 0),
    ("2468TQKG", 0),
    ("D", 50),
    ("234D", 50),
    ("GD", 200),
    ("PGD", 0),
    ("TJQKGD", 0),
    ("23456789TJQK", -150),
    ("3456789TJQKA", -200),
    ("23456789TJQKA", 200),
    ("23456789TJQKAP", 100),
    ("23456789TJQKAG", 300),
    ("23456789TJQKAPG", 400),
    ("2356789TJQKAPD", -600),
    ("23456789TJQKAPGD", 800),
    ("DP2A45968TJK7QG3", 800),
    ("DP24", -200),
    ("G2P6D4", -20),
]


def test_the_seed_has_29_cases() -> None:
    assert len(SEED_CASES) == 29


@pytest.mark.parametrize(("pile", "expected"), SEED_CASES)
def test_seed_cases(pile: str, expected: int) -> None:
    result = score_pile(parse_pile(pile))
    assert result.total == expected
    assert sum(result.breakdown.points().values()) == expected


def test_seed_file_table_matches(shared: Path) -> None:
    text = (shared / "seeds" / "002_43ddecdb7874cb3e.txt").read_text(encoding="utf-8")
    table = text.split("Input            Output", 1)[1].split("Rule", 1)[0]
    rows = re.findall(r"^([2-9TJQKAPGD]+)\s+(-?\d+)\s*$", table, re.MULTILINE)
    assert len(rows) == 29
    for pile, expected in rows:
        assert score_pile(parse_pile(pile)).total == int(expected), pile


scoring_cards = [c for c in full_deck() if c.suit.value == "h"] + [PIG, GOAT, DOUBLER]


@given(st.lists(st.sampled_from(full_deck()), unique=True), st.randoms())
def test_order_never_changes_the_score(hand: list[Card], rnd: object) -> None:
    shuffled = list(hand)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    for rules in (Rules(), Rules(True, True)):
        a, b = score_pile(hand, rules), score_pile(shuffled, rules)
        assert a.total == b.total
        assert a.breakdown.points() == b.breakdown.points()
        assert sum(a.breakdown.points().values()) == a.total


@given(st.lists(st.sampled_from(scoring_cards), unique=True))
def test_non_scoring_cards_are_ignored(pile: list[Card]) -> None:
    noise = parse_cards("2c 3s Kd 9c As")
    assert score_pile([*pile, *noise]).total == score_pile(pile).total


@given(st.lists(st.sampled_from(scoring_cards), unique=True))
def test_doubler_doubles_or_adds_fifty(pile: list[Card]) -> None:
    without = [c for c in pile if c != DOUBLER]
    base = score_pile(without).total
    with_doubler = score_pile([*without, DOUBLER]).total
    scoring_others = any(c in (PIG, GOAT) or c.rank.value not in "234" for c in without)
    assert with_doubler == (2 * base if scoring_others else 50)


def test_house_rule_pig_plus_with_all_hearts() -> None:
    pile = parse_pile("23456789TJQKAP")
    assert score_pile(pile).total == 100
    assert score_pile(pile, Rules(pig_plus_with_all_hearts=True)).total == 300
    assert (
        score_pile(parse_pile("23456789TJQKAPG"), Rules(pig_plus_with_all_hearts=True)).total == 400
    )
    # Without all hearts the pig is always -100.
    assert (
        score_pile(parse_pile("3456789TJQKAP"), Rules(pig_plus_with_all_hearts=True)).total == -300
    )


def test_house_rule_low_hearts_count_for_doubler() -> None:
    assert score_pile(parse_pile("2D")).total == 50
    assert score_pile(parse_pile("2D"), Rules(low_hearts_count_for_doubler=True)).total == 0
    assert score_pile(parse_pile("234D"), Rules(low_hearts_count_for_doubler=True)).total == 0
    assert score_pile(parse_pile("D"), Rules(low_hearts_count_for_doubler=True)).total == 50


def test_pile_notation_errors_name_every_problem() -> None:
    with pytest.raises(InvalidNotationError) as info:
        parse_pile("2Z4X")
    assert [p.split(" is")[0] for p in info.value.problems] == ["symbol 2 'Z'", "symbol 4 'X'"]
    with pytest.raises(ImpossibleTableError, match="'P'"):
        parse_pile("PP")
    with pytest.raises(ImpossibleTableError, match="Q♠ appears 2 times"):
        score_pile(parse_cards("QS QS"))


def test_hand_checks_no_card_is_in_two_piles() -> None:
    scores = score_hand(["23456789TJQK", "AP", "G", "D"])
    assert [s.total for s in scores] == [-150, -150, 100, 50]
    with pytest.raises(ImpossibleTableError) as info:
        score_hand(["AP", "A", "P23456789TJQK", "GD"])
    assert info.value.problems == (
        "Q♠ is in piles 1 and 3; one deck holds only one",
        "A♥ is in piles 1 and 2; one deck holds only one",
    )


def test_a_hands_piles_hold_every_scoring_card() -> None:
    """Every scoring card is won in some trick: four piles missing one are no hand."""
    with pytest.raises(ImpossibleTableError) as info:
        score_hand(["2", "3", "", ""])
    (problem,) = info.value.problems
    assert problem.startswith("the piles lack 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥ 10♣ J♦ Q♠:")
    assert problem.code == "piles_lack"
    with pytest.raises(ImpossibleTableError, match="the piles lack Q♠"):
        Match(("N", "E", "S", "W")).play_hand(["23456789TJQKA", "", "G", "D"])
    # standard cards may carry cards worth nothing; the sixteen must still all be there
    piles = parse_piles(
        ["2h 3h 4h 5h 6h 7h 8h 9h", "Th Jh Qh Kh Ah 2c", "QS JD", "TC 4s"], cards=True
    )
    assert [len(p) for p in piles] == [8, 6, 2, 2]


def test_hand_reports_every_bad_pile_with_its_number() -> None:
    with pytest.raises(InvalidNotationError) as info:
        score_hand(["Px", "", "Z", "G"])
    assert [p.split(" is")[0] for p in info.value.problems] == [
        "pile 1: symbol 2 'x'",
        "pile 3: symbol 1 'Z'",
    ]


def test_match_runs_to_the_limit_and_undoes() -> None:
    match = Match(("N", "E", "S", "W"))
    while not match.is_over:
        match.play_hand(["23456789TJQK", "AP", "G", "D"])
    assert match.totals["E"] <= -1000
    assert len(match.hands) == 7
    assert match.winner == "S"
    assert match.losers == ("N", "E")
    with pytest.raises(IllegalMoveError, match="over"):
        match.play_hand(["23456789TJQK", "AP", "G", "D"])
    match.undo()
    assert not match.is_over
    assert match.winner is None
    with pytest.raises(ValueError, match="four distinct"):
        Match(("a", "a", "b", "c"))
    with pytest.raises(ValueError, match="four piles"):
        match.play_hand(["", ""])
