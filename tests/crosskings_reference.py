"""Slow, obviously-correct references for the Cross Kings tests: a brute-force scorer that tries
every king assignment, and a plain recursive expectimax in Python for tiny positions; and the
seeded positions the tests share."""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from itertools import combinations

from cardscore.crosskings.game import Game

RUN_RANKS = 8  # A..8, ace low


def brute_force_score(mask: int) -> int:
    """Try every way to give the kings distinct lacking A–8 cards; keep the best total."""
    naturals = [(i // 9, i % 9) for i in range(36) if mask >> i & 1 and i % 9 != 8]
    kings = sum(1 for s in range(4) if mask >> (s * 9 + 8) & 1)
    lacking = [(s, r) for s in range(4) for r in range(RUN_RANKS) if (s, r) not in naturals]
    best = 0
    for chosen in combinations(lacking, min(kings, len(lacking))):
        best = max(best, _points(set(naturals), set(chosen)))
    return best


def _points(naturals: set[tuple[int, int]], kings: set[tuple[int, int]]) -> int:
    cards = naturals | kings
    total = 0
    for s in range(4):
        r = 0
        while r < RUN_RANKS:
            if (s, r) not in cards:
                r += 1
                continue
            run = []
            while r < RUN_RANKS and (s, r) in cards:
                run.append((s, r))
                r += 1
            if len(run) >= 3:
                total += 2 * len(run) - 3 - sum(c in kings for c in run)
    for r in range(RUN_RANKS):
        group = [(s, r) for s in range(4) if (s, r) in cards]
        if len(group) >= 3:
            total += 2 * len(group) - 3 - sum(c in kings for c in group)
    return total


def _lines(cell: int) -> list[int]:
    row, col = divmod(cell, 6)
    return [c for c in range(36) if c != cell and (c // 6 == row or c % 6 == col)]


def expectimax(
    cells: list[int | None],
    left: frozenset[int],
    marker: int,
    hands: tuple[int, int],
    score: Callable[[int], int] = brute_force_score,
) -> tuple[Fraction, Fraction, dict[int, Fraction]]:
    """(expected result of player 1 with win 1 / draw ½, expected margin, distribution) under
    the default objective, the first move in cell order kept among equals. ``cells[c]`` is a
    card number or None for a face-down cell; ``score`` scores a hand mask."""
    moves = sorted(c for c in _lines(marker) if c in left)
    if not moves:
        diff = score(hands[0]) - score(hands[1])
        result = Fraction(1) if diff > 0 else Fraction(1, 2) if diff == 0 else Fraction(0)
        return result, Fraction(diff), {diff: Fraction(1)}
    mover = (bin(hands[0] | hands[1]).count("1")) % 2
    best: tuple[Fraction, Fraction, dict[int, Fraction]] | None = None
    for cell in moves:
        value = move_value(cells, left, hands, cell, score)
        if best is None:
            best = value
            continue
        key = (value[0], value[1])
        best_key = (best[0], best[1])
        if (key > best_key) if mover == 0 else (key < best_key):
            best = value
    assert best is not None
    return best


def move_value(
    cells: list[int | None],
    left: frozenset[int],
    hands: tuple[int, int],
    cell: int,
    score: Callable[[int], int] = brute_force_score,
) -> tuple[Fraction, Fraction, dict[int, Fraction]]:
    mover = (bin(hands[0] | hands[1]).count("1")) % 2
    rest = left - {cell}
    card = cells[cell]
    if card is not None:
        outcomes = [1 << card]
    else:
        seen = hands[0] | hands[1]
        for c in left:
            if cells[c] is not None:
                seen |= 1 << cells[c]
        outcomes = [1 << x for x in range(36) if not seen >> x & 1]
    result, margin, dist = Fraction(0), Fraction(0), {}
    for bit in outcomes:
        new = (hands[0] | bit, hands[1]) if mover == 0 else (hands[0], hands[1] | bit)
        r, m, d = expectimax(cells, rest, cell, new, score)
        weight = Fraction(1, len(outcomes))
        result += weight * r
        margin += weight * m
        for k, v in d.items():
            dist[k] = dist.get(k, Fraction(0)) + weight * v
    return result, margin, dist


def position_after(seed: int, cards_left: int) -> Game:
    """Deal ``seed``, then random moves from ``Random(seed)`` until ``cards_left`` are left."""
    game = Game.deal(seed=seed)
    rng = random.Random(seed)
    while game.cards_left > cards_left and not game.is_over:
        game = game.random_move(rng)
    return game


def margin_expectimax(
    cells: list[int | None],
    left: frozenset[int],
    marker: int,
    hands: tuple[int, int],
    score: Callable[[int], int] = brute_force_score,
) -> Fraction:
    """Expected final margin (player 1's score minus player 2's) when each player maximises
    their own expected margin alone: the ``objective="margin"`` value, written apart from the
    solver (no result, no tie-break: ties between moves of equal margin do not change it)."""
    moves = sorted(c for c in _lines(marker) if c in left)
    if not moves:
        return Fraction(score(hands[0]) - score(hands[1]))
    mover = (bin(hands[0] | hands[1]).count("1")) % 2
    values = [margin_move_value(cells, left, hands, cell, score) for cell in moves]
    return max(values) if mover == 0 else min(values)


def margin_move_value(
    cells: list[int | None],
    left: frozenset[int],
    hands: tuple[int, int],
    cell: int,
    score: Callable[[int], int] = brute_force_score,
) -> Fraction:
    """Player 1's expected margin after taking ``cell`` (a chance node when face down)."""
    mover = (bin(hands[0] | hands[1]).count("1")) % 2
    card = cells[cell]
    if card is not None:
        outcomes = [1 << card]
    else:
        seen = hands[0] | hands[1]
        for c in left:
            if cells[c] is not None:
                seen |= 1 << cells[c]
        outcomes = [1 << x for x in range(36) if not seen >> x & 1]
    total = Fraction(0)
    for bit in outcomes:
        new = (hands[0] | bit, hands[1]) if mover == 0 else (hands[0], hands[1] | bit)
        total += margin_expectimax(cells, left - {cell}, cell, new, score)
    return total / len(outcomes)
