"""The dealer: betting rules, the draw, pots, and hands that replay from their history."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardscore.cards import parse_cards
from cardscore.errors import IllegalMoveError
from cardscore.poker.betting import ActionKind, Limit, Rules, build_pots, split_pot
from cardscore.poker.bots import Bot, play_hand
from cardscore.poker.dealer import Dealer, Phase
from tests import goldens
from tests.conftest import ROOT

GOLDEN = ROOT / "tests" / "golden" / "poker_side_pots.json"


def four_bots_with_side_pots() -> Dealer:
    dealer = Dealer(["Ann", "Bo", "Cy", "Di"], stacks=[20, 50, 100, 200], seed=18)
    play_hand(dealer, [Bot(seed=180 + i, aggression=0.9) for i in range(4)])
    return dealer


def test_four_computer_players_with_side_pots_match_the_golden_transcript() -> None:
    dealer = four_bots_with_side_pots()
    assert dealer.result is not None
    assert len(dealer.result.pots) == 3  # a main pot and two side pots
    assert dealer.history_json() + "\n" == goldens.poker_side_pots()
    goldens.check("poker_side_pots.json")


def test_the_saved_history_replays_to_the_same_state() -> None:
    saved = GOLDEN.read_text(encoding="utf-8")
    replayed = Dealer.replay(saved)
    assert replayed.state() == json.loads(saved)["state"]
    assert replayed.history_json() + "\n" == saved
    original = four_bots_with_side_pots()
    assert [s.stack for s in replayed.seats] == [s.stack for s in original.seats]


def test_a_tampered_history_is_refused() -> None:
    data = json.loads(GOLDEN.read_text(encoding="utf-8"))
    raise_index = next(i for i, a in enumerate(data["actions"]) if a["kind"] == "raise")
    data["actions"][raise_index]["total"] += 1
    with pytest.raises((IllegalMoveError, ValueError)):
        Dealer.replay(data)
    data = json.loads(GOLDEN.read_text(encoding="utf-8"))
    draw = next(a for a in data["actions"] if a["kind"] == "draw" and a["drawn"])
    draw["drawn"][0] = "2c" if draw["drawn"][0] != "2c" else "3c"
    with pytest.raises(ValueError, match="replays as"):
        Dealer.replay(data)


def three_handed(stacks: list[int], rules: Rules | None = None) -> Dealer:
    dealer = Dealer(["A", "B", "C"], stacks=stacks, rules=rules, seed=5)
    dealer.start_hand()  # button A: B small blind, C big blind, A first to act
    return dealer


def test_no_limit_minimum_raises() -> None:
    dealer = three_handed([100, 100, 100])
    assert dealer.to_act == 0
    assert dealer.raise_range() == (4, 100)
    assert not dealer.can_raise_to(3)
    with pytest.raises(IllegalMoveError, match="between 4 and 100, not 3"):
        dealer.raise_to(3)
    assert dealer.raise_to(10).total == 10  # a raise of 8
    assert dealer.raise_range() == (18, 100)  # B must raise by 8 more, to 18
    assert not dealer.can_bet(20)  # there is a bet: raise, not bet
    action = dealer.raise_to(18)
    assert (action.kind, action.amount, action.total) == (ActionKind.RAISE, 17, 18)


def test_a_short_all_in_does_not_reopen_the_betting() -> None:
    dealer = three_handed([100, 100, 7])
    dealer.raise_to(6)  # A raises by 4
    dealer.call()  # B
    short = dealer.all_in()  # C: 7 in all, a raise of only 1
    assert (short.kind, short.total, short.all_in) == (ActionKind.RAISE, 7, True)
    assert dealer.to_act == 0
    assert dealer.raise_range() is None  # A already acted and faces less than a full raise
    assert dealer.legal_actions() == [ActionKind.FOLD, ActionKind.CALL]
    with pytest.raises(IllegalMoveError, match="not open to a raise"):
        dealer.raise_to(20)
    dealer.call()
    assert dealer.raise_range() is None  # same for B
    dealer.call()
    assert dealer.phase is Phase.DRAW


def test_fixed_limit_bet_sizes_and_the_cap() -> None:
    rules = Rules(limit=Limit.FIXED, small_blind=1, big_blind=2, small_bet=2, big_bet=4)
    dealer = Dealer(["A", "B", "C", "D"], stacks=100, rules=rules, seed=1)
    dealer.start_hand()  # B small blind, C big blind (the first bet), D to act
    assert dealer.raise_range() == (4, 4)
    with pytest.raises(IllegalMoveError, match="must go to 4"):
        dealer.raise_to(6)
    dealer.raise_to(4)  # two bets
    dealer.raise_to(6)  # three
    dealer.raise_to(8)  # four: capped
    assert dealer.raise_range() is None
    assert ActionKind.RAISE not in dealer.legal_actions()
    for _ in range(3):
        dealer.call()
    assert dealer.phase is Phase.DRAW
    for _ in range(4):
        dealer.draw()
    assert dealer.phase is Phase.POST_DRAW
    assert dealer.to_act == 1  # first live seat left of the button
    assert dealer.raise_range() == (4, 4)  # the big bet after the draw
    assert not dealer.can_bet(2)
    assert dealer.bet(4).amount == 4


def test_check_call_fold_bet_and_raise_only_when_they_make_sense() -> None:
    dealer = three_handed([100, 100, 100])
    assert not dealer.can_check()
    dealer.call()
    dealer.call()
    assert dealer.can_check()
    assert not dealer.can_fold()  # nothing to call: checking costs nothing
    assert not dealer.can_call()
    dealer.check()  # the big blind's option
    assert dealer.phase is Phase.DRAW
    with pytest.raises(IllegalMoveError, match="nobody can bet"):
        dealer.check()
    for _ in range(3):
        dealer.draw()
    with pytest.raises(IllegalMoveError, match="no bet to raise"):
        dealer.raise_to(10)
    assert dealer.raise_range() == (2, 98)
    dealer.bet(2)
    assert dealer.can_fold()


def test_the_dealer_enforces_the_draw_rules() -> None:
    dealer = three_handed([100, 100, 100])
    dealer.call()
    dealer.call()
    dealer.check()
    hand = dealer.hand_of(dealer.to_act or 0)
    with pytest.raises(IllegalMoveError, match="all five"):
        dealer.draw(hand)
    if all(card.rank.value != "A" for card in hand):
        with pytest.raises(IllegalMoveError, match="ace"):
            dealer.draw(hand[:4])
    with pytest.raises(IllegalMoveError, match="not in the hand"):
        dealer.draw([c for c in parse_cards("2c 3c 4c 5c 6c") if c not in hand][:1])
    action = dealer.draw(hand[:3])
    assert action.discards == hand[:3]
    assert len(action.drawn) == 3
    assert not set(action.drawn) & set(hand)


def test_heads_up_the_button_posts_the_small_blind_and_acts_first() -> None:
    dealer = Dealer(["A", "B"], stacks=50, seed=2)
    dealer.start_hand()
    posts = [(a.seat, a.kind) for a in dealer.actions]
    assert posts == [(0, ActionKind.SMALL_BLIND), (1, ActionKind.BIG_BLIND)]
    assert dealer.to_act == 0
    dealer.call()
    dealer.check()
    dealer.draw()
    dealer.draw()
    assert dealer.to_act == 1  # after the draw the big blind acts first


def test_an_uncalled_bet_goes_back() -> None:
    dealer = Dealer(["A", "B"], stacks=50, seed=2)
    dealer.start_hand()
    dealer.raise_to(30)
    dealer.fold()
    assert dealer.result is not None
    assert dealer.result.returned == {0: 28}
    assert dealer.result.won == {0: 4}
    assert [s.stack for s in dealer.seats] == [52, 48]
    assert dealer.result.shown == {}


def test_split_pots_give_odd_chips_left_of_the_button() -> None:
    rules = Rules(ante=1, small_blind=0, big_blind=0)
    dealer = Dealer(["A", "B", "C"], stacks=10, rules=rules, seed=3)
    dealer.start_hand()
    for name, cards in zip(
        "ABC", ["As Ks Qs Js 9h", "Ad Kd Qd Jd 9c", "2c 3d 4h 5s 7c"], strict=True
    ):
        dealer.tracker.players[name]["cards"] = list(parse_cards(cards))
    assert dealer.phase is Phase.PRE_DRAW
    for _ in range(3):
        dealer.check()
    for _ in range(3):
        dealer.draw()
    for _ in range(3):
        dealer.check()
    assert dealer.result is not None
    (pot,) = dealer.result.pots
    assert (pot.amount, pot.winners) == (3, (0, 1))
    assert pot.shares == {1: 2, 0: 1}  # B sits left of the button (A): the odd chip is B's


def test_pots_and_splits() -> None:
    pots = build_pots([20, 50, 100, 100], [False, False, False, False])
    assert [(p.amount, p.eligible) for p in pots] == [
        (80, (0, 1, 2, 3)),
        (90, (1, 2, 3)),
        (100, (2, 3)),
    ]
    # Seat 0's folded 10 stay in the pot; seat 2, still in, put in nothing and wins none of it.
    assert [(p.amount, p.eligible) for p in build_pots([10, 10, 0], [True, False, False])] == [
        (20, (1,))
    ]
    assert split_pot(10, [3, 1, 2], order=[1, 2, 3, 0]) == {1: 4, 2: 3, 3: 3}


def test_the_button_moves_and_skips_players_without_chips() -> None:
    dealer = Dealer(["A", "B", "C", "D"], stacks=[10, 0, 10, 10], seed=4)
    bots = [Bot(seed=i) for i in range(4)]
    buttons = []
    for _ in range(3):
        play_hand(dealer, bots)
        buttons.append(dealer.button)
        assert not dealer.seats[1].in_hand
    assert buttons == [0, 2, 3]


@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 10**6),
    st.integers(2, 7),
    st.sampled_from([Limit.NO_LIMIT, Limit.FIXED]),
    st.integers(0, 2),
)
def test_chips_are_conserved_over_a_session(
    seed: int, players: int, limit: Limit, ante: int
) -> None:
    rules = Rules(limit=limit, ante=ante)
    stacks = [20 + 15 * i for i in range(players)]
    dealer = Dealer([f"p{i}" for i in range(players)], stacks=stacks, rules=rules, seed=seed)
    bots = [Bot(seed=seed + i, aggression=0.8, bluff=0.2) for i in range(players)]
    for _ in range(4):
        if sum(s.stack > 0 for s in dealer.seats) < 2:
            break
        result = play_hand(dealer, bots)
        assert sum(s.stack for s in dealer.seats) == sum(stacks)
        assert sum(result.won.values()) == sum(p.amount for p in result.pots)
        dealer.tracker.check()
        replayed = Dealer.replay(dealer.history_json())
        assert replayed.state() == dealer.state()


def test_seven_players_drawing_three_each_reshuffle_the_discards() -> None:
    dealer = Dealer([f"p{i}" for i in range(7)], stacks=100, seed=12)
    dealer.start_hand()
    while dealer.phase is Phase.PRE_DRAW:
        dealer.call() if dealer.can_call() else dealer.check()
    before = {i: dealer.hand_of(i) for i in range(7)}
    drawn = []
    while dealer.phase is Phase.DRAW:
        seat = dealer.to_act
        assert seat is not None
        drawn += dealer.draw(dealer.hand_of(seat)[:3]).drawn
    assert dealer.tracker.reshuffles == 1  # 21 cards wanted, 17 in the stock
    held = [c for i in range(7) for c in dealer.hand_of(i)]
    assert len(held) == len(set(held)) == 35
    thrown = {c for cards in before.values() for c in cards[:3]}
    assert len(set(drawn) & thrown) == 4  # the last four came from reshuffled discards
    dealer.tracker.check()
    assert Dealer.replay(dealer.history_json()).state() == dealer.state()


def test_undo_takes_back_actions_one_at_a_time() -> None:
    dealer = three_handed([100, 100, 100])
    start = dealer.state()
    dealer.raise_to(10)
    middle = dealer.state()
    dealer.call()
    assert dealer.undo().kind is ActionKind.CALL
    assert dealer.state() == middle
    assert dealer.undo().kind is ActionKind.RAISE
    assert dealer.state() == start
    with pytest.raises(IllegalMoveError, match="no player action"):
        dealer.undo()


def test_jupyter_rendering_shows_the_table() -> None:
    dealer = three_handed([100, 100, 100])
    html = dealer._repr_html_()
    assert html.count("<tr>") == 4
    assert "betting before the draw — pot 3" in html
    assert html.count('<span style="color:') == 15  # five cards for each of three players


def test_rules_rebuild_from_repr_and_json() -> None:
    rules = Rules(limit=Limit.FIXED, ante=1, small_blind=1, big_blind=2, small_bet=2, big_bet=4)
    assert eval(repr(rules)) == rules
    assert Rules.from_dict(rules.as_dict()) == rules
    with pytest.raises(ValueError, match="ante or blinds"):
        Rules(ante=0, small_blind=0, big_blind=0)
