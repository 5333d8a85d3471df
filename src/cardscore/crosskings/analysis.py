"""Exact analysis of a position: every legal move's distribution of final score differences
under optimal play, its win/draw/loss chances and expected margin, the best move and the
principal variation.

Both players play to maximise their own expected result (win 1, draw ½, loss 0), ties broken by
expected margin — or, with ``objective="margin"``, expected margin first. The two differ:

>>> import random
>>> game, rng = Game.deal(seed=1), random.Random(1)
>>> for _ in range(25):
...     game = game.random_move(rng)
>>> print(analyse(game).to_text())
P2 to move, 11 cards left (5 face down); objective: expected result, then margin
move  card     win   draw   loss  result  margin
b4*   A♣     93.3%   6.7%   0.0%   0.967   +2.03
a3    2♣     90.0%  10.0%   0.0%   0.950   +3.80
c3    ▢      81.7%   6.7%  11.7%   0.850   +1.90
f3    7♥     40.0%  20.0%  40.0%   0.500   +0.40
best line: b4 d4
>>> print(analyse(game, objective="margin").to_text())
P2 to move, 11 cards left (5 face down); objective: expected margin
move  card     win   draw   loss  result  margin
a3*   2♣     97.5%   2.5%   0.0%   0.988   +2.55
c3    ▢      83.3%   5.0%  11.7%   0.858   +2.29
b4    A♣     88.3%  10.0%   1.7%   0.933   +2.10
f3    7♥     40.0%  20.0%  40.0%   0.500   +0.40
best line: a3 c3
>>> analyse(game).best.distribution
((0, Fraction(1, 15)), (1, Fraction(7, 20)), (2, Fraction(7, 30)), (3, Fraction(4, 15)), (4, Fraction(1, 20)), (6, Fraction(1, 60)), (7, Fraction(1, 60)))

(Each row's result and margin are for the mover, with both players following the objective
from then on, which is why a3 differs between the tables.) Values are exact fractions: at f face-down cells left every outcome has probability k/f!.
"""

from __future__ import annotations

import html
import math
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from fractions import Fraction

from cardscore.cards import Card
from cardscore.crosskings import _c_solver
from cardscore.crosskings.game import Game, cell_index, cell_name
from cardscore.crosskings.solver import Objective, position, solver_for
from cardscore.errors import IllegalMoveError, Problem

__all__ = ["Analysis", "MoveEvaluation", "analyse"]

_ORACLE_SLOT = 100  # analyse()'s first-phase solvers: slots 100, 101, ...
# Two phases from this many cards left: below, the first phase costs more than it saves
# (14 cards: +4% nodes, +20% time; 16 cards: -15% nodes and time; 18 cards: up to -43%).
TWO_PHASE_FROM = 16
DEFAULT_THREADS = min(2, os.cpu_count() or 1)


@dataclass(frozen=True, slots=True)
class MoveEvaluation:
    """One legal move, valued exactly from the point of view of the player making it."""

    cell: str
    card: Card | None
    """The card shown on the cell; None when it is face down."""
    distribution: tuple[tuple[int, Fraction], ...]
    """(final difference, probability), the mover's score minus the opponent's, ascending."""
    expected_margin: Fraction
    optimal: bool = False

    @property
    def win(self) -> Fraction:
        return sum((p for d, p in self.distribution if d > 0), Fraction(0))

    @property
    def draw(self) -> Fraction:
        return sum((p for d, p in self.distribution if d == 0), Fraction(0))

    @property
    def loss(self) -> Fraction:
        return sum((p for d, p in self.distribution if d < 0), Fraction(0))

    @property
    def expected_result(self) -> Fraction:
        """Win 1, draw ½, loss 0."""
        return self.win + self.draw / 2

    def as_dict(self) -> dict[str, object]:
        return {
            "cell": self.cell,
            "card": self.card.code if self.card else None,
            "win": float(self.win),
            "draw": float(self.draw),
            "loss": float(self.loss),
            "expected_result": float(self.expected_result),
            "expected_margin": float(self.expected_margin),
            "optimal": self.optimal,
            "distribution": {str(d): str(p) for d, p in self.distribution},
        }

    def label(self) -> str:
        return str(self.card) if self.card else "▢"


@dataclass(frozen=True, slots=True)
class Analysis:
    """Every legal move of a position, best first, with the principal variation."""

    player: int
    cards_left: int
    face_down_left: int
    objective: Objective
    moves: tuple[MoveEvaluation, ...]
    principal_variation: tuple[str, ...]
    """Best moves in turn, up to and including the first face-down card (chance decides then)."""
    nodes: int
    seconds: float

    @property
    def best(self) -> MoveEvaluation:
        return self.moves[0]

    def __getitem__(self, cell: str) -> MoveEvaluation:
        for evaluation in self.moves:
            if evaluation.cell == cell.lower():
                return evaluation
        raise KeyError(cell)

    def as_dict(self) -> dict[str, object]:
        return {
            "player": self.player,
            "cards_left": self.cards_left,
            "face_down_left": self.face_down_left,
            "objective": self.objective,
            "best": self.best.cell,
            "principal_variation": list(self.principal_variation),
            "moves": [m.as_dict() for m in self.moves],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
        }

    def to_text(self) -> str:
        goal = "expected result, then margin" if self.objective == "result" else "expected margin"
        lines = [
            f"P{self.player} to move, {self.cards_left} cards left "
            f"({self.face_down_left} face down); objective: {goal}",
            f"{'move':<5} {'card':<5} {'win':>6} {'draw':>6} {'loss':>6} {'result':>7} {'margin':>7}",
        ]
        for m in self.moves:
            star = "*" if m.optimal else " "
            lines.append(
                f"{m.cell + star:<5} {m.label():<5} {float(m.win):>6.1%} {float(m.draw):>6.1%} "
                f"{float(m.loss):>6.1%} {float(m.expected_result):>7.3f} "
                f"{float(m.expected_margin):>+7.2f}"
            )
        lines.append("best line: " + " ".join(self.principal_variation))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_text()

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{m.cell}{'*' if m.optimal else ''}</td><td>{html.escape(m.label())}</td>"
            f"<td>{float(m.win):.1%}</td><td>{float(m.draw):.1%}</td><td>{float(m.loss):.1%}</td>"
            f"<td>{float(m.expected_result):.3f}</td><td>{float(m.expected_margin):+.2f}</td></tr>"
            for m in self.moves
        )
        return (
            "<table><thead><tr><th>move</th><th>card</th><th>win</th><th>draw</th><th>loss</th>"
            f"<th>result</th><th>margin</th></tr></thead><tbody>{rows}</tbody></table>"
        )


def analyse(
    game: Game,
    objective: Objective = "result",
    threads: int = DEFAULT_THREADS,
    timeout: float | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Analysis:
    """Solve the position exactly and evaluate every legal move.

    ``progress(done, total)`` is called as each legal move's solve ends (for a progress bar).

    With ``threads`` > 1 the moves are shared out between threads, each with its own solver
    (the C search runs without the GIL). With ``timeout`` (seconds), a search that runs longer
    stops and raises :class:`TimeoutError`.

    With the default objective and 16 cards left or more, each move is searched in two
    phases: first for its expected result alone (a result-only solver; ties prune at once, so
    it is several times cheaper), then with the margin tie-break, where the first phase's
    table bounds the expected result of the nodes it saw (``Solver.set_oracle``)."""
    if game.is_over:
        raise IllegalMoveError(Problem.of("nothing_to_analyse"))
    started = time.perf_counter()
    pos = position(game)
    # the costly moves (face down: a chance node) first, then each thread takes the next move
    # left when it is free, so that neither waits long for the other
    queue = deque(sorted(game.legal_cells, key=lambda c: not game.is_face_down(c)))
    lock = threading.Lock()
    slots = range(max(1, min(threads, len(queue))))
    solvers = [solver_for(game, objective, slot) for slot in slots]
    # the first phase's solvers (kept apart from the anytime search's: other slots)
    oracles = (
        [solver_for(game, "result-only", _ORACLE_SLOT + slot) for slot in slots]
        if objective == "result" and game.cards_left >= TWO_PHASE_FROM
        else []
    )
    counted = solvers + oracles
    before = sum(s.stats()["nodes"] for s in counted)
    total, done = len(queue), [0]

    def part(slot: int) -> list[tuple[int, int, int, dict[int, int]]] | None:
        solver = solvers[slot]
        oracle = oracles[slot] if oracles else None
        solver.set_deadline(timeout or 0)
        if oracle is not None:
            oracle.set_deadline(timeout or 0)
            solver.set_oracle(oracle)
        found: list[tuple[int, int, int, dict[int, int]]] = []
        try:
            while True:
                with lock:
                    if not queue:
                        return found
                    cell = queue.popleft()
                if oracle is not None and oracle.evaluate(*pos, 1 << cell) is None:
                    return None
                values = solver.evaluate(*pos, 1 << cell)
                counts = solver.distribution(*pos, cell) if values is not None else None
                if values is None or counts is None:
                    return None
                found.append((cell, values[0][1], values[0][2], counts))
                if progress is not None:
                    with lock:
                        done[0] += 1
                        progress(done[0], total)
        finally:
            solver.set_deadline(0)
            solver.set_oracle(None)  # the solver may serve the anytime search next
            if oracle is not None:
                oracle.set_deadline(0)

    if len(solvers) == 1:
        parts = [part(0)]
    else:
        with ThreadPoolExecutor(len(solvers)) as pool:
            parts = list(pool.map(part, range(len(solvers))))
    results = [found for found in parts if found is not None]
    if len(results) < len(parts):
        raise TimeoutError(f"the exact search took longer than {timeout} s")
    solver_of = {cell: solvers[slot] for slot, found in enumerate(results) for cell, *_ in found}
    scale = math.factorial(game.face_down_left)
    sign = 1 if game.to_move == 1 else -1
    evaluations = []
    for cell, er, em, counts in sorted(x for found in results for x in found):
        distribution = tuple(sorted((sign * d, Fraction(n, scale)) for d, n in counts.items() if n))
        margin = Fraction(sign * em, scale)
        evaluation = MoveEvaluation(cell_name(cell), game.card_at(cell), distribution, margin)
        if (
            evaluation.expected_result
            != (Fraction(er, 2 * scale) if sign == 1 else 1 - Fraction(er, 2 * scale))
            or sum(d * p for d, p in distribution) != margin
        ):
            raise AssertionError("the distribution does not match the solver's value")
        evaluations.append(evaluation)

    def key(m: MoveEvaluation) -> tuple[Fraction, Fraction]:
        if objective == "margin":
            return (m.expected_margin, m.expected_result)
        return (m.expected_result, m.expected_margin)

    ranked = sorted(evaluations, key=key, reverse=True)  # stable: board order among ties
    top = key(ranked[0])
    ranked = [
        MoveEvaluation(m.cell, m.card, m.distribution, m.expected_margin, key(m) == top)
        for m in ranked
    ]
    first = ranked[0].cell
    line = _principal_variation(game, solver_of[cell_index(first)], first)
    seconds = time.perf_counter() - started
    return Analysis(
        game.to_move,
        game.cards_left,
        game.face_down_left,
        objective,
        tuple(ranked),
        line,
        sum(s.stats()["nodes"] for s in counted) - before,
        seconds,
    )


def _principal_variation(game: Game, solver: _c_solver.Solver, first: str) -> tuple[str, ...]:
    line = [first]
    if game.is_face_down(first):
        return (first,)
    game = game.move(first)
    while not game.is_over:
        result = solver.value(*position(game))
        assert result is not None
        cell = cell_name(result[2])
        line.append(cell)
        if game.is_face_down(cell):
            break
        game = game.move(cell)
    return tuple(line)
