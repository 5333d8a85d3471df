"""The 7,462 classes of five-card poker hands, built combinatorially (no data files).

Classes are numbered as Cactus Kev did (and treys, deuces and phevaluator after him): 1 is the
royal flush, 7,462 is 7-5-4-3-2 of mixed suits. Within a category, hands are ordered by their
ranks compared in the order that matters (the quads before the kicker, the trips before the
pair, the high cards one by one). Rank indices are cardscore's: 0 = two … 12 = ace.

The three tables of the seed notebook come out of the same walk: ``flush_ranks`` and
``unique5_ranks`` keyed by the 13-bit mask of the ranks ("twos encoding"), ``dupe_ranks`` keyed
by the product of one prime per rank ("primes encoding").

>>> t = hand_tables()
>>> len(t.flush_ranks), len(t.unique5_ranks), len(t.dupe_ranks)
(1287, 1287, 4888)
>>> t.dupe_ranks[37 * 41**4]  # AAAAK
11
>>> t.category[1], t.category[7462]
(<Category.ROYAL_FLUSH: 'royal flush'>, <Category.HIGH_CARD: 'high card'>)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cache
from itertools import combinations

import numpy as np
import numpy.typing as npt

__all__ = [
    "CATEGORY_RANGES",
    "NUM_CLASSES",
    "PRIMES",
    "Category",
    "HandTables",
    "hand_tables",
    "primes_encoding",
    "twos_encoding",
]

NUM_CLASSES = 7462
PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
"""One prime per rank, two … ace: a product of primes identifies a multiset of ranks."""


class Category(Enum):
    """The seed's ten categories, best first; the value is the seed's wording."""

    ROYAL_FLUSH = "royal flush"
    STRAIGHT_FLUSH = "straight flush"
    FOUR_OF_A_KIND = "four of a kind"
    FULL_HOUSE = "full house"
    FLUSH = "flush"
    STRAIGHT = "straight"
    THREE_OF_A_KIND = "three of a kind"
    TWO_PAIR = "two pair"
    PAIR = "pair"
    HIGH_CARD = "high card"

    @property
    def code(self) -> str:
        """The seed's two-letter code: ``RF SF 4K FH FF SS 3K 2P 1P HC``."""
        return _CODES[self]

    @property
    def order(self) -> int:
        """0 for a royal flush … 9 for high card."""
        return _ORDER[self]

    def __repr__(self) -> str:
        return f"<Category.{self.name}: {self.value!r}>"


_CODES = dict(
    zip(Category, ["RF", "SF", "4K", "FH", "FF", "SS", "3K", "2P", "1P", "HC"], strict=True)
)
_ORDER = {category: i for i, category in enumerate(Category)}

# Straights by top card, ace-high first; the wheel (5-4-3-2-A) is five high.
_STRAIGHTS = (*tuple(tuple(range(top, top - 5, -1)) for top in range(12, 3, -1)), (3, 2, 1, 0, 12))
_STRAIGHT_MASKS = frozenset(sum(1 << r for r in s) for s in _STRAIGHTS)
_DOWN = tuple(range(12, -1, -1))


def twos_encoding(ranks: tuple[int, ...]) -> int:
    """The seed's key for hands without paired ranks: one bit per rank (two = bit 0)."""
    return sum(1 << r for r in ranks)


def primes_encoding(ranks: tuple[int, ...]) -> int:
    """The seed's key for any hand: the product of one prime per card's rank."""
    product = 1
    for r in ranks:
        product *= PRIMES[r]
    return product


def _classes() -> list[tuple[Category, tuple[int, ...]]]:
    """Every class best first, each with its ranks in the order that decides ties."""
    high = [c for c in combinations(_DOWN, 5) if twos_encoding(c) not in _STRAIGHT_MASKS]
    out: list[tuple[Category, tuple[int, ...]]] = [(Category.ROYAL_FLUSH, _STRAIGHTS[0])]
    out += [(Category.STRAIGHT_FLUSH, s) for s in _STRAIGHTS[1:]]
    out += [(Category.FOUR_OF_A_KIND, (q,) * 4 + (k,)) for q in _DOWN for k in _DOWN if k != q]
    out += [(Category.FULL_HOUSE, (t,) * 3 + (p,) * 2) for t in _DOWN for p in _DOWN if p != t]
    out += [(Category.FLUSH, c) for c in high]
    out += [(Category.STRAIGHT, s) for s in _STRAIGHTS]
    out += [
        (Category.THREE_OF_A_KIND, (t,) * 3 + ks)
        for t in _DOWN
        for ks in combinations([r for r in _DOWN if r != t], 2)
    ]
    out += [
        (Category.TWO_PAIR, (a, a, b, b, k))
        for a, b in combinations(_DOWN, 2)
        for k in _DOWN
        if k not in (a, b)
    ]
    out += [
        (Category.PAIR, (p, p, *ks))
        for p in _DOWN
        for ks in combinations([r for r in _DOWN if r != p], 3)
    ]
    out += [(Category.HIGH_CARD, c) for c in high]
    return out


@dataclass(frozen=True, slots=True, eq=False)
class HandTables:
    """Everything derived from the class list; index 0 of the per-class arrays is unused."""

    category: tuple[Category | None, ...]
    """Category of each class, by rank."""
    ranks: tuple[tuple[int, ...], ...]
    """Rank indices of each class in deciding order (``(12, 12, 12, 12, 11)`` for AAAAK)."""
    flush_ranks: dict[int, int]
    """Twos encoding → class, for five suited cards."""
    unique5_ranks: dict[int, int]
    """Twos encoding → class, for five different ranks of mixed suits."""
    dupe_ranks: dict[int, int]
    """Primes encoding → class, for hands with a repeated rank."""
    flush_by_mask: npt.NDArray[np.uint16]
    """``flush_ranks`` as an array over all 8,192 masks (0 where no class)."""
    nonflush_codes: npt.NDArray[np.int64]
    """Sorted base-5 codes (count of each rank) of the 6,175 unsuited classes …"""
    nonflush_classes: npt.NDArray[np.uint16]
    """… and their classes."""
    class_counts: tuple[int, ...]
    """How many of the 2,598,960 five-card hands fall in each class."""


CATEGORY_RANGES: dict[Category, range] = {}
"""Classes of each category (``range(1, 2)`` for the royal flush)."""


@cache
def hand_tables() -> HandTables:
    """Build (once per process) the tables of the 7,462 classes."""
    classes = _classes()
    assert len(classes) == NUM_CLASSES
    flush: dict[int, int] = {}
    unique: dict[int, int] = {}
    dupes: dict[int, int] = {}
    codes: list[tuple[int, int]] = []
    flush_by_mask = np.zeros(8192, dtype=np.uint16)
    class_counts = [0]
    for number, (category, ranks) in enumerate(classes, start=1):
        first = CATEGORY_RANGES.get(category, range(number, number)).start
        CATEGORY_RANGES[category] = range(first, number + 1)
        if category in (Category.ROYAL_FLUSH, Category.STRAIGHT_FLUSH, Category.FLUSH):
            flush[twos_encoding(ranks)] = number
            flush_by_mask[twos_encoding(ranks)] = number
            class_counts.append(4)  # one per suit
            continue
        codes.append((sum(5**r for r in ranks), number))
        if len(set(ranks)) == 5:
            unique[twos_encoding(ranks)] = number
            class_counts.append(4**5 - 4)  # any suits but all the same
        else:
            dupes[primes_encoding(ranks)] = number
            ways = 1
            for r in set(ranks):
                ways *= (4, 6, 4, 1)[ranks.count(r) - 1]  # suits for 1…4 cards of a rank
            class_counts.append(ways)
    codes.sort()
    return HandTables(
        category=(None, *(c for c, _ in classes)),
        ranks=((), *(r for _, r in classes)),
        flush_ranks=flush,
        unique5_ranks=unique,
        dupe_ranks=dupes,
        flush_by_mask=flush_by_mask,
        nonflush_codes=np.array([c for c, _ in codes], dtype=np.int64),
        nonflush_classes=np.array([n for _, n in codes], dtype=np.uint16),
        class_counts=tuple(class_counts),
    )


hand_tables()  # fills CATEGORY_RANGES; everything that imports this module needs the tables
