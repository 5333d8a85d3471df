"""A Tranca team entry drafted from the groups a photo shows (cardscore.vision reads them).

The reader is generic: it finds melds, closed piles (with their orientation) and lone cards.
What they mean in Tranca lives here: a horizontal pile is clean, a lone red 3 is a dollar, and
a closed pile's size cannot be seen, so the draft says the minimum canastra.

>>> from cardscore.cards import parse_cards
>>> draft_from_groups([("meld", parse_cards("7h 7d 7s"), None),
...                    ("pile", parse_cards("Tc"), "horizontal"), ("dollar", parse_cards("3h"), None)])
{'melds': [['7h', '7d', '7s']], 'piles': [{'pile': '10', 'clean': True, 'cards': 7}], 'dollars': ['3h']}
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from cardscore.cards import Card

__all__ = ["PILE_CARDS", "draft_from_groups"]

PILE_CARDS = 7  # a closed pile's size cannot be seen; Tranca's minimum canastra is the draft


def draft_from_groups(
    groups: Iterable[tuple[str, Sequence[Card], str | None]],
) -> dict[str, Any]:
    """``melds``, ``piles`` and ``dollars`` of a team entry, from (kind, cards, orientation)
    groups; the hand, the morto and going out are the players' to add."""
    melds: list[list[str]] = []
    piles: list[dict[str, Any]] = []
    dollars: list[str] = []
    for kind, cards, orientation in groups:
        codes = [c.code for c in cards]
        if kind == "meld":
            melds.append(codes)
        elif kind == "dollar":
            dollars.extend(codes)
        elif kind == "pile":
            rank = cards[0].rank.label
            piles.append({"pile": rank, "clean": orientation == "horizontal", "cards": PILE_CARDS})
    return {"melds": melds, "piles": piles, "dollars": dollars}
