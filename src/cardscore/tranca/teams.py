"""Teams and what each holds at the end of a round: melds, piles, dollars, hand, morto, going out.

A :class:`TeamRound` is a team's side of the table when a round ends — the snapshot a game
would also produce — and knows nothing of scoring.

>>> from cardscore.cards import parse_cards
>>> side = TeamRound("Ana", took_morto=True, went_out=False, melds=(Meld("Kh Kd Ks"),), hand=parse_cards("3c Ah"))
>>> side.trancas, side.hand_cards, side.has_canastra
((Card('3c'),), (Card('Ah'),), False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardscore.cards import Card
from cardscore.errors import CardscoreError, ImpossibleTableError, Problem
from cardscore.tranca.melds import CanastraKind, Meld
from cardscore.tranca.piles import Pile
from cardscore.tranca.rules import is_tranca

__all__ = ["Team", "TeamRound"]


@dataclass(frozen=True, slots=True)
class Team:
    """A side of the match: a name and, when known, its players (one player plays alone)."""

    name: str
    players: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise CardscoreError(Problem.of("team_name", value=repr(self.name)))
        object.__setattr__(self, "players", tuple(self.players))

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "players": list(self.players)}


@dataclass(frozen=True, slots=True)
class TeamRound:
    """One team's table and hand at the end of a round.

    ``hand`` holds every card the team's players still hold; ``hands`` optionally records them
    per player (``hand`` is then their concatenation), and ``went_out_player`` who went out —
    both feed the per-player statistics of a match.
    """

    name: str
    took_morto: bool
    went_out: bool
    melds: tuple[Meld, ...] = ()
    piles: tuple[Pile, ...] = ()
    dollars: tuple[Card, ...] = ()
    hand: tuple[Card, ...] = ()
    players: tuple[str, ...] = ()
    hands: tuple[tuple[str, tuple[Card, ...]], ...] = ()
    went_out_player: str | None = None

    def __post_init__(self) -> None:
        for name in ("melds", "piles", "dollars", "hand", "players", "hands"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        if self.hands:
            cards = tuple(card for _, held in self.hands for card in held)
            if not self.hand:
                object.__setattr__(self, "hand", cards)
            elif sorted(self.hand) != sorted(cards):
                raise ImpossibleTableError(Problem.of("hand_not_hands"))

    @property
    def canastras(self) -> tuple[Meld | Pile, ...]:
        """Melds of 7+ cards and closed piles, in the order they were given."""
        return tuple(m for m in self.melds if m.canastra is not None) + self.piles

    def canastra_kinds(self) -> tuple[CanastraKind, ...]:
        return tuple(c.canastra for c in self.canastras if c.canastra is not None)

    @property
    def has_canastra(self) -> bool:
        return bool(self.canastras)

    @property
    def trancas(self) -> tuple[Card, ...]:
        """Black 3s left in the hand."""
        return tuple(c for c in self.hand if is_tranca(c))

    @property
    def hand_cards(self) -> tuple[Card, ...]:
        """The hand without its trancas: the cards counted at their value."""
        return tuple(c for c in self.hand if not is_tranca(c))

    @property
    def dollar_count(self) -> int:
        return len(self.dollars)

    @property
    def tranca_count(self) -> int:
        return len(self.trancas)

    def player_hand(self, player: str) -> tuple[Card, ...]:
        return next((held for who, held in self.hands if who == player), ())

    def as_dict(self) -> dict[str, Any]:
        """The round-JSON object of this team (``parse_round`` reads it back)."""
        data: dict[str, Any] = {"name": self.name}
        if self.players:
            data["players"] = list(self.players)
        data["melds"] = [m.as_list() for m in self.melds]
        data["piles"] = [p.as_dict() for p in self.piles]
        data["dollars"] = [c.code for c in self.dollars]
        if self.hands:
            data["hand"] = {who: [c.code for c in held] for who, held in self.hands}
        else:
            data["hand"] = [c.code for c in self.hand]
        data["took_morto"] = self.took_morto
        data["went_out"] = self.went_out
        if self.went_out_player is not None:
            data["went_out_player"] = self.went_out_player
        return data
