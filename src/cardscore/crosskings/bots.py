"""Computer opponents, by level.

====== ==========================================================================
level  how it plays
====== ==========================================================================
0      a random legal move
1      greedy: the move that raises its own score most (face-down cards averaged)
2      anytime search, 0.25 s a move (exact once the solver finishes in time)
3      anytime search, 1 s a move
4      anytime search, 4 s a move
====== ==========================================================================

>>> game = Game.deal(seed=3)
>>> Bot(1).choose(game) in game.legal_moves
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from cardscore.crosskings.anytime import search
from cardscore.crosskings.cards import card_number
from cardscore.crosskings.game import Game, cell_name
from cardscore.crosskings.scoring import score_mask
from cardscore.errors import check_level

__all__ = ["LEVELS", "Bot"]

LEVELS: dict[int, float] = {0: 0.0, 1: 0.0, 2: 0.25, 3: 1.0, 4: 4.0}
"""Level → seconds of search a move (levels 0 and 1 do not search)."""


@dataclass
class Bot:
    """A computer player of the given level (0–4); ``seed`` makes it repeatable."""

    level: int = 3
    seed: int | None = None
    rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        check_level(self.level, LEVELS)
        self.rng = random.Random(self.seed)

    def choose(self, game: Game) -> str:
        """The cell this bot takes in ``game``."""
        if self.level == 0:
            return cell_name(self.rng.choice(game.legal_cells))
        if self.level == 1:
            return self._greedy(game)
        return search(game, LEVELS[self.level]).cell

    def _greedy(self, game: Game) -> str:
        own = game.hand_masks[game.to_move - 1]
        base = score_mask(own)
        unseen = [1 << card_number(c) for c in game.unseen]
        best: list[int] = []
        best_gain = -1.0
        for cell in game.legal_cells:
            card = game.card_at(cell)
            outcomes = unseen if card is None else [1 << card_number(card)]
            gain = sum(score_mask(own | bit) - base for bit in outcomes) / len(outcomes)
            if gain > best_gain + 1e-12:
                best, best_gain = [cell], gain
            elif abs(gain - best_gain) <= 1e-12:
                best.append(cell)
        return cell_name(self.rng.choice(best))
