"""Anytime search for positions too early to solve exactly in the time at hand: a proof and an
iterative deepening side by side on two cores, answering with the most exact move found when
the time is up. ``docs/crosskings-solver.md`` tells how it works.

>>> import random
>>> game = Game.deal(seed=4)
>>> rng = random.Random(2)
>>> for _ in range(26):
...     game = game.random_move(rng)
>>> result = search(game, seconds=5.0)
>>> result.cell in game.legal_moves, result.exact, result.exact_margin
(True, True, True)
>>> early = search(Game.deal(seed=4), seconds=0.3)
>>> early.exact, early.depth > 0, early.cell in Game.deal(seed=4).legal_moves
(False, True, True)
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Literal

from cardscore.crosskings._c_solver import Solver
from cardscore.crosskings.game import Game, cell_name
from cardscore.crosskings.solver import position, solver_for
from cardscore.errors import IllegalMoveError, Problem

__all__ = ["SearchResult", "search"]

# The share of the time kept back to choose again when the proof rules out the deepening's move.
RESERVE = 0.05
# How many of the last iteration's best root moves the next is first searched on, alone.
TOP = 3
# The share of the time the deepening runs; then its thread helps the proof, sharing its table
# (0.4, 0.6, 0.75 gave 92.3%, 94.2%, 95.2% optimal moves at 1 s: the deepening's depth decides
# the positions the proof cannot finish).
DEEPENING = 0.75
# The depth of the shallow search that picks the root move the proof values first.
QUICK = 5
# The proof's table cannot grow once the helper shares it, so it first grows to four slots
# for each entry the proof may store: about a million a second (0.5-0.9 M in 1 s on 16-20
# cards). Its largest size, 2**23 slots (256 MiB), for every search spent a tenth of the
# time zeroing memory.
PROOF_ENTRIES_PER_SECOND = 1_000_000

# The horizon estimate's win chance is logistic in sum((a + b / cards left) * feature) over
# seven features (``Solver.features``; player 1's minus player 2's: score so far, what each
# could still reach, who moves, what one more king would add, kings held, what one more card
# would add, what a greedy play-out adds): WEIGHTS = the seven a, then the seven b. These were
# fitted by logistic regression on the exact expected results of 1,401 positions with 7-11
# cards left (seeded deals 10000+, random play) on the first five features; the last two
# weigh 0 (not computed). Refits on 4-7 cards left, where the deep iterations stop, with
# or without the new features (``benchmarks/crosskings_fit.py``), fit the exact values better
# (held-out log-loss 0.365 -> 0.325) but pick optimal moves no more often: 80-82% against
# 82% searching 8 plies from 14 cards, 92-93% against 93% in the anytime benchmark at a fixed
# node budget (see benchmarks/RESULTS.md).
WEIGHTS = (0.844, 0.367, 1.586, 0.749, 0.673, 0, 0, -1.415, -1.147, -0.668, -4.084, -3.873, 0, 0)


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The move chosen, and what backs it."""

    cell: str
    exact: bool
    """True when ``cell`` is proven to maximise the expected result (win 1, draw ½, loss 0)."""
    exact_margin: bool
    """True when, besides, it is proven best by the margin tie-break (exactly optimal under the
    full objective)."""
    expected_result: float
    """The mover's expected result — exact when ``exact``, else the estimate of the deepest
    iteration."""
    expected_margin: float
    """The mover's expected final margin — exact when ``exact_margin``, else an estimate (NaN
    when only the expected result was proven)."""
    depth: int
    """Plies searched before estimates took over: the deepest completed iteration, or the
    cards left when exact (0 when nothing completed: a zero budget)."""
    seconds: float


def _prepared(game: Game, objective: Literal["result", "result-only"], slot: int) -> Solver:
    solver = solver_for(game, objective, slot)
    solver.set_heuristic(WEIGHTS)
    return solver


def _mover_bounds(
    bounds: dict[int, tuple[int | None, int | None]], sign: int
) -> dict[int, tuple[int | None, int | None]]:
    """Root bounds (player 1's side) turned to the mover's side: higher is better."""
    if sign == 1:
        return bounds
    return {
        cell: (None if hi is None else -hi, None if lo is None else -lo)
        for cell, (lo, hi) in bounds.items()
    }


def search(
    game: Game,
    seconds: float = 1.0,
    *,
    prove: bool = True,
    margin_tie_break: bool = True,
    progress: Callable[[int, float, str], None] | None = None,
    nodes: tuple[int, int] | None = None,
) -> SearchResult:
    """The best move found in about ``seconds`` (see ``docs/crosskings-solver.md``).

    ``prove=False`` runs the iterative deepening alone (one core).
    ``margin_tie_break=False`` stops once a move is proven best in expected result, without
    breaking its ties by expected margin.
    ``progress(depth, elapsed, best_cell)`` is called about ten times a second.
    ``nodes``: instead of the clock, node budgets for the deepening and the proof (the same
    choice whatever the machine's load: for comparing variants; ``seconds`` is then ignored).
    """
    if game.is_over:
        raise IllegalMoveError(Problem.of("nothing_to_analyse"))
    if len(game.legal_cells) == 1:
        return SearchResult(cell_name(game.legal_cells[0]), True, True, math.nan, math.nan, 0, 0.0)
    return _Search(game, seconds, prove, margin_tie_break, nodes).run(progress)


class _Search:
    """One anytime search: the deepening and the proof share this state from two threads."""

    def __init__(
        self,
        game: Game,
        seconds: float,
        prove: bool,
        margin_tie_break: bool,
        nodes: tuple[int, int] | None,
    ) -> None:
        self.started = time.perf_counter()
        self.seconds, self.nodes, self.margin_tie_break = seconds, nodes, margin_tie_break
        self.pos = position(game)
        self.legal = game.legal_cells
        self.cards = game.cards_left
        self.scale = math.factorial(game.face_down_left)
        self.sign = 1 if game.to_move == 1 else -1
        self.deepening = _prepared(game, "result", 1)
        self.result_only = _prepared(game, "result-only", 0) if prove else None
        self.tie_break = _prepared(game, "result", 0) if prove else None
        self.helper = _prepared(game, "result-only", 2) if prove else None
        # root moves searched one by one: proven bounds on their doubled results, player 1's side
        self.searched: dict[int, tuple[int | None, int | None]] = {}
        self.deepest: list[tuple[tuple[int, int, int], int]] = []  # completed iterations
        self.proofs: dict[str, tuple[int, int, int]] = {}
        self.stop = threading.Event()
        self.partial: list[int] = []  # the unfinished iteration's best move so far
        self.narrow: list[tuple[tuple[int, int, int], int]] = []  # iterations of the top moves
        self.ranking: list[int] = list(self.legal)  # root moves, best first by the last iteration
        self.taken: set[int] = set()  # root moves a proof thread has taken
        self.lock = threading.Lock()
        self.solvers = [
            s for s in (self.deepening, self.result_only, self.tie_break, self.helper) if s
        ]
        self.counted = {solver: solver.stats()["nodes"] for solver in self.solvers}
        self.main = seconds - (RESERVE * seconds if prove else 0.0)
        self.deepening_nodes, self.proof_nodes = nodes or (0, 0)
        self.share = DEEPENING if prove else 1.0

    # --- the two threads ----------------------------------------------------------------------

    def deepen(self) -> None:
        """Iterative deepening, one ply more each iteration, ranking the root moves."""
        top, pos, sign, legal = 0, self.pos, self.sign, self.legal
        for depth in range(1, self.cards + 1):
            if top and depth < self.cards:
                # first a quick look one ply deeper at the few best moves of the last iteration
                found = self.deepening.search_depth(*pos, depth, top)
                if found is None:
                    return
                self.narrow.append((found, depth))
            found = self.deepening.search_depth(*pos, depth)
            if found is None:
                self.partial.append(self.deepening.partial_best())
                return
            if self.stop.is_set():
                return
            self.deepest.append((found, depth))
            ranked = _mover_bounds(self.deepening.root_bounds(), sign)
            highs = {cell: ranked.get(cell, (None, None))[1] for cell in legal}
            best = sorted(legal, key=lambda cell: 1 << 62 if (h := highs[cell]) is None else -h)
            best.remove(found[2])
            self.ranking[:] = [found[2], *best]
            if depth >= 4 and len(legal) > TOP:
                top = sum(1 << cell for cell in self.ranking[:TOP])

    def deepen_then_help(self) -> None:
        self.deepen()
        if self.helper is not None and not (self.deepest and self.deepest[-1][1] >= self.cards):
            # The same proof on the same table, from the other end of the deepening's order:
            # each thread finds the other's finished subtrees in the table (two threads on one
            # proof are about 1.6 times faster than one on 16-18 cards).
            self.prove_moves(self.helper, front=False)

    def proof(self) -> None:
        """Prove a best move in expected result, then (time allowing) break its ties by margin."""
        assert self.result_only is not None
        assert self.tie_break is not None
        # The move a shallow search likes best is valued first; the others then only need to
        # be shown no better, the deepening's best first (about 10% fewer nodes on 16-18
        # cards than one search of every move, and its move is checked early).
        quick = self.tie_break.search_depth(*self.pos, min(QUICK, self.cards - 1))
        if quick is None:
            return
        with self.lock:
            self.taken.add(quick[2])
        if not self.search_one(self.result_only, quick[2], None):
            return
        if not self.prove_moves(self.result_only, True):
            return
        valued = self.best_valued()
        assert valued is not None
        self.proofs["result"] = (valued[1], 0, valued[0])
        if self.margin_tie_break:
            self.break_ties()

    def break_ties(self) -> None:
        assert self.result_only is not None
        assert self.tie_break is not None
        if self.nodes is not None:  # the tie-break gets what the proof left of the budget
            used = self.result_only.stats()["nodes"] - self.counted[self.result_only]
            if self.proof_nodes - used <= 0:
                return
            self.tie_break.set_node_limit(self.proof_nodes - used)
        self.tie_break.set_oracle(self.result_only)  # the proof's table bounds the results
        try:
            full = self.tie_break.search_depth(*self.pos, self.cards)
        finally:
            self.tie_break.set_oracle(None)
        if full is not None and not self.stop.is_set():
            self.proofs["full"] = full

    # --- the proof's steps --------------------------------------------------------------------

    def best_valued(self) -> tuple[int, int] | None:
        """The best root move valued exactly so far, and its value (player 1's side)."""
        sign = self.sign
        exact = [
            (sign * lo, c) for c, (lo, hi) in self.searched.items() if lo is not None and lo == hi
        ]
        if not exact:
            return None
        value, cell = max(exact)
        return cell, sign * value

    def search_one(self, solver: Solver, cell: int, than: int | None) -> bool:
        """Searches one root move; with ``than`` (a doubled result, player 1's side), only
        whether it is better. Records what it proved; False when stopped."""
        sign = self.sign
        if than is not None:
            solver.set_window(*((than, None) if sign == 1 else (None, than)))
        try:
            found = solver.search_depth(*self.pos, self.cards, 1 << cell)
        finally:
            solver.set_window(None, None)
        if found is None:
            return False
        value = found[0]
        better = than is None or (value > than if sign == 1 else value < than)
        # fail-soft: a move no better than ``than`` gets a bound on the mover's side
        with self.lock:
            self.searched[cell] = (
                (value, value) if better else (None, value) if sign == 1 else (value, None)
            )
        return True

    def prove_moves(self, solver: Solver, front: bool) -> bool:
        """Takes root moves not yet taken, in the deepening's order from the front (the proof)
        or from the back (the helper), each only shown no better than the best move valued so
        far. The proof then waits for the helper's last move; True when every move is settled."""
        while not self.stop.is_set():
            with self.lock:
                if len(self.searched) == len(self.legal):
                    return True
                left = [cell for cell in self.ranking if cell not in self.taken]
                cell = (left[0] if front else left[-1]) if left else -1
                if cell >= 0:
                    self.taken.add(cell)
                valued = self.best_valued()
            if cell < 0:
                if not front:
                    return False
                self.stop.wait(0.001)
                continue
            if not self.search_one(solver, cell, None if valued is None else valued[1]):
                with self.lock:
                    self.taken.discard(cell)  # stopped: the other thread may take it over
                return False
        return False

    # --- running and answering ----------------------------------------------------------------

    def budget(self) -> None:
        """Each solver's deadline, or node budget when searching by nodes."""
        for solver in self.solvers:
            if self.nodes is None:
                part = self.share if solver is self.deepening else 1
                solver.set_deadline(max(part * self.main - 0.01, 1e-9))
            elif solver is self.deepening:
                solver.set_node_limit(int(self.deepening_nodes * (1 - RESERVE) * self.share))
            elif solver is self.helper:
                solver.set_node_limit(int(self.deepening_nodes * (1 - RESERVE) * (1 - self.share)))
            else:
                solver.set_node_limit(self.proof_nodes)

    def proven_enough(self) -> bool:
        return "full" in self.proofs or ("result" in self.proofs and not self.margin_tie_break)

    def run(self, progress: Callable[[int, float, str], None] | None) -> SearchResult:
        self.budget()
        helper, result_only = self.helper, self.result_only
        if helper is not None and result_only is not None:
            entries = (
                self.proof_nodes
                if self.nodes is not None
                else self.seconds * PROOF_ENTRIES_PER_SECOND
            )
            helper.share_table(result_only, math.ceil(math.log2(4 * max(entries, 1))))
        try:
            with ThreadPoolExecutor(2) as pool:
                running = [pool.submit(self.deepen_then_help)]
                if result_only is not None:
                    running.append(pool.submit(self.proof))
                self.wait(running, progress)
                self.stop.set()
                for solver in self.solvers:  # the other search (or all at the deadline) stops
                    solver.set_deadline(1e-9)
        finally:
            for solver in self.solvers:
                solver.set_deadline(0)
                solver.set_node_limit(0)
            if helper is not None:
                helper.share_table(None)
        return self.answer()

    def wait(
        self, running: list[Future[None]], progress: Callable[[int, float, str], None] | None
    ) -> None:
        """Until the time is up, a proof is enough, or both searches are done."""
        while True:
            if self.nodes is None:
                remaining = self.started + self.main - time.perf_counter()
            else:
                remaining = 0.1
            if remaining <= 0 or self.proven_enough():
                return
            wait(running, min(0.1, remaining), FIRST_COMPLETED)
            if self.proven_enough():
                return
            # each search runs out its time or budget, unless the deepening became exact
            exact_deepening = bool(self.deepest) and self.deepest[-1][1] >= self.cards
            if all(f.done() for f in running) or (running[0].done() and exact_deepening):
                return
            if progress is not None and self.deepest:
                found, depth = self.deepest[-1]
                progress(depth, time.perf_counter() - self.started, cell_name(found[2]))

    def outcome(
        self, found: tuple[int, int, int], depth: int, exact: bool, full: bool
    ) -> SearchResult:
        er, em, cell = found
        result = er / (2 * self.scale)
        return SearchResult(
            cell_name(cell),
            exact,
            full,
            result if self.sign == 1 else 1 - result,
            self.sign * em / self.scale if full or not exact else math.nan,
            depth,
            time.perf_counter() - self.started,
        )

    def answer(self) -> SearchResult:
        """The most exact answer found (see ``docs/crosskings-solver.md``)."""
        cards = self.cards
        if "full" in self.proofs:
            return self.outcome(self.proofs["full"], cards, True, True)
        if self.deepest and self.deepest[-1][1] >= cards:
            return self.outcome(self.deepest[-1][0], cards, True, True)
        if "result" in self.proofs:
            return self.outcome(self.proofs["result"], cards, True, False)
        bounds = _mover_bounds(self.bounds(), self.sign)
        lows = {cell: lo for cell, (lo, _) in bounds.items() if lo is not None}
        best_low = max(lows.values()) if lows else None
        proven = max(lows, key=lambda cell: lows[cell]) if lows else None
        if proven is not None:
            others = [bounds.get(cell, (None, None))[1] for cell in self.legal if cell != proven]
            if bounds[proven][1] == best_low and all(
                hi is not None and best_low is not None and hi <= best_low for hi in others
            ):
                # every other move is proven no better than this one's exact value
                assert best_low is not None
                return self.outcome((self.sign * best_low, 0, proven), cards, True, False)
        if self.deepest:
            return self.from_deepening(bounds, best_low, proven)
        return SearchResult(
            cell_name(self.legal[0]),
            False,
            False,
            math.nan,
            math.nan,
            0,
            time.perf_counter() - self.started,
        )

    def bounds(self) -> dict[int, tuple[int | None, int | None]]:
        """The unfinished proof's root moves searched so far: bounds on their exact results."""
        found = self.result_only.root_bounds() if self.result_only is not None else {}
        for cell, (lo, hi) in self.searched.items():
            old_lo, old_hi = found.get(cell, (None, None))
            found[cell] = (
                lo if old_lo is None else old_lo if lo is None else max(lo, old_lo),
                hi if old_hi is None else old_hi if hi is None else min(hi, old_hi),
            )
        return found

    def from_deepening(
        self,
        bounds: dict[int, tuple[int | None, int | None]],
        best_low: int | None,
        proven: int | None,
    ) -> SearchResult:
        """The deepest iteration's move, unless the proof has ruled it out."""
        found, depth = self.deepest[-1]
        if self.partial and self.partial[0] >= 0 and self.partial[0] != found[2]:
            # the unfinished iteration searched the previous best move first; a move it then
            # found better is better by the deeper search
            found = (found[0], found[1], self.partial[0])
        elif self.narrow and self.narrow[-1][1] > depth:
            # no better move found one ply deeper yet: the deeper look at the top moves decides
            found = (found[0], found[1], self.narrow[-1][0][2])
        hi = bounds.get(found[2], (None, None))[1]
        if best_low is not None and proven is not None and hi is not None and hi < best_low:
            # the proof has shown the estimate's choice worse than a move it finished: choose
            # again among the moves it has not, by the deepening's search on what is left
            allowed = sum(
                1 << cell
                for cell in self.legal
                if (bound := bounds.get(cell, (None, None))[1]) is None or bound >= best_low
            )
            found = self.choose_again((found[0], found[1], proven), depth, allowed)
        return self.outcome(found, depth, False, False)

    def choose_again(
        self, found: tuple[int, int, int], depth: int, allowed: int
    ) -> tuple[int, int, int]:
        deepening = self.deepening
        if self.nodes is None:
            left = self.started + self.seconds - time.perf_counter() - 0.005
            deepening.set_deadline(max(left, 1e-9))
        else:
            deepening.set_node_limit(max(1, int(self.deepening_nodes * RESERVE)))
        try:
            for again in range(max(1, depth - 3), depth + 1):
                redone = deepening.search_depth(*self.pos, again, allowed)
                if redone is None:
                    break
                found = redone
        finally:
            deepening.set_deadline(0)
            deepening.set_node_limit(0)
        return found
