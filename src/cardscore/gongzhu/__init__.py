"""Gong Zhu (拱猪, Chinese Hearts): scoring of collected cards, hands and matches.

>>> score_pile(parse_pile("DP2A45968TJK7QG3")).total
800
"""

from cardscore.gongzhu.match import HandResult, Match
from cardscore.gongzhu.notation import format_pile, parse_pile
from cardscore.gongzhu.rules import DOUBLER, GOAT, PIG, Rules
from cardscore.gongzhu.scoring import PileScore, parse_piles, score_hand, score_pile

__all__ = [
    "DOUBLER",
    "GOAT",
    "PIG",
    "HandResult",
    "Match",
    "PileScore",
    "Rules",
    "format_pile",
    "parse_pile",
    "parse_piles",
    "score_hand",
    "score_pile",
]
