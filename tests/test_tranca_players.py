"""Computer players: every level plays legal moves to the end; each level's rule in a known spot."""

from __future__ import annotations

import pytest

from cardscore.cards import Card
from cardscore.tranca.actions import Action, ActionKind
from cardscore.tranca.game import TrancaState
from cardscore.tranca.players import WEIGHTS, Computer, computer, hint, lay_value, take_value
from tests.test_tranca_game import game_with


@pytest.mark.parametrize("level", [0, 1, 2])
@pytest.mark.parametrize("players", [2, 4, 6])
def test_every_level_plays_legal_moves_to_the_end(level: int, players: int) -> None:
    game = TrancaState(players, seed=level * 10 + players)
    bots = [computer(level, seed=s) for s in range(players)]
    while not game.is_over:
        game.play(bots[game.to_act].choose(game))  # play() checks every move again
    game.score()


def test_level_3_searches_with_undo_and_leaves_the_game_as_it_was() -> None:
    game = TrancaState(2, seed=3)
    bot = Computer(3, seed=1, budget=0.02)
    for _ in range(12):
        before = (game.state_dict(), list(game.history))
        action = bot.choose(game)
        assert (game.state_dict(), game.history) == before
        game.verify(action)
        game.play(action)


def test_level_3_keeps_level_2s_move_unless_its_search_finds_a_clearly_better_one() -> None:
    game = TrancaState(4, seed=5)
    searcher = Computer(3, seed=1, budget=0.005, margin=float("inf"))
    for _ in range(25):
        action = searcher.choose(game)
        assert action == hint(game)
        game.play(action)


def test_the_same_seed_plays_the_same_round() -> None:
    def play() -> list[str]:
        game = TrancaState(4, seed=9)
        bots = [computer(0, seed=s) for s in range(4)]
        while not game.is_over:
            game.play(bots[game.to_act].choose(game))
        return [a.notation for _, a in game.history]

    assert play() == play()


def test_level_1_lays_the_most_points_and_discards_its_costliest_card() -> None:
    game = game_with(2, ["4s 5s 6s Ah Ad Ac 3c 8h Th Qd 9c"], stock="Kh")
    game.draw()
    bot = computer(1)
    assert bot.choose(game).cards == (Card("Ah"), Card("Ad"), Card("Ac"))  # 45 > 15
    game.meld("Ah Ad Ac")
    game.meld("4s 5s 6s")
    assert bot.choose(game).cards == (Card("3c"),)  # a black 3 costs 100 in hand


def test_level_2_does_not_hand_the_next_opponent_the_pile_and_keeps_its_2s() -> None:
    game = game_with(
        2,
        ["2h 4s 8s Qs 5h 9h Kh 6d Td 7c Jc", "Kh Kd Ks 4c 6c 8d Td Qs Jc 5d 7d"],
        stock="Ad 9h Ac",
    )
    game.draw()
    game.discard("Ad")
    game.draw()
    game.meld("Kh Kd Ks")  # the opponent now has a set of kings on the table
    game.discard("9h")
    game.draw()  # A♣
    greedy, planner = computer(1).choose(game), computer(2).choose(game)
    assert greedy.kind is planner.kind is ActionKind.DISCARD
    assert greedy.cards == (Card("Ac"),)
    assert planner.cards[0] not in (Card("Kh"), Card("2h"))
    assert hint(game) == planner


def test_a_level_outside_0_to_3_is_refused() -> None:
    with pytest.raises(ValueError, match="level must be one of 0, 1, 2, 3, not 4"):
        computer(4)


def _ids(codes: str) -> tuple[int, ...]:
    return tuple(sorted(Card(code).id for code in codes.split()))


def _pile_with_kings_on_top() -> TrancaState:
    """Seat 0 holds K♥ K♦, and a pile of six cards has K♠ on top: it can be taken."""
    game = game_with(2, ["Kh Kd 4s 6s 8s Ts Qs 4h 6h 8h Th"])
    game.pile = [*_ids("5c 6c 7c 9c Tc"), Card("Ks").id]
    return game


@pytest.mark.parametrize(
    ("opponents_have_morto", "we_may_go_out", "planner_takes"),
    [(False, False, True), (True, False, False), (False, True, False)],
)
def test_level_2_takes_a_usable_pile_unless_it_should_race_to_the_end(
    opponents_have_morto: bool, we_may_go_out: bool, planner_takes: bool
) -> None:
    game = _pile_with_kings_on_top()
    if opponents_have_morto:
        game.took_morto[1] = True  # they may go out soon: five more cards would be caught in hand
    if we_may_go_out:
        game.took_morto[0] = True
        game.melds[0] = [
            _ids("5d 6d 7d 8d 9d Td Jd")
        ]  # a canastra: now empty the hand, not grow it
    assert computer(1).choose(game).kind is ActionKind.TAKE  # greedy always takes
    planner = computer(2).choose(game)
    assert (planner.kind is ActionKind.TAKE) is planner_takes
    assert (planner.kind is ActionKind.DRAW) is not planner_takes


def test_level_2_values_the_pile_by_what_it_lays_and_how_near_the_end_is() -> None:
    game = _pile_with_kings_on_top()
    take = next(a for a in game.legal_actions() if a.kind is ActionKind.TAKE)
    # K♠ K♥ K♦ laid: 30 points and a 3-card meld at 20% of a clean canastra's 200, counted half
    # as much again while the team has no canastra
    assert lay_value(game, take) == 30 + 1.5 * 0.2 * 200
    assert take_value(game, take) == WEIGHTS.take + 90
    game.took_morto[1] = True  # half-way to the end: five cards behind the top, 100 each, halved
    assert take_value(game, take) == WEIGHTS.take + 90 - 5 * WEIGHTS.take_when_late / 2


def test_level_2_keeps_a_2_that_would_only_dirty_a_meld() -> None:
    game = game_with(2, ["2c 4s 7s Ts Ks 5d 8d Jd Ad 6c 9c"], stock="Qc")  # no meld in hand
    game.melds[0] = [_ids("5h 6h 7h")]
    game.draw()
    assert computer(1).choose(game) == Action(ActionKind.ADD, (Card("2c"),), 0)
    planner = computer(2).choose(game)
    assert planner.kind is ActionKind.DISCARD
    assert planner.cards != (Card("2c"),)  # a 2 lets the next player take the pile with a pair


@pytest.mark.parametrize("has_canastra", [False, True])
def test_level_2_closes_its_first_canastra_with_a_2_but_not_a_second(has_canastra: bool) -> None:
    game = game_with(2, ["2c 4s 7s Ts Ks 5d 8d Jd Ad 6c 9c"], stock="Qc")  # no meld in hand
    game.melds[0] = [_ids("5h 6h 7h 8h 9h Th")]
    if has_canastra:
        game.melds[0].append(_ids("4c 5c 6c 7c 8c 9c Tc"))
    game.draw()
    add_two = Action(ActionKind.ADD, (Card("2c"),), 0)
    # +10 and a dirty canastra (100) for a clean meld of 6 (65% of 200): a loss, unless it is the
    # first canastra, which lets the team go out
    assert lay_value(game, add_two) == (-20 if has_canastra else 10 - 1.5 * 30 + 200)
    assert (computer(2).choose(game) == add_two) is not has_canastra


def test_level_2_lays_its_last_cards_and_goes_out_with_a_canastra() -> None:
    others = "5s 9d Qc 4d 6c 8s Ac 7d Js"
    game = game_with(2, [f"Jh Qh {others}"], stock="Kc")
    game.took_morto[0] = True
    game.melds[0] = [_ids("4h 5h 6h 7h 8h 9h Th")]
    game.draw()
    for card in others.split():  # down to J♥ Q♥ and the K♣ drawn
        game.hands[0][Card(card).id] -= 1
        game.sizes[0] -= 1
    bot = computer(2)
    while not game.is_over:
        game.play(bot.choose(game))
    assert [a.notation for _, a in game.history[1:]] == ["add 1 Jh", "add 1 Qh", "discard Kc"]
    assert game.went_out_seat == 0
    terms = game.score().teams[0].breakdown.as_dict()["terms"]
    assert {t["term"]: t["points"] for t in terms}["final_move"] == 100
