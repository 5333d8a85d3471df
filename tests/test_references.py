"""Independent references, written apart from the code they check.

- five-card draw: equity and draw odds by exact enumeration, every hand ranked by treys;
- Cross Kings: a margin-first expectimax (``objective="margin"``) and brute-force checks of
  the bots (level 1: a best immediate gain; level 2: an optimal move on small positions);
- poker bots: their discard against a brute-force search with treys.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations, permutations

import pytest

from cardscore.cards import Card, Rank, full_deck, parse_cards
from cardscore.crosskings import Bot, Game, analyse
from cardscore.crosskings.cards import card_number
from cardscore.crosskings.game import FACE_DOWN, cell_name
from cardscore.crosskings.scoring import score_mask
from cardscore.poker import HandRank
from cardscore.poker.bots import best_discard
from cardscore.poker.equity import draw_equity, draw_odds
from tests.conftest import need_module
from tests.crosskings_reference import (
    brute_force_score,
    margin_move_value,
    move_value,
    position_after,
)

treys = need_module("treys", "the cross-check needs treys (dev extra)")
EVALUATOR = treys.Evaluator()


def treys_rank(cards: tuple[Card, ...] | list[Card]) -> int:
    return int(EVALUATOR.evaluate([], [treys.Card.new(c.code) for c in cards]))


# --- five-card draw: equity and odds by exact enumeration ---------------------------------------


def exact_draw_equity(hands: list[str], discards: list[str]) -> list[Fraction]:
    """Every order of replacement cards for every player, each hand ranked by treys."""
    parsed = [parse_cards(h) for h in hands]
    thrown = [parse_cards(d) for d in discards]
    kept = [[c for c in h if c not in d] for h, d in zip(parsed, thrown, strict=True)]
    unseen = [c for c in full_deck() if all(c not in h for h in parsed)]
    need = [len(d) for d in thrown]
    shares = [Fraction(0)] * len(hands)
    deals = 0
    for drawn in permutations(unseen, sum(need)):
        at, ranks = 0, []
        for keep, n in zip(kept, need, strict=True):
            ranks.append(treys_rank([*keep, *drawn[at : at + n]]))
            at += n
        best = min(ranks)
        winners = ranks.count(best)
        for i, r in enumerate(ranks):
            if r == best:
                shares[i] += Fraction(1, winners)
        deals += 1
    return [s / deals for s in shares]


@pytest.mark.parametrize(
    ("hands", "discards"),
    [
        # a flush draw against a made pair that draws one
        (["Ah Kh 7h 2h 9c", "Qs Qd 8c 5d 3s"], ["9c", "3s"]),
        # an open-ended straight draw against trips standing pat
        (["9h 8d 7c 6s Kd", "4s 4h 4d Jc 2c"], ["Kd", ""]),
        # both draw one to the same straight: ties split
        (["Ts 9s 8d 7c 2h", "Th 9h 8c 7d 3h"], ["2h", "3h"]),
    ],
)
def test_draw_equity_matches_exact_enumeration(hands: list[str], discards: list[str]) -> None:
    exact = exact_draw_equity(hands, discards)
    assert sum(exact) == 1
    sampled = draw_equity(hands, discards, trials=200_000, seed=7)
    assert not sampled.exact
    # 200,000 deals: a standard error of at most 0.0012; 5 of them
    assert sampled.equities == pytest.approx([float(e) for e in exact], abs=0.006)


def test_draw_equity_without_discards_is_the_showdown() -> None:
    hands = ["Ah Ad Ac 2s 3h", "Kh Kd Ks Qc Jc", "2c 2d 5h 5s 9d"]
    ranks = [treys_rank(parse_cards(h)) for h in hands]
    assert ranks.index(min(ranks)) == 0
    assert draw_equity(hands).equities == (1.0, 0.0, 0.0)
    tied = draw_equity(["Ah Kd Qc Js 9h", "As Kc Qd Jh 9c"])
    assert tied.exact
    assert tied.equities == (0.5, 0.5)


def treys_category(rank: int) -> str:
    if rank == 1:
        return "royal flush"
    return str(EVALUATOR.class_to_string(EVALUATOR.get_rank_class(rank))).lower()


@pytest.mark.parametrize(
    ("hand", "discard", "dead"),
    [
        ("9h 8h 7c 6s Kd", "Kd 7c", ""),
        ("Ah Kh Qh Jh 2c", "2c", ""),  # a royal flush, straight, flush, pair or nothing
        ("Qs Qd 8c 5d 3s", "8c 5d 3s", ""),  # every category from a pair but a straight
        ("7s 7d 7c Kh 2d", "Kh 2d", "7h Kd"),  # quads, a full house or trips, with dead cards
        ("Ah 2c 5d 9s Jh", "2c 5d 9s Jh", ""),  # four cards to an ace: every category
    ],
)
def test_draw_odds_match_treys_on_every_rank_and_category(
    hand: str, discard: str, dead: str
) -> None:
    cards, thrown, seen = parse_cards(hand), parse_cards(discard), parse_cards(dead)
    kept = [c for c in cards if c not in thrown]
    deck = [c for c in full_deck() if c not in cards and c not in seen]
    by_rank = Counter(treys_rank([*kept, *draw]) for draw in combinations(deck, len(thrown)))
    odds = draw_odds(hand, discard, dead)
    assert odds.draws == sum(by_rank.values())
    assert {r: n for r, n in enumerate(odds.counts) if n} == dict(by_rank)
    by_category = Counter()
    for rank, n in by_rank.items():
        by_category[treys_category(rank)] += n
    for category in [
        "royal flush",
        "straight flush",
        "four of a kind",
        "full house",
        "flush",
        "straight",
        "three of a kind",
        "two pair",
        "pair",
        "high card",
    ]:
        assert odds.probability(category) == pytest.approx(
            by_category[category] / odds.draws, abs=1e-15
        ), category


# --- poker bots: the discard -----------------------------------------------------------------


def brute_force_discard_value(
    hand: tuple[Card, ...], thrown: tuple[Card, ...], power: int
) -> float:
    """Mean of percentile ** power over every replacement draw, each ranked by treys."""
    kept = [c for c in hand if c not in thrown]
    deck = [c for c in full_deck() if c not in hand]
    values = [
        HandRank(treys_rank([*kept, *draw])).percentile ** power
        for draw in combinations(deck, len(thrown))
    ]
    return sum(values) / len(values)


@pytest.mark.parametrize("hand", ["Ah Kh 7h 2h 9c", "9h 8d 7c 6s Kd", "Qs Qd Qc 8h 8d"])
def test_the_poker_bots_discard_is_the_best_of_every_one_or_two_card_draw(hand: str) -> None:
    cards = tuple(parse_cards(hand))
    thrown, value = best_discard(cards, opponents=1)
    assert len(thrown) <= 2
    power = 6  # DRAW_EXPONENT × one opponent
    reference = {
        d: brute_force_discard_value(cards, d, power)
        for n in (0, 1, 2)
        for d in combinations(cards, n)
    }
    assert value == pytest.approx(reference[thrown], rel=1e-9)
    assert reference[thrown] == pytest.approx(max(reference.values()), rel=1e-9)


def test_a_four_card_draw_keeps_an_ace() -> None:
    thrown, _ = best_discard(parse_cards("Ah 2c 5d 9s Jh"), opponents=1)
    kept = [c for c in parse_cards("Ah 2c 5d 9s Jh") if c not in thrown]
    assert len(thrown) < 4 or [c.rank for c in kept] == [Rank.ACE]


# --- Cross Kings: the margin objective --------------------------------------------------------


def _reference_margins(game: Game) -> dict[str, Fraction]:
    """Each legal move's expected margin for the mover, margin first for both players."""
    left = frozenset(c for c in range(36) if game.cells_left >> c & 1)
    cells: list[int | None] = [
        None if c in FACE_DOWN else card_number(game.cards[c]) for c in range(36)
    ]
    sign = 1 if game.to_move == 1 else -1
    return {
        cell_name(c): sign * margin_move_value(cells, left, game.hand_masks, c, score_mask)
        for c in game.legal_cells
    }


# (seed, cards left): small positions, three of them where the margin-first best move is not
# the result-first one.
MARGIN_POSITIONS = [(s, 7) for s in range(6)] + [(34, 8), (44, 9), (1, 10), (12, 10), (20, 10)]


@pytest.mark.parametrize(("seed", "cards_left"), MARGIN_POSITIONS)
def test_margin_objective_matches_a_margin_first_expectimax(seed: int, cards_left: int) -> None:
    game = position_after(seed, cards_left)
    analysis = analyse(game, objective="margin")
    reference = _reference_margins(game)
    assert {m.cell: m.expected_margin for m in analysis.moves} == reference
    assert analysis.best.expected_margin == max(reference.values())
    assert {m.cell for m in analysis.moves if m.optimal} == {
        c for c, v in reference.items() if v == max(reference.values())
    }


def test_the_objectives_choose_differently_where_the_reference_says_so() -> None:
    differ = 0
    for seed, cards_left in MARGIN_POSITIONS:
        game = position_after(seed, cards_left)
        reference = _reference_margins(game)
        by_result = analyse(game).best.cell
        if reference[by_result] < max(reference.values()):
            differ += 1
            assert analyse(game, objective="margin").best.cell != by_result
    assert differ >= 3


# --- Cross Kings bots ----------------------------------------------------------------------------


def _immediate_gains(game: Game) -> dict[str, Fraction]:
    """The mover's expected score gain from each legal move, scored by the brute-force scorer."""
    own = game.hand_masks[game.to_move - 1]
    base = brute_force_score(own)
    unseen = [1 << card_number(c) for c in game.unseen]
    gains = {}
    for cell in game.legal_cells:
        card = game.card_at(cell)
        outcomes = unseen if card is None else [1 << card_number(card)]
        total = sum(brute_force_score(own | bit) - base for bit in outcomes)
        gains[cell_name(cell)] = Fraction(total, len(outcomes))
    return gains


@pytest.mark.parametrize(("seed", "cards_left"), [(s, n) for s in range(4) for n in (30, 20, 12)])
def test_a_level_1_bot_takes_a_best_immediate_gain(seed: int, cards_left: int) -> None:
    game = position_after(seed, cards_left)
    gains = _immediate_gains(game)
    best = max(gains.values())
    for bot_seed in range(3):
        assert gains[Bot(1, seed=bot_seed).choose(game)] == best


@pytest.mark.parametrize(("seed", "cards_left"), [(s, 7) for s in range(4)] + [(1, 8), (2, 9)])
def test_a_level_2_bot_plays_an_optimal_move_on_small_positions(seed: int, cards_left: int) -> None:
    game = position_after(seed, cards_left)
    left = frozenset(c for c in range(36) if game.cells_left >> c & 1)
    cells: list[int | None] = [
        None if c in FACE_DOWN else card_number(game.cards[c]) for c in range(36)
    ]
    sign = 1 if game.to_move == 1 else -1
    values = {
        cell_name(c): move_value(cells, left, game.hand_masks, c, score_mask)[:2]
        for c in game.legal_cells
    }
    # the mover's (expected result, expected margin), result first
    keyed = {c: ((r if sign == 1 else 1 - r), sign * m) for c, (r, m) in values.items()}
    best = max(keyed.values())
    assert keyed[Bot(2, seed=0).choose(game)] == best
