"""The seed's ``HandTracker``: who holds which cards, dealing, the draw, evaluation.

Method names are the seed's in snake_case (``TrackPlayers`` → :meth:`HandTracker.track_players`).
The tracker owns one deck: a stock to deal from, the cards in players' hands, and a discard
pile. A card is in exactly one of those places, so no card is handed out twice; when the stock
runs short during the draw, the discard pile (without the cards being thrown right now) is
shuffled into a new stock — the usual rule of five-card draw.

>>> tracker = HandTracker(seed=4)
>>> tracker.track_players(["Brad", "Scott"])
>>> tracker.shuffle_deck()
>>> tracker.deal_players_in()
>>> [len(tracker.tracked_hand(name)) for name in tracker.tracked_players()], len(tracker.deck)
([5, 5], 42)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, KeysView
from typing import Any

from cardscore.cards import Card, Rank, full_deck, parse_cards
from cardscore.errors import DeckExhaustedError, IllegalMoveError, ImpossibleTableError, Problem
from cardscore.poker.evaluate import HandRank, evaluate
from cardscore.poker.tables import hand_tables, primes_encoding, twos_encoding

__all__ = ["HAND_SIZE", "HandTracker", "allow_discards", "discard_problems"]

HAND_SIZE = 5


def discard_problems(hand: Iterable[Card], discards: Iterable[Card]) -> list[Problem]:
    """Why five-card draw forbids throwing ``discards`` from ``hand`` (empty when allowed).

    Up to three cards may be thrown freely, four only when the card kept is an ace, never five.
    The dealer, :func:`~cardscore.poker.draw_odds` and :func:`~cardscore.poker.draw_equity`
    all refuse a draw for these reasons.

    >>> discard_problems(parse_cards("Jh Jd Ks Js 4c"), parse_cards("Jh Jd Ks Js"))
    ['four cards may be thrown only when the card kept is an ace (kept 4♣)']
    """
    held, thrown = list(hand), list(discards)
    problems = [Problem.of("not_in_hand", card=str(card)) for card in thrown if card not in held]
    problems += [
        Problem.of("thrown_twice", card=str(card))
        for i, card in enumerate(thrown)
        if card in thrown[:i]
    ]
    kept = [card for card in held if card not in thrown]
    if len(set(thrown)) >= HAND_SIZE:
        problems.append(Problem.of("throw_five"))
    elif len(set(thrown)) == 4 and not (len(kept) == 1 and kept[0].rank is Rank.ACE):
        shown = " ".join(str(card) for card in kept)
        problems.append(Problem.of("throw_four_no_ace", kept=shown))
    return problems


def allow_discards(hand: Iterable[Card], discards: Iterable[Card]) -> bool:
    """Whether the draw rules let ``hand`` throw ``discards`` (see :func:`discard_problems`).

    >>> allow_discards(parse_cards("As 7d 6c 3h 2d"), parse_cards("7d 6c 3h 2d"))
    True
    """
    return not discard_problems(hand, discards)


class HandTracker:
    """Cards for a table of players: deal, draw, evaluate, collect.

    ``players`` maps each tracked name to ``{'cards': [...]}``, plus ``rank_n`` (the class
    number) and ``rank_c`` (the category's wording) once :meth:`evaluate_players_in` ran.
    """

    def __init__(self, seed: int | None = None) -> None:
        self._random = random.Random(seed)
        self.players: dict[str, dict[str, Any]] = {}
        self.stock: list[Card] = list(full_deck())
        """The cards still to deal; the next card dealt is the last one."""
        self.discards: list[Card] = []
        self.loose: list[Card] = []
        """Cards dealt with :meth:`deal_hand` or :meth:`swap_cards` to no tracked player."""
        self.reshuffles = 0

    # -- the seed's tables -------------------------------------------------------------------

    @property
    def deck(self) -> list[Card]:
        """The stock (the seed's ``DECK``); cards are dealt from its end."""
        return list(self.stock)

    @property
    def flush_ranks(self) -> dict[int, int]:
        return hand_tables().flush_ranks

    @property
    def unique5_ranks(self) -> dict[int, int]:
        return hand_tables().unique5_ranks

    @property
    def dupe_ranks(self) -> dict[int, int]:
        return hand_tables().dupe_ranks

    # -- players -----------------------------------------------------------------------------

    def track_players(self, names: Iterable[str]) -> None:
        for name in names:
            self.players.setdefault(name, {"cards": []})

    def tracked_players(self) -> KeysView[str]:
        return self.players.keys()

    def _player(self, name: str) -> dict[str, Any]:
        if name not in self.players:
            raise IllegalMoveError(Problem.of("not_tracked", name=name))
        return self.players[name]

    def tracked_hand(self, name: str) -> list[Card]:
        hand: list[Card] = self._player(name)["cards"]
        return hand

    def assign_cards(self, name: str, cards: Iterable[Card | str]) -> None:
        """Append cards to a player's hand (low level: the deck is not consulted)."""
        self._player(name)["cards"].extend(parse_cards(cards))

    def unassign_cards(self, name: str, cards: Iterable[Card | str]) -> None:
        """Remove cards from a player's hand; an error naming every card they do not hold."""
        hand = self.tracked_hand(name)
        wanted = parse_cards(cards)
        missing = [
            Problem.of("does_not_hold", name=name, card=str(card))
            for card in wanted
            if card not in hand
        ]
        if missing:
            raise IllegalMoveError(missing)
        for card in wanted:
            hand.remove(card)

    # -- dealing -----------------------------------------------------------------------------

    def shuffle_deck(self) -> None:
        self._random.shuffle(self.stock)

    def _take(self, n: int, *, keep_out: Iterable[Card] = ()) -> list[Card]:
        if n > len(self.stock):
            held_back = set(keep_out)
            pile = [card for card in self.discards if card not in held_back]
            if n > len(self.stock) + len(pile):
                raise DeckExhaustedError(
                    Problem.of("stock_short", n=n, stock=len(self.stock), discards=len(pile))
                )
            self.discards = [card for card in self.discards if card in held_back]
            self._random.shuffle(pile)
            self.stock[:0] = pile  # the old stock is dealt first, then the reshuffled discards
            self.reshuffles += 1
        taken = self.stock[len(self.stock) - n :][::-1]
        del self.stock[len(self.stock) - n :]
        return taken

    def deal_hand(self) -> list[Card]:
        """Five cards from the stock, held by no tracked player."""
        if len(self.stock) < HAND_SIZE:
            raise DeckExhaustedError(Problem.of("deal_hands_short", n=1, left=len(self.stock)))
        hand = self._take(HAND_SIZE)
        self.loose.extend(hand)
        return hand

    def deal_players_in(self) -> None:
        """Deal five cards to every tracked player, one at a time in turn as at a table."""
        names = list(self.players)
        if len(self.stock) < HAND_SIZE * len(names):
            raise DeckExhaustedError(
                Problem.of("deal_hands_short", n=len(names), left=len(self.stock))
            )
        for _ in range(HAND_SIZE):
            for name in names:
                self.players[name]["cards"].extend(self._take(1))

    # -- evaluation (the seed's walk-through names) --------------------------------------------

    def evaluate_hand(self, hand: Iterable[Card | str]) -> HandRank:
        return evaluate(parse_cards(hand))

    def has_flush(self, hand: Iterable[Card]) -> bool:
        return len({card.suit for card in hand}) == 1

    def has_unique5(self, hand: Iterable[Card]) -> bool:
        cards = list(hand)
        return len({card.rank for card in cards}) == len(cards) == HAND_SIZE

    def twos_encoding(self, hand: Iterable[Card]) -> int:
        return twos_encoding(tuple(card.rank.index for card in hand))

    def primes_encoding(self, hand: Iterable[Card]) -> int:
        return primes_encoding(tuple(card.rank.index for card in hand))

    def evaluate_players_in(self) -> None:
        for info in self.players.values():
            found = evaluate(info["cards"])
            info["rank_n"], info["rank_c"] = found.rank, found.category.value

    # -- the draw ----------------------------------------------------------------------------

    def allow_discards(self, hand: Iterable[Card], discards: Iterable[Card]) -> bool:
        return allow_discards(hand, discards)

    def swap_cards(self, cards: Iterable[Card | str]) -> list[Card]:
        """Throw ``cards`` on the discard pile and deal as many new ones (no rule checks)."""
        thrown = list(parse_cards(cards))
        new = self._take(len(thrown), keep_out=thrown)
        self.discards.extend(thrown)
        self.loose = [card for card in self.loose if card not in thrown] + new
        return new

    def swap_players_cards(self, name: str, discards: Iterable[Card | str]) -> list[Card]:
        """A player throws ``discards`` and draws replacements into the same hand."""
        thrown = list(parse_cards(discards))
        hand = self.tracked_hand(name)
        missing = [
            Problem.of("does_not_hold", name=name, card=str(card))
            for card in thrown
            if card not in hand
        ]
        if missing:
            raise IllegalMoveError(missing)
        new = self._take(len(thrown), keep_out=thrown)  # may raise: then nothing changed
        self.unassign_cards(name, thrown)
        self.discards.extend(thrown)
        hand.extend(new)
        return new

    def collect_cards(self) -> None:
        """Take every card back (hands, discards, loose cards) into a full, unshuffled stock."""
        for info in self.players.values():
            info.clear()
            info["cards"] = []
        self.stock = list(full_deck())
        self.discards, self.loose = [], []

    def check(self) -> None:
        """Raise if any card is in two places or missing: the deck's invariant."""
        places = [self.stock, self.discards, self.loose]
        places += [info["cards"] for info in self.players.values()]
        every = [card for place in places for card in place]
        if sorted(every) != list(full_deck()):
            raise ImpossibleTableError(Problem.of("tracker_lost_card"))
