"""The C solver's pieces for searching one position on two threads: search windows and a table
shared by two solvers (lockless)."""

from __future__ import annotations

import threading

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cardscore.crosskings._c_solver import Solver
from cardscore.crosskings.solver import position, solver_cells
from tests.crosskings_reference import position_after

RESULT_ONLY = 2


def exact_results(seed: int, cards_left: int) -> dict[int, int]:
    """Each root move's exact doubled expected result (player 1's side, scaled by f!)."""
    game = position_after(seed, cards_left)
    values = Solver(solver_cells(game), 0, 18).evaluate(*position(game))
    assert values is not None
    return {cell: er for cell, er, _ in values}


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 5_000), st.integers(7, 11), st.data())
def test_a_window_proves_the_side_of_the_threshold_a_move_lies_on(
    seed: int, cards_left: int, data: st.DataObject
) -> None:
    """Fail-soft: inside the window the value is exact; at or below its low end, an upper bound;
    at or above its high end, a lower bound."""
    game = position_after(seed, cards_left)
    assume(not game.is_over)
    exact = exact_results(seed, cards_left)
    cell = data.draw(st.sampled_from(sorted(exact)))
    threshold = exact[cell] + data.draw(st.integers(-3, 3))
    solver = Solver(solver_cells(game), RESULT_ONLY, 16)
    for low, high in ((threshold, None), (None, threshold), (threshold - 1, threshold)):
        solver.set_window(low, high)
        found = solver.search_depth(*position(game), game.cards_left, 1 << cell)
        assert found is not None
        value = found[0]
        if low is not None and value <= low:
            assert exact[cell] <= value
        elif high is not None and value >= high:
            assert exact[cell] >= value
        else:
            assert value == exact[cell]
    solver.set_window(None, None)
    found = solver.search_depth(*position(game), game.cards_left, 1 << cell)
    assert found is not None
    assert found[0] == exact[cell]


@pytest.mark.parametrize("table_log2", [10, 18])
@pytest.mark.parametrize("seed", range(4))
def test_two_solvers_on_one_table_at_once_stay_exact(seed: int, table_log2: int) -> None:
    """Two threads search the same position on one table, root moves in opposite orders. A
    table of 1,024 slots makes them overwrite each other's slots all the time: a slot holding
    words of two writes must read as a miss, never as a wrong value."""
    game = position_after(seed, 12)
    exact = exact_results(seed, 12)
    cells = solver_cells(game)
    owner, sharer = Solver(cells, RESULT_ONLY, table_log2), Solver(cells, RESULT_ONLY, table_log2)
    sharer.share_table(owner)
    assert sharer.stats()["table_size"] == owner.stats()["table_size"] == 1 << table_log2
    found: dict[tuple[int, int], int] = {}

    def run(solver: Solver, order: list[int], slot: int) -> None:
        for _ in range(3):
            for cell in order:
                value = solver.search_depth(*position(game), game.cards_left, 1 << cell)
                assert value is not None
                found[slot, cell] = value[0]

    moves = sorted(exact)
    threads = [
        threading.Thread(target=run, args=(owner, moves, 0)),
        threading.Thread(target=run, args=(sharer, moves[::-1], 1)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert found == {(slot, cell): er for slot in (0, 1) for cell, er in exact.items()}
    sharer.share_table(None)  # back on a table of its own
    assert sharer.stats()["table_size"] < owner.stats()["table_size"] or table_log2 <= 16
    best = sharer.search_depth(*position(game), game.cards_left)
    sign = 1 if game.to_move == 1 else -1
    assert best is not None
    assert best[0] == sign * max(sign * er for er in exact.values())


def test_sharing_a_table_needs_the_same_deal_and_objective() -> None:
    game, other = position_after(1, 11), position_after(2, 11)
    cells = solver_cells(game)
    owner = Solver(cells, RESULT_ONLY)
    with pytest.raises(ValueError, match="same deal"):
        Solver(solver_cells(other), RESULT_ONLY).share_table(owner)
    with pytest.raises(ValueError, match="same objective"):
        Solver(cells, 0).share_table(owner)
    with pytest.raises(TypeError, match="Solver or None"):
        Solver(cells, RESULT_ONLY).share_table("table")  # type: ignore[arg-type]
    sharer = Solver(cells, RESULT_ONLY)
    sharer.share_table(owner)
    with pytest.raises(ValueError, match="owns its own"):
        Solver(cells, RESULT_ONLY).share_table(sharer)  # a sharer's table is not its own
    with pytest.raises(ValueError, match="owns its own"):
        owner.share_table(owner)
    del owner  # the sharer keeps the table alive
    assert sharer.value(*position(game)) is not None


def test_a_shared_table_keeps_count_of_its_entries_and_cannot_be_cleared() -> None:
    game = position_after(3, 12)
    cells = solver_cells(game)
    owner, sharer = Solver(cells, RESULT_ONLY, 17), Solver(cells, RESULT_ONLY, 17)
    sharer.share_table(owner)  # the owner's table first grows to its largest: it cannot move
    assert owner.stats()["table_size"] == sharer.stats()["table_size"] == 1 << 17
    assert sharer.search_depth(*position(game), game.cards_left) is not None
    filled = sharer.stats()["table_entries"]
    assert filled > 0
    assert owner.stats()["table_entries"] == 0
    with pytest.raises(ValueError, match="cannot be cleared"):
        sharer.clear()  # it would wipe the owner's table, maybe under the owner's search
    with pytest.raises(ValueError, match="cannot be cleared"):
        owner.clear()
    sharer.share_table(None)
    # the owner counts the slots the sharer filled: its table grows when half full again
    assert owner.stats()["table_entries"] == filled
    owner.clear()
    assert owner.stats()["table_entries"] == 0


def test_a_shared_table_first_grows_to_the_size_asked_within_the_owners_largest() -> None:
    cells = solver_cells(position_after(3, 12))
    for asked, size in ((12, 16), (17, 17), (0, 18), (25, 18)):
        owner = Solver(cells, RESULT_ONLY, 18)  # starts at 2**16 slots, may grow to 2**18
        Solver(cells, RESULT_ONLY, 18).share_table(owner, asked)
        assert owner.stats()["table_size"] == 1 << size
