"""Equity and draw odds against brute force with treys, and ranges."""

from __future__ import annotations

from itertools import combinations

import pytest

from cardscore.cards import Rank, full_deck, parse_cards
from cardscore.errors import IllegalMoveError, ImpossibleTableError, InvalidNotationError
from cardscore.poker import Category, Dealer, Phase
from cardscore.poker.equity import draw_equity, draw_odds, holdem_equity, parse_range
from tests.conftest import need_module

treys = need_module("treys", "the cross-check needs treys (dev extra)")
EVALUATOR = treys.Evaluator()


def treys_rank(cards: list) -> int:
    return int(EVALUATOR.evaluate([], [treys.Card.new(c.code) for c in cards]))


def test_holdem_exact_equity_matches_brute_force_with_treys() -> None:
    hands = [parse_cards("As Ah"), parse_cards("Kd Kc"), parse_cards("8h 7h")]
    board = parse_cards("2s 9h 6h")
    used = {c for h in hands for c in h} | set(board)
    deck = [c for c in full_deck() if c not in used]
    shares = [0.0, 0.0, 0.0]
    runouts = list(combinations(deck, 2))
    for runout in runouts:
        ranks = [treys_rank([*h, *board, *runout]) for h in hands]
        best = min(ranks)
        for i, r in enumerate(ranks):
            if r == best:
                shares[i] += 1 / ranks.count(best)
    result = holdem_equity(["As Ah", "Kd Kc", "8h 7h"], board="2s 9h 6h")
    assert result.exact
    assert result.trials == len(runouts) == 903
    assert result.equities == pytest.approx([s / len(runouts) for s in shares], abs=1e-12)


def test_sampled_equity_is_close_to_exact() -> None:
    exact = holdem_equity(["Ah Kh", "Qs Qd"], board="2h 7h Tc 3s")
    sampled = holdem_equity(["Ah Kh", "Qs Qd"], board="2h 7h Tc 3s", trials=40_000, seed=5)
    assert exact.exact
    assert not sampled.exact
    assert sampled.equities == pytest.approx(exact.equities, abs=0.015)


def test_draw_odds_match_brute_force_with_treys() -> None:
    hand = parse_cards("9h 8h 7c 6s Kd")
    odds = draw_odds(hand, discard="Kd 7c")
    deck = [c for c in full_deck() if c not in hand]
    kept = [c for c in hand if c.code not in ("Kd", "7c")]
    by_category: dict[str, int] = {}
    for draw in combinations(deck, 2):
        r = treys_rank([*kept, *draw])
        name = EVALUATOR.class_to_string(EVALUATOR.get_rank_class(r)).lower()
        by_category[name] = by_category.get(name, 0) + 1
    assert odds.draws == 1081
    assert round(odds.probability(Category.STRAIGHT) * 1081) == by_category["straight"]
    assert round(odds.probability("flush") * 1081) == by_category.get("flush", 0) == 0
    pairs = round(odds.probability("pair") * 1081)
    assert pairs == by_category["pair"]
    assert sum(odds.counts) == 1081


def test_the_one_card_flush_draw() -> None:
    odds = draw_odds("Ah Kh 7h 2h 9c", discard="9c")
    assert odds.probability("flush") == pytest.approx(9 / 47)
    assert odds.at_least("flush") == pytest.approx(9 / 47)
    assert odds.improve == pytest.approx((9 + 12) / 47)  # a flush, or pairing A, K, 7 or 2


def test_dead_cards_and_bad_draws() -> None:
    assert draw_odds("Ah Kh 7h 2h 9c", "9c", dead="3h 4h").probability("flush") == pytest.approx(
        7 / 45
    )
    with pytest.raises(IllegalMoveError, match="not in the hand"):
        draw_odds("Ah Kh 7h 2h 9c", "Qc")


def test_odds_and_equity_refuse_the_draws_the_dealer_refuses() -> None:
    """Four cards go only when the card kept is an ace, never five: the dealer's own rule."""
    hand, four = "Kh Qh Jh 2c 3c", "Qh Jh 2c 3c"
    with pytest.raises(IllegalMoveError) as info:
        draw_odds(hand, four)
    assert info.value.problems == (
        "four cards may be thrown only when the card kept is an ace (kept K♥)",
    )
    assert info.value.problems[0].code == "throw_four_no_ace"
    with pytest.raises(IllegalMoveError, match="hand 2: a player may not throw all five"):
        draw_equity(["Ah Ad 7c 5s 3h", hand], ["", hand])
    assert draw_odds("Ah Kd 7c 5s 3h", "Kd 7c 5s 3h").draws == 178_365
    dealer = Dealer(["A", "B"], seed=3)
    dealer.start_hand()
    while dealer.phase is not Phase.DRAW:
        if dealer.can_call():
            dealer.call()
        else:
            dealer.check()
    assert dealer.to_act is not None
    held = dealer.tracker.tracked_hand(dealer.seats[dealer.to_act].name)
    assert dealer.can_draw(held[1:]) is (held[0].rank is Rank.ACE)
    assert dealer.can_draw(held) is False
    with pytest.raises(ImpossibleTableError, match="twice"):
        holdem_equity(["Ah Kh", "Ah Qd"])


def test_ranges() -> None:
    assert len(parse_range("22+")) == 78
    assert len(parse_range("AK")) == 16
    assert len(parse_range("AKo, AKs")) == 16
    assert len(parse_range("KTs+")) == 12
    assert len(parse_range("QQ QQ")) == 6
    with pytest.raises(InvalidNotationError, match="'AKx'"):
        parse_range("QQ, AKx")
    result = holdem_equity(["AA", "KK"], trials=20_000, seed=9)
    assert result.equities[0] == pytest.approx(0.82, abs=0.02)


def test_draw_equity_sums_to_one() -> None:
    result = draw_equity(
        ["Ah Ad 7c 5s 3h", "Kh Qh 9h 2h 4c", "9s 8s 7d 6c 2d"],
        ["7c 5s 3h", "4c", "2d"],
        trials=20_000,
        seed=1,
    )
    assert sum(result.equities) == pytest.approx(1.0)
    assert result.equities[0] > result.equities[1]
