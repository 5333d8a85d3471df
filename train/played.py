"""Tables from rounds the Tranca engine played: what one team's side shows at a round's end.

:func:`played_sides` plays rounds to the end with the engine's computer players
(:func:`cardscore.tranca.players.played_rounds`: 2, 4 or 6 players, level 1 or 2) and yields
every team's side as a photo of it shows it — the melds grown in play, in the order the players
laid them (a 2 as joker in its gap or at an end); a set canastra (or one of 2s) closed into a
pile with probability ``close``, only its top card seen, lying crosswise when clean and along the
melds when dirty (the photo convention :mod:`cardscore.tranca.photo` reads); each red 3 apart,
a dollar. The hands are not on the table and the morto lies face down (no index to read), so
neither is drawn. Random tables deal cards uniformly; played ones have the game's own mix: long
runs, sets of one rank in several suits, jokers, dollars beside the melds.

>>> from cardscore.tranca.melds import meld_problems
>>> sides = played_sides(seed=3)
>>> side = next(sides)
>>> all(meld_problems(g.cards) == () for g in side if g.kind == "meld")
True
>>> [g.cards for g in next(played_sides(seed=3))] == [g.cards for g in side]
True
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import count

from cardscore.cards import Card, parse_cards
from cardscore.tranca.melds import CanastraKind, Meld, MeldKind
from cardscore.tranca.players import played_rounds

__all__ = ["CLOSE", "Group", "played_sides"]

CLOSE = 0.6
"""Share of set canastras closed into a pile (players close most; an open one shows its cards)."""
_PLAYERS = (2, 4, 4, 6)  # four players is the usual table
_LEVELS = (1, 2)  # level 0 plays at random (few canastras); level 3 is slow and timed


@dataclass(frozen=True)
class Group:
    """One thing on a team's side: ``kind`` as the scene's groups name it (``meld``,
    ``pile:horizontal`` clean, ``pile:vertical`` dirty, ``dollar``) and the cards seen, as laid
    (a pile shows only its top card; ``size`` is how many it holds)."""

    kind: str
    cards: tuple[Card, ...]
    size: int


def played_sides(seed: int, close: float = CLOSE) -> Iterator[tuple[Group, ...]]:
    """Every team's side of round after round played to the end, seeded (endless)."""
    rng = random.Random(seed)
    for number in count():
        players, level = rng.choice(_PLAYERS), rng.choice(_LEVELS)
        table = next(played_rounds(1, players, level=level, seed=seed * 100_003 + number))
        for team in table["teams"]:
            side = [_group(parse_cards(meld), close, rng) for meld in team["melds"]]
            side += [Group("dollar", (card,), 1) for card in parse_cards(team["dollars"])]
            if side:
                yield tuple(side)


def _group(cards: tuple[Card, ...], close: float, rng: random.Random) -> Group:
    """A meld as laid, or closed into a pile (a set canastra, with probability ``close``)."""
    meld = Meld(cards)
    if meld.kind is MeldKind.SEQUENCE or meld.canastra is None or rng.random() >= close:
        return Group("meld", cards, len(cards))
    # The top card is a natural of the set's rank (the joker lies inside a dirty pile).
    naturals = [c for c in cards if c.rank is meld.rank] or cards
    clean = meld.canastra is not CanastraKind.DIRTY
    kind = "pile:horizontal" if clean else "pile:vertical"
    return Group(kind, (rng.choice(naturals),), len(cards))
