"""The evaluator against treys on every five-card hand, brute force on 6 and 7 cards."""

from __future__ import annotations

import hashlib
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardscore.cards import Card, parse_cards
from cardscore.errors import ImpossibleTableError, InvalidCardError
from cardscore.poker import Category, HandRank, evaluate, rank, rank_batch, rank_ids
from cardscore.poker._tablegen import category_spans
from cardscore.poker.equity import all_hands
from cardscore.poker.tables import CATEGORY_RANGES, hand_tables
from tests.conftest import need_module

treys = need_module("treys", "the cross-check needs treys (dev extra)")
treys_lookup = need_module("treys.lookup", "the cross-check needs treys (dev extra)")

# Our ids are rank.index * 4 + suit.index; treys builds its cards from the same codes.
TREYS_CARD = [treys.Card.new(Card.from_id(i).code) for i in range(52)]


@pytest.fixture(scope="module")
def every_hand() -> np.ndarray:
    return all_hands(5)


@pytest.fixture(scope="module")
def every_rank(every_hand: np.ndarray) -> np.ndarray:
    return rank_batch(every_hand)


def _treys_ranks(hands: np.ndarray) -> np.ndarray:
    """treys's own lookup tables (prime product keys), applied to all hands with numpy."""
    table = treys_lookup.LookupTable()
    primes = np.array(treys.Card.PRIMES, dtype=np.int64)
    product = np.prod(primes[hands // 4], axis=1)
    suited = (hands % 4 == (hands[:, :1] % 4)).all(axis=1)
    out = np.zeros(len(hands), dtype=np.int64)
    for lookup, rows in ((table.flush_lookup, suited), (table.unsuited_lookup, ~suited)):
        keys = np.array(sorted(lookup), dtype=np.int64)
        values = np.array([lookup[k] for k in keys.tolist()], dtype=np.int64)
        at = np.searchsorted(keys, product[rows])
        assert (keys[at] == product[rows]).all()
        out[rows] = values[at]
    return out


def test_all_2598960_hands_match_treys(every_hand: np.ndarray, every_rank: np.ndarray) -> None:
    assert len(every_hand) == 2_598_960
    theirs = _treys_ranks(every_hand)
    np.testing.assert_array_equal(every_rank, theirs)
    order = np.argsort(theirs, kind="stable").astype("<u4")
    assert hashlib.sha256(order.tobytes()).hexdigest() == ORDER_SHA256


def test_treys_evaluator_per_call_on_a_sample(
    every_hand: np.ndarray, every_rank: np.ndarray
) -> None:
    evaluator = treys.Evaluator()
    rows = np.random.default_rng(4).choice(len(every_hand), 20_000, replace=False)
    for row in rows.tolist():
        cards = [TREYS_CARD[c] for c in every_hand[row].tolist()]
        assert evaluator.evaluate([], cards) == every_rank[row]


def test_seven_cards_match_treys() -> None:
    evaluator = treys.Evaluator()
    rng = np.random.default_rng(7)
    hands = np.array([rng.choice(52, 7, replace=False) for _ in range(5000)], dtype=np.uint8)
    ours = rank_batch(hands)
    for hand, mine in zip(hands.tolist(), ours.tolist(), strict=True):
        board, hole = [TREYS_CARD[c] for c in hand[:5]], [TREYS_CARD[c] for c in hand[5:]]
        assert evaluator.evaluate(board, hole) == mine


def test_hash_of_the_sorted_order_of_all_hands(every_rank: np.ndarray) -> None:
    # Hands in colex order of their ids, stably sorted from best to worst.
    order = np.argsort(every_rank, kind="stable").astype("<u4")
    digest = hashlib.sha256(order.tobytes()).hexdigest()
    assert digest == ORDER_SHA256


ORDER_SHA256 = "8678cbc21482bb61505f3e88cb012be9fee73887f4b8eac855e9440f527a2be2"


def test_class_and_category_counts(every_rank: np.ndarray) -> None:
    assert len(np.unique(every_rank)) == 7462
    counts = np.bincount(every_rank, minlength=7463)
    assert tuple(counts.tolist()) == hand_tables().class_counts
    per_category = {
        c: int(counts[CATEGORY_RANGES[c].start : CATEGORY_RANGES[c].stop].sum()) for c in Category
    }
    assert list(per_category.values()) == [
        4,
        36,
        624,
        3744,
        5108,
        10200,
        54912,
        123552,
        1098240,
        1302540,
    ]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=6, max_size=7, unique=True))
def test_best_of_six_or_seven_is_the_best_five(ids: list[int]) -> None:
    best = min(rank(*five) for five in combinations(ids, 5))
    assert rank(*ids) == best
    assert rank_ids(ids) == best
    assert rank_batch([ids])[0] == best
    assert evaluate([Card.from_id(i) for i in ids]).rank == best


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=5, max_size=7, unique=True))
def test_typed_api_agrees_with_ids_and_ordering(ids: list[int]) -> None:
    cards = [Card.from_id(i) for i in ids]
    fresh = [Card(c.code) for c in cards]  # built from text: the same 52 objects
    found = evaluate(cards)
    assert found is evaluate(fresh) is evaluate(tuple(cards))
    assert found == evaluate(" ".join(c.code for c in cards)) == HandRank(rank(*ids))
    assert found.category is hand_tables().category[found.rank]
    assert found.ranks == hand_tables().ranks[found.rank]


def test_built_tables_agree_with_the_class_list() -> None:
    # The C tables come from _tablegen at build time; the Python tables from the same list.
    tables = hand_tables()
    assert [(r.start, r.stop - 1) for r in CATEGORY_RANGES.values()] == category_spans()
    for number in range(1, 7463):
        found = HandRank(number)
        assert (found.category, found.ranks) == (tables.category[number], tables.ranks[number])


def test_examples_from_the_seed() -> None:
    assert evaluate("As Ks Qs Js Ts").category is Category.ROYAL_FLUSH
    aaaak = evaluate("Ah Ad Ac As Kh")
    assert (aaaak.rank, aaaak.category.value) == (11, "four of a kind")
    hand = evaluate("2h 8h Kd 2d 3s")
    assert (hand.rank, hand.category.value) == (6055, "pair")
    assert evaluate("7s 5h 4d 3c 2s").rank == 7462


@pytest.mark.parametrize(
    ("cards", "description"),
    [
        ("As Ks Qs Js Ts", "Royal flush"),
        ("5d 4d 3d 2d Ad", "Straight flush, five high"),
        ("9c 9d 9h 9s 2c", "Four of a kind, nines, two kicker"),
        ("Kh Ks Kd 5c 5s", "Full house, kings over fives"),
        ("Ah Jh 9h 4h 2h", "Flush, A-J-9-4-2"),
        ("Th 9s 8d 7c 6c", "Straight, ten high"),
        ("8s 8h 8d Qc Jc", "Three of a kind, eights, Q-J kickers"),
        ("As Ad Ks Kc 7h", "Two pair, aces and kings, seven kicker"),
        ("2h 2d Kd 8h 3s", "Pair of twos, K-8-3 kickers"),
        ("Kh Qd 7c 4s 2h", "High card, K-Q-7-4-2"),
        ("Th 10s 4d 9c 2c", "Pair of tens, 9-4-2 kickers"),
    ],
)
def test_descriptions(cards: str, description: str) -> None:
    assert evaluate(cards).description == description == str(evaluate(cards))


def test_comparisons_put_the_stronger_hand_on_top() -> None:
    ranks = sorted(HandRank(r) for r in (5, 7462, 11, 3000))
    assert [r.rank for r in ranks] == [7462, 3000, 11, 5]
    assert HandRank(1) > HandRank(2)
    assert HandRank(1).beats(HandRank(2))
    assert repr(HandRank(17)) == "HandRank(17)"
    assert eval(repr(HandRank(17))) == HandRank(17)
    with pytest.raises(ValueError, match="7463"):
        HandRank(7463)


def test_bad_input_is_explained() -> None:
    with pytest.raises(ImpossibleTableError, match="appears twice"):
        evaluate([Card("Ah"), Card("Ah"), Card("Kd"), Card("Qd"), Card("Jd")])
    with pytest.raises(ImpossibleTableError, match="5 to 7 cards, not 4"):
        evaluate("Ah Kh Qh Jh")
    with pytest.raises(InvalidCardError):
        evaluate("Ah Kh Qh Jh Xx")
    with pytest.raises(InvalidCardError, match="distinct"):
        rank(0, 1, 2, 3, 52)
    with pytest.raises(InvalidCardError, match="distinct"):
        rank(0, 1, 2, 3, 3)
    with pytest.raises(TypeError):
        rank(0, 1, 2, 3)
    with pytest.raises(InvalidCardError, match="row 1"):
        rank_batch([[0, 1, 2, 3, 4], [0, 1, 2, 3, 99]])
    with pytest.raises(InvalidCardError, match="row 0"):
        rank_batch(np.array([[-1, 1, 2, 3, 4]]))
    with pytest.raises(ValueError, match="shape"):
        rank_batch(np.zeros((3, 4), dtype=np.uint8))


def test_batch_accepts_any_integer_dtype() -> None:
    hand = [c.id for c in parse_cards("As Ks Qs Js Ts 2h 3h")]
    for dtype in (np.int8, np.int32, np.int64, np.uint16):
        assert rank_batch(np.array([hand], dtype=dtype)).tolist() == [1]
    assert rank_batch(np.empty((0, 7), dtype=np.uint8)).shape == (0,)
