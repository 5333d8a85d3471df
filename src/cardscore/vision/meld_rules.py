"""Whether cards read together can be a Tranca meld: the rule the stages that check a reading
against the meld it lies in ask (the cards' adoption of weak cards, the repairs, the groups'
reference direction).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import numpy as np

from cardscore.cards import Card, Rank
from cardscore.tranca.melds import meld_problems

__all__ = ["in_order", "is_pile_top", "mends", "plausible_meld"]


def is_pile_top(card: Card) -> bool:
    """Can a lone card be the top of a closed canastra? Not a 3: 3s never go in melds.

    >>> is_pile_top(Card("Jc")), is_pile_top(Card("3c"))
    (True, False)
    """
    return card.rank is not Rank.THREE


def plausible_meld(cards: Sequence[Card]) -> bool:
    """Could these overlapping cards be a Tranca meld, as :mod:`cardscore.tranca.melds` has it?

    Three or more must be a legal meld (one rank, or one suit in sequence, at most one 2 as
    joker); two must become one with a single card more (a meld seen with one card missed).

    >>> from cardscore.cards import parse_cards
    >>> [plausible_meld(parse_cards(c)) for c in ("5h 6h 7h", "Kd Kc 2s", "5h 7h", "3s Qs", "9h 8c 2h")]
    [True, True, True, False, False]
    """
    if len(cards) >= 3:
        return not meld_problems(cards)
    if len(cards) == 2:
        return any(not meld_problems([*cards, Card.from_id(i)]) for i in range(52))
    return False


def in_order(cards: Sequence[Card]) -> bool:
    """Whether a run's cards, in their order along the fan, climb or fall one way (a 2, the
    joker, anywhere; the ace high, as Tranca has it); any set is.

    >>> from cardscore.cards import parse_cards
    >>> [in_order(parse_cards(c)) for c in ("7h 8h 9h", "Kh Qh 2c Th", "Qh Kh Ah", "Jh 6h 7h 8h")]
    [True, True, True, False]
    """
    ranks = [c.rank.index for c in cards if c.rank is not Rank.TWO]
    steps = np.diff(ranks)
    return bool((steps == 0).all() or (steps > 0).all() or (steps < 0).all())


def mends(codes: Sequence[Card], runner_ups: Sequence[Card | None]) -> list[tuple[int, ...]]:
    """The fewest cards (one, else two) whose runner-ups swapped in make ``codes`` a meld:
    every such choice; ``[]`` when none does."""
    alts = {k: alt for k, alt in enumerate(runner_ups) if alt is not None}
    for size in (1, 2):
        mends = [
            swap
            for swap in combinations(sorted(alts), size)
            if plausible_meld([alts[k] if k in swap else c for k, c in enumerate(codes)])
        ]
        if mends:
            return mends
    return []
