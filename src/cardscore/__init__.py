"""cardscore: settle card games from the cards on the table.

>>> from cardscore import parse_cards
>>> parse_cards("A♥ 10h")
(Card('Ah'), Card('Th'))
"""

from cardscore._version import __version__
from cardscore.breakdown import Breakdown, Term
from cardscore.cards import Card, Deck, Rank, Suit, check_decks, parse_card, parse_cards
from cardscore.errors import (
    CardscoreError,
    DeckExhaustedError,
    IllegalMoveError,
    ImpossibleTableError,
    InvalidCardError,
    InvalidNotationError,
    Problem,
)
from cardscore.registry import games, get_game

__all__ = [
    "Breakdown",
    "Card",
    "CardscoreError",
    "Deck",
    "DeckExhaustedError",
    "IllegalMoveError",
    "ImpossibleTableError",
    "InvalidCardError",
    "InvalidNotationError",
    "Problem",
    "Rank",
    "Suit",
    "Term",
    "__version__",
    "check_decks",
    "games",
    "get_game",
    "parse_card",
    "parse_cards",
]
