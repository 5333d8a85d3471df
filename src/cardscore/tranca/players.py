"""Computer players for Tranca, by level.

- level 0 — a random legal action;
- level 1 — greedy: the action that lays the most points now (discarding the costliest card);
- level 2 — a heuristic planner (:func:`planner_value`): values melds by their points and the
  odds of growing into canastras, keeps 2s for closing canastras, takes the pile until its team
  may go out (then it races out instead) and less as the opponents near going out, discards
  what the next opponent's melds cannot take (keeping pairs and neighbours), sheds black 3s at
  once (which blocks the pile), and goes out whenever it can;
- level 3 — information-set Monte Carlo search: for each decision it samples the hidden cards
  (other hands, stock, mortos) consistently with what the player has seen, plays each of level
  2's best few actions in every sample and then every player's next turn with level 2, takes it
  all back with the engine's ``undo``, and judges the position by the scorer's totals as if the
  round ended there (but for the cards still in hand, which are not yet lost); the action
  with the best total over the samples wins (all candidates meet the same samples, so luck
  cancels out) if it beats level 2's own choice by ``margin`` a sample — under a time budget
  per move.

Every player sees only what its seat may see: its hand and the public table (level 3 looks at
the rest only through samples redealt by :meth:`TrancaState.determinized`).

>>> from cardscore.tranca.game import TrancaState
>>> game = TrancaState(players=2, seed=4)
>>> bots = [computer(2, seed=1), computer(1, seed=2)]
>>> while not game.is_over:
...     _ = game.play(bots[game.to_act].choose(game))
>>> sorted(game.score().totals) == sorted(game.team_name(t) for t in range(2))
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from cardscore.cards import Card
from cardscore.errors import check_level
from cardscore.tranca.actions import Action, ActionKind
from cardscore.tranca.game import (
    _CARDS,
    TrancaState,
    _is_meld,
    _pairs_with,
    _sorted,
    card_ids,
)
from cardscore.tranca.rules import (
    CANASTRA_SIZE,
    CLEAN_CANASTRA,
    DIRTY_CANASTRA,
    TWOS_CANASTRA,
    card_points,
)

__all__ = [
    "LEVELS",
    "WEIGHTS",
    "Computer",
    "PlannerWeights",
    "computer",
    "discard_cost",
    "hint",
    "lay_value",
    "planner_value",
    "played_rounds",
    "take_value",
]

LEVELS = (0, 1, 2, 3)
_POINTS = tuple(card_points(c) for c in _CARDS)
_BLACK_THREES = frozenset({Card("3s").id, Card("3c").id})


def _laid(state: TrancaState, action: Action) -> tuple[int, ...]:
    """The card ids an action puts on the table (the pile's top for a take)."""
    ids = tuple(card_ids(action.cards))
    if action.kind is ActionKind.TAKE:
        return (*ids, state.pile[-1])
    if action.kind in (ActionKind.MELD, ActionKind.ADD):
        return ids
    return ()


def _meld_after(state: TrancaState, action: Action) -> tuple[int, ...]:
    laid = _laid(state, action)
    if action.meld is None:
        return _sorted(laid)
    return _sorted((*state.melds[state.to_act % state.teams][action.meld], *laid))


def _bonus_gained(state: TrancaState, action: Action) -> int:
    """The canastra bonus an action completes (0 if it completes none)."""
    if action.kind not in (ActionKind.TAKE, ActionKind.MELD, ActionKind.ADD):
        return 0
    after = _meld_after(state, action)
    before = len(after) - len(_laid(state, action))
    if len(after) < CANASTRA_SIZE or (action.meld is not None and before >= CANASTRA_SIZE):
        return 0
    if after[-1] < 4:
        return TWOS_CANASTRA
    return DIRTY_CANASTRA if after[0] < 4 else CLEAN_CANASTRA


def greedy_value(state: TrancaState, action: Action) -> float:
    """Level 1: points laid now (and any canastra closed); a discard sheds the costliest card."""
    if action.kind is ActionKind.DRAW:
        return 0.0
    if action.kind is ActionKind.DISCARD:
        card = action.cards[0].id
        return -1000.0 + (100 if card in _BLACK_THREES else _POINTS[card])
    return float(sum(_POINTS[i] for i in _laid(state, action)) + _bonus_gained(state, action))


@dataclass(frozen=True, slots=True)
class PlannerWeights:
    """Level 2's weights, tuned by self-play against level 1 (deal seeds 1000–1999 only).

    ``canastra_odds[n]`` is how likely a meld of ``n`` cards is taken as growing into a
    canastra, so a meld counts as that share of its bonus. The take weights are per card of the
    pile beyond its top; the discard weights are what a discard costs (the cheapest goes).

    >>> WEIGHTS.canastra_odds[3] * 200, WEIGHTS.canastra_odds[6] * 200  # a clean meld of 3, of 6
    (40.0, 130.0)
    """

    canastra_odds: tuple[float, ...] = (0.0, 0.0, 0.0, 0.2, 0.3, 0.45, 0.65, 1.0)
    first_canastra: float = 200.0
    """Closing the team's first canastra, which lets it go out and makes its dollars count +100."""
    first_progress: float = 0.5
    """Melds count this much more (a share of their canastra odds) while the team has none."""
    keep_two: float = 40.0
    """Laying a 2 that closes no canastra costs this (less as the round's end nears)."""
    take: float = 30.0
    take_when_ready: float = 200.0
    """Per pile card, once the team has its morto and a canastra: it should go out, not grow."""
    take_when_late: float = 100.0
    """Per pile card, times :func:`_danger`: cards taken late are caught in hand."""
    feeds_next_meld: float = 500.0
    feeds_next_known: float = 400.0
    discard_two: float = 200.0
    keep_pair: float = 8.0
    keep_neighbour: float = 5.0
    thrown_by_next: float = 15.0
    black_three: float = 100.0
    going_out: float = 1000.0
    direct_morto: float = 200.0


WEIGHTS = PlannerWeights()
_LAY = 30.0
"""Any worthwhile meld or add comes before the turn's discard (which is valued below -1000)."""


def _progress(meld: tuple[int, ...], weights: PlannerWeights) -> float:
    """A meld's canastra bonus, counted at the odds that a meld of its size becomes one."""
    size = len(meld)
    if size and meld[-1] < 4:
        return TWOS_CANASTRA if size >= CANASTRA_SIZE else 0.0  # a meld of 2s: all or nothing
    bonus = DIRTY_CANASTRA if size and meld[0] < 4 else CLEAN_CANASTRA
    return bonus * weights.canastra_odds[min(size, CANASTRA_SIZE)]


def _ready(state: TrancaState) -> bool:
    """Whether the side to act has its morto (or none is left) and a canastra: it may go out."""
    team = state.to_act % state.teams
    return not state.morto_open(team) and state.has_canastra(team)


def _danger(state: TrancaState) -> float:
    """How near the opponents are to going out, from the table: 0, ½ (morto) or 1 (and a canastra)."""
    team = state.to_act % state.teams
    danger = 0.0
    for other in range(state.teams):
        if other != team and not state.morto_open(other):
            danger = max(danger, 1.0 if state.has_canastra(other) else 0.5)
    return danger


def lay_value(state: TrancaState, action: Action, weights: PlannerWeights = WEIGHTS) -> float:
    """What a take, meld or add lays: its points and the canastra odds it adds (more while the
    team has no canastra: its first one is what lets it go out).

    A 2 laid where it closes no canastra is a wild card spent (and a clean meld dirtied), worth
    keeping for the pile or a canastra's last card — unless the opponents are about to go out.
    """
    laid = _laid(state, action)
    team = state.to_act % state.teams
    before: tuple[int, ...] = ()
    if action.meld is not None:
        before = state.melds[team][action.meld]
    after = _sorted((*before, *laid))
    progress = _progress(after, weights) - _progress(before, weights)
    value = sum(_POINTS[i] for i in laid) + progress
    if not state.has_canastra(team):  # no going out, and every dollar counts -100, until one
        value += weights.first_progress * progress
        if len(after) >= CANASTRA_SIZE:
            value += weights.first_canastra
    twos = sum(1 for i in card_ids(action.cards) if i < 4)
    if twos and len(after) < CANASTRA_SIZE:
        value -= weights.keep_two * twos * (1 - _danger(state))
    return value


def take_value(state: TrancaState, action: Action, weights: PlannerWeights = WEIGHTS) -> float:
    """Level 2's value of taking the pile (drawing is 0).

    The pile is worth taking in general (its cards grow melds), but not once the team may go
    out (every card taken must be laid before it can), and less the nearer the opponents are to
    going out (cards taken then are caught in hand).
    """
    rest = len(state.pile) - 1
    value = weights.take + lay_value(state, action, weights)
    value -= rest * weights.take_when_late * _danger(state)
    if _ready(state):
        value -= rest * weights.take_when_ready
    return value


def discard_cost(state: TrancaState, card: int, weights: PlannerWeights = WEIGHTS) -> float:
    """What level 2 loses by discarding ``card`` (the cheapest goes).

    A black 3 goes first: held it costs 100, discarded it blocks the pile for the next player.
    A card that fits the next opponent's melds, or makes a meld with cards everyone saw them take
    with the pile, hands them the pile; a 2 lets them take it with any pair; pairs and near
    neighbours in hand are melds in the making; a card the next opponent threw away before is
    one they do not collect.
    """
    if card in _BLACK_THREES:
        return -weights.black_three
    seat = state.to_act
    hand = state.hands[seat]
    nxt = (seat + 1) % state.players
    rules = state._scoring
    cost = 0.0
    if any(_is_meld(_sorted((*m, card)), rules) for m in state.melds[nxt % state.teams]):
        cost += weights.feeds_next_meld
    elif any(
        _is_meld(_sorted((*pair, card)), rules) for pair in _pairs_with(state.known[nxt], card)
    ):
        cost += weights.feeds_next_known
    if card < 4:
        cost += weights.discard_two
    rank, suit = divmod(card, 4)
    cost += weights.keep_pair * (sum(hand[rank * 4 + s] for s in range(4)) - 1)
    cost += weights.keep_neighbour * sum(
        1 for step in (-2, -1, 1, 2) if 2 <= rank + step <= 12 and hand[(rank + step) * 4 + suit]
    )
    if card in _discarded_by(state, nxt):
        cost -= weights.thrown_by_next
    return cost


def _discarded_by(state: TrancaState, seat: int) -> set[int]:
    return {
        c.id
        for s, action in state.history[-40:]
        if s == seat and action.kind is ActionKind.DISCARD
        for c in action.cards
    }


def planner_value(state: TrancaState, action: Action, weights: PlannerWeights = WEIGHTS) -> float:
    """Level 2's preference for an action (the highest is played).

    Going out wins most rounds, so an action that empties the hand for good comes first, then
    one that empties it into the morto without a discard (play goes on at once). A meld or add
    is laid when it is worth something (:func:`lay_value`), before the turn's discard, which
    sheds the card of least :func:`discard_cost`.
    """
    kind = action.kind
    if kind is ActionKind.DRAW:
        return 0.0
    if kind is ActionKind.TAKE:
        return take_value(state, action, weights)
    seat = state.to_act
    empties = state.sizes[seat] == len(action.cards)
    out = empties and not state.morto_open(seat % state.teams)
    if kind is ActionKind.DISCARD:
        value = -1000.0 - discard_cost(state, action.cards[0].id, weights)
        return value + 2000.0 + weights.going_out if out else value
    value = lay_value(state, action, weights)
    if empties:
        value += weights.going_out if out else weights.direct_morto
    return _LAY + value if value > 0 else -2000.0 + value  # not worth it: discard instead


@dataclass
class Computer:
    """A computer player of ``level`` 0–3; ``budget`` is level 3's seconds per move."""

    level: int = 1
    seed: int | None = None
    budget: float = 0.25
    rollout_turns: int = 0
    """Turns a rollout plays after the move's own turn (0: one turn for every player)."""
    candidates: int = 5
    margin: float = 50.0
    """Level 3 leaves level 2's choice only for a candidate better by this much a sample on
    average: rollouts see a few turns, level 2's weights were tuned on whole rounds."""
    rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        check_level(self.level, LEVELS)
        self.rng = random.Random(self.seed)

    def choose(self, state: TrancaState) -> Action:
        """The action this player takes now (for the seat whose turn it is)."""
        actions = state.legal_actions()
        if len(actions) == 1 or self.level == 0:
            return actions[0] if len(actions) == 1 else self.rng.choice(actions)
        if self.level == 1:
            return max(actions, key=lambda a: greedy_value(state, a))
        ranked = sorted(actions, key=lambda a: planner_value(state, a), reverse=True)
        if self.level == 2:
            return ranked[0]
        return self._search(state, ranked[: self.candidates])

    # -- level 3 ------------------------------------------------------------------------------

    def _search(self, state: TrancaState, candidates: list[Action]) -> Action:
        """Judge every candidate in the same redealt samples (paired, so luck cancels out)."""
        if len(candidates) == 1:
            return candidates[0]
        seat = state.to_act
        team = seat % state.teams
        totals = [0.0] * len(candidates)
        deadline = time.perf_counter() + self.budget
        samples = 0
        while samples == 0 or time.perf_counter() < deadline:
            world = state.determinized(seat, self.rng)
            values = []
            for action in candidates:
                if samples and time.perf_counter() > deadline:
                    break  # out of time: a sample judged for only some candidates is dropped
                values.append(self._rollout(world, action, team))
            if len(values) < len(candidates):
                break
            totals = [t + v for t, v in zip(totals, values, strict=True)]
            samples += 1
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        if totals[best] - totals[0] < self.margin * samples:
            return candidates[0]
        return candidates[best]

    def _rollout(self, world: TrancaState, action: Action, team: int) -> float:
        """Play ``action`` and a few turns on in ``world``, value the table, and undo it all."""
        played = 1
        world.apply_legal(action)
        turns = 0
        last = world.to_act
        horizon = self.rollout_turns or world.players
        while not world.is_over and turns < horizon:
            actions = world.legal_actions()
            world.apply_legal(max(actions, key=lambda a: planner_value(world, a)))
            played += 1
            if world.to_act != last:
                turns += 1
                last = world.to_act
        score = world.score()
        if world.is_over:
            totals = [t.total for t in score.teams]
        else:  # cards still held are the next turns' melds, not yet a loss (trancas are)
            totals = [t.total - t.breakdown["hand_cards"] for t in score.teams]
        mine = totals[team]
        best_other = max(t for i, t in enumerate(totals) if i != team)
        for _ in range(played):
            world.undo()
        return float(mine - best_other)


def computer(level: int = 1, *, seed: int | None = None, budget: float = 0.25) -> Computer:
    """A computer player (see the module documentation for the levels)."""
    return Computer(level, seed, budget)


def hint(state: TrancaState) -> Action:
    """The move level 2 would make now (what ``hint`` shows a person)."""
    return Computer(2).choose(state)


def played_rounds(
    count: int, players: int = 4, *, level: int = 1, seed: int = 0
) -> Iterator[dict[str, Any]]:
    """``count`` rounds played to the end by the computer, as round JSON (the scorer's input).

    Realistic end-of-round tables — melds grown in play, hands left, dollars, mortos — for
    anything that needs them (synthetic photos for recognition training, fuzzing the scorer).

    >>> from cardscore.tranca import parse_round
    >>> tables = list(played_rounds(2, players=2, seed=5))
    >>> [len(parse_round(t).teams) for t in tables]
    [2, 2]
    """
    for number in range(count):
        game = TrancaState(players, seed=seed + number, first=number % players)
        bots = [computer(level, seed=(seed + number) * 10 + s) for s in range(players)]
        while not game.is_over:
            game.apply_legal(bots[game.to_act].choose(game))
        yield game.round_dict()
