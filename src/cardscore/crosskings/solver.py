"""The exact solver's side of Cross Kings: a position as the C solver sees it, and the solvers
kept warm between calls (each holds a transposition table of up to 256 MiB).

:mod:`~cardscore.crosskings.analysis` (the exact analysis) and
:mod:`~cardscore.crosskings.anytime` (the anytime search) both work through this module and
not through each other; how the search works is told in ``docs/crosskings-solver.md``.

>>> from cardscore.crosskings.game import Game
>>> game = Game.deal(seed=1)
>>> position(game)[:2], solver_cells(game)[:3]  # every cell left, the marker on c3
((68719476735, 14), [-1, 2, 5])
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Literal

from cardscore.crosskings import _c_solver
from cardscore.crosskings.cards import card_number
from cardscore.crosskings.game import FACE_DOWN, Game
from cardscore.errors import CardscoreError, Problem

__all__ = ["Objective", "clear_solvers", "position", "solver_cells", "solver_for"]

Objective = Literal["result", "margin"]
_OBJECTIVES: dict[str, int] = {"result": 0, "margin": 1, "result-only": 2}
_SOLVERS: OrderedDict[tuple[tuple[int, ...], int, int], _c_solver.Solver] = OrderedDict()
_KEEP = 5  # solvers kept warm


def clear_solvers() -> None:
    """Drop the cached solvers and their transposition tables (up to 256 MiB each)."""
    _SOLVERS.clear()


def solver_for(
    game: Game, objective: Objective | Literal["result-only"] = "result", slot: int = 0
) -> _c_solver.Solver:
    """The C solver for this deal's face-up cards (reused while the same deal is analysed);
    ``slot`` tells apart the solvers of parallel threads. ``"result-only"`` values the expected
    result alone (the margin is dropped, so ties are not broken: a faster proof of a best
    move, used by the anytime search)."""
    if objective not in _OBJECTIVES:
        raise CardscoreError(Problem.of("bad_objective", objective=repr(objective)))
    cells = tuple(solver_cells(game))
    key = (cells, _OBJECTIVES[objective], slot)
    solver = _SOLVERS.get(key)
    if solver is None:
        solver = _c_solver.Solver(list(cells), key[1])
        _SOLVERS[key] = solver
        while len(_SOLVERS) > _KEEP:
            _SOLVERS.popitem(last=False)
    _SOLVERS.move_to_end(key)
    return solver


def solver_cells(game: Game) -> list[int]:
    """The solver's view of the deal: each cell's card number, -1 where a card lies face down."""
    return [-1 if c in FACE_DOWN else card_number(game.cards[c]) for c in range(36)]


def position(game: Game) -> tuple[int, int, int, int]:
    """The solver's view: (cells left, marker cell, player 1's cards, player 2's cards)."""
    p1, p2 = game.hand_masks
    return game.cells_left, game.marker_cell, p1, p2
