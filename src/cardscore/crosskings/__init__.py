"""Cross Kings: the 6×6 grid game with kings wild — game, scoring, exact solver, pictures.

>>> score(parse_cards("2S 3S 4S KH"))
4
>>> game = Game.deal(seed=1)
>>> game.to_move, game.marker, len(game.legal_moves)
(1, 'c3', 10)
"""

from typing import TYPE_CHECKING

from cardscore._lazy import lazy_exports
from cardscore.cards import parse_cards
from cardscore.crosskings.game import CENTRE, FACE_DOWN, Game, Move, cell_index, cell_name
from cardscore.crosskings.scoring import Hand, HandScore, explain, score

# The solver, the bots and the pictures load on first use: scoring a hand needs none of them.
_LAZY = {
    "analysis": ("Analysis", "MoveEvaluation", "analyse"),
    "anytime": ("SearchResult", "search"),
    "bots": ("LEVELS", "Bot"),
    "svg": ("Board",),
}
__getattr__, __dir__ = lazy_exports(__name__, _LAZY)

if TYPE_CHECKING:
    from cardscore.crosskings.analysis import Analysis, MoveEvaluation, analyse
    from cardscore.crosskings.anytime import SearchResult, search
    from cardscore.crosskings.bots import LEVELS, Bot
    from cardscore.crosskings.svg import Board

__all__ = [
    "CENTRE",
    "FACE_DOWN",
    "LEVELS",
    "Analysis",
    "Board",
    "Bot",
    "Game",
    "Hand",
    "HandScore",
    "Move",
    "MoveEvaluation",
    "SearchResult",
    "analyse",
    "cell_index",
    "cell_name",
    "explain",
    "parse_cards",
    "score",
    "search",
]
