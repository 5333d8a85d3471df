"""Computer players for Tranca, by level.

- level 0 — a random legal action;
- level 1 — greedy: the action that lays the most points now (discarding the costliest card);
- level 2 — a heuristic planner: lays like level 1, but keeps 2s and pairs toward canastras,
  discards what the next opponent's melds cannot take, guards the pile with black 3s and leaves
  a huge pile;
- level 3 — information-set Monte Carlo search: for each decision it samples the hidden cards
  (other hands, stock, mortos) consistently with what the player has seen, plays each of level
  2's best few actions in every sample and then every player's next turn with level 1, takes it
  all back with the engine's ``undo``, and judges the position by the scorer's totals as if the
  round ended there (but for the cards still in hand, which are not yet lost); the action
  with the best total over the samples wins (all candidates meet the same samples, so luck
  cancels out) — under a time budget per move.

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

__all__ = ["BIG_PILE", "LEVELS", "Computer", "computer", "hint", "played_rounds"]

LEVELS = (0, 1, 2, 3)
BIG_PILE = 8
"""Level 2 leaves a discard pile this big (measured: +44…+71 a round against level 1 for 6–9)."""
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


def _discard_cost(state: TrancaState, card: int) -> float:
    """What level 2 loses by discarding ``card`` (the cheapest goes; never below greedy's order).

    A card that fits the next opponent's melds, or makes a meld with cards everyone saw them take
    with the pile, hands them the pile; a 2 lets them take it with
    any pair, and pairs and near neighbours in hand are canastras in the making; a card the next
    opponent threw away before is one they do not collect.
    """
    seat = state.to_act
    hand = state.hands[seat]
    nxt = (seat + 1) % state.players
    cost = 0.0
    rules = state._scoring
    if any(_is_meld(_sorted((*m, card)), rules) for m in state.melds[nxt % state.teams]):
        cost += 500
    elif any(
        _is_meld(_sorted((*pair, card)), rules) for pair in _pairs_with(state.known[nxt], card)
    ):
        cost += 400  # they took the pile with cards that make a meld with this one
    if card < 4:
        cost += 200
    rank, suit = divmod(card, 4)
    cost += 8 * (sum(hand[rank * 4 + s] for s in range(4)) - 1)
    cost += 5 * sum(
        1 for step in (-2, -1, 1, 2) if 2 <= rank + step <= 12 and hand[(rank + step) * 4 + suit]
    )
    if card in _discarded_by(state, nxt):
        cost -= 15
    return cost


def _discarded_by(state: TrancaState, seat: int) -> set[int]:
    return {
        c.id
        for s, action in state.history[-40:]
        if s == seat and action.kind is ActionKind.DISCARD
        for c in action.cards
    }


def planner_value(state: TrancaState, action: Action) -> float:
    """Level 2's preference for an action (the highest is played).

    It lays what greedy lays (going out and reaching the morto early pay), but discards with
    :func:`_discard_cost`, and leaves a pile of ``BIG_PILE`` cards or more unless taking it
    closes a canastra; a black 3 still goes first, which also blocks the pile for the next
    player.
    """
    kind = action.kind
    if kind is ActionKind.DRAW:
        return 0.0
    value = greedy_value(state, action)
    big = kind is ActionKind.TAKE and len(state.pile) >= BIG_PILE
    if big and not _bonus_gained(state, action):
        return -5.0  # a huge pile swells the hand and puts the morto off: draw instead
    if kind is ActionKind.DISCARD:
        return value - _discard_cost(state, action.cards[0].id)
    return 30.0 + value


@dataclass
class Computer:
    """A computer player of ``level`` 0–3; ``budget`` is level 3's seconds per move."""

    level: int = 1
    seed: int | None = None
    budget: float = 0.25
    rollout_turns: int = 0
    """Turns a rollout plays after the move's own turn (0: one turn for every player)."""
    candidates: int = 5
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
            world.apply_legal(max(actions, key=lambda a: greedy_value(world, a)))
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
