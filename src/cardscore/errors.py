"""The exceptions cardscore raises, split by cause; all are :class:`ValueError`.

Every error carries ``problems``: one line per thing wrong with the input. Bulk inputs (a list
of cards, a round, a photo) report every problem at once rather than stopping at the first, and
the CLI prints one line per problem.

>>> err = InvalidCardError(["card 2 'Xx' is not a card"])
>>> isinstance(err, ValueError), err.problems
(True, ("card 2 'Xx' is not a card",))
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = [
    "CardscoreError",
    "DeckExhaustedError",
    "IllegalMoveError",
    "ImpossibleTableError",
    "InvalidCardError",
    "InvalidNotationError",
]


class CardscoreError(ValueError):
    """Base class: bad input to cardscore, with one message per problem found."""

    problems: tuple[str, ...]

    def __init__(self, problems: str | Iterable[str]) -> None:
        self.problems = (problems,) if isinstance(problems, str) else tuple(problems)
        if not self.problems:
            raise TypeError("an error needs at least one problem")
        super().__init__("; ".join(self.problems))


class InvalidNotationError(CardscoreError):
    """Text that no notation understands (a card code, a pile string, a move)."""


class InvalidCardError(InvalidNotationError):
    """A token that is not a card in any notation cardscore reads."""


class ImpossibleTableError(CardscoreError):
    """Cards that cannot all be on the table at once (too many copies, a card in two places)."""


class IllegalMoveError(CardscoreError):
    """An action the rules of the game do not allow in the current state."""


class DeckExhaustedError(IllegalMoveError):
    """Asking a deck for more cards than it still holds."""
