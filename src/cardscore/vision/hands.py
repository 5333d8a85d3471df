"""Cards laid in rows, one row per player: the hands of a poker showdown from one photo.

Generic geometry over a :class:`~cardscore.vision.recognition.Recognition`: two cards whose
centres lie within :data:`NEAR` card widths belong to one row (a fan, or cards side by side),
and the rows are read top to bottom, then left to right; a row's cards left to right along
the row. The games decide what a row means (``cardscore poker compare --photo``).
"""

from __future__ import annotations

import numpy as np

from cardscore.errors import CardscoreError, Problem
from cardscore.vision.recognition import Recognition, SeenCard

__all__ = ["NEAR", "rows_of_cards"]

NEAR = 1.35  # card widths between the centres of neighbours in one row; rows lie farther apart


def rows_of_cards(result: Recognition, size: int | None = None) -> list[tuple[SeenCard, ...]]:
    """The photo's rows of cards; with ``size``, every row must hold that many (a
    :class:`CardscoreError` lists each row that does not)."""
    cards = result.cards
    n = len(cards)
    xy = np.array([(c.x, c.y) for c in cards], float).reshape(n, 2)
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    near = NEAR * result.card_width
    for i in range(n):
        for j in range(i + 1, n):
            if np.hypot(*(xy[i] - xy[j])) <= near:
                parent[root(i)] = root(j)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    rows = [_along(cards, members) for members in groups.values()]
    # Reading order: rows whose centres lie within a card's height share a line, left first.
    line = 1.4 * result.card_width
    rows.sort(key=lambda r: (round(np.mean([c.y for c in r]) / line), np.mean([c.x for c in r])))
    if size is not None:
        wrong = [
            Problem.of(
                "row_size",
                n=len(r),
                cards=" ".join(str(c.card) for c in r),
                x=f"{np.mean([c.x for c in r]):.0f}",
                y=f"{np.mean([c.y for c in r]):.0f}",
                size=size,
            )
            for r in rows
            if len(r) != size
        ]
        if wrong or not rows:
            raise CardscoreError(wrong or [Problem.of("no_cards_in_rows", size=size)])
    return rows


def _along(cards: tuple[SeenCard, ...], members: list[int]) -> tuple[SeenCard, ...]:
    """A row's cards in order along its main axis, left to right (or top to bottom)."""
    xy = np.array([(cards[i].x, cards[i].y) for i in members], float)
    if len(members) < 2:
        return tuple(cards[i] for i in members)
    centred = xy - xy.mean(axis=0)
    axis = np.linalg.svd(centred, full_matrices=False)[2][0]
    if axis[0] < 0 or (axis[0] == 0 and axis[1] < 0):
        axis = -axis
    order = np.argsort(centred @ axis, kind="stable")
    return tuple(cards[members[k]] for k in order)
