"""Five-card draw: the 7,462-class hand evaluator, equities and draw odds, a dealer with betting.

Card ids (for :func:`rank`, :func:`rank_batch` and the numpy helpers) are ``Card.id``:
``rank.index * 4 + suit.index`` — 0 = 2♠, 1 = 2♥, 2 = 2♦, 3 = 2♣ … 51 = A♣.

>>> evaluate("As Ks Qs Js Ts")
HandRank(1)
>>> evaluate("Ah Ad Ac As Kh").category.value
'four of a kind'
"""

from typing import TYPE_CHECKING

from cardscore._lazy import lazy_exports
from cardscore.poker.evaluate import (
    HandRank,
    Showdown,
    best_five,
    compare,
    evaluate,
    rank,
    rank_batch,
    rank_ids,
    showdown,
    winners,
)
from cardscore.poker.tables import Category, hand_tables

# The dealer, bots and equities load on first use: `cardscore poker rank` needs none of them.
_LAZY = {
    "betting": ("Action", "ActionKind", "Limit", "Pot", "Rules"),
    "bots": ("Bot", "best_discard", "play_hand"),
    "dealer": ("Dealer", "HandResult", "Phase"),
    "equity": (
        "DrawOdds",
        "EquityResult",
        "all_hands",
        "draw_equity",
        "draw_odds",
        "holdem_equity",
        "parse_range",
    ),
    "tracker": ("HandTracker", "allow_discards"),
}
__getattr__, __dir__ = lazy_exports(__name__, _LAZY)

if TYPE_CHECKING:
    from cardscore.poker.betting import Action, ActionKind, Limit, Pot, Rules
    from cardscore.poker.bots import Bot, best_discard, play_hand
    from cardscore.poker.dealer import Dealer, HandResult, Phase
    from cardscore.poker.equity import (
        DrawOdds,
        EquityResult,
        all_hands,
        draw_equity,
        draw_odds,
        holdem_equity,
        parse_range,
    )
    from cardscore.poker.tracker import HandTracker, allow_discards

__all__ = [
    "Action",
    "ActionKind",
    "Bot",
    "Category",
    "Dealer",
    "DrawOdds",
    "EquityResult",
    "HandRank",
    "HandResult",
    "HandTracker",
    "Limit",
    "Phase",
    "Pot",
    "Rules",
    "Showdown",
    "all_hands",
    "allow_discards",
    "best_discard",
    "best_five",
    "compare",
    "draw_equity",
    "draw_odds",
    "evaluate",
    "hand_tables",
    "holdem_equity",
    "parse_range",
    "play_hand",
    "rank",
    "rank_batch",
    "rank_ids",
    "showdown",
    "winners",
]
