"""Computer players: draw by exact draw odds, bet by estimated equity; seedable.

A bot values a hand by the chance it beats each live opponent, estimated from the share of all
five-card hands it beats (raised to the number of opponents, and discounted for opponents who
drew few cards). For the draw it tries every legal discard and keeps the one whose exact
distribution of final hands scores best. It bets or raises strong hands, calls when its
strength beats the pot odds, folds otherwise, and bluffs now and then.

>>> from cardscore.poker.dealer import Dealer
>>> dealer = Dealer(["A", "B", "C"], stacks=50, seed=3)
>>> result = play_hand(dealer, [Bot(seed=1), Bot(seed=2), Bot(seed=3)])
>>> sum(s.stack for s in dealer.seats), dealer.phase.value
(150, 'hand complete')
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from itertools import combinations

import numpy as np
import numpy.typing as npt

from cardscore.cards import Card, Rank
from cardscore.poker import _c_eval
from cardscore.poker.betting import Action, ActionKind
from cardscore.poker.dealer import Dealer, HandResult, Phase
from cardscore.poker.evaluate import HandRank, evaluate
from cardscore.poker.tables import NUM_CLASSES

__all__ = ["Bot", "best_discard", "draw_value", "play_hand"]

DRAW_EXPONENT = 6
"""Draws are chosen for the chance to beat opponents whose hands are as strong as the
best of this many random hands each: players who stay in to the showdown hold good hands,
so draws to flushes and straights beat keeping a small pair's kickers."""
BET_EXPONENT = 2


@cache
def _percentiles() -> npt.NDArray[np.float64]:
    return np.array([0.0] + [HandRank(r).percentile for r in range(1, NUM_CLASSES + 1)])


def draw_value(hand: Sequence[Card], thrown: Sequence[Card], exponent: float) -> float:
    """Mean of ``percentile ** exponent`` over every draw replacing ``thrown`` (exact)."""
    cards = tuple(hand)
    unseen = bytes(i for i in range(52) if i not in {c.id for c in cards})
    kept = [c for c in cards if c not in thrown]
    raw = _c_eval.draw_histogram(bytes(c.id for c in kept), unseen, len(thrown))
    counts = np.frombuffer(raw, dtype=np.uint32)
    return float(counts @ _percentiles() ** exponent) / float(counts.sum())


def best_discard(hand: Sequence[Card], opponents: int = 1) -> tuple[tuple[Card, ...], float]:
    """The legal discard with the best expected strength, and that strength (0…1).

    Ties prefer keeping more cards.

    >>> from cardscore.cards import parse_cards
    >>> [c.code for c in best_discard(parse_cards("8s 8h Kc 5d 2h"))[0]]
    ['Kc', '5d', '2h']
    >>> [c.code for c in best_discard(parse_cards("Ah Kh 7h 2h 9c"))[0]]
    ['9c']
    >>> [c.code for c in best_discard(parse_cards("9h 8d 7c 6s Kd"))[0]]
    ['Kd']
    """
    cards = tuple(hand)
    exponent = DRAW_EXPONENT * max(1, opponents)
    best: tuple[tuple[Card, ...], float] = ((), -1.0)
    for n in range(5):
        for thrown in combinations(cards, n):
            if n == 4 and next(c for c in cards if c not in thrown).rank is not Rank.ACE:
                continue
            value = draw_value(cards, thrown, exponent)
            if value > best[1] + 1e-12:
                best = (thrown, value)
    return best


class Bot:
    """A computer player. ``aggression`` (0…1) lowers the bar for betting; ``bluff`` is the
    chance of betting a weak hand when checked to."""

    def __init__(self, seed: int | None = None, aggression: float = 0.5, bluff: float = 0.05):
        self.random = random.Random(seed)
        self.aggression = aggression
        self.bluff = bluff

    def __repr__(self) -> str:
        return f"Bot(aggression={self.aggression}, bluff={self.bluff})"

    def strength(self, dealer: Dealer) -> float:
        """Estimated chance of winning at showdown against the live opponents."""
        seat = dealer.to_act
        assert seat is not None
        hand = dealer.hand_of(seat)
        opponents = [i for i, s in enumerate(dealer.seats) if s.live and i != seat]
        if dealer.phase is Phase.PRE_DRAW:
            thrown = best_discard(hand, len(opponents))[0]
            return draw_value(hand, thrown, BET_EXPONENT * len(opponents))
        pct = evaluate(list(hand)).percentile
        drew = {a.seat: len(a.discards) for a in dealer.actions if a.kind is ActionKind.DRAW}
        value = 1.0
        for i in opponents:  # a player who stood pat or drew one is likelier to be strong
            value *= pct ** (BET_EXPONENT * {0: 3.0, 1: 1.5}.get(drew.get(i, 3), 1.0))
        return value

    def act(self, dealer: Dealer) -> Action:
        """Make this bot's move for the player to act."""
        if dealer.phase is Phase.DRAW:
            assert dealer.to_act is not None
            opponents = sum(1 for s in dealer.seats if s.live) - 1
            return dealer.draw(best_discard(dealer.hand_of(dealer.to_act), opponents)[0])
        s = self.strength(dealer)
        to_call = dealer.to_call()
        pot = dealer.pot_total()
        span = dealer.raise_range()
        roll = self.random.random()
        strong = s > 0.8 - 0.25 * self.aggression
        if span is not None and ((strong and roll < 0.85) or (to_call == 0 and roll < self.bluff)):
            size = int(pot * (0.5 + 0.5 * self.random.random())) + to_call
            me = dealer.seats[dealer.to_act or 0]
            total = max(span[0], min(span[1], me.round_bet + size))
            if total >= me.round_bet + me.stack:
                return dealer.all_in()
            if dealer.can_bet(total - me.round_bet):
                return dealer.bet(total - me.round_bet)
            return dealer.raise_to(total)
        if to_call == 0:
            return dealer.check()
        if s >= to_call / (pot + to_call) * (1.1 - 0.2 * self.aggression):
            return dealer.call()
        return dealer.fold()


def play_hand(dealer: Dealer, players: Sequence[Bot]) -> HandResult:
    """Start a hand and let the bots (one per seat) play it to the end."""
    dealer.start_hand()
    while dealer.phase is not Phase.COMPLETE:
        assert dealer.to_act is not None
        players[dealer.to_act].act(dealer)
    assert dealer.result is not None
    return dealer.result
