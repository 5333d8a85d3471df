"""Rank poker hands: 5, 6 or 7 cards → one of the 7,462 classes (1 = royal flush).

Three ways in, fastest last:

- :func:`evaluate` takes :class:`~cardscore.cards.Card` objects (or text) and returns a
  :class:`HandRank` with the class number, its category and a description;
- :func:`rank` takes card ids as separate arguments and returns the class number;
- :func:`rank_batch` takes a numpy array of card ids, one hand per row (n×5, n×6 or n×7).

Card ids are cardscore's ``Card.id``: ``rank.index * 4 + suit.index``, so 0 = 2♠, 1 = 2♥,
2 = 2♦, 3 = 2♣, 4 = 3♠ … 48 = A♠, 51 = A♣.

>>> hand = evaluate("Kh Ks Kd 5c 5s")
>>> hand.rank, hand.category, hand.description
(187, <Category.FULL_HOUSE: 'full house'>, 'Full house, kings over fives')
>>> evaluate("As Ks Qs Js Ts") > hand
True
>>> rank(48, 44, 40, 36, 32)  # A♠ K♠ Q♠ J♠ 10♠
1
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, total_ordering
from itertools import combinations
from typing import TYPE_CHECKING, Any

from cardscore.cards import RANKS, Card, parse_cards
from cardscore.errors import CardscoreError, ImpossibleTableError, InvalidCardError, Problem
from cardscore.poker import _c_eval
from cardscore.poker.tables import NUM_CLASSES, Category

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "HandRank",
    "Showdown",
    "best_five",
    "compare",
    "evaluate",
    "rank",
    "rank_batch",
    "rank_ids",
    "showdown",
    "winners",
]

_CATEGORIES = tuple(Category)
_SINGULAR = (
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
)
_PLURAL = tuple("sixes" if name == "six" else name + "s" for name in _SINGULAR)


def _labels(ranks: Iterable[int]) -> str:
    return "-".join(RANKS[r].label for r in ranks)


def _describe(number: int) -> str:
    index, r = _c_eval.class_info(number)
    category = _CATEGORIES[index]
    match category:
        case Category.ROYAL_FLUSH:
            return "Royal flush"
        case Category.STRAIGHT_FLUSH:
            return f"Straight flush, {_SINGULAR[r[0]]} high"
        case Category.FOUR_OF_A_KIND:
            return f"Four of a kind, {_PLURAL[r[0]]}, {_SINGULAR[r[4]]} kicker"
        case Category.FULL_HOUSE:
            return f"Full house, {_PLURAL[r[0]]} over {_PLURAL[r[3]]}"
        case Category.FLUSH:
            return f"Flush, {_labels(r)}"
        case Category.STRAIGHT:
            return f"Straight, {_SINGULAR[r[0]]} high"
        case Category.THREE_OF_A_KIND:
            return f"Three of a kind, {_PLURAL[r[0]]}, {_labels(r[3:])} kickers"
        case Category.TWO_PAIR:
            return f"Two pair, {_PLURAL[r[0]]} and {_PLURAL[r[2]]}, {_SINGULAR[r[4]]} kicker"
        case Category.PAIR:
            return f"Pair of {_PLURAL[r[0]]}, {_labels(r[2:])} kickers"
        case _:
            return f"High card, {_labels(r)}"


@total_ordering
@dataclass(frozen=True, slots=True, init=False)
class HandRank:
    """One of the 7,462 hand classes; a stronger hand compares greater.

    ``rank`` is the class number, 1 (royal flush) … 7,462 (7-5-4-3-2 offsuit), as treys,
    deuces and phevaluator number them — a smaller number is a better hand.

    >>> HandRank(11), str(HandRank(11)), HandRank(11).category.code
    (HandRank(11), 'Four of a kind, aces, king kicker', '4K')
    >>> HandRank(7462) < HandRank(7461), HandRank(5).percentile
    (True, 0.9999...)
    """

    rank: int

    def __init__(self, rank: int) -> None:
        if not isinstance(rank, int) or not 1 <= rank <= NUM_CLASSES:
            raise CardscoreError(Problem.of("bad_hand_rank", rank=repr(rank)))
        object.__setattr__(self, "rank", rank)

    @property
    def category(self) -> Category:
        """The category: royal flush … high card."""
        return _CATEGORIES[_c_eval.class_info(self.rank)[0]]

    @property
    def description(self) -> str:
        """For people: ``'Full house, kings over fives'``."""
        return _describe(self.rank)

    @property
    def ranks(self) -> tuple[int, ...]:
        """Rank indices (0 = two … 12 = ace) in the order that breaks ties."""
        return _c_eval.class_info(self.rank)[1]

    @property
    def percentile(self) -> float:
        """Share of all 2,598,960 five-card hands this class beats (ties count half)."""
        below, same = _beats()[self.rank]
        return (below + same / 2) / 2598960

    def beats(self, other: HandRank) -> bool:
        return self.rank < other.rank

    def as_dict(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "category": self.category.value,
            "description": self.description,
        }

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, HandRank):
            return NotImplemented
        return self.rank > other.rank

    def __repr__(self) -> str:
        return f"HandRank({self.rank})"

    def __str__(self) -> str:
        return self.description


def _make_ranks() -> tuple[HandRank | None, ...]:
    new, set_rank = object.__new__, object.__setattr__
    out: list[HandRank | None] = [None]
    for number in range(1, NUM_CLASSES + 1):
        hand_rank = new(HandRank)
        set_rank(hand_rank, "rank", number)
        out.append(hand_rank)
    return tuple(out)


_RANK_OBJECTS = _make_ranks()


@cache
def _beats() -> tuple[tuple[int, int], ...]:
    """(hands worse than, hands in) each class, over all 2,598,960 five-card hands."""
    import numpy as np

    from cardscore.poker.tables import hand_tables

    counts = np.array(hand_tables().class_counts, dtype=np.int64)
    worse = np.concatenate([np.cumsum(counts[::-1])[::-1][1:], [0]])
    return tuple((int(worse[n]), int(counts[n])) for n in range(NUM_CLASSES + 1))


def _checked_ids(cards: Iterable[Card | str] | str) -> tuple[Card, ...]:
    hand = parse_cards(cards)
    problems = []
    if not 5 <= len(hand) <= 7:
        problems.append(Problem.of("poker_hand_size", n=len(hand)))
    seen: set[Card] = set()
    for card in hand:
        if card in seen:
            problems.append(Problem.of("appears_twice", code=card.code))
        seen.add(card)
    if problems:
        raise ImpossibleTableError(problems)
    return hand


def _evaluate_slowly(cards: Sequence[Card] | Iterable[Card | str] | str) -> HandRank:
    """evaluate()'s path for text, duplicates and wrong counts: read, check, explain."""
    hand = _checked_ids(cards)
    result: HandRank = _RANK_OBJECTS[_c_eval.rank_ids([card.id for card in hand])]  # type: ignore[assignment]
    return result


_c_eval.set_objects(
    tuple(Card.from_id(i) for i in range(52)), _RANK_OBJECTS, InvalidCardError, _evaluate_slowly
)

evaluate = _c_eval.evaluate
"""``evaluate(cards) -> HandRank``: the class of the best five-card hand in 5, 6 or 7 cards.

A C function (no Python frame between the call and the tables): a list or tuple of
:class:`~cardscore.cards.Card` is ranked there, anything else ``parse_cards`` reads takes the
Python path, which checks it and explains what is wrong (examples in ``__test__`` below).
"""

__test__ = {
    "evaluate": """
    >>> evaluate([Card("2h"), Card("8h"), Card("Kd"), Card("2d"), Card("3s")])
    HandRank(6055)
    >>> evaluate("Ah Kh 2c 3d 4s 5h 9c").description
    'Straight, five high'
    >>> evaluate("Ah Ah Kd Qs Js")
    Traceback (most recent call last):
    ...
    cardscore.errors.ImpossibleTableError: 'Ah' appears twice
    >>> evaluate(["As", Card("Ks"), "Qs", "Js", "Ts", "2c"]).category.value
    'royal flush'
    """
}


rank = _c_eval.rank
"""``rank(*ids) -> int``: the class number of 5, 6 or 7 card ids (the per-call fast path).

>>> rank(51, 47, 43, 39, 35, 0, 1)  # A♣ K♣ Q♣ J♣ 10♣ 2♠ 2♥
1
"""

rank_ids = _c_eval.rank_ids
"""``rank_ids(ids) -> int``: the same from one sequence of card ids."""


def rank_batch(ids: npt.ArrayLike) -> npt.NDArray[np.uint16]:
    """Class numbers of many hands at once: ``ids`` has one hand of 5–7 card ids per row.

    >>> rank_batch([[48, 44, 40, 36, 32], [0, 4, 8, 12, 17], [20, 13, 10, 7, 0]])
    array([   1, 1608, 7462], dtype=uint16)
    >>> rank_batch([[0, 0, 1, 2, 3]])
    Traceback (most recent call last):
    ...
    cardscore.errors.InvalidCardError: row 0 [0, 0, 1, 2, 3]: card ids must be distinct and in 0…51
    """
    import numpy as np  # here, not at import: the per-call paths and the CLI never need it

    array = np.asarray(ids)
    if array.ndim != 2 or not 5 <= array.shape[1] <= 7:
        raise CardscoreError(Problem.of("batch_shape", shape=str(array.shape)))
    if array.dtype != np.uint8:
        if array.size and (array.min() < 0 or array.max() > 51):
            array = np.where((array < 0) | (array > 51), 255, array)
        array = array.astype(np.uint8)
    array = np.ascontiguousarray(array)
    out = np.empty(array.shape[0], dtype=np.uint16)
    bad = _c_eval.rank_batch(array, array.shape[1], out)
    if bad >= 0:
        row = np.asarray(ids)[bad].tolist()
        raise InvalidCardError(Problem.of("batch_row", row=bad, ids=str(row)))
    return out


def best_five(cards: Sequence[Card] | Iterable[Card | str] | str) -> tuple[Card, ...]:
    """The five cards that make the best hand (the first such five, in the given order).

    >>> best_five("2c Ah Kh Qh Jh Th 3d")
    (Card('Ah'), Card('Kh'), Card('Qh'), Card('Jh'), Card('Th'))
    """
    hand = _checked_ids(cards)
    best = min(combinations(hand, 5), key=lambda five: rank(*(c.id for c in five)))
    return tuple(best)


def compare(a: Sequence[Card] | str, b: Sequence[Card] | str) -> int:
    """1 if hand ``a`` wins, -1 if ``b`` wins, 0 for a split.

    >>> compare("As Ad Kc Kd 2h", "Ks Kh Qc Qd Ah")
    1
    """
    ra, rb = evaluate(a).rank, evaluate(b).rank
    return (ra < rb) - (ra > rb)


@dataclass(frozen=True, slots=True)
class Showdown:
    """Hands shown down from one deck: each one's class and the indices of the winners."""

    hands: tuple[tuple[Card, ...], ...]
    ranks: tuple[HandRank, ...]
    winners: tuple[int, ...]

    def as_dict(self) -> dict[str, Any]:
        """What ``cardscore poker compare --json`` and ``POST /api/poker/rank`` answer."""
        return {
            "hands": [
                {
                    "cards": [c.code for c in cards],
                    **rank.as_dict(),
                    "percentile": rank.percentile,
                    "wins": number in self.winners,
                }
                for number, (cards, rank) in enumerate(zip(self.hands, self.ranks, strict=True))
            ],
            "winners": list(self.winners),
        }


def showdown(hands: Iterable[Sequence[Card] | str]) -> Showdown:
    """Rank hands dealt from one deck and name the winners; a card in two hands is refused.

    >>> showdown(["As Ad Kc Kd 2h", "Ah Ac Ks Kh 2d", "Qs Qh Jc Jd Ah"])
    Traceback (most recent call last):
    ...
    cardscore.errors.ImpossibleTableError: A♥ is in hands 2 and 3; one deck holds only one
    >>> showdown(["As Ad Kc Kd 2h", "Ah Ac Ks Kh 2d", "Qs Qh Jc Jd 3h"]).winners
    (0, 1)
    """
    parsed: list[tuple[Card, ...]] = []
    problems: list[Problem] = []
    where: dict[Card, list[int]] = {}
    for number, hand in enumerate(hands, start=1):
        try:
            parsed.append(_checked_ids(hand))
        except CardscoreError as error:
            problems.extend(p.at(f"hand {number}") for p in error.problems)
            continue
        for card in parsed[-1]:
            where.setdefault(card, []).append(number)
    problems += [
        Problem.of("card_in_two_hands", card=str(card), hands=", ".join(map(str, numbers)))
        for card, numbers in sorted(where.items())
        if len(numbers) > 1
    ]
    if problems:
        raise ImpossibleTableError(problems)
    ranks = tuple(evaluate(cards) for cards in parsed)
    best = max(ranks)
    return Showdown(tuple(parsed), ranks, tuple(i for i, r in enumerate(ranks) if r == best))


def winners(hands: Sequence[Sequence[Card] | str]) -> list[int]:
    """Indices of the hands that share the best rank (see :func:`showdown`).

    >>> winners(["As Ad Kc Kd 2h", "Ah Ac Ks Kh 2d", "Qs Qh Jc Jd 3h"])
    [0, 1]
    """
    return list(showdown(hands).winners)
