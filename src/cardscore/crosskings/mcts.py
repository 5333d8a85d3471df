"""Anytime search for positions too early to solve exactly in the time at hand.

First the exact solver is tried under a deadline (part of the budget); if it finishes, its
answer is exact. Otherwise Monte Carlo tree search (UCT) spends the rest of the time: chance
nodes sample the face-down card uniformly from the unseen ones, rollouts play random moves,
and every position with few cards left is valued exactly by the solver (sharing its
transposition table), so only the early part of the game is estimated.

>>> game = Game.deal(seed=4)
>>> rng = random.Random(2)
>>> for _ in range(26):
...     game = game.random_move(rng)
>>> result = search(game, seconds=2.0, seed=1)
>>> result.cell in game.legal_moves, result.exact
(True, True)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

from cardscore.crosskings._c_solver import Solver
from cardscore.crosskings.analysis import position, solver_for
from cardscore.crosskings.cards import card_number
from cardscore.crosskings.game import _LINES, FACE_DOWN, Game, cell_name

__all__ = ["MoveStats", "SearchResult", "search"]

_ALL = (1 << 36) - 1
_FACE_DOWN_MASK = sum(1 << c for c in FACE_DOWN)
EXPLORATION = 0.7


@dataclass(frozen=True, slots=True)
class MoveStats:
    """A root move after the search: visits and mean result for the mover (win 1, draw ½)."""

    cell: str
    visits: int
    mean: float
    exact: float | None = None
    """The exact expected result when the solver valued this move, else None."""


@dataclass(frozen=True, slots=True)
class SearchResult:
    cell: str
    exact: bool
    """True when the exact solver finished: ``cell`` is then exactly optimal."""
    moves: tuple[MoveStats, ...]
    iterations: int
    seconds: float


class _Edge:
    __slots__ = ("children", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.children: dict[int, _Node] = {}


class _Node:
    __slots__ = ("edges", "exact", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.edges: dict[int, _Edge] | None = None
        self.exact: float | None = None


class _Searcher:
    def __init__(self, game: Game, exact_cards: int, rng: random.Random, solver: Solver) -> None:
        self.solver = solver
        self.cellcard = [
            0 if c in FACE_DOWN else 1 << card_number(game.cards[c]) for c in range(36)
        ]
        self.exact_cards = exact_cards
        self.rng = rng
        self.leaves = 0

    def visible(self, rem: int) -> int:
        seen = 0
        cells = rem & ~_FACE_DOWN_MASK
        while cells:
            low = cells & -cells
            seen |= self.cellcard[low.bit_length() - 1]
            cells ^= low
        return seen

    def exact_value(self, rem: int, marker: int, p1: int, p2: int) -> float:
        """Player 1's exact expected result (win 1, draw ½)."""
        self.leaves += 1
        value = self.solver.value(rem, marker, p1, p2)
        assert value is not None
        return value[0] / (2 * math.factorial((rem & _FACE_DOWN_MASK).bit_count()))

    def outcome(self, rem: int, p1: int, p2: int, cell: int) -> int:
        card = self.cellcard[cell]
        if card:
            return card
        pool = _ALL & ~(p1 | p2 | self.visible(rem))
        bits = [1 << i for i in range(36) if pool >> i & 1]
        return self.rng.choice(bits)

    def rollout(self, rem: int, marker: int, p1: int, p2: int) -> float:
        while True:
            moves = _LINES[marker] & rem
            if not moves or rem.bit_count() <= self.exact_cards:
                return self.exact_value(rem, marker, p1, p2)
            cells = [i for i in range(36) if moves >> i & 1]
            cell = self.rng.choice(cells)
            card = self.outcome(rem, p1, p2, cell)
            if (p1 | p2).bit_count() % 2 == 0:
                p1 |= card
            else:
                p2 |= card
            rem &= ~(1 << cell)
            marker = cell

    def iterate(self, root: _Node, state: tuple[int, int, int, int]) -> None:
        rem, marker, p1, p2 = state
        node = root
        path: list[tuple[_Node, _Edge, int]] = []
        while True:
            if node.exact is not None:
                value = node.exact
                break
            moves = _LINES[marker] & rem
            if not moves or rem.bit_count() <= self.exact_cards:
                node.exact = value = self.exact_value(rem, marker, p1, p2)
                break
            if node.edges is None:
                node.edges = {i: _Edge() for i in range(36) if moves >> i & 1}
            mover = (p1 | p2).bit_count() % 2
            cell = self.select(node, mover)
            edge = node.edges[cell]
            card = self.outcome(rem, p1, p2, cell)
            if mover == 0:
                p1 |= card
            else:
                p2 |= card
            rem &= ~(1 << cell)
            marker = cell
            path.append((node, edge, mover))
            child = edge.children.get(card)
            if child is None:
                child = edge.children[card] = _Node()
                path_end = child
                value = self.rollout(rem, marker, p1, p2)
                path_end.visits += 1
                break
            node = child
        for parent, edge, mover in path:
            parent.visits += 1
            edge.visits += 1
            edge.total += value if mover == 0 else 1.0 - value

    def select(self, node: _Node, mover: int) -> int:
        assert node.edges is not None
        log_n = math.log(node.visits + 1)
        best, best_score = -1, -1.0
        for cell, edge in node.edges.items():
            if edge.visits == 0:
                score = 10.0 + self.rng.random()
            else:
                score = edge.total / edge.visits + EXPLORATION * math.sqrt(log_n / edge.visits)
            if score > best_score:
                best, best_score = cell, score
        return best


def search(
    game: Game,
    seconds: float = 1.0,
    *,
    exact_share: float = 0.97,
    exact_cards: int = 10,
    seed: int | None = None,
    progress: Callable[[int, float, str], None] | None = None,
) -> SearchResult:
    """The best move found in about ``seconds``.

    Two searches run side by side on two cores: the exact solver (for at most ``exact_share``
    of the time; its C search runs without the GIL) and UCT in this thread, which values
    positions with ``exact_cards`` cards or fewer exactly with a second solver. If the exact
    search finishes, its move is returned (``exact=True``); otherwise UCT's most visited move.
    ``progress(iterations, elapsed, best_cell)`` is called about ten times a second.
    """
    if game.is_over:
        raise ValueError("the game is over: there is no move to search")
    started = time.perf_counter()
    pos = position(game)
    legal = game.legal_cells
    if len(legal) == 1:
        only = (MoveStats(cell_name(legal[0]), 0, 0.0),)
        return SearchResult(only[0].cell, True, only, 0, 0.0)
    exact_solver = solver_for(game, "result", 0)
    searcher = _Searcher(game, exact_cards, random.Random(seed), solver_for(game, "result", 1))
    root = _Node()
    iterations = 0
    next_report = started + 0.1
    deadline = started + seconds
    with ThreadPoolExecutor(1) as pool:
        future: Future[tuple[int, int, int] | None] | None = None
        if exact_share > 0:
            exact_solver.set_deadline(seconds * exact_share)
            future = pool.submit(exact_solver.value, *pos)
        try:
            while future is None or not future.done():
                searcher.iterate(root, pos)
                iterations += 1
                now = time.perf_counter()
                if now >= deadline:
                    break
                if progress is not None and now >= next_report:
                    progress(iterations, now - started, _best(root).cell)
                    next_report = now + 0.1
            value = future.result() if future is not None else None
        finally:
            exact_solver.set_deadline(0)
    moves = _ranked(root)
    if value is not None:
        scale = 2 * math.factorial(game.face_down_left)
        result = value[0] / scale if game.to_move == 1 else 1 - value[0] / scale
        best = cell_name(value[2])
        first = MoveStats(
            best, next((m.visits for m in moves if m.cell == best), 0), result, result
        )
        rest = tuple(m for m in moves if m.cell != best)
        return SearchResult(best, True, (first, *rest), iterations, time.perf_counter() - started)
    if not moves:  # nothing finished at all (a zero budget)
        moves = (MoveStats(cell_name(legal[0]), 0, 0.0),)
    return SearchResult(moves[0].cell, False, moves, iterations, time.perf_counter() - started)


def _ranked(root: _Node) -> tuple[MoveStats, ...]:
    if root.edges is None:
        return ()
    stats = [
        MoveStats(cell_name(cell), edge.visits, edge.total / edge.visits if edge.visits else 0.0)
        for cell, edge in root.edges.items()
    ]
    return tuple(sorted(stats, key=lambda m: (-m.visits, -m.mean)))


def _best(root: _Node) -> MoveStats:
    return _ranked(root)[0]
