"""Pots, rules and action records, checked against hand-worked answers (not the dealer's own).

Folded chips: the rules (``../shared/seeds/004_*``) are silent on pots, so the common rules of
poker decide: chips a player put in stay in the pot when they fold (folding forfeits them) and
go to whoever wins it. ``build_pots`` once dropped them when no one still in had put a chip in.
"""

from __future__ import annotations

import pytest

from cardscore.cards import Card
from cardscore.errors import CardscoreError
from cardscore.poker import evaluate
from cardscore.poker.betting import (
    Action,
    ActionKind,
    Limit,
    Pot,
    Rules,
    build_pots,
    split_pot,
)
from cardscore.poker.dealer import Dealer

# --- pots, worked by hand ----------------------------------------------------------------------


def test_folded_chips_never_vanish() -> None:
    # Seat 0 put in 10 and folded; seat 1, still in, put in nothing: the 10 are seat 1's pot.
    assert build_pots([10, 0], [True, False]) == [Pot(10, (1,))]
    assert build_pots([10, 10, 0], [True, True, False]) == [Pot(20, (2,))]
    # Folded chips above the top live level join the last pot (30 + 10 + 10).
    assert build_pots([30, 10, 10], [True, False, False]) == [Pot(50, (1, 2))]
    # Folded chips between levels count towards each level they reach.
    assert build_pots([40, 20, 60, 60], [True, False, False, False]) == [
        Pot(80, (1, 2, 3)),  # 20 from each
        Pot(100, (2, 3)),  # seat 0's other 20, and 40 each from seats 2 and 3
    ]


def test_pots_by_hand() -> None:
    assert build_pots([], []) == []
    assert build_pots([0, 0], [False, False]) == []
    assert build_pots([5, 5], [False, False]) == [Pot(10, (0, 1))]
    # Three all-in levels: 20 × 4, 30 × 3, 50 × 2.
    assert build_pots([20, 50, 100, 100], [False] * 4) == [
        Pot(80, (0, 1, 2, 3)),
        Pot(90, (1, 2, 3)),
        Pot(100, (2, 3)),
    ]
    # A seat that put in nothing and did not fold (all in for nothing) is in no pot.
    assert build_pots([10, 10, 0], [False, False, False]) == [Pot(20, (0, 1))]
    assert build_pots([10, 10, 0], [True, False, False]) == [Pot(20, (1,))]


def test_pots_need_one_fold_flag_per_seat() -> None:
    with pytest.raises(ValueError, match="zip"):
        build_pots([10, 10], [False])
    with pytest.raises(ValueError, match="zip"):
        build_pots([10], [False, False])
    with pytest.raises(ValueError, match="zip"):  # even when no one put a chip in
        build_pots([0, 0], [False])


def test_split_pot_by_hand() -> None:
    assert split_pot(10, [3, 1, 2], order=[1, 2, 3, 0]) == {1: 4, 2: 3, 3: 3}
    assert split_pot(11, [0, 2], order=[2, 3, 0, 1]) == {2: 6, 0: 5}
    assert split_pot(9, [1], order=[0, 1]) == {1: 9}
    assert split_pot(2, [0, 1, 2], order=[2, 0, 1]) == {2: 1, 0: 1, 1: 0}


def _dealt_in_order(seats: list[int]) -> Dealer:
    """The hand below, on the first deck (by seed) where ``seats``' hands rank best first."""
    for seed in range(500):
        dealer = Dealer(list("ABCDE"), stacks=[20, 50, 100, 100, 200], button=4)
        dealer.start_hand(deck_seed=seed, button=4)
        ranks = [evaluate(list(dealer.hand_of(i))).rank for i in seats]
        if ranks == sorted(set(ranks)):  # strictly better (lower) first
            return dealer
    raise AssertionError("no such deck in 500 seeds")


def test_a_multiway_hand_where_each_pot_has_a_different_winner() -> None:
    """Worked by hand. Blinds 1/2, E on the button. A (20 chips) and B (50) go all in; C and
    D (100 each) call and later put all their chips in; E calls 30, then folds to B's all-in.
    Hands rank A > B > C > D.

    ======== ========================================= =============== ========
    pot      chips                                      open to         winner
    ======== ========================================= =============== ========
    main     20 from each of A B C D, 20 of E's 30      A B C D         A
    side 1   30 from each of B C D, E's other 10        B C D           B
    side 2   50 from each of C D                        C D             C
    ======== ========================================= =============== ========
    """
    a, b, c, d, e = range(5)
    dealer = _dealt_in_order([a, b, c, d])
    assert [s.stack for s in dealer.seats] == [19, 48, 100, 100, 200]  # A and B post blinds
    assert dealer.to_act == c
    dealer.raise_to(30)  # C
    dealer.call()  # D
    dealer.call()  # E: 30 in
    dealer.all_in()  # A: 20, all in for less
    dealer.all_in()  # B: 50
    dealer.call()  # C: 50
    dealer.call()  # D: 50
    dealer.fold()  # E folds, 30 in the pot
    assert dealer.seats[e].folded
    assert dealer.seats[e].total_bet == 30
    for _ in range(4):
        dealer.draw()  # everyone stands pat
    assert dealer.to_act == c
    dealer.all_in()  # C: the other 50
    dealer.call()  # D
    result = dealer.result
    assert result is not None
    assert [(p.amount, p.eligible, p.winners) for p in result.pots] == [
        (100, (a, b, c, d), (a,)),
        (100, (b, c, d), (b,)),
        (100, (c, d), (c,)),
    ]
    assert result.won == {a: 100, b: 100, c: 100}
    assert result.returned == {}
    assert [s.stack for s in dealer.seats] == [100, 100, 100, 0, 170]
    assert sum(s.stack for s in dealer.seats) == 20 + 50 + 100 + 100 + 200


# --- rules -------------------------------------------------------------------------------------


def test_rules_defaults_and_minimum_bets() -> None:
    rules = Rules()
    assert (rules.limit, rules.ante, rules.small_blind, rules.big_blind) == (
        Limit.NO_LIMIT,
        0,
        1,
        2,
    )
    assert (rules.small_bet, rules.big_bet, rules.max_bets) == (2, 4, 4)
    assert rules.min_bet(after_draw=False) == 2  # the big blind
    assert rules.min_bet(after_draw=True) == 2
    assert Rules(big_blind=5, small_blind=1).min_bet(after_draw=True) == 5
    assert Rules(ante=1, small_blind=0, big_blind=0, small_bet=3).min_bet(after_draw=False) == 3
    fixed = Rules(limit=Limit.FIXED, small_bet=3, big_bet=6)
    assert fixed.min_bet(after_draw=False) == 3
    assert fixed.min_bet(after_draw=True) == 6


@pytest.mark.parametrize(
    ("kwargs", "problem"),
    [
        ({"ante": -1}, "ante must be a whole number ≥ 0, not -1"),
        ({"small_blind": -1}, "small_blind must be a whole number ≥ 0, not -1"),
        ({"big_blind": -2}, "big_blind must be a whole number ≥ 0, not -2"),
        ({"small_bet": -1}, "small_bet must be a whole number ≥ 0, not -1"),
        ({"big_bet": -1}, "big_bet must be a whole number ≥ 0, not -1"),
        ({"ante": 1.5}, "ante must be a whole number ≥ 0, not 1.5"),
        ({"limit": "fixed"}, "limit must be a Limit, not 'fixed'"),
        (
            {"ante": 0, "small_blind": 0, "big_blind": 0},
            "a game needs an ante or blinds, or nobody has a reason to bet",
        ),
        ({"small_blind": 3, "big_blind": 2}, "the small blind cannot be larger than the big blind"),
        ({"small_bet": 0}, "bet sizes and the bet cap must be at least 1"),
        ({"big_bet": 0}, "bet sizes and the bet cap must be at least 1"),
        ({"max_bets": 0}, "bet sizes and the bet cap must be at least 1"),
    ],
)
def test_bad_rules_name_each_problem(kwargs: dict[str, object], problem: str) -> None:
    with pytest.raises(CardscoreError) as error:
        Rules(**kwargs)  # type: ignore[arg-type]
    assert problem in error.value.problems


def test_every_problem_with_the_rules_at_once() -> None:
    with pytest.raises(CardscoreError) as error:
        Rules(ante=-1, small_blind=0, big_blind=0, small_bet=0)
    assert error.value.problems == (
        "ante must be a whole number ≥ 0, not -1",
        "bet sizes and the bet cap must be at least 1",
    )


def test_good_edge_rules_are_accepted() -> None:
    Rules(ante=1, small_blind=0, big_blind=0)  # an ante alone
    Rules(small_blind=0, big_blind=1)  # a big blind alone
    Rules(small_blind=2, big_blind=2)  # equal blinds
    Rules(small_bet=1, big_bet=1, max_bets=1)


def test_rules_round_trip_through_dict_and_repr() -> None:
    rules = Rules(limit=Limit.FIXED, ante=1, small_blind=1, big_blind=2, small_bet=3, big_bet=6)
    assert rules.as_dict() == {
        "limit": "fixed",
        "ante": 1,
        "small_blind": 1,
        "big_blind": 2,
        "small_bet": 3,
        "big_bet": 6,
        "max_bets": 4,
    }
    assert Rules.from_dict(rules.as_dict()) == rules
    assert Rules.from_dict({}) == Rules()
    assert Rules.from_dict({"limit": "fixed"}).limit is Limit.FIXED
    assert repr(rules) == (
        "Rules(limit=Limit.FIXED, ante=1, small_blind=1, big_blind=2, small_bet=3, big_bet=6,"
        " max_bets=4)"
    )
    assert eval(repr(rules)) == rules
    assert eval(repr(Rules())) == Rules()


# --- actions -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (Action(0, ActionKind.FOLD), "folds"),
        (Action(0, ActionKind.CHECK), "checks"),
        (Action(0, ActionKind.CALL, amount=5, total=7), "calls 5"),
        (Action(0, ActionKind.BET, amount=4, total=4), "bets 4"),
        (Action(0, ActionKind.RAISE, amount=6, total=10), "raises to 10"),
        (Action(0, ActionKind.RAISE, amount=6, total=10, all_in=True), "raises to 10 (all in)"),
        (Action(0, ActionKind.CALL, amount=3, total=3, all_in=True), "calls 3 (all in)"),
        (Action(0, ActionKind.ANTE, amount=1, total=1), "posts the ante (1)"),
        (Action(0, ActionKind.SMALL_BLIND, amount=1, total=1), "posts the small blind (1)"),
        (Action(0, ActionKind.BIG_BLIND, amount=2, total=2), "posts the big blind (2)"),
        (Action(0, ActionKind.DRAW), "stands pat"),
        (Action(0, ActionKind.DRAW, discards=(Card("2c"), Card("3d"))), "draws 2"),
    ],
)
def test_actions_read_as_a_table_talks(action: Action, text: str) -> None:
    assert str(action) == text
    assert Action.from_dict(action.as_dict()) == action


def test_action_records() -> None:
    assert Action(2, ActionKind.CALL, 3, 5).as_dict() == {
        "seat": 2,
        "kind": "call",
        "amount": 3,
        "total": 5,
    }
    assert Action(1, ActionKind.BET, 9, 9, all_in=True).as_dict()["all_in"] is True
    draw = Action(1, ActionKind.DRAW, discards=(Card("2c"),), drawn=(Card("Ah"),))
    assert draw.as_dict() == {"seat": 1, "kind": "draw", "discards": ["2c"], "drawn": ["Ah"]}
    assert [k for k in ActionKind if k.forced] == [
        ActionKind.ANTE,
        ActionKind.SMALL_BLIND,
        ActionKind.BIG_BLIND,
    ]
