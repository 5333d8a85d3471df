"""Cross Kings horizon estimate: the C features against a Python rewrite, the anytime search's
node budgets, and the weights' fitting code."""

from __future__ import annotations

import numpy as np
import pytest
from benchmarks.crosskings_fit import fit

from cardscore.crosskings import Game, search
from cardscore.crosskings._c_solver import Solver
from cardscore.crosskings.anytime import WEIGHTS
from cardscore.crosskings.game import FACE_DOWN, _lines
from cardscore.crosskings.scoring import score_mask
from cardscore.crosskings.solver import clear_solvers, position, solver_cells
from tests.crosskings_reference import position_after

ALL = (1 << 36) - 1
KINGS = [8, 17, 26, 35]


def _greedy_gain(game: Game, cells: list[int]) -> int:
    """Each player in turn takes the card in the marker's lines that raises their score most,
    what it denies the opponent counted at half (a face-down card: a little, and no card)."""
    rem, marker = game.cells_left, game.marker_cell
    hands = list(game.hand_masks)
    start = score_mask(hands[0]) - score_mask(hands[1])
    mover = game.to_move - 1
    while moves := [c for c in range(36) if (_lines(marker) & rem) >> c & 1]:
        best_key, chosen, card = -1, -1, 0
        for cell in moves:
            bit = 0 if cells[cell] < 0 else 1 << cells[cell]
            key = 1
            if bit:
                own = score_mask(hands[mover] | bit) - score_mask(hands[mover])
                other = hands[1 - mover]
                key = 4 * own + 2 * (score_mask(other | bit) - score_mask(other))
            if key > best_key:
                best_key, chosen, card = key, cell, bit
        hands[mover] |= card
        rem &= ~(1 << chosen)
        marker = chosen
        mover = 1 - mover
    return score_mask(hands[0]) - score_mask(hands[1]) - start


def _features(game: Game, cells: list[int]) -> list[float]:
    p1, p2 = game.hand_masks
    s1, s2 = score_mask(p1), score_mask(p2)
    left = ALL & ~(p1 | p2)

    def one_king(hand: int, own: int) -> int:
        free = [k for k in KINGS if not hand >> k & 1]
        return score_mask(hand | 1 << free[0]) - own if free else 0

    def one_card(hand: int, own: int) -> int:
        return max([score_mask(hand | 1 << c) - own for c in range(36) if left >> c & 1] + [0])

    kings = sum(p1 >> k & 1 for k in KINGS) - sum(p2 >> k & 1 for k in KINGS)
    return [
        s1 - s2,
        (score_mask(ALL & ~p2) - s1) - (score_mask(ALL & ~p1) - s2),
        1.0 if game.to_move == 1 else -1.0,
        one_king(p1, s1) - one_king(p2, s2),
        kings,
        one_card(p1, s1) - one_card(p2, s2),
        _greedy_gain(game, cells),
    ]


@pytest.mark.parametrize("seed", range(10))
def test_features_match_a_python_rewrite(seed: int) -> None:
    for cards_left in (12, 7, 4):
        game = position_after(seed, cards_left)
        if game.is_over:
            continue
        cells = solver_cells(game)
        assert Solver(cells, 0, 16).features(*position(game)) == _features(game, cells)


def test_weights_cover_every_feature() -> None:
    solver = Solver([-1 if c in FACE_DOWN else c for c in range(36)], 0, 16)
    solver.set_heuristic(WEIGHTS)
    with pytest.raises(ValueError, match="14 numbers"):
        solver.set_heuristic(WEIGHTS[:10])


def test_a_node_budget_gives_the_same_choice_every_time() -> None:
    game = position_after(3, 17)
    results = []
    for _ in range(2):
        clear_solvers()
        results.append(search(game, nodes=(60_000, 60_000)))
    assert results[0].cell in game.legal_moves
    assert (results[0].cell, results[0].depth, results[0].exact) == (
        results[1].cell,
        results[1].depth,
        results[1].exact,
    )
    assert not results[0].exact  # far too few nodes to prove anything at 17 cards


def test_a_large_node_budget_solves_a_small_position() -> None:
    game = position_after(5, 9)
    result = search(game, nodes=(10**8, 10**8))
    assert result.exact
    assert result.exact_margin


def test_the_fit_recovers_known_weights() -> None:
    """Soft targets drawn from a known logistic model: Newton's method finds its weights."""
    rng = np.random.default_rng(0)
    features = len(WEIGHTS) // 2
    x = rng.normal(size=(4000, 2 * features))
    truth = np.zeros(2 * features)
    truth[[0, 2, features]] = (0.7, -1.2, 0.5)
    y = 1 / (1 + np.exp(-(x @ truth)))
    found = fit(x, y, [0, 2], ridge=0)
    assert found == pytest.approx(truth, abs=1e-6)
