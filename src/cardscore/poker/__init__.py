"""Five-card draw: the 7,462-class hand evaluator, equities and draw odds, a dealer with betting.

>>> evaluate("As Ks Qs Js Ts")
HandRank(1)
>>> evaluate("Ah Ad Ac As Kh").category.value
'four of a kind'
"""

from cardscore.poker.evaluate import (
    HandRank,
    best_five,
    compare,
    evaluate,
    rank,
    rank_batch,
    rank_ids,
    winners,
)
from cardscore.poker.tables import Category, hand_tables

__all__ = [
    "Category",
    "HandRank",
    "best_five",
    "compare",
    "evaluate",
    "hand_tables",
    "rank",
    "rank_batch",
    "rank_ids",
    "winners",
]
