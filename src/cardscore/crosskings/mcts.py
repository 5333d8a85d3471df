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
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

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
    def __init__(self, game: Game, exact_cards: int, rng: random.Random) -> None:
        self.solver = solver_for(game)
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
    exact_share: float = 0.6,
    exact_cards: int = 10,
    seed: int | None = None,
    progress: Callable[[int, float, str], None] | None = None,
) -> SearchResult:
    """The best move found in about ``seconds``.

    The exact solver gets ``exact_share`` of the time; if it does not finish, UCT runs for the
    rest, valuing positions with ``exact_cards`` cards or fewer exactly. ``progress(iterations,
    elapsed, best_cell)`` is called about ten times a second (for a progress bar).
    """
    if game.is_over:
        raise ValueError("the game is over: there is no move to search")
    started = time.perf_counter()
    pos = position(game)
    mover_sign = 1 if game.to_move == 1 else -1
    scale = 2 * math.factorial(game.face_down_left)
    legal = game.legal_cells
    if len(legal) == 1:
        return SearchResult(
            cell_name(legal[0]), True, (MoveStats(cell_name(legal[0]), 0, 0.0),), 0, 0.0
        )
    if exact_share > 0:
        values = _exact_values(game, pos, seconds * exact_share)
        if values is not None:
            stats = []
            for cell, er, em in values:
                result = er / scale if mover_sign == 1 else 1 - er / scale
                stats.append((result, mover_sign * em, cell))
            stats.sort(key=lambda t: (-t[0], -t[1], t[2]))
            moves = tuple(MoveStats(cell_name(c), 0, r, r) for r, _, c in stats)
            return SearchResult(moves[0].cell, True, moves, 0, time.perf_counter() - started)
    searcher = _Searcher(game, exact_cards, random.Random(seed))
    root = _Node()
    iterations = 0
    next_report = time.perf_counter() + 0.1
    deadline = started + seconds
    while True:
        searcher.iterate(root, pos)
        iterations += 1
        now = time.perf_counter()
        if now >= deadline:
            break
        if progress is not None and now >= next_report:
            progress(iterations, now - started, _best(root).cell)
            next_report = now + 0.1
    moves = _ranked(root)
    return SearchResult(moves[0].cell, False, moves, iterations, time.perf_counter() - started)


def _exact_values(
    game: Game, pos: tuple[int, int, int, int], seconds: float
) -> list[tuple[int, int, int]] | None:
    """Every move's exact (er, em), the moves shared between two solvers; None if too slow."""
    cells = sorted(game.legal_cells, key=lambda c: not game.is_face_down(c))
    groups = [g for g in (cells[0::2], cells[1::2]) if g]
    solvers = [solver_for(game, "result", slot) for slot in range(len(groups))]

    def part(slot: int) -> list[tuple[int, int, int]] | None:
        solver = solvers[slot]
        solver.set_deadline(seconds)
        try:
            return solver.evaluate(*pos, sum(1 << c for c in groups[slot]))
        finally:
            solver.set_deadline(0)

    with ThreadPoolExecutor(len(groups)) as pool:
        parts = list(pool.map(part, range(len(groups))))
    if any(found is None for found in parts):
        return None
    return [value for found in parts for value in found or ()]


def _ranked(root: _Node) -> tuple[MoveStats, ...]:
    assert root.edges is not None
    stats = [
        MoveStats(cell_name(cell), edge.visits, edge.total / edge.visits if edge.visits else 0.0)
        for cell, edge in root.edges.items()
    ]
    return tuple(sorted(stats, key=lambda m: (-m.visits, -m.mean)))


def _best(root: _Node) -> MoveStats:
    return _ranked(root)[0]
