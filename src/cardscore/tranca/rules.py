"""Tranca's numbers: card values, bonuses, decks and targets, and the house-rule switches.

>>> from cardscore.cards import Card
>>> [card_points(Card(code)) for code in ("Ah", "Kh", "8c", "7c", "4d", "2s", "3h")]
[15, 10, 10, 5, 5, 10, 5]
>>> decks_for(4), decks_for(6), target_for(4), target_for(6), team_size(6)
(2, 3, 3500, 5000, 3)
>>> TrancaRules().allows_set_of(Rank.NINE), TrancaRules(edges_only=True).allows_set_of(Rank.NINE)
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass

from cardscore.cards import Card, Rank, Suit
from cardscore.errors import CardscoreError, Problem

__all__ = [
    "CANASTRA_SIZE",
    "CLEAN_CANASTRA",
    "DIRTY_CANASTRA",
    "DOLLAR",
    "EDGE_RANKS",
    "FINAL_MOVE",
    "MIN_MELD",
    "MORTO",
    "PLAYER_COUNTS",
    "SEQUENCE_RANKS",
    "TRANCA",
    "TWOS_CANASTRA",
    "TrancaRules",
    "card_points",
    "decks_for",
    "is_dollar",
    "is_tranca",
    "target_for",
    "team_count",
    "team_size",
]

MIN_MELD = 3
CANASTRA_SIZE = 7
CLEAN_CANASTRA = 200
DIRTY_CANASTRA = 100
TWOS_CANASTRA = 1000
DOLLAR = 100
"""Each red 3 is worth this much more with a canastra, and this much less without one."""
TRANCA = -100
MORTO = -100
"""For a team that never took its morto."""
FINAL_MOVE = 100

PLAYER_COUNTS = (2, 3, 4, 6)
SEQUENCE_RANKS: tuple[Rank, ...] = tuple(r for r in Rank if r.index >= Rank.FOUR.index)
"""4…A: sequences never use 2s as naturals or 3s, and the ace is only high."""
EDGE_RANKS = frozenset({Rank.FOUR, Rank.FIVE, Rank.KING, Rank.ACE})

_POINTS: dict[Rank, int] = dict.fromkeys(Rank, 10) | {
    Rank.ACE: 15,
    Rank.FOUR: 5,
    Rank.FIVE: 5,
    Rank.SIX: 5,
    Rank.SEVEN: 5,
    Rank.THREE: 5,  # a red 3 (dollar) as a card; black 3s count only as trancas
}


def card_points(card: Card) -> int:
    """What one card counts on the table (plus) or in a hand (minus): A 15, 8–K 10, 4–7 5, 2 10.

    A red 3 counts 5 as a card; a black 3 is scored as a tranca instead (see ``TRANCA``).
    """
    return _POINTS[card.rank]


# Looked up for every laid and held card of every round: a set of the 52's shared objects.
_DOLLARS = frozenset({Card(Rank.THREE, Suit.HEARTS), Card(Rank.THREE, Suit.DIAMONDS)})
_TRANCAS = frozenset({Card(Rank.THREE, Suit.SPADES), Card(Rank.THREE, Suit.CLUBS)})


def is_dollar(card: Card) -> bool:
    """A red 3: laid apart from the melds, never held."""
    return card in _DOLLARS


def is_tranca(card: Card) -> bool:
    """A black 3: it can only stay in a hand, where it costs 100."""
    return card in _TRANCAS


def _check_players(players: int) -> None:
    if players not in PLAYER_COUNTS:
        raise CardscoreError(Problem.of("bad_players", value=repr(players)))


def decks_for(players: int) -> int:
    """2 decks up to 4 players, 3 for 6."""
    _check_players(players)
    return 3 if players == 6 else 2


def target_for(players: int) -> int:
    """A match ends once a team reaches 3,500 (up to 4 players) or 5,000 (6 players)."""
    _check_players(players)
    return 5000 if players == 6 else 3500


def team_size(players: int) -> int:
    """2 or 3 players play alone, 4 in pairs, 6 in trios."""
    _check_players(players)
    return {2: 1, 3: 1, 4: 2, 6: 3}[players]


def team_count(players: int) -> int:
    """How many sides a round has: one per player alone, otherwise two teams."""
    return players // team_size(players)


@dataclass(frozen=True, slots=True)
class TrancaRules:
    """House rules; the defaults follow our reading of the seeds.

    ``edges_only``: sets (melds of one rank) only of 4, 5, K or A — the seed recommends it for
    up to four players; off by default.
    """

    edges_only: bool = False

    def allows_set_of(self, rank: Rank) -> bool:
        """Whether a meld of ``rank`` cards (and maybe one 2) may be laid."""
        return rank is not Rank.THREE and (not self.edges_only or rank in EDGE_RANKS)

    def as_dict(self) -> dict[str, bool]:
        return {"edges_only": self.edges_only}
