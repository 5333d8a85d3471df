"""Computer players: every level plays legal moves to the end; each level's rule in a known spot."""

from __future__ import annotations

import pytest

from cardscore.cards import Card
from cardscore.tranca.actions import ActionKind
from cardscore.tranca.game import TrancaState
from cardscore.tranca.players import Computer, computer, hint
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


@pytest.mark.parametrize(("pile", "planner_takes"), [(7, True), (8, False)])
def test_level_2_leaves_a_huge_pile_that_closes_no_canastra(pile: int, planner_takes: bool) -> None:
    from cardscore.tranca.players import BIG_PILE

    game = game_with(2, ["Kh Kd 4s 6s 8s Ts Qs 4h 6h 8h Th"])
    filler = [Card(c).id for c in ("5c", "6c", "7c", "9c", "Tc", "Jc", "Qc")]
    game.pile = [*filler[: pile - 1], Card("Ks").id]
    assert BIG_PILE == 8
    assert computer(1).choose(game).kind is ActionKind.TAKE
    assert (computer(2).choose(game).kind is ActionKind.TAKE) is planner_takes
