"""Tranca (Brazilian canasta): checked round scoring with a full explanation, and matches.

>>> from cardscore.tranca import Meld, parse_round, score_round
>>> Meld("Ah Kh Qh Jh Th 9h 8h").canastra
CanastraKind.CLEAN
"""

from cardscore.tranca.match import Match, RoundRecord
from cardscore.tranca.melds import CanastraKind, InvalidMeldError, Meld, MeldKind, meld_problems
from cardscore.tranca.piles import Pile
from cardscore.tranca.round import InvalidRoundError, Round, parse_round
from cardscore.tranca.rules import TrancaRules, card_points
from cardscore.tranca.scoring import TERMS, RoundScore, TeamScore, score_round
from cardscore.tranca.stats import MatchStats, PlayerStats, TeamStats
from cardscore.tranca.teams import Team, TeamRound

__all__ = [
    "TERMS",
    "CanastraKind",
    "InvalidMeldError",
    "InvalidRoundError",
    "Match",
    "MatchStats",
    "Meld",
    "MeldKind",
    "Pile",
    "PlayerStats",
    "Round",
    "RoundRecord",
    "RoundScore",
    "Team",
    "TeamRound",
    "TeamScore",
    "TeamStats",
    "TrancaRules",
    "card_points",
    "meld_problems",
    "parse_round",
    "score_round",
]
