"""Tranca (Brazilian canasta): checked round scoring with a full explanation, and matches.

The model, from cards up — small immutable values a playable game can grow from later:

- :class:`~cardscore.cards.Card` (two or three decks; red 3s are dollars, black 3s trancas);
- :class:`Meld` — a checked sequence, set or meld of 2s (``extend`` returns a new one) — and
  :class:`Pile`, a closed canastra seen from the side;
- :class:`TeamRound` — one team's table and hand when a round ends — and :class:`Round`, all
  teams together, checked on construction (``parse_round`` reads it from JSON);
- :func:`score_round` → :class:`RoundScore` of :class:`TeamScore` (each a
  :class:`~cardscore.breakdown.Breakdown`);
- :class:`Match` — rounds in order, undo, edits, target, winner and statistics;
- :class:`TrancaState` — a round being played (deal, draw or take, meld, discard, mortos),
  with computer players (:func:`computer`, levels 0–3); its final table is a :class:`Round`.

>>> from cardscore.tranca import Meld, parse_round, score_round
>>> Meld("Ah Kh Qh Jh Th 9h 8h").canastra
CanastraKind.CLEAN
"""

from typing import TYPE_CHECKING

from cardscore._lazy import lazy_exports
from cardscore.tranca.melds import CanastraKind, InvalidMeldError, Meld, MeldKind, meld_problems
from cardscore.tranca.piles import Pile
from cardscore.tranca.round import InvalidRoundError, Round, parse_round
from cardscore.tranca.rules import TrancaRules, card_points
from cardscore.tranca.scoring import TERMS, RoundScore, TeamScore, score_round
from cardscore.tranca.tally import TallyRound, TallyTeam, parse_tally, read_round
from cardscore.tranca.teams import Team, TeamRound

# Matches, statistics and play load on first use: scoring one round needs none of them.
__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "game": ("PlayRules", "TrancaState"),
        "match": ("Match", "RoundRecord"),
        "players": ("computer",),
        "stats": ("MatchStats", "PlayerStats", "TeamStats"),
    },
)

if TYPE_CHECKING:
    from cardscore.tranca.game import PlayRules, TrancaState
    from cardscore.tranca.match import Match, RoundRecord
    from cardscore.tranca.players import computer
    from cardscore.tranca.stats import MatchStats, PlayerStats, TeamStats

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
    "PlayRules",
    "PlayerStats",
    "Round",
    "RoundRecord",
    "RoundScore",
    "TallyRound",
    "TallyTeam",
    "Team",
    "TeamRound",
    "TeamScore",
    "TeamStats",
    "TrancaRules",
    "TrancaState",
    "card_points",
    "computer",
    "meld_problems",
    "parse_round",
    "parse_tally",
    "read_round",
    "score_round",
]
