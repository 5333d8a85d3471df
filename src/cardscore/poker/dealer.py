"""A dealer that runs whole hands of five-card draw for 2–7 seats.

A hand: antes and blinds are posted, five cards each, a betting round, the draw (each player
still in throws 0–3 cards, 4 when keeping an ace, and draws replacements), a second betting
round, the showdown. Chips carry over from hand to hand and the button moves one seat left
(to the next player with chips) each hand.

Every player action has three methods — ``can_x`` (bool), ``verify_x`` (raises
:class:`~cardscore.errors.IllegalMoveError` naming the reason), ``x`` (does it and returns a
frozen :class:`~cardscore.poker.betting.Action`) — and always acts for the player whose turn
it is (:attr:`Dealer.to_act`). The hand's history (:meth:`Dealer.history`) is plain JSON that
:meth:`Dealer.replay` turns back into the same state.

>>> dealer = Dealer(["Ann", "Bo", "Cy"], stacks=100, seed=1)
>>> dealer.start_hand()
>>> dealer.phase, dealer.seats[dealer.to_act].name, dealer.to_call()
(<Phase.PRE_DRAW: 'betting before the draw'>, 'Ann', 2)
>>> dealer.call(), dealer.call(), dealer.check()
(Action(seat=0, kind=<ActionKind.CALL: 'call'>, amount=2, ...), ..., ...)
>>> dealer.phase
<Phase.DRAW: 'draw'>
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from html import escape
from typing import Any

from cardscore.cards import Card, parse_cards
from cardscore.errors import (
    CardscoreError,
    IllegalMoveError,
    ImpossibleTableError,
    InvalidNotationError,
    Problem,
)
from cardscore.poker.betting import Action, ActionKind, Limit, Pot, Rules, build_pots, split_pot
from cardscore.poker.evaluate import HandRank, evaluate
from cardscore.poker.tracker import HandTracker, discard_problems

__all__ = ["Dealer", "HandResult", "Phase", "PotResult", "Seat"]

HISTORY_VERSION = 1


class Phase(Enum):
    WAITING = "waiting for a hand"
    PRE_DRAW = "betting before the draw"
    DRAW = "draw"
    POST_DRAW = "betting after the draw"
    COMPLETE = "hand complete"


@dataclass(slots=True)
class Seat:
    """A player at the table and their state in the current hand."""

    name: str
    stack: int
    in_hand: bool = False
    folded: bool = False
    round_bet: int = 0
    total_bet: int = 0
    acted_at: int | None = None
    """The bet level when this player last acted in the round (None: not yet)."""

    @property
    def all_in(self) -> bool:
        return self.in_hand and not self.folded and self.stack == 0

    @property
    def live(self) -> bool:
        """Still in the hand, whether or not able to bet."""
        return self.in_hand and not self.folded


@dataclass(frozen=True, slots=True)
class PotResult:
    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: dict[int, int]


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended: pots, who won what, and the hands shown."""

    pots: tuple[PotResult, ...]
    won: dict[int, int]
    """Chips each seat took from the pots."""
    returned: dict[int, int]
    """Uncalled bets given back."""
    shown: dict[int, tuple[tuple[Card, ...], HandRank]]
    """Seat → cards and class, for the hands shown at a showdown (empty when all folded)."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "pots": [
                {
                    "amount": p.amount,
                    "eligible": list(p.eligible),
                    "winners": list(p.winners),
                    "shares": {str(k): v for k, v in p.shares.items()},
                }
                for p in self.pots
            ],
            "won": {str(k): v for k, v in self.won.items()},
            "returned": {str(k): v for k, v in self.returned.items()},
            "shown": {
                str(seat): {"cards": [c.code for c in cards], **hand_rank.as_dict()}
                for seat, (cards, hand_rank) in self.shown.items()
            },
        }


class Dealer:
    """Runs hands of five-card draw at one table; see the module documentation."""

    def __init__(
        self,
        players: Sequence[str],
        stacks: int | Sequence[int] = 100,
        rules: Rules | None = None,
        *,
        seed: int | None = None,
        button: int = 0,
    ) -> None:
        names = list(players)
        amounts = [stacks] * len(names) if isinstance(stacks, int) else list(stacks)
        problems = []
        if not 2 <= len(names) <= 7:
            problems.append(Problem.of("seats", n=len(names)))
        if len(set(names)) != len(names):
            problems.append(Problem.of("names_differ"))
        if len(amounts) != len(names) or any(not isinstance(a, int) or a < 0 for a in amounts):
            problems.append(Problem.of("stacks"))
        if not 0 <= button < max(1, len(names)):
            problems.append(Problem.of("bad_button", last=len(names) - 1, button=repr(button)))
        if problems:
            raise CardscoreError(problems)
        self.rules = rules or Rules()
        self.seats = [Seat(name, stack) for name, stack in zip(names, amounts, strict=True)]
        self.seed = seed
        self._random = random.Random(seed)
        self.button = button
        self.hands_played = 0
        self.phase = Phase.WAITING
        self.to_act: int | None = None
        self.tracker = HandTracker()
        self.actions: list[Action] = []
        self.result: HandResult | None = None
        self._bet_to = 0
        self._last_raise = 0
        self._bets = 0
        self._start: dict[str, Any] = {}

    # -- a hand -------------------------------------------------------------------------------

    def start_hand(self, *, deck_seed: int | None = None, button: int | None = None) -> None:
        """Move the button (after the first hand), post antes and blinds, deal five each.

        ``deck_seed`` and ``button`` override the dealer's own choice (replays use them).
        """
        if self.phase not in (Phase.WAITING, Phase.COMPLETE):
            raise IllegalMoveError(Problem.of("hand_not_over"))
        funded = [i for i, s in enumerate(self.seats) if s.stack > 0]
        if len(funded) < 2:
            raise IllegalMoveError(Problem.of("too_few_funded"))
        if button is not None:
            if not 0 <= button < len(self.seats) or self.seats[button].stack == 0:
                raise IllegalMoveError(Problem.of("button_seat", seat=repr(button)))
            self.button = button
        elif self.hands_played or self.seats[self.button].stack == 0:
            self.button = self._next(self.button, lambda s: s.stack > 0)
        if deck_seed is None:
            deck_seed = self._random.getrandbits(63)
        for seat in self.seats:
            seat.in_hand, seat.folded = seat.stack > 0, False
            seat.round_bet = seat.total_bet = 0
            seat.acted_at = None
        self._start = {
            "version": HISTORY_VERSION,
            "rules": self.rules.as_dict(),
            "players": [s.name for s in self.seats],
            "stacks": [s.stack for s in self.seats],
            "button": self.button,
            "hand_number": self.hands_played + 1,
            "deck_seed": deck_seed,
        }
        self.actions, self.result = [], None
        self.tracker = HandTracker(seed=deck_seed)
        order = self.order()
        self.tracker.track_players(self.seats[i].name for i in order)
        self.tracker.shuffle_deck()
        self._start["deck"] = [c.code for c in reversed(self.tracker.stock)]
        self.tracker.deal_players_in()
        self.hands_played += 1
        self.phase = Phase.PRE_DRAW
        if self.rules.ante:
            for i in order:
                self._post(i, ActionKind.ANTE, self.rules.ante, counts_as_bet=False)
        self._bet_to, self._last_raise, self._bets = 0, self.rules.min_bet(after_draw=False), 0
        first = order[0]
        if self.rules.big_blind or self.rules.small_blind:
            heads_up = len(order) == 2
            small = self.button if heads_up else order[0]
            big = order[0] if heads_up else order[1 % len(order)]
            if self.rules.small_blind:
                self._post(small, ActionKind.SMALL_BLIND, self.rules.small_blind)
            if self.rules.big_blind:
                self._post(big, ActionKind.BIG_BLIND, self.rules.big_blind)
            self._bet_to = max(self.rules.big_blind, self.rules.small_blind)
            self._bets = 1 if self.rules.big_blind else 0
            first = self._next(big, lambda s: s.live)
        self.to_act = self._first_to_act(first)
        self._advance_if_done()

    def order(self) -> list[int]:
        """Seats dealt in this hand, starting left of the button."""
        n = len(self.seats)
        return [
            (self.button + k) % n
            for k in range(1, n + 1)
            if self.seats[(self.button + k) % n].in_hand
        ]

    def _next(self, seat: int, wanted: Any) -> int:
        n = len(self.seats)
        for k in range(1, n + 1):
            if wanted(self.seats[(seat + k) % n]):
                return (seat + k) % n
        return seat

    def _post(
        self, seat: int, kind: ActionKind, amount: int, *, counts_as_bet: bool = True
    ) -> None:
        player = self.seats[seat]
        paid = min(amount, player.stack)
        player.stack -= paid
        player.total_bet += paid
        if counts_as_bet:
            player.round_bet += paid
        self.actions.append(Action(seat, kind, paid, player.round_bet, all_in=player.stack == 0))

    # -- whose turn ---------------------------------------------------------------------------

    def _needs_action(self, seat: Seat) -> bool:
        if not seat.live or seat.stack == 0:
            return False
        if self.phase is Phase.DRAW:
            return seat.acted_at is None
        return seat.acted_at is None or seat.round_bet < self._bet_to

    def _first_to_act(self, start: int) -> int | None:
        n = len(self.seats)
        for k in range(n):
            seat = (start + k) % n
            if self.phase is Phase.DRAW:
                if self.seats[seat].live and self.seats[seat].acted_at is None:
                    return seat
            elif self._needs_action(self.seats[seat]):
                return seat
        return None

    def _advance_if_done(self) -> None:
        live = [s for s in self.seats if s.live]
        if len(live) == 1:
            self._finish()
            return
        if self.phase in (Phase.PRE_DRAW, Phase.POST_DRAW):
            can_bet = [s for s in live if s.stack > 0]
            if self.to_act is not None and not (
                len(can_bet) == 1 and can_bet[0].round_bet >= self._bet_to
            ):
                return
            self.to_act = None
            if self.phase is Phase.PRE_DRAW:
                self._begin(Phase.DRAW)
            else:
                self._finish()
        elif self.phase is Phase.DRAW and self.to_act is None:
            self._begin(Phase.POST_DRAW)

    def _begin(self, phase: Phase) -> None:
        self.phase = phase
        for seat in self.seats:
            seat.round_bet, seat.acted_at = 0, None
        self._bet_to, self._bets = 0, 0
        self._last_raise = self.rules.min_bet(after_draw=True)
        self.to_act = self._first_to_act(self._next(self.button, lambda s: True))
        self._advance_if_done()

    def _after_action(self) -> None:
        assert self.to_act is not None
        self.to_act = self._first_to_act(self.to_act + 1)
        self._advance_if_done()

    # -- what the player to act may do -------------------------------------------------------

    def _betting_player(self) -> Seat:
        if self.phase not in (Phase.PRE_DRAW, Phase.POST_DRAW) or self.to_act is None:
            raise IllegalMoveError(Problem.of("no_betting_now", phase=self.phase.value))
        return self.seats[self.to_act]

    def to_call(self) -> int:
        """Chips the player to act must add to call (capped by their stack)."""
        player = self._betting_player()
        return min(self._bet_to - player.round_bet, player.stack)

    def pot_total(self) -> int:
        return sum(s.total_bet for s in self.seats)

    def _bet_size(self) -> int:
        return self.rules.min_bet(after_draw=self.phase is Phase.POST_DRAW)

    def raise_range(self) -> tuple[int, int] | None:
        """Smallest and largest total a bet or raise may go to now (None if not allowed).

        An all-in for less than the smallest is also allowed (:meth:`all_in`).
        """
        try:
            player = self._betting_player()
        except IllegalMoveError:
            return None
        most = player.round_bet + player.stack
        if most <= self._bet_to:
            return None
        reopened = player.acted_at is None or self._bet_to - player.acted_at >= self._last_raise
        if self._bet_to and not reopened:
            return None  # only a short all-in since they acted: betting not reopened
        if self.rules.limit is Limit.FIXED:
            if self._bets >= self.rules.max_bets:
                return None
            least = self._bet_to + self._bet_size()
            return (least, least) if least <= most else (most, most)
        least = self._bet_to + (self._last_raise if self._bet_to else self._bet_size())
        return (min(least, most), most)

    def verify_fold(self) -> None:
        if self.to_call() == 0:
            raise IllegalMoveError(Problem.of("fold_free"))

    def verify_check(self) -> None:
        if self.to_call() != 0:
            raise IllegalMoveError(Problem.of("bet_to_call", amount=self.to_call()))

    def verify_call(self) -> None:
        if self.to_call() == 0:
            raise IllegalMoveError(Problem.of("nothing_to_call"))

    def verify_bet(self, amount: int) -> None:
        player = self._betting_player()
        if self._bet_to:
            raise IllegalMoveError(Problem.of("already_a_bet"))
        self._verify_to(player.round_bet + amount, player)

    def verify_raise_to(self, total: int) -> None:
        player = self._betting_player()
        if not self._bet_to:
            raise IllegalMoveError(Problem.of("no_bet_to_raise"))
        self._verify_to(total, player)

    def _verify_to(self, total: int, player: Seat) -> None:
        if not isinstance(total, int):
            raise IllegalMoveError(Problem.of("bet_not_whole", total=repr(total)))
        span = self.raise_range()
        most = player.round_bet + player.stack
        if span is None:
            raise IllegalMoveError(Problem.of("raise_closed"))
        if span[0] <= total <= span[1] or (total == most and total < span[0]):
            return  # a full bet or raise, or all in for less
        word = "bet" if not self._bet_to else "raise"
        if span[0] == span[1]:
            raise IllegalMoveError(Problem.of(f"{word}_fixed", amount=span[0], most=most))
        raise IllegalMoveError(Problem.of(f"{word}_range", low=span[0], high=span[1], total=total))

    def verify_all_in(self) -> None:
        player = self._betting_player()
        most = player.round_bet + player.stack
        if most > self._bet_to:
            self._verify_to(most, player)

    def verify_draw(self, discards: Iterable[Card | str]) -> None:
        if self.phase is not Phase.DRAW or self.to_act is None:
            raise IllegalMoveError(Problem.of("not_the_draw", phase=self.phase.value))
        name = self.seats[self.to_act].name
        problems = discard_problems(self.tracker.tracked_hand(name), parse_cards(discards))
        if problems:
            raise IllegalMoveError(problems)

    def _can(self, check: Any, *args: Any) -> bool:
        try:
            check(*args)
        except IllegalMoveError:
            return False
        return True

    def can_fold(self) -> bool:
        return self._can(self.verify_fold)

    def can_check(self) -> bool:
        return self._can(self.verify_check)

    def can_call(self) -> bool:
        return self._can(self.verify_call)

    def can_bet(self, amount: int) -> bool:
        return self._can(self.verify_bet, amount)

    def can_raise_to(self, total: int) -> bool:
        return self._can(self.verify_raise_to, total)

    def can_all_in(self) -> bool:
        return self._can(self.verify_all_in)

    def can_draw(self, discards: Iterable[Card | str]) -> bool:
        return self._can(self.verify_draw, discards)

    # -- doing it -----------------------------------------------------------------------------

    def _act(self, kind: ActionKind, add: int) -> Action:
        assert self.to_act is not None
        seat = self.to_act
        player = self.seats[seat]
        player.stack -= add
        player.round_bet += add
        player.total_bet += add
        if player.round_bet > self._bet_to:
            raised_by = player.round_bet - self._bet_to
            full = raised_by >= (self._last_raise if self._bet_to else self._bet_size())
            if self.rules.limit is Limit.FIXED:
                full = raised_by >= self._bet_size()
            if full:
                self._last_raise = raised_by
                self._bets += 1
            self._bet_to = player.round_bet
        if kind is ActionKind.FOLD:
            player.folded = True
        player.acted_at = self._bet_to
        action = Action(seat, kind, add, player.round_bet, all_in=player.stack == 0 and add > 0)
        self.actions.append(action)
        self._after_action()
        return action

    def fold(self) -> Action:
        self.verify_fold()
        return self._act(ActionKind.FOLD, 0)

    def check(self) -> Action:
        self.verify_check()
        return self._act(ActionKind.CHECK, 0)

    def call(self) -> Action:
        self.verify_call()
        return self._act(ActionKind.CALL, self.to_call())

    def bet(self, amount: int) -> Action:
        self.verify_bet(amount)
        return self._act(ActionKind.BET, amount)

    def raise_to(self, total: int) -> Action:
        self.verify_raise_to(total)
        return self._act(ActionKind.RAISE, total - self._betting_player().round_bet)

    def all_in(self) -> Action:
        """Put in every chip: a call, bet or raise, whichever that is."""
        self.verify_all_in()
        player = self._betting_player()
        most = player.round_bet + player.stack
        if most <= self._bet_to:
            return self._act(ActionKind.CALL, player.stack)
        kind = ActionKind.RAISE if self._bet_to else ActionKind.BET
        return self._act(kind, player.stack)

    def draw(self, discards: Iterable[Card | str] = ()) -> Action:
        """The player to act throws ``discards`` (none: stands pat) and draws replacements."""
        thrown = parse_cards(discards)
        self.verify_draw(thrown)
        assert self.to_act is not None
        seat = self.to_act
        drawn = self.tracker.swap_players_cards(self.seats[seat].name, thrown)
        self.seats[seat].acted_at = 0
        action = Action(seat, ActionKind.DRAW, discards=tuple(thrown), drawn=tuple(drawn))
        self.actions.append(action)
        self._after_action()
        return action

    def hand_of(self, seat: int) -> tuple[Card, ...]:
        """The cards seat ``seat`` holds now."""
        if not self.seats[seat].in_hand:
            return ()
        return tuple(self.tracker.tracked_hand(self.seats[seat].name))

    # -- the end ------------------------------------------------------------------------------

    def _finish(self) -> None:
        self.to_act = None
        totals = [s.total_bet for s in self.seats]
        returned: dict[int, int] = {}
        top = max(totals)
        leaders = [i for i, t in enumerate(totals) if t == top]
        if len(leaders) == 1:
            second = max(t for i, t in enumerate(totals) if i != leaders[0])
            if top > second:
                returned[leaders[0]] = top - second
                totals[leaders[0]] = second
                self.seats[leaders[0]].stack += top - second
        pots = build_pots(totals, [not s.live for s in self.seats])
        live = [i for i, s in enumerate(self.seats) if s.live]
        showdown = len(live) > 1
        shown = (
            {i: (self.hand_of(i), evaluate(list(self.hand_of(i)))) for i in live}
            if showdown
            else {}
        )
        order = self.order()
        results = []
        won: dict[int, int] = {}
        for pot in pots:
            results.append(self._award(pot, shown, order))
            for seat, chips in results[-1].shares.items():
                won[seat] = won.get(seat, 0) + chips
                self.seats[seat].stack += chips
        self.result = HandResult(tuple(results), won, returned, shown)
        self.phase = Phase.COMPLETE

    def _award(
        self, pot: Pot, shown: dict[int, tuple[tuple[Card, ...], HandRank]], order: list[int]
    ) -> PotResult:
        if not shown:
            winners: tuple[int, ...] = pot.eligible
        else:
            best = min(shown[i][1].rank for i in pot.eligible)
            winners = tuple(i for i in pot.eligible if shown[i][1].rank == best)
        return PotResult(pot.amount, pot.eligible, winners, split_pot(pot.amount, winners, order))

    # -- history ------------------------------------------------------------------------------

    def history(self) -> dict[str, Any]:
        """The current (or last) hand as JSON-ready data: start, deck, actions, result."""
        data = dict(self._start)
        data["actions"] = [a.as_dict() for a in self.actions]
        data["state"] = self.state()
        return data

    def history_json(self) -> str:
        return json.dumps(self.history(), ensure_ascii=False, indent=1)

    def state(self) -> dict[str, Any]:
        """What a replay must reproduce: phase, stacks, bets, hands, whose turn, the result."""
        return {
            "phase": self.phase.value,
            "to_act": self.to_act,
            "button": self.button,
            "stacks": [s.stack for s in self.seats],
            "bets": [s.total_bet for s in self.seats],
            "folded": [s.folded for s in self.seats],
            "hands": [[c.code for c in self.hand_of(i)] for i in range(len(self.seats))],
            "result": self.result.as_dict() if self.result else None,
        }

    @classmethod
    def replay(cls, history: dict[str, Any] | str) -> Dealer:
        """Rebuild a hand from :meth:`history`, checking every recorded action is legal and
        draws the recorded cards."""
        data = json.loads(history) if isinstance(history, str) else history
        if data.get("version") != HISTORY_VERSION:
            raise InvalidNotationError(
                Problem.of("history_version", version=repr(data.get("version")))
            )
        dealer = cls(
            data["players"], data["stacks"], Rules.from_dict(data["rules"]), button=data["button"]
        )
        dealer.hands_played = data["hand_number"] - 1
        dealer.start_hand(deck_seed=data["deck_seed"], button=data["button"])
        if dealer._start["deck"] != data["deck"] or dealer.button != data["button"]:
            raise ImpossibleTableError(Problem.of("history_seed"))
        for record in data["actions"]:
            action = Action.from_dict(record)
            if action.kind.forced:
                continue
            if action.seat != dealer.to_act:
                raise IllegalMoveError(Problem.of("history_turn", seat=action.seat))
            done = dealer._apply(action)
            if done != action:
                raise IllegalMoveError(
                    Problem.of("history_action", record=str(record), replayed=str(done.as_dict()))
                )
        replayed = [a.as_dict() for a in dealer.actions]
        if replayed != data["actions"] or ("state" in data and dealer.state() != data["state"]):
            raise IllegalMoveError(Problem.of("history_differs"))
        return dealer

    def _apply(self, action: Action) -> Action:
        match action.kind:
            case ActionKind.FOLD:
                return self.fold()
            case ActionKind.CHECK:
                return self.check()
            case ActionKind.CALL:
                return self.call()
            case ActionKind.BET:
                return self.bet(action.amount)
            case ActionKind.RAISE:
                return self.raise_to(action.total)
            case ActionKind.DRAW:
                return self.draw(action.discards)
            case _:
                raise IllegalMoveError(Problem.of("not_player_action", kind=action.kind.value))

    # -- for solvers and bots -----------------------------------------------------------------

    def undo(self) -> Action:
        """Take back the last player action (the hand is replayed without it); returns it."""
        if not any(not a.kind.forced for a in self.actions):
            raise IllegalMoveError(Problem.of("no_action_to_undo"))
        last = self.actions[-1]
        data = self.history()
        data["actions"] = [a.as_dict() for a in self.actions[:-1]]
        del data["state"]
        previous = Dealer.replay(data)
        keep = self._random, self.seed
        for name in (
            "rules",
            "seats",
            "button",
            "hands_played",
            "phase",
            "to_act",
            "tracker",
            "actions",
            "result",
            "_bet_to",
            "_last_raise",
            "_bets",
            "_start",
        ):
            setattr(self, name, getattr(previous, name))
        self._random, self.seed = keep
        return last

    def legal_actions(self) -> list[ActionKind]:
        """Kinds of action open to the player to act (bet sizes: :meth:`raise_range`)."""
        if self.to_act is None:
            return []
        if self.phase is Phase.DRAW:
            return [ActionKind.DRAW]
        kinds = []
        if self.can_fold():
            kinds.append(ActionKind.FOLD)
        kinds.append(ActionKind.CHECK if self.to_call() == 0 else ActionKind.CALL)
        if self.raise_range() is not None:
            kinds.append(ActionKind.RAISE if self._bet_to else ActionKind.BET)
        return kinds

    def _repr_html_(self) -> str:
        """The table in Jupyter: seats, stacks, chips in, cards (all shown), whose turn."""
        rows = []
        for i, seat in enumerate(self.seats):
            marks = ("D " if i == self.button else "") + ("▶" if i == self.to_act else "")
            cards = " ".join(card._repr_html_() for card in self.hand_of(i))
            status = "folded" if seat.folded else ("all in" if seat.all_in else "")
            rows.append(
                f"<tr><td>{marks}</td><td>{escape(seat.name)}</td><td>{seat.stack}</td>"
                f"<td>{seat.total_bet}</td><td>{cards}</td><td>{status}</td></tr>"
            )
        head = (
            "<tr><th></th><th>player</th><th>stack</th><th>in pot</th><th>cards</th><th></th></tr>"
        )
        caption = f"<caption>{escape(self.phase.value)} — pot {self.pot_total()}</caption>"
        return f"<table>{caption}{head}{''.join(rows)}</table>"

    def __repr__(self) -> str:
        stacks = ", ".join(f"{s.name}={s.stack}" for s in self.seats)
        return f"<Dealer {self.phase.value}, button {self.button}: {stacks}>"
