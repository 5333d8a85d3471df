"""What a Tranca player does on a turn, as small frozen records, and their short notation.

A turn is ``draw`` (from the stock) or ``take`` (the whole discard pile, its top card laid at
once), then any number of ``meld`` (a new meld from the hand) and ``add`` (cards onto one of the
team's melds, numbered from 1 as the table shows them), then ``discard``.

>>> parse_action("meld 7h 8h 9h")
Action(kind=ActionKind.MELD, cards=(Card('7h'), Card('8h'), Card('9h')), meld=None)
>>> str(parse_action("add 2 Ts")), str(parse_action("take 9h Th")), str(parse_action("take 1"))
('add 2 10♠', 'take 9♥ 10♥', 'take 1')
>>> parse_action("discard Kc").notation
'discard Kc'
>>> parse_action("fold")
Traceback (most recent call last):
...
cardscore.errors.InvalidNotationError: 'fold' is not a move: expected draw, take, take <cards>, take <meld number>, meld <cards>, add <meld number> <cards> or discard <card>
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from cardscore.cards import Card, parse_cards
from cardscore.errors import InvalidNotationError, Problem

__all__ = ["Action", "ActionKind", "Move", "parse_action"]


class ActionKind(Enum):
    DRAW = "draw"
    TAKE = "take"
    MELD = "meld"
    ADD = "add"
    DISCARD = "discard"

    def __repr__(self) -> str:
        return f"ActionKind.{self.name}"


@dataclass(frozen=True, slots=True)
class Action:
    """One action; ``meld`` is the 0-based index of the team's meld for ``add`` and ``take``.

    ``take`` lays the pile's top card either onto meld ``meld`` or, with ``cards`` from the
    hand, as a new meld; ``take`` with neither lets the game pick the first legal way.
    """

    kind: ActionKind
    cards: tuple[Card, ...] = ()
    meld: int | None = None

    @property
    def notation(self) -> str:
        """The move in the CLI's notation with canonical codes (``add 2 Ts``)."""
        parts = [self.kind.value]
        if self.meld is not None:
            parts.append(str(self.meld + 1))
        parts.extend(card.code for card in self.cards)
        return " ".join(parts)

    def __str__(self) -> str:
        parts = [self.kind.value]
        if self.meld is not None:
            parts.append(str(self.meld + 1))
        parts.extend(str(card) for card in self.cards)
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class Move:
    """What an action did: who acted, and what it moved besides the cards it names.

    ``received`` are the cards that came into the hand (the card drawn, the rest of the pile,
    a morto, red 3s' replacements) — only their owner sees them; ``dollars`` the red 3s laid.
    """

    seat: int
    action: Action
    received: tuple[Card, ...] = ()
    dollars: tuple[Card, ...] = ()
    took_morto: bool = False
    went_out: bool = False
    round_over: bool = False


def _meld_number(token: str, text: str) -> int:
    if not token.isdigit() or int(token) < 1:
        raise InvalidNotationError(Problem.of("not_a_meld_number", text=text, token=token))
    return int(token) - 1


def parse_action(text: str) -> Action:
    """Read a move in the short notation (cards in any notation :func:`parse_cards` reads)."""
    words = text.split()
    if not words:
        raise InvalidNotationError(Problem.of("empty_move"))
    verb, rest = words[0].lower(), words[1:]
    if verb == "draw" and not rest:
        return Action(ActionKind.DRAW)
    if verb == "take":
        if len(rest) == 1 and rest[0].isdigit():
            return Action(ActionKind.TAKE, meld=_meld_number(rest[0], text))
        return Action(ActionKind.TAKE, parse_cards(rest))
    if verb == "meld" and rest:
        return Action(ActionKind.MELD, parse_cards(rest))
    if verb == "add" and len(rest) >= 2:
        return Action(ActionKind.ADD, parse_cards(rest[1:]), _meld_number(rest[0], text))
    if verb == "discard" and len(rest) == 1:
        return Action(ActionKind.DISCARD, parse_cards(rest))
    raise InvalidNotationError(Problem.of("not_a_move", text=text))
