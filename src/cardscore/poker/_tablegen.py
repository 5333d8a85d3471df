"""The evaluator's lookup tables, computed once when the C extension is built.

``setup.py`` runs :func:`write_header` (standard library only: the build has no numpy) to write
``_c_eval_tables.h`` next to ``_c_eval.c``, so importing the evaluator computes nothing.
``tables.py`` builds its Python tables from the same class list, :func:`classes`.

Classes are numbered as Cactus Kev did: 1 is the royal flush, 7,462 is 7-5-4-3-2 of mixed
suits. Rank indices are cardscore's: 0 = two … 12 = ace.

>>> found = classes()
>>> len(found), found[0], found[10], found[-1]
(7462, (0, (12, 11, 10, 9, 8)), (2, (12, 12, 12, 12, 11)), (9, (5, 3, 2, 1, 0)))
>>> [start for start, _ in category_spans()]
[1, 2, 11, 167, 323, 1600, 1610, 2468, 3326, 6186]
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["RANK_KEY", "ROW_SHIFT", "category_spans", "classes", "header_text", "write_header"]

NRANKS = 13
ROW_SHIFT = 14
"""The perfect hash's rows: slot = ROW_BASE[key % 2**14] + key // 2**14."""

RANK_KEY = (1, 5, 24, 112, 521, 2247, 9244, 30823, 103066, 250154, 667453, 1526359, 3453520)
"""Per-rank keys: every multiset of up to 7 ranks (at most 4 of each) has its own sum.

Greedy: each key is the smallest above the previous that keeps all multiset sums distinct.
"""

# Category order, best first (tables.Category in the same order).
ROYAL, STRAIGHT_FLUSH, QUADS, FULL_HOUSE, FLUSH, STRAIGHT, TRIPS, TWO_PAIR, PAIR, HIGH = range(10)
_FLUSHES = (ROYAL, STRAIGHT_FLUSH, FLUSH)

_DOWN = tuple(range(12, -1, -1))
# Straights by top card, ace-high first; the wheel (5-4-3-2-A) is five high.
_STRAIGHTS = (*tuple(tuple(range(top, top - 5, -1)) for top in range(12, 3, -1)), (3, 2, 1, 0, 12))
_STRAIGHT_MASKS = frozenset(sum(1 << r for r in s) for s in _STRAIGHTS)


def classes() -> list[tuple[int, tuple[int, ...]]]:
    """Every class best first: (category index, its ranks in the order that decides ties)."""
    high = [c for c in combinations(_DOWN, 5) if sum(1 << r for r in c) not in _STRAIGHT_MASKS]
    out: list[tuple[int, tuple[int, ...]]] = [(ROYAL, _STRAIGHTS[0])]
    out += [(STRAIGHT_FLUSH, s) for s in _STRAIGHTS[1:]]
    out += [(QUADS, (q,) * 4 + (k,)) for q in _DOWN for k in _DOWN if k != q]
    out += [(FULL_HOUSE, (t,) * 3 + (p,) * 2) for t in _DOWN for p in _DOWN if p != t]
    out += [(FLUSH, c) for c in high]
    out += [(STRAIGHT, s) for s in _STRAIGHTS]
    out += [
        (TRIPS, (t,) * 3 + ks)
        for t in _DOWN
        for ks in combinations([r for r in _DOWN if r != t], 2)
    ]
    out += [
        (TWO_PAIR, (a, a, b, b, k))
        for a, b in combinations(_DOWN, 2)
        for k in _DOWN
        if k not in (a, b)
    ]
    out += [
        (PAIR, (p, p, *ks)) for p in _DOWN for ks in combinations([r for r in _DOWN if r != p], 3)
    ]
    out += [(HIGH, c) for c in high]
    return out


def category_spans() -> list[tuple[int, int]]:
    """(first, last) class number of each category, best category first."""
    spans: dict[int, list[int]] = {}
    for number, (category, _) in enumerate(classes(), start=1):
        spans.setdefault(category, [number, number])[1] = number
    return [(first, last) for first, last in spans.values()]


def _flush_table(found: list[tuple[int, tuple[int, ...]]]) -> list[int]:
    """Best class of every 13-bit rank mask of 5 or more suited cards (0 for fewer)."""
    table = [0] * 8192
    for number, (category, ranks) in enumerate(found, start=1):
        if category in _FLUSHES:
            table[sum(1 << r for r in ranks)] = number
    # mask ^ bit < mask, so increasing order has every smaller mask ready
    for mask in range(8192):
        if mask.bit_count() > 5:
            table[mask] = min(table[mask ^ (1 << r)] for r in range(NRANKS) if mask >> r & 1)
    return table


def _multisets(size: int) -> Iterator[tuple[int, ...]]:
    """Every count-per-rank tuple of ``size`` cards with at most 4 of a rank."""

    def walk(rank: int, left: int) -> Iterator[tuple[int, ...]]:
        if rank == NRANKS - 1:
            if left <= 4:
                yield (left,)
            return
        for count in range(min(4, left) + 1):
            for rest in walk(rank + 1, left - count):
                yield (count, *rest)

    return walk(0, size)


def _key(counts: tuple[int, ...]) -> int:
    return sum(c * k for c, k in zip(counts, RANK_KEY, strict=True))


def _nonflush_classes(found: list[tuple[int, tuple[int, ...]]]) -> dict[int, int]:
    """Rank-key sum → best class, for every multiset of 5, 6 or 7 ranks."""
    best: dict[int, int] = {}
    for number, (category, ranks) in enumerate(found, start=1):
        if category not in _FLUSHES:
            best[sum(RANK_KEY[r] for r in ranks)] = number
    for size in (6, 7):  # the best of a hand is the best after dropping one of its cards
        for counts in _multisets(size):
            key = _key(counts)
            best[key] = min(best[key - RANK_KEY[r]] for r in range(NRANKS) if counts[r])
    return best


_SEARCH_BACK = 8192
_ALL = (1 << 64) - 1


def _perfect_hash(keys: list[int]) -> tuple[list[int], int]:
    """Row bases of a displacement perfect hash over ``keys``, and the slots it uses.

    Rows (``key % 2**14``) are placed densest first, each at the first base where all its
    columns (``key // 2**14``) land on free slots; 64 candidate bases are tried at a time
    against a bitmap of taken slots, from a little below where the last row went.
    """
    rows: dict[int, list[int]] = {}
    for key in keys:
        rows.setdefault(key & ((1 << ROW_SHIFT) - 1), []).append(key >> ROW_SHIFT)
    base = [0] * (1 << ROW_SHIFT)
    bits = [0] * ((len(keys) * 4 + (max(keys) >> ROW_SHIFT)) // 64 + 4)
    used = first_free = last_at = 0
    for row, columns in sorted(rows.items(), key=lambda item: (-len(item[1]), item[0])):
        # rows come densest first, so a row rarely fits far below where the last one went
        start = last_at - _SEARCH_BACK if last_at > first_free + _SEARCH_BACK else first_free
        at = start & ~63
        while True:
            fits = _ALL
            for column in columns:
                word, shift = divmod(at + column, 64)
                fits &= ~((bits[word] >> shift) | (bits[word + 1] << (64 - shift))) & _ALL
                if not fits:
                    break
            if fits:
                at += (fits & -fits).bit_length() - 1
                break
            at += 64
        for column in columns:
            bits[(at + column) >> 6] |= 1 << ((at + column) & 63)
            used = max(used, at + column + 1)
        base[row] = last_at = at
        while bits[first_free >> 6] >> (first_free & 63) & 1:
            first_free += 1
    return base, used


def _c_array(ctype: str, name: str, values: list[int]) -> str:
    lines = [
        ", ".join(str(v) for v in values[start : start + 24]) for start in range(0, len(values), 24)
    ]
    body = ",\n    ".join(lines)
    return f"static const {ctype} {name}[{len(values)}] = {{\n    {body}}};\n"


def header_text() -> str:
    """The C header: the flush table, the perfect hash, and each class's category and ranks."""
    found = classes()
    nonflush = _nonflush_classes(found)
    base, used = _perfect_hash(list(nonflush))
    slots = [0] * used
    for key, number in nonflush.items():
        slots[base[key & ((1 << ROW_SHIFT) - 1)] + (key >> ROW_SHIFT)] = number
    class_ranks = [0] * 5 + [r for _, ranks in found for r in ranks]
    return "".join(
        [
            "/* Generated by cardscore/poker/_tablegen.py when the extension is built. */\n",
            f"#define ROW_SHIFT {ROW_SHIFT}\n",
            _c_array("uint32_t", "RANK_KEY", list(RANK_KEY)),
            _c_array("uint16_t", "FLUSH", _flush_table(found)),
            _c_array("uint32_t", "ROW_BASE", base),
            _c_array("uint16_t", "NONFLUSH", slots),
            _c_array("uint8_t", "CLASS_CATEGORY", [0] + [c for c, _ in found]),
            _c_array("uint8_t", "CLASS_RANKS", class_ranks),
        ]
    )


def write_header(path: Path) -> bool:
    """Write the header to ``path`` unless it already holds the same text; True if written."""
    text = header_text()
    if path.exists() and path.read_text(encoding="ascii") == text:
        return False
    path.write_text(text, encoding="ascii")
    return True
