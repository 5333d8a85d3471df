"""The 7,462 classes of five-card poker hands, built combinatorially (no data files).

The evaluator itself reads tables computed when its C extension is built (``_tablegen.py``);
:func:`hand_tables` builds the seed notebook's Python tables from the same class list, on first
call, for the code and the users that want them.

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
from typing import TYPE_CHECKING

if TYPE_CHECKING:
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
    from cardscore.poker._tablegen import classes

    categories = tuple(Category)
    return [(categories[c], ranks) for c, ranks in classes()]


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


_STARTS = (1, 2, 11, 167, 323, 1600, 1610, 2468, 3326, 6186, NUM_CLASSES + 1)
CATEGORY_RANGES: dict[Category, range] = {
    category: range(_STARTS[i], _STARTS[i + 1]) for i, category in enumerate(Category)
}
"""Classes of each category (``range(1, 2)`` for the royal flush); tests check them against
:func:`~cardscore.poker._tablegen.category_spans`."""


@cache
def hand_tables() -> HandTables:
    """Build (once per process) the tables of the 7,462 classes."""
    import numpy as np  # only here: the evaluator and the CLI never need these tables

    classes = _classes()
    assert len(classes) == NUM_CLASSES
    flush: dict[int, int] = {}
    unique: dict[int, int] = {}
    dupes: dict[int, int] = {}
    codes: list[tuple[int, int]] = []
    flush_by_mask = np.zeros(8192, dtype=np.uint16)
    class_counts = [0]
    for number, (category, ranks) in enumerate(classes, start=1):
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
