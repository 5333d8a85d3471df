"""Cross Kings: scorer vs brute force, game rules, solver vs a plain expectimax, the seed's
session, pictures and game records."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardscore.cards import parse_cards
from cardscore.crosskings import Board, Bot, Game, Move, _c_solver, analyse, explain, score, search
from cardscore.crosskings._c_solver import Solver, score_bound
from cardscore.crosskings.anytime import QUICK, WEIGHTS
from cardscore.crosskings.cards import CARDS, card_number, cards_of, mask_of
from cardscore.crosskings.game import FACE_DOWN, cell_name
from cardscore.crosskings.scoring import score_mask
from cardscore.crosskings.solver import clear_solvers, position, solver_cells
from cardscore.errors import IllegalMoveError, ImpossibleTableError, InvalidNotationError
from tests import goldens
from tests.crosskings_reference import (
    brute_force_score,
    expectimax,
    move_value,
    position_after,
)

KINGS = [card_number(c) for c in parse_cards("KS KH KD KC")]

# --- scoring -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("2S 3S 4S KH", 4),  # the example: K♥ extends the run to 4 (5 − 1)
        ("2S 3S 4S", 3),
        ("2S 3S", 0),
        ("", 0),
        ("AS 2S 3S 4S 5S 6S 7S 8S", 13),
        ("3S 3H 3D 3C", 5),
        ("KS KH KD KC", 1),  # four kings: a run (or set) of four with four kings, 5 − 4
        ("KS KH KD", 0),
        ("8S KS", 0),  # no wrap-around: K is not next to 8, and aces are low only
        ("AS 2S 3S 3H 3D", 6),  # 3♠ counts in its run and its set
        ("AC AD 2H 2D 3H 3C 3D 4H 4C 5H 5D KS KH KD KC", 28),
    ],
)
def test_known_hands(cards: str, expected: int) -> None:
    hand = parse_cards(cards) if cards else ()
    assert score(hand) == expected
    assert brute_force_score(mask_of(hand)) == expected


def test_the_original_bound_of_26_is_unsound() -> None:
    """A legal hand scores 28 (the other player 0), so |difference| ≤ 26 is false."""
    hand = parse_cards("AC AD 2H 2D 3H 3C 3D 4H 4C 5H 5D KS KH KD KC")
    assert len(hand) <= 18  # one player can hold it: 15 of the 18 cards they take
    result = explain(hand)
    assert result.total == 28 > 26
    stands_for = [card for _, card in result.kings]
    assert len(set(stands_for)) == 4
    assert not set(stands_for) & set(hand)


hands = st.lists(st.sampled_from(range(36)), max_size=13, unique=True)
big_hands = st.lists(st.sampled_from(range(36)), min_size=12, max_size=18, unique=True)


@settings(max_examples=300, deadline=None)
@given(hands)
def test_fast_scorer_matches_brute_force(cards: list[int]) -> None:
    mask = sum(1 << c for c in cards)
    assert score_mask(mask) == brute_force_score(mask)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(range(36)), min_size=8, max_size=14, unique=True))
def test_fast_scorer_matches_brute_force_with_all_four_kings(cards: list[int]) -> None:
    mask = sum(1 << c for c in cards) | sum(1 << k for k in KINGS)
    assert score_mask(mask) == brute_force_score(mask)


@settings(max_examples=100, deadline=None)
@given(big_hands)
def test_fast_scorer_matches_brute_force_on_full_hands(cards: list[int]) -> None:
    """Hands of 12–18 cards, as players end with (kings as they come)."""
    mask = sum(1 << c for c in cards)
    assert score_mask(mask) == brute_force_score(mask)


@settings(max_examples=200, deadline=None)
@given(hands)
def test_explanation_adds_up_and_kings_stand_for_lacking_cards(cards: list[int]) -> None:
    hand = cards_of(sum(1 << c for c in cards) | 1 << KINGS[0] | 1 << KINGS[2])
    result = explain(hand)
    assert result.total == score(hand) == sum(t.points for t in result.breakdown)
    stood = [card for _, card in result.kings]
    kings = [c for c in hand if c.rank.value == "K"]
    assert len(stood) == len(kings) == len(set(stood)) >= 2
    assert all(c.rank.value != "K" and c not in hand for c in stood)


@settings(max_examples=200, deadline=None)
@given(hands, st.sampled_from(range(36)))
def test_adding_a_card_never_lowers_the_score(cards: list[int], extra: int) -> None:
    """The solver's proven bounds rest on this."""
    mask = sum(1 << c for c in cards)
    assert score_mask(mask | 1 << extra) >= score_mask(mask)


def test_bad_hands_name_every_problem() -> None:
    with pytest.raises(ImpossibleTableError) as caught:
        score(parse_cards("9S QH 2S 2S"))
    assert len(caught.value.problems) == 3


# --- the game ------------------------------------------------------------------------------


def test_deal_is_seeded_and_has_twelve_face_down_cards() -> None:
    game = Game.deal(seed=5)
    assert game == Game.deal(seed=5)
    assert game != Game.deal(seed=6)
    assert sorted(game.cards, key=CARDS.index) == list(CARDS)
    assert sum(game.is_face_down(c) for c in range(36)) == 12
    assert game.marker == "c3"
    assert game.to_move == 1
    assert not game.moves
    assert Game.deal(seed=5, start="d4").marker == "d4"
    with pytest.raises(ImpossibleTableError):
        Game.deal(seed=5, start="a1")


def test_first_move_must_move_and_the_start_card_stays() -> None:
    game = Game.deal(seed=1)
    assert "c3" not in game.legal_moves
    assert game.is_face_down("c3")
    game = game.move("c1")  # up the column, jumping over c2
    assert game.is_face_down("c3")  # the card under the starting marker is still there
    assert "c3" in game.legal_moves


def test_moves_jump_gaps_and_cards_and_the_game_ends_on_an_empty_cross() -> None:
    game = Game.deal(seed=1).move("f3")  # jumps d3 and e3
    assert set(game.legal_moves) == {"a3", "b3", "c3", "d3", "e3", "f1", "f2", "f4", "f5", "f6"}
    rng = random.Random(0)
    while not game.is_over:
        game = game.random_move(rng)
    marker = game.marker_cell
    row, col = divmod(marker, 6)
    assert all(
        game.card_at(c) is None and not game.is_face_down(c)
        for c in range(36)
        if c != marker and (c // 6 == row or c % 6 == col)
    )
    with pytest.raises(IllegalMoveError):
        game.random_move(rng)


def test_illegal_moves_are_refused() -> None:
    game = Game.deal(seed=1)
    assert not game.can_move("a1")
    assert game.can_move("a3")
    with pytest.raises(IllegalMoveError, match="legal: a3"):
        game.move("a1")
    with pytest.raises(InvalidNotationError):
        game.move("z9")
    with pytest.raises(IllegalMoveError, match="holds"):
        game.move("a3", "KS" if game.cards[12].code != "Ks" else "KH")


def test_a_face_down_card_can_be_named_when_taken() -> None:
    game = Game.deal(seed=1)
    unseen = game.unseen
    target = unseen[0]
    after = game.move("d3", target)
    assert after.moves[-1].card == target
    assert after.moves[-1].face_down
    assert target not in after.unseen
    assert len(after.unseen) == 11
    assert sorted(after.cards, key=CARDS.index) == list(CARDS)  # still one deck
    visible = [c for c in range(36) if c not in FACE_DOWN]
    assert [after.cards[c] for c in visible] == [game.cards[c] for c in visible]
    with pytest.raises(IllegalMoveError, match="not unseen"):
        game.move("d3", game.cards[12])


def test_undo_and_hands() -> None:
    game = Game.deal(seed=2)
    rng = random.Random(2)
    for _ in range(7):
        game = game.random_move(rng)
    assert len(game.p1) == 4
    assert len(game.p2) == 3
    assert game.score == game.p1.score() - game.p2.score()
    assert game.undo(7) == Game.deal(seed=2)
    assert game.undo(2).moves == game.moves[:5]
    with pytest.raises(IllegalMoveError):
        game.undo(8)


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    game = Game.deal(seed=3, start="d3")
    rng = random.Random(3)
    for _ in range(11):
        game = game.random_move(rng)
    path = tmp_path / "game.json"
    game.save(path)
    loaded = Game.load(path)
    assert loaded == game
    assert loaded.moves == game.moves
    assert Game.from_json(game.to_json()).as_dict() == game.as_dict()
    with pytest.raises(InvalidNotationError):
        Game.from_json('{"game": "poker"}')
    bad = game.as_dict()
    bad["moves"] = ["a1"]
    with pytest.raises(IllegalMoveError, match="move 1 'a1'"):
        Game.from_dict(bad)


# --- the solver ----------------------------------------------------------------------------


def _tiny_positions() -> list[Game]:
    found = []
    for seed in range(60):
        game = position_after(seed, 7)
        if not game.is_over and game.face_down_left >= 1:
            found.append(game)
        if len(found) == 8:
            break
    return found


@pytest.mark.parametrize(
    "game", _tiny_positions(), ids=lambda g: f"{g.cards_left}c{g.face_down_left}fd"
)
def test_solver_matches_a_plain_expectimax(game: Game) -> None:
    left = frozenset(c for c in range(36) if game.cells_left >> c & 1)
    cells: list[int | None] = [
        None if c in FACE_DOWN else card_number(game.cards[c]) for c in range(36)
    ]
    hands = game.hand_masks
    scale = math.factorial(game.face_down_left)
    plain = Solver(solver_cells(game), 0, 16, False)
    pruned = Solver(solver_cells(game), 0, 16, True)
    two_phase = _two_phase(game)
    expected = {c: move_value(cells, left, hands, c, score_mask) for c in game.legal_cells}
    for solver in (plain, pruned, two_phase):
        values = solver.evaluate(*position(game))
        assert values is not None
        for cell, er, em in values:
            result, margin, _ = expected[cell]
            assert Fraction(er, 2 * scale) == result
            assert Fraction(em, scale) == margin
    # all keep the first best move in cell order among equals, as the reference does
    for solver in (plain, pruned, two_phase):
        for cell in game.legal_cells:
            counts = solver.distribution(*position(game), cell)
            assert counts is not None
            assert {d: Fraction(n, scale) for d, n in counts.items()} == expected[cell][2]
    value = expectimax(cells, left, game.marker_cell, hands, score_mask)
    er, em, _ = plain.value(*position(game)) or (0, 0, 0)
    assert (Fraction(er, 2 * scale), Fraction(em, scale)) == value[:2]


@pytest.mark.parametrize(
    ("seed", "cards_left"), [(seed, 11) for seed in range(8)] + [(seed, 13) for seed in range(3)]
)
def test_pruned_and_plain_search_agree_on_bigger_positions(seed: int, cards_left: int) -> None:
    game = position_after(seed, cards_left)
    plain = Solver(solver_cells(game), 0, 18, False).evaluate(*position(game))
    pruned = Solver(solver_cells(game), 0, 18, True).evaluate(*position(game))
    assert plain == pruned
    assert _two_phase(game).evaluate(*position(game)) == plain
    margin_plain = Solver(solver_cells(game), 1, 18, False).evaluate(*position(game))
    margin_pruned = Solver(solver_cells(game), 1, 18, True).evaluate(*position(game))
    assert margin_plain == margin_pruned


def _two_phase(game: Game, oracle_log2: int = 16, first: int | None = None) -> Solver:
    """A full-objective solver whose oracle has searched the moves (all, or only ``first``)."""
    oracle = Solver(solver_cells(game), 2, oracle_log2)
    solver = Solver(solver_cells(game), 0, 16)
    solver.set_oracle(oracle)
    moves = game.legal_cells if first is None else [first]
    for cell in moves:
        assert oracle.evaluate(*position(game), 1 << cell) is not None
    return solver


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(6, 12), st.data())
def test_two_phase_search_values_every_move_exactly_as_one_phase(
    seed: int, cards_left: int, data: st.DataObject
) -> None:
    game = position_after(seed, cards_left)
    if game.is_over:
        return
    pos = position(game)
    expected = Solver(solver_cells(game), 0, 16, False).evaluate(*pos)  # plain expectimax
    # the oracle's table: complete, partial (one move searched: bounds of every kind), or
    # tiny (1,024 entries, mostly overwritten); bounds from any of them must stay sound
    first = data.draw(st.sampled_from([None, *game.legal_cells]))
    log2 = data.draw(st.sampled_from([10, 16]))
    solver = _two_phase(game, log2, first)
    assert solver.evaluate(*pos) == expected
    reference = Solver(solver_cells(game), 0, 16)
    for cell in game.legal_cells:
        assert solver.distribution(*pos, cell) == reference.distribution(*pos, cell)
    assert solver.value(*pos) == reference.value(*pos)


def test_two_phase_analysis_matches_one_phase(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardscore.crosskings import analysis

    game = position_after(3, 12)
    monkeypatch.setattr(analysis, "TWO_PHASE_FROM", 99)
    clear_solvers()
    one = analyse(game)
    monkeypatch.setattr(analysis, "TWO_PHASE_FROM", 0)
    clear_solvers()
    two = analyse(game)
    assert two.moves == one.moves
    assert two.principal_variation == one.principal_variation
    assert two.nodes != one.nodes  # the first phase ran
    clear_solvers()


def test_an_oracle_must_be_a_result_only_solver_of_the_same_deal() -> None:
    game = position_after(1, 11)
    other = position_after(2, 11)
    solver = Solver(solver_cells(game), 0)
    with pytest.raises(ValueError, match="oracle"):
        solver.set_oracle(Solver(solver_cells(game), 0))  # not result-only
    with pytest.raises(ValueError, match="oracle"):
        solver.set_oracle(Solver(solver_cells(other), 2))  # another deal
    with pytest.raises(ValueError, match="oracle"):
        Solver(solver_cells(game), 1).set_oracle(
            Solver(solver_cells(game), 2)
        )  # margin first: no use
    solver.set_oracle(Solver(solver_cells(game), 2))
    solver.set_oracle(None)
    assert solver.evaluate(*position(game)) == Solver(solver_cells(game), 0).evaluate(
        *position(game)
    )


def test_analysis_distributions_are_exact_and_consistent() -> None:
    game = position_after(4, 11)
    analysis = analyse(game, threads=2)
    assert next(m.cell for m in analysis.moves if m.optimal) == analysis.best.cell
    assert {m.cell for m in analysis.moves} == set(game.legal_moves)
    for m in analysis.moves:
        assert sum(p for _, p in m.distribution) == 1
        assert m.win + m.draw + m.loss == 1
        assert sum(d * p for d, p in m.distribution) == m.expected_margin
        assert all(abs(d) <= 92 for d, _ in m.distribution)
    keys = [(m.expected_result, m.expected_margin) for m in analysis.moves]
    assert keys == sorted(keys, reverse=True)
    one_thread = analyse(game, threads=1)
    assert one_thread.moves == analysis.moves  # distributions too: ties are broken by cell order
    assert analysis.principal_variation[0] == analysis.best.cell


def test_margin_objective_ranks_by_expected_margin() -> None:
    game = position_after(6, 11)
    analysis = analyse(game, objective="margin")
    margins = [m.expected_margin for m in analysis.moves]
    assert margins == sorted(margins, reverse=True)


def test_anytime_search_is_exact_when_the_solver_finishes() -> None:
    game = position_after(8, 12)
    # Node budgets, not the clock: the proof finishes on any machine, however loaded.
    result = search(game, nodes=(10**5, 10**8))
    assert result.exact
    assert result.exact_margin
    analysis = analyse(game)
    assert result.cell in {m.cell for m in analysis.moves if m.optimal}
    assert result.expected_result == pytest.approx(float(analysis.best.expected_result))
    assert result.expected_margin == pytest.approx(float(analysis.best.expected_margin))


def test_anytime_search_estimates_when_time_is_short() -> None:
    game = position_after(9, 26)
    seen: list[tuple[int, str]] = []
    result = search(game, seconds=0.4, prove=False, progress=lambda d, t, c: seen.append((d, c)))
    assert not result.exact
    assert result.depth > 0
    assert result.cell in game.legal_moves
    assert 0 <= result.expected_result <= 1
    assert all(cell in game.legal_moves for _, cell in seen)


@pytest.mark.parametrize("seed", range(12))
def test_depth_limited_search_is_exact_at_full_depth(seed: int) -> None:
    """Iterations of every depth share one table; the one covering every card left gives the
    exact value and an optimal move, as does a fresh full-depth search; a shallower one gives
    a legal move and a value within the proven range."""
    game = position_after(seed, 11)
    cells = solver_cells(game)
    exact = Solver(cells, 0, 18).value(*position(game))
    assert exact is not None
    values = Solver(cells, 0, 18).evaluate(*position(game))
    assert values is not None
    sign = 1 if game.to_move == 1 else -1
    ranked = {cell: (sign * er, sign * em) for cell, er, em in values}
    best = max(ranked.values())
    deepening = Solver(cells, 0, 18)
    scale = math.factorial(game.face_down_left)
    for depth in range(1, game.cards_left + 1):
        found = deepening.search_depth(*position(game), depth)
        assert found is not None
        assert cell_name(found[2]) in game.legal_moves
        assert 0 <= found[0] <= 2 * scale
    assert found[:2] == exact[:2]
    assert ranked[found[2]] == best
    fresh = Solver(cells, 0, 18).search_depth(*position(game), game.cards_left)
    assert fresh is not None
    assert fresh[:2] == exact[:2]
    assert ranked[fresh[2]] == best
    # other horizon weights change estimates only: the full-depth search stays exact
    other = Solver(cells, 0, 18)
    other.set_heuristic([0.2, 0, 0, 0, 0, 0.3, 0.5, 0.8, 0, 0, 0, 0, 0, 0])
    for depth in (3, game.cards_left):
        found = other.search_depth(*position(game), depth)
        assert found is not None
    assert found[:2] == exact[:2]
    with pytest.raises(ValueError, match="14 numbers"):
        other.set_heuristic([1.0, 2.0])
    # a search stopped early tells the best root move among those it finished (or none)
    stopped = Solver(cells, 0, 18)
    stopped.set_node_limit(50)
    assert stopped.search_depth(*position(game), game.cards_left) is None
    assert stopped.partial_best() == -1 or cell_name(stopped.partial_best()) in game.legal_moves
    # the expected result alone: same result, a move optimal in it
    result_only = Solver(cells, 2, 18).search_depth(*position(game), game.cards_left)
    assert result_only is not None
    assert result_only[0] == exact[0]
    assert ranked[result_only[2]][0] == best[0]


@pytest.mark.parametrize("seed", range(8))
def test_root_bounds_of_a_stopped_exact_search_hold(seed: int) -> None:
    """Every root move an exact search finished before it stopped has proven bounds that hold
    the move's exact expected result (from both objectives that the anytime search uses)."""
    game = position_after(seed, 12)
    cells = solver_cells(game)
    values = Solver(cells, 0, 18).evaluate(*position(game))
    assert values is not None
    exact = {cell: er for cell, er, _ in values}
    for objective in (2, 0):
        seen = 0
        for limit in (100, 1_000, 10_000, 100_000, 0):
            solver = Solver(cells, objective, 18)
            solver.set_node_limit(limit)
            finished = solver.search_depth(*position(game), game.cards_left) is not None
            bounds = solver.root_bounds()
            assert set(bounds) <= set(exact)
            if finished:
                assert set(bounds) == set(exact)
            for cell, (low, high) in bounds.items():
                assert low is not None or high is not None
                assert low is None or low <= exact[cell]
                assert high is None or exact[cell] <= high
                seen += 1
        assert seen > 0


@pytest.mark.parametrize("seed", range(6))
def test_a_search_restricted_to_some_root_moves_values_those_alone(seed: int) -> None:
    """A full-depth search of some root moves gives the best of their exact values and one of
    them, and leaves the table fit for an unrestricted search after it."""
    game = position_after(seed, 11)
    cells = solver_cells(game)
    values = Solver(cells, 0, 18).evaluate(*position(game))
    assert values is not None
    exact = Solver(cells, 0, 18).value(*position(game))
    assert exact is not None
    sign = 1 if game.to_move == 1 else -1
    ranked = sorted(values, key=lambda v: (sign * v[1], sign * v[2]))
    solver = Solver(cells, 0, 18)
    for chosen in (ranked[:1], ranked[:2], ranked[-1:]):
        only = sum(1 << cell for cell, _, _ in chosen)
        found = solver.search_depth(*position(game), game.cards_left, only)
        assert found is not None
        assert found[:2] == chosen[-1][1:]
        assert found[2] in {cell for cell, er, em in chosen if (er, em) == found[:2]}
        assert solver.search_depth(*position(game), 4, only) is not None
    found = solver.search_depth(*position(game), game.cards_left)
    assert found is not None
    assert found[:2] == exact[:2]
    with pytest.raises(ValueError, match="no legal move"):
        solver.search_depth(*position(game), 3, 1 << 63)


@pytest.mark.parametrize("level", [0, 1, 2])
def test_bots_play_legal_moves_to_the_end(level: int) -> None:
    game = position_after(10, 14)
    bot = Bot(level, seed=1)
    while not game.is_over:
        cell = bot.choose(game)
        assert cell in game.legal_moves
        game = game.move(cell)


# --- the seed README's session, in our API ---------------------------------------------------


def test_seed_session() -> None:
    game = Game.deal(seed=11)
    rng = random.Random(11)
    while game.legal_moves:
        game = game.random_move(rng)
    assert game.is_over
    assert game.score == game.p1.score() - game.p2.score()
    earlier = game.undo(5)
    evals = analyse(earlier)  # the seed's earlier.move_evals: the engine is off the board
    assert {m.cell for m in evals.moves} == set(earlier.legal_moves)
    p1_hand, p2_hand = game.p1, game.p2
    assert len(p1_hand) + len(p2_hand) == len(game.moves)
    assert "##" not in str(Board(game)) or game.face_down_left > 0
    assert game.moves[-1].notation in game.to_json()


def test_seed_readme_exists(shared: Path) -> None:
    text = (shared / "seeds" / "003_ee0c7cc9d3c862d3.txt").read_text(encoding="utf-8")
    for call in ("Game.deal()", "random_move()", "undo(5).move_evals", "game.board", "game.moves"):
        assert call in text


# --- pictures ------------------------------------------------------------------------------


def _golden_game() -> tuple[Game, Board]:
    game = position_after(7, 10)
    return game, Board(game, analyse(game))


def test_board_svg_matches_the_golden_file() -> None:
    _, board = _golden_game()
    assert board.svg() == goldens.crosskings_board()
    goldens.check("crosskings_board.svg")


def test_board_svg_shows_what_it_should() -> None:
    game, board = _golden_game()
    svg = board.svg()
    assert svg.count('class="cell"') == 36
    assert svg.count('stroke="#ffd54f"') == sum(m.optimal for m in board.analysis.moves)  # type: ignore[union-attr]
    assert svg.count('fill="#283593"') == game.face_down_left
    assert Board(game)._repr_svg_() == Board(game).svg()
    assert "<svg" in board._repr_html_()


def test_a_game_built_from_records_is_checked() -> None:
    game = Game.deal(seed=2).move("a3").move("a1")
    assert Game(game.cards, game.start, game.moves) == game
    first = game.moves[0]
    wrong_card = Move(1, first.cell, game.cards[0], first.face_down)
    with pytest.raises(IllegalMoveError, match="does not follow"):
        Game(game.cards, game.start, (wrong_card,))
    off_line = Move(1, 0, game.cards[0], True)  # a1 is not in c3's row or column
    with pytest.raises(IllegalMoveError, match="does not follow"):
        Game(game.cards, game.start, (off_line,))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(range(36)), min_size=4, max_size=34, unique=True))
def test_the_kingless_score_bound_is_never_below_the_score(cards: list[int]) -> None:
    """The result-only solver bounds a player's final score by this: it must be an upper
    bound on every hand, and exact without kings."""
    mask = sum(1 << c for c in cards)
    bound, exact = score_bound(mask), score_mask(mask)
    assert bound >= exact
    if not mask & sum(1 << k for k in KINGS):
        assert bound == exact


@pytest.mark.parametrize("scorer", [_c_solver.score, _c_solver.score_bound])
def test_a_hand_mask_beyond_36_bits_is_refused(scorer: Callable[[int], object]) -> None:
    with pytest.raises(ValueError, match="a hand is a 36-bit mask"):
        scorer(1 << 36)
    with pytest.raises(OverflowError):
        scorer(-1)


@pytest.mark.parametrize("seed", [0, 2, 7, 21])
def test_anytime_proof_finds_a_better_move_than_its_first(seed: int) -> None:
    """Positions where the shallow search's move, which the proof values first, is not
    optimal: the proof must find a better one and show every other move no better; with a
    tiny deepening budget the proof alone decides."""
    game = position_after(seed, 14)
    quick = Solver(solver_cells(game), 0)
    quick.set_heuristic(WEIGHTS)
    first = quick.search_depth(*position(game), QUICK)
    assert first is not None
    analysis = analyse(game)
    best = max(m.expected_result for m in analysis.moves)
    optimal = {m.cell for m in analysis.moves if m.expected_result == best}
    assert cell_name(first[2]) not in optimal
    result = search(game, nodes=(1_000, 10**9), margin_tie_break=False)
    assert result.exact
    assert not result.exact_margin
    assert result.cell in optimal
    assert result.expected_result == pytest.approx(float(best))


def test_tables_taken_back_from_another_deal_keep_values_exact() -> None:
    """A freed solver's table goes to a pool, and the next solver takes it back without
    zeroing it. Here the other deal has two cards on the board swapped, so its positions have
    the same keys and other values: its entries must read as empty."""
    game = _tiny_positions()[0]
    cells = solver_cells(game)
    up = [c for c in range(36) if cells[c] >= 0 and game.cells_left >> c & 1]
    swapped = list(cells)
    swapped[up[0]], swapped[up[1]] = cells[up[1]], cells[up[0]]
    left = frozenset(c for c in range(36) if game.cells_left >> c & 1)
    scale = math.factorial(game.face_down_left)
    expected = []
    for deal in (cells, swapped):
        reference: list[int | None] = [None if n < 0 else n for n in deal]
        expected.append(
            {
                cell: move_value(reference, left, game.hand_masks, cell, score_mask)[:2]
                for cell in game.legal_cells
            }
        )
    assert expected[0] != expected[1]
    for _ in range(3):
        for deal, values in zip((cells, swapped), expected, strict=True):
            solver = Solver(deal, 0, 16)
            found = solver.evaluate(*position(game))
            assert found is not None
            assert {c: (Fraction(er, 2 * scale), Fraction(em, scale)) for c, er, em in found} == (
                values
            )
            solver.clear()  # a cleared table, too, moves on to its next epoch
            assert solver.evaluate(*position(game)) == found
            del solver
