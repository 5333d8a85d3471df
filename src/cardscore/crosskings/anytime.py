"""Anytime search for positions too early to solve exactly in the time at hand.

Two searches run side by side in C, without the GIL, on two cores:

- a proof: the exact solver, valuing the expected result alone (win 1, draw ½, loss 0; the
  margin tie-break dropped, which prunes about three times more). It values first the root
  move a shallow search likes best, then takes the other root moves one by one in the
  deepening's current order, each only shown no better than the best valued so far (a search
  window just above that value), which proves a best move; then, if time is left, the full
  exact search adds the margin tie-break, its expected results bounded by the proof's table
  (``Solver.set_oracle``);
- iterative deepening: the same alpha-beta / Star1 / Star2 search cut off ``depth`` plies down,
  where a position is valued by an estimate (the score difference so far, and a win chance
  that is a logistic function of it and of what each player could still reach; see
  ``_c_solver.c``). Each iteration goes one ply deeper, reusing the transposition table and
  move ordering of those before; once the depth covers every card left, it is the exact search.
  From depth 5 on, each iteration is first run on the previous one's 3 best root moves alone:
  when the full iteration runs out of time without finding a better move, that deeper look
  at the top moves decides. After 75% of the time its thread joins the proof, taking root
  moves from the other end of the order, on the proof's own table (``Solver.share_table``):
  each thread finds the subtrees the other finished.

When time runs out the answer is the most exact one found: an optimal move with the tie-break,
else a move proven optimal in expected result (also when the unfinished proof has bounded every
other root move below one it finished), else the deepest completed iteration's move. The
unfinished proof's root bounds overrule the deepening: when they show its move worse than one
the proof finished, the deepening chooses again, in the last 5% of the time kept for it,
among the moves not ruled out.

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
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
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
    """The best move found in about ``seconds`` (see the module's docstring).

    ``prove=False`` runs the iterative deepening alone (one core).
    ``margin_tie_break=False`` stops once a move is proven best in expected result, without
    breaking its ties by expected margin.
    ``progress(depth, elapsed, best_cell)`` is called about ten times a second.
    ``nodes``: instead of the clock, node budgets for the deepening and the proof (the same
    choice whatever the machine's load: for comparing variants; ``seconds`` is then ignored).
    """
    if game.is_over:
        raise IllegalMoveError(Problem.of("nothing_to_analyse"))
    started = time.perf_counter()
    pos = position(game)
    legal = game.legal_cells
    cards = game.cards_left
    scale = math.factorial(game.face_down_left)
    sign = 1 if game.to_move == 1 else -1

    def outcome(found: tuple[int, int, int], depth: int, exact: bool, full: bool) -> SearchResult:
        er, em, cell = found
        result = er / (2 * scale)
        return SearchResult(
            cell_name(cell),
            exact,
            full,
            result if sign == 1 else 1 - result,
            sign * em / scale if full or not exact else math.nan,
            depth,
            time.perf_counter() - started,
        )

    if len(legal) == 1:
        return SearchResult(cell_name(legal[0]), True, True, math.nan, math.nan, 0, 0.0)
    deepening = _prepared(game, "result", 1)
    result_only = _prepared(game, "result-only", 0) if prove else None
    tie_break = _prepared(game, "result", 0) if prove else None
    helper = _prepared(game, "result-only", 2) if prove else None
    # root moves searched one by one: proven bounds on their doubled results, player 1's side
    searched: dict[int, tuple[int | None, int | None]] = {}
    deepest: list[tuple[tuple[int, int, int], int]] = []  # completed iterations
    proofs: dict[str, tuple[int, int, int]] = {}
    stop = threading.Event()

    partial: list[int] = []  # the unfinished iteration's best move so far
    narrow: list[tuple[tuple[int, int, int], int]] = []  # iterations of the top moves alone

    ranking: list[int] = list(legal)  # root moves, best first by the last iteration
    taken: set[int] = set()  # root moves a proof thread has taken
    lock = threading.Lock()

    def deepen() -> None:
        top = 0
        for depth in range(1, cards + 1):
            if top and depth < cards:
                # first a quick look one ply deeper at the few best moves of the last iteration
                found = deepening.search_depth(*pos, depth, top)
                if found is None:
                    return
                narrow.append((found, depth))
            found = deepening.search_depth(*pos, depth)
            if found is None:
                partial.append(deepening.partial_best())
                return
            if stop.is_set():
                return
            deepest.append((found, depth))
            ranked = _mover_bounds(deepening.root_bounds(), sign)
            highs = {cell: ranked.get(cell, (None, None))[1] for cell in legal}
            best = sorted(legal, key=lambda cell: 1 << 62 if (h := highs[cell]) is None else -h)
            best.remove(found[2])
            ranking[:] = [found[2], *best]
            if depth >= 4 and len(legal) > TOP:
                top = sum(1 << cell for cell in ranking[:TOP])

    def best_valued() -> tuple[int, int] | None:
        """The best root move valued exactly so far, and its value (player 1's side)."""
        exact = [(sign * lo, c) for c, (lo, hi) in searched.items() if lo is not None and lo == hi]
        if not exact:
            return None
        value, cell = max(exact)
        return cell, sign * value

    def search_one(solver: Solver, cell: int, than: int | None) -> bool:
        """Searches one root move; with ``than`` (a doubled result, player 1's side), only
        whether it is better. Records what it proved; False when stopped."""
        if than is not None:
            solver.set_window(*((than, None) if sign == 1 else (None, than)))
        try:
            found = solver.search_depth(*pos, cards, 1 << cell)
        finally:
            solver.set_window(None, None)
        if found is None:
            return False
        value = found[0]
        better = than is None or (value > than if sign == 1 else value < than)
        # fail-soft: a move no better than ``than`` gets a bound on the mover's side
        with lock:
            searched[cell] = (
                (value, value) if better else (None, value) if sign == 1 else (value, None)
            )
        return True

    def prove_moves(solver: Solver, front: bool) -> bool:
        """Takes root moves not yet taken, in the deepening's order from the front (the proof)
        or from the back (the helper), each only shown no better than the best move valued so
        far. The proof then waits for the helper's last move; True when every move is settled."""
        while not stop.is_set():
            with lock:
                if len(searched) == len(legal):
                    return True
                left = [cell for cell in ranking if cell not in taken]
                cell = (left[0] if front else left[-1]) if left else -1
                if cell >= 0:
                    taken.add(cell)
                valued = best_valued()
            if cell < 0:
                if not front:
                    return False
                stop.wait(0.001)
                continue
            if not search_one(solver, cell, None if valued is None else valued[1]):
                with lock:
                    taken.discard(cell)  # stopped: the other thread may take it over
                return False
        return False

    def help_proof() -> None:
        # The same proof on the same table, from the other end of the deepening's order: each
        # thread finds the other's finished subtrees in the table (two threads on one proof
        # are about 1.6 times faster than one on 16-18 cards).
        assert helper is not None
        prove_moves(helper, front=False)

    def proof() -> None:
        assert result_only is not None
        assert tie_break is not None
        # The move a shallow search likes best is valued first; the others then only need to
        # be shown no better, the deepening's best first (about 10% fewer nodes on 16-18
        # cards than one search of every move, and its move is checked early).
        quick = tie_break.search_depth(*pos, min(QUICK, cards - 1))
        if quick is None:
            return
        with lock:
            taken.add(quick[2])
        if not search_one(result_only, quick[2], None) or not prove_moves(result_only, True):
            return
        valued = best_valued()
        assert valued is not None
        proofs["result"] = (valued[1], 0, valued[0])
        if not margin_tie_break:
            return
        if nodes is not None:  # the tie-break gets what the proof left of the budget
            left = proof_nodes - (result_only.stats()["nodes"] - counted[result_only])
            if left <= 0:
                return
            tie_break.set_node_limit(left)
        tie_break.set_oracle(result_only)  # the proof's table bounds the expected results
        try:
            full = tie_break.search_depth(*pos, cards)
        finally:
            tie_break.set_oracle(None)
        if full is not None and not stop.is_set():
            proofs["full"] = full

    solvers = [s for s in (deepening, result_only, tie_break, helper) if s is not None]
    counted = {solver: solver.stats()["nodes"] for solver in solvers}
    main = seconds - (RESERVE * seconds if prove else 0.0)
    deepening_nodes, proof_nodes = nodes or (0, 0)
    share = DEEPENING if prove else 1.0
    for solver in solvers:
        if nodes is None:
            solver.set_deadline(max((share if solver is deepening else 1) * main - 0.01, 1e-9))
        elif solver is deepening:
            solver.set_node_limit(int(deepening_nodes * (1 - RESERVE) * share))
        elif solver is helper:
            solver.set_node_limit(int(deepening_nodes * (1 - RESERVE) * (1 - share)))
        else:
            solver.set_node_limit(proof_nodes)

    def proven_enough() -> bool:
        return "full" in proofs or ("result" in proofs and not margin_tie_break)

    def deepen_then_help() -> None:
        deepen()
        if helper is not None and not (deepest and deepest[-1][1] >= cards):
            help_proof()

    if helper is not None and result_only is not None:
        entries = proof_nodes if nodes is not None else seconds * PROOF_ENTRIES_PER_SECOND
        helper.share_table(result_only, math.ceil(math.log2(4 * max(entries, 1))))
    try:
        with ThreadPoolExecutor(2) as pool:
            running = [pool.submit(deepen_then_help)] + ([pool.submit(proof)] if prove else [])
            while True:
                remaining = started + main - time.perf_counter() if nodes is None else 0.1
                if remaining <= 0 or proven_enough():
                    break
                wait(running, min(0.1, remaining), FIRST_COMPLETED)
                if proven_enough():
                    break
                # each search runs out its time or budget, unless the deepening became exact
                exact_deepening = bool(deepest) and deepest[-1][1] >= cards
                if all(f.done() for f in running) or (running[0].done() and exact_deepening):
                    break
                if progress is not None and deepest:
                    found, depth = deepest[-1]
                    progress(depth, time.perf_counter() - started, cell_name(found[2]))
            stop.set()
            for solver in solvers:  # the other search (or all, at the deadline) stops at once
                solver.set_deadline(1e-9)
    finally:
        for solver in solvers:
            solver.set_deadline(0)
            solver.set_node_limit(0)
        if helper is not None:
            helper.share_table(None)
    if "full" in proofs:
        return outcome(proofs["full"], cards, True, True)
    if deepest and deepest[-1][1] >= cards:
        return outcome(deepest[-1][0], cards, True, True)
    if "result" in proofs:
        return outcome(proofs["result"], cards, True, False)
    # the unfinished proof's root moves searched so far: bounds on their exact results
    found_bounds = result_only.root_bounds() if result_only is not None else {}
    for cell, (lo, hi) in searched.items():
        old_lo, old_hi = found_bounds.get(cell, (None, None))
        found_bounds[cell] = (
            lo if old_lo is None else old_lo if lo is None else max(lo, old_lo),
            hi if old_hi is None else old_hi if hi is None else min(hi, old_hi),
        )
    bounds = _mover_bounds(found_bounds, sign)
    lows = {cell: lo for cell, (lo, _) in bounds.items() if lo is not None}
    if lows:
        best_low = max(lows.values())
        proven = max(lows, key=lambda cell: lows[cell])
        others = [bounds.get(cell, (None, None))[1] for cell in legal if cell != proven]
        if bounds[proven][1] == best_low and all(
            hi is not None and hi <= best_low for hi in others
        ):
            # every other move is proven no better than this one's exact value
            return outcome((sign * best_low, 0, proven), cards, True, False)
    if deepest:
        found, depth = deepest[-1]
        if partial and partial[0] >= 0 and partial[0] != found[2]:
            # the unfinished iteration searched the previous best move first; a move it then
            # found better is better by the deeper search
            found = (found[0], found[1], partial[0])
        elif narrow and narrow[-1][1] > depth:
            # no better move found one ply deeper yet: the deeper look at the top moves decides
            found = (found[0], found[1], narrow[-1][0][2])
        hi = bounds.get(found[2], (None, None))[1]
        if lows and hi is not None and hi < best_low:
            # the proof has shown the estimate's choice worse than a move it finished: choose
            # again among the moves it has not, by the deepening's search on what is left
            allowed = sum(
                1 << cell
                for cell in legal
                if (bound := bounds.get(cell, (None, None))[1]) is None or bound >= best_low
            )
            found = (found[0], found[1], proven)
            if nodes is None:
                deepening.set_deadline(max(started + seconds - time.perf_counter() - 0.005, 1e-9))
            else:
                deepening.set_node_limit(max(1, int(deepening_nodes * RESERVE)))
            try:
                for again in range(max(1, depth - 3), depth + 1):
                    redone = deepening.search_depth(*pos, again, allowed)
                    if redone is None:
                        break
                    found = redone
            finally:
                deepening.set_deadline(0)
                deepening.set_node_limit(0)
        return outcome(found, depth, False, False)
    return SearchResult(
        cell_name(legal[0]), False, False, math.nan, math.nan, 0, time.perf_counter() - started
    )
