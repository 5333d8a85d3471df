"""Play a Tranca round: deal, draw or take the pile, meld, discard, mortos, going out — scored.

:class:`TrancaState` deals a round from a shuffled deck (or a seed) and then takes one action at a
time from the player whose turn it is. Every action has ``can_x`` (a bool), ``verify_x`` (raises
:class:`~cardscore.errors.IllegalMoveError` naming the rule broken) and ``x`` (does it and
returns a frozen :class:`~cardscore.tranca.actions.Move`); :meth:`TrancaState.legal_actions`
lists the moves worth telling apart, :meth:`TrancaState.undo` takes the last one back. The game
is saved as JSON (deck + actions) and replayed exactly; the final table is a round JSON that
``cardscore tranca score`` accepts and that the same scorer scores.

What the engine does by itself, as the documents say: red 3s are laid and replaced at once
(dealt, drawn or found in a morto); a player whose hand empties takes the team's morto (and goes
on playing if the hand emptied without a discard); a morto replaces an exhausted stock; the
round ends when a team with a canastra goes out or when the stock runs out with no morto left.
The house rules the documents leave open are in :class:`PlayRules` (``docs/tranca-rules.md``).

>>> game = TrancaState(players=2, seed=7)
>>> game.to_act, game.phase, len(game.hand(0)), game.stock_size, game.mortos_left
(0, Phase.DRAW, 11, 59, 2)
>>> game.can_discard("Kc"), game.can_draw()
(False, True)
>>> move = game.draw()
>>> move.action.notation, len(game.hand(0)), game.phase
('draw', 12, Phase.PLAY)
>>> game.verify_meld("Ah Kh")
Traceback (most recent call last):
...
cardscore.errors.IllegalMoveError: ...
>>> _ = game.undo(); game.phase, len(game.hand(0))
(Phase.DRAW, 11)
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from html import escape
from pathlib import Path
from typing import Any

from cardscore.cards import Card, Rank, parse_card, parse_cards
from cardscore.errors import CardscoreError, IllegalMoveError, Problem, catalogue
from cardscore.tranca.actions import Action, ActionKind, Move, parse_action
from cardscore.tranca.melds import Meld, format_cards, meld_problems
from cardscore.tranca.round import Round, parse_round
from cardscore.tranca.rules import (
    CANASTRA_SIZE,
    PLAYER_COUNTS,
    TrancaRules,
    decks_for,
    team_count,
)
from cardscore.tranca.scoring import RoundScore, score_round

__all__ = [
    "HAND_SIZE",
    "MORTOS",
    "Observation",
    "Phase",
    "PlayRules",
    "TrancaState",
    "canonical_meld",
]

HAND_SIZE = 11
MORTOS = 2
SAVE_VERSION = 1
NAMES = ("Ana", "Bia", "Caio", "Duda", "Edu", "Fabi")

_CARDS: tuple[Card, ...] = tuple(Card.from_id(i) for i in range(52))
_ID_OF = {id(card): i for i, card in enumerate(_CARDS)}  # parsing returns these very objects
_TWOS = (0, 1, 2, 3)
_RED_THREES = frozenset({Card("3h").id, Card("3d").id})
_BLACK_THREES = frozenset({Card("3s").id, Card("3c").id})
_FOUR, _ACE = Rank.FOUR.index, Rank.ACE.index

# Rule names quoted in every refusal, with the documents' section (translated as places).
TURN = catalogue()["place_turn"]
PILE = catalogue()["place_pile"]
MELDS = catalogue()["place_melds"]
HAND = catalogue()["place_hand"]
GOING_OUT = catalogue()["place_going_out"]
HOUSE = catalogue()["place_house"]
RULES = catalogue()["place_rules"]
SAVED = catalogue()["place_saved_game"]


class Phase(Enum):
    DRAW = "draw or take"
    PLAY = "meld, add or discard"
    OVER = "round over"

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


@dataclass(frozen=True, slots=True)
class PlayRules:
    """House rules where the documents are silent (common Brazilian practice by default).

    ``edges_only``: sets only of 4, 5, K, A (the scorer's house rule). ``clean_canastra_takes_two``:
    whether a 2 may be added to a clean canastra, dirtying it (no by default).
    ``take_two_on_top``: whether a 2 on top of the discard pile may be taken (yes).
    """

    edges_only: bool = False
    clean_canastra_takes_two: bool = False
    take_two_on_top: bool = True

    @property
    def scoring(self) -> TrancaRules:
        """The rules the scorer and the meld checks use."""
        return TrancaRules(edges_only=self.edges_only)

    def as_dict(self) -> dict[str, bool]:
        return {
            "edges_only": self.edges_only,
            "clean_canastra_takes_two": self.clean_canastra_takes_two,
            "take_two_on_top": self.take_two_on_top,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PlayRules:
        known = set(cls().as_dict())
        problems = [
            Problem.of("unknown_house_rule", rule=str(k)).at(RULES) for k in data if k not in known
        ]
        problems += [
            Problem.of("house_rule_not_bool", rule=k, value=repr(v)).at(RULES)
            for k, v in data.items()
            if k in known and not isinstance(v, bool)
        ]
        if problems:
            raise CardscoreError(problems)
        return cls(**dict(data))


_MELD_CACHE: dict[tuple[bool, tuple[int, ...]], bool] = {}
_CANON_CACHE: dict[tuple[bool, tuple[int, ...]], bool] = {}
_FITS: dict[tuple[bool, tuple[int, ...]], dict[int, bool]] = {}


def canonical_meld(ids: Iterable[int]) -> tuple[int, ...]:
    """The same cards up to the symmetries of the meld rules: suits renamed, 2s as ♠.

    ``meld_problems`` looks at suits only to compare them and at 2s only to count them, so
    renaming suits (in order of first appearance) and giving every 2 the same suit keeps a meld
    legal or illegal — which lets one check stand for many (tests compare both on random cards).

    >>> canonical_meld([Card("9h").id, Card("2d").id, Card("Th").id]) == canonical_meld(
    ...     [Card("9c").id, Card("2s").id, Card("Tc").id])
    True
    """
    renamed: dict[int, int] = {}
    out = []
    for card in sorted(ids):
        rank, suit = divmod(card, 4)
        if rank == 0:
            out.append(0)
            continue
        new = renamed.get(suit)
        if new is None:
            new = renamed[suit] = len(renamed)
        out.append(rank * 4 + new)
    return tuple(sorted(out))


def _is_meld(ids: tuple[int, ...], rules: TrancaRules) -> bool:
    """Whether sorted card ids make a meld, by the scorer's own check (memoised)."""
    key = (rules.edges_only, ids)
    legal = _MELD_CACHE.get(key)
    if legal is None:
        if len(_MELD_CACHE) > 1_000_000:
            _MELD_CACHE.clear()
            _FITS.clear()
        canon = (rules.edges_only, canonical_meld(ids))
        legal = _CANON_CACHE.get(canon)
        if legal is None:
            legal = not meld_problems([_CARDS[i] for i in ids], rules)
            _CANON_CACHE[canon] = legal
        _MELD_CACHE[key] = legal
    return legal


def _fits(meld: tuple[int, ...], card: int, rules: TrancaRules) -> bool:
    """Whether one more ``card`` keeps ``meld`` a meld (memoised per meld)."""
    fits = _FITS.get((rules.edges_only, meld))
    if fits is None:
        fits = _FITS[(rules.edges_only, meld)] = {}
    legal = fits.get(card)
    if legal is None:
        legal = fits[card] = _is_meld(_sorted((*meld, card)), rules)
    return legal


def card_ids(cards: Iterable[Card]) -> list[int]:
    """Each card's :attr:`~cardscore.cards.Card.id`, fast for the cards parsing hands out."""
    found = _ID_OF.get
    return [i if (i := found(id(card))) is not None else card.id for card in cards]


def _sorted(ids: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(ids))


def _is_clean_canastra(meld: tuple[int, ...]) -> bool:
    return len(meld) >= CANASTRA_SIZE and meld[0] >= 4  # sorted: a 2 would come first


@dataclass(frozen=True, slots=True)
class Observation:
    """What one seat may see: its own hand, every table, the pile, and counts of the rest.

    The discard pile is public (every card in it was discarded face up), and so are the cards a
    player took with the pile until they are played (``known``); the rest of the other hands,
    the stock and the mortos are known only by their sizes.
    """

    seat: int
    phase: Phase
    to_act: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    melds: tuple[tuple[Meld, ...], ...]
    dollars: tuple[tuple[Card, ...], ...]
    pile: tuple[Card, ...]
    stock: int
    mortos: int
    took_morto: tuple[bool, ...]
    known: tuple[tuple[Card, ...], ...] = ()
    """Per seat, the cards everyone knows it holds: those it took with the pile, not yet played."""

    @property
    def top(self) -> Card | None:
        return self.pile[-1] if self.pile else None


def suit_sorted(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards grouped by suit (♠ ♥ ♦ ♣), ranks ascending: how a hand is held."""
    return tuple(sorted(cards, key=lambda c: (c.suit.index, c.rank.index)))


class TrancaState:
    """One round of Tranca being played; see the module documentation.

    Seats are numbered from 0 in playing order; seat ``s`` plays for team ``s % teams`` (two or
    three players play alone, four in pairs and six in trios, partners never side by side).
    ``first`` is the seat that plays first. ``deck`` (card codes, dealt from the front) replaces
    the shuffle by ``seed``.
    """

    def __init__(
        self,
        players: int = 4,
        *,
        seed: int | None = None,
        names: Sequence[str] | None = None,
        rules: PlayRules | None = None,
        first: int = 0,
        deck: Sequence[str | Card] | None = None,
    ) -> None:
        problems: list[Problem] = []
        if players not in PLAYER_COUNTS:
            raise CardscoreError(Problem.of("bad_players", value=repr(players)))
        names = list(names) if names is not None else list(NAMES[:players])
        if (
            len(names) != players
            or len(set(names)) != players
            or not all(isinstance(n, str) and n.strip() for n in names)
        ):
            problems.append(Problem.of("player_names", players=players, names=repr(names)))
        if not isinstance(first, int) or not 0 <= first < players:
            problems.append(Problem.of("bad_first_seat", last=players - 1, value=repr(first)))
        self.players = players
        self.decks = decks_for(players)
        self.teams = team_count(players)
        self.names = tuple(names)
        self.rules = rules or PlayRules()
        self._scoring = self.rules.scoring
        self.first = first
        self.seed = seed
        if deck is None:
            ids = list(range(52)) * self.decks
            random.Random(seed).shuffle(ids)
        else:
            ids = [c.id for c in parse_cards(deck)]
            if Counter(ids) != Counter(list(range(52)) * self.decks):
                problems.append(Problem.of("deck_copies", decks=self.decks))
        if problems:
            raise CardscoreError(problems)
        self.deck = tuple(ids)
        self._deal()

    # -- setting up ---------------------------------------------------------------------------

    def _deal(self) -> None:
        ids, p = self.deck, self.players
        self.hands: list[list[int]] = [[0] * 52 for _ in range(p)]
        self.sizes = [0] * p
        for seat in range(p):
            for card in ids[seat * HAND_SIZE : (seat + 1) * HAND_SIZE]:
                self.hands[seat][card] += 1
                self.sizes[seat] += 1
        start = p * HAND_SIZE
        self.mortos: list[list[int]] = [
            list(ids[start + i * HAND_SIZE : start + (i + 1) * HAND_SIZE]) for i in range(MORTOS)
        ]
        self.stock = list(reversed(ids[start + MORTOS * HAND_SIZE :]))  # drawn from the end
        self.pile: list[int] = []
        self.melds: list[list[tuple[int, ...]]] = [[] for _ in range(self.teams)]
        self.dollars: list[list[int]] = [[] for _ in range(self.teams)]
        self.took_morto = [False] * self.teams
        self.known: list[list[int]] = [[0] * 52 for _ in range(p)]
        self.to_act = self.first
        self.phase = Phase.DRAW
        self.went_out_seat: int | None = None
        self.history: list[tuple[int, Action]] = []
        self.moves: list[Move] = []
        self._undo: list[tuple[Any, ...]] = []
        for offset in range(p):  # dealt red 3s are laid and replaced in playing order
            seat = (self.first + offset) % p
            hand = self.hands[seat]
            for red in sorted(_RED_THREES):
                while hand[red]:
                    hand[red] -= 1
                    self.sizes[seat] -= 1
                    self.dollars[seat % self.teams].append(red)
                    replacement = self._pop_stock()
                    if replacement is not None:
                        self._receive(seat, replacement, [], [])

    # -- looking at it ------------------------------------------------------------------------

    def team_of(self, seat: int) -> int:
        return seat % self.teams

    def team_seats(self, team: int) -> tuple[int, ...]:
        return tuple(range(team, self.players, self.teams))

    def team_name(self, team: int) -> str:
        return " & ".join(self.names[s] for s in self.team_seats(team))

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The seat's hand, by suit then rank."""
        counts = self.hands[seat]
        return suit_sorted(_CARDS[i] for i in range(52) for _ in range(counts[i]))

    def team_melds(self, team: int) -> tuple[Meld, ...]:
        return tuple(Meld([_CARDS[i] for i in m], rules=self._scoring) for m in self.melds[team])

    @property
    def stock_size(self) -> int:
        return len(self.stock)

    @property
    def mortos_left(self) -> int:
        return len(self.mortos)

    @property
    def top(self) -> Card | None:
        return _CARDS[self.pile[-1]] if self.pile else None

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def has_canastra(self, team: int) -> bool:
        return any(len(m) >= CANASTRA_SIZE for m in self.melds[team])

    def morto_open(self, team: int) -> bool:
        """Whether the team may still take a morto (it has none and one is left)."""
        return not self.took_morto[team] and bool(self.mortos)

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see now."""
        return Observation(
            seat=seat,
            phase=self.phase,
            to_act=self.to_act,
            hand=self.hand(seat),
            hand_sizes=tuple(self.sizes),
            melds=tuple(self.team_melds(t) for t in range(self.teams)),
            dollars=tuple(tuple(_CARDS[i] for i in d) for d in self.dollars),
            pile=tuple(_CARDS[i] for i in self.pile),
            stock=len(self.stock),
            mortos=len(self.mortos),
            took_morto=tuple(self.took_morto),
            known=tuple(
                tuple(_CARDS[i] for i in range(52) for _ in range(k[i])) for k in self.known
            ),
        )

    def card_places(self) -> dict[str, tuple[Card, ...]]:
        """Every card of the round by where it lies (hands, stock, mortos, pile, tables)."""
        places: dict[str, tuple[Card, ...]] = {}
        for seat in range(self.players):
            places[f"hand {self.names[seat]}"] = self.hand(seat)
        places["stock"] = tuple(_CARDS[i] for i in self.stock)
        for i, morto in enumerate(self.mortos):
            places[f"morto {i + 1}"] = tuple(_CARDS[c] for c in morto)
        places["pile"] = tuple(_CARDS[i] for i in self.pile)
        for team in range(self.teams):
            for i, meld in enumerate(self.melds[team]):
                places[f"{self.team_name(team)} meld {i + 1}"] = tuple(_CARDS[c] for c in meld)
            places[f"{self.team_name(team)} dollars"] = tuple(_CARDS[c] for c in self.dollars[team])
        return places

    # -- moving cards -------------------------------------------------------------------------

    def _pop_stock(self) -> int | None:
        """The stock's next card; an exhausted stock is replaced by a morto (None if none)."""
        if not self.stock:
            if not self.mortos:
                return None
            self.stock = self.mortos.pop()[:]  # the morto's own list stays as it was
        return self.stock.pop()

    def _receive(
        self, seat: int, card: int | None, received: list[int], dollars: list[int]
    ) -> None:
        """A card comes into the hand; a red 3 is laid at once and replaced from the stock."""
        while card is not None:
            if card in _RED_THREES:
                self.dollars[seat % self.teams].append(card)
                dollars.append(card)
                card = self._pop_stock()
                continue
            self.hands[seat][card] += 1
            self.sizes[seat] += 1
            received.append(card)
            return

    def _take_out(self, seat: int, ids: Iterable[int]) -> None:
        hand = self.hands[seat]
        known = self.known[seat]
        for card in ids:
            hand[card] -= 1
            self.sizes[seat] -= 1
            if known[card] > hand[card]:
                known[card] = hand[card]  # a known copy was played

    def _take_morto(self, seat: int, received: list[int], dollars: list[int]) -> None:
        self.took_morto[seat % self.teams] = True
        for card in self.mortos.pop():
            self._receive(seat, card, received, dollars)

    # -- checking -----------------------------------------------------------------------------

    def _phase_problem(self, wanted: Phase) -> list[Problem]:
        if self.phase is wanted:
            return []
        if self.phase is Phase.OVER:
            return [Problem.of("round_over").at(TURN)]
        code = "already_drew" if wanted is Phase.DRAW else "draw_first"
        return [Problem.of(code, name=self.names[self.to_act]).at(TURN)]

    def _holding_problems(self, ids: Sequence[int]) -> list[Problem]:
        hand = self.hands[self.to_act]
        problems = []
        for card, n in Counter(ids).items():
            if hand[card] < n:
                shown = str(_CARDS[card])
                held = hand[card]
                found = Problem.of("held_only", n=held, card=shown) if held else None
                problems.append((found or Problem.of("not_held", card=shown)).at(HAND))
        return problems

    def _ending_problem(
        self, size_after: int, canastra_after: bool, discarding: bool
    ) -> Problem | None:
        """Whether an action may leave the hand this small (it must not strand the player)."""
        if size_after >= (1 if discarding else 2):
            return None
        team = self.to_act % self.teams
        if self.morto_open(team) or canastra_after:
            return None
        code = "out_emptying_hand" if size_after == 0 else "out_last_card"
        return Problem.of(code).at(GOING_OUT)

    def _meld_reasons(self, ids: Iterable[int]) -> list[Problem]:
        cards = [_CARDS[i] for i in sorted(ids)]
        return [p.at(MELDS) for p in meld_problems(cards, self._scoring)]  # keeps their codes

    def _two_on_clean(self, meld: tuple[int, ...], ids: Iterable[int]) -> bool:
        return (
            not self.rules.clean_canastra_takes_two
            and _is_clean_canastra(meld)
            and any(i < 4 for i in ids)
        )

    def _draw_problems(self) -> list[Problem]:
        return self._phase_problem(Phase.DRAW)

    def _take_problems(self, ids: Sequence[int], meld: int | None) -> list[Problem]:
        problems = self._phase_problem(Phase.DRAW)
        if problems:
            return problems
        if not self.pile:
            return [Problem.of("pile_empty").at(PILE)]
        top = self.pile[-1]
        if top in _BLACK_THREES:
            return [Problem.of("pile_blocked", card=str(_CARDS[top])).at(PILE)]
        if top < 4 and not self.rules.take_two_on_top:
            return [Problem.of("no_two_on_top").at(HOUSE)]
        team = self.to_act % self.teams
        melds = self.melds[team]
        if meld is not None and ids:
            return [Problem.of("take_meld_or_cards").at(PILE)]
        pile_rest = len(self.pile) - 1
        if meld is not None:
            if not 0 <= meld < len(melds):
                return [Problem.of("no_such_meld", meld=meld + 1, n=len(melds)).at(PILE)]
            key = _sorted((*melds[meld], top))
            if not _is_meld(key, self._scoring):
                return [
                    Problem.of("top_misfits", card=str(_CARDS[top]), meld=meld + 1).at(PILE),
                    *self._meld_reasons(key),
                ]
            if self._two_on_clean(melds[meld], (top,)):
                return [Problem.of("clean_takes_no_two").at(HOUSE)]
            size_after = self.sizes[self.to_act] + pile_rest
            canastra_after = self.has_canastra(team) or len(key) >= CANASTRA_SIZE
        else:
            if len(ids) < 2:
                return [Problem.of("top_laid_at_once", card=str(_CARDS[top])).at(PILE)]
            problems = self._holding_problems(ids)
            key = _sorted((*ids, top))
            if not _is_meld(key, self._scoring):
                shown = format_cards(_CARDS[i] for i in ids)
                problems.append(
                    Problem.of("top_makes_no_meld", card=str(_CARDS[top]), cards=shown).at(PILE)
                )
                problems += self._meld_reasons(key)
            if problems:
                return problems
            size_after = self.sizes[self.to_act] - len(ids) + pile_rest
            canastra_after = self.has_canastra(team) or len(key) >= CANASTRA_SIZE
        ending = self._ending_problem(size_after, canastra_after, discarding=False)
        return [ending] if ending else []

    def _meld_problems(self, ids: Sequence[int]) -> list[Problem]:
        problems = self._phase_problem(Phase.PLAY)
        if problems:
            return problems
        problems = self._holding_problems(ids)
        key = _sorted(ids)
        if not _is_meld(key, self._scoring):
            problems += self._meld_reasons(key)
        if problems:
            return problems
        team = self.to_act % self.teams
        ending = self._ending_problem(
            self.sizes[self.to_act] - len(ids),
            self.has_canastra(team) or len(ids) >= CANASTRA_SIZE,
            discarding=False,
        )
        return [ending] if ending else []

    def _add_problems(self, meld: int, ids: Sequence[int]) -> list[Problem]:
        problems = self._phase_problem(Phase.PLAY)
        if problems:
            return problems
        team = self.to_act % self.teams
        melds = self.melds[team]
        if not isinstance(meld, int) or not 0 <= meld < len(melds):
            return [Problem.of("no_such_meld", meld=meld + 1, n=len(melds)).at(MELDS)]
        if not ids:
            return [Problem.of("add_no_cards", meld=meld + 1).at(MELDS)]
        problems = self._holding_problems(ids)
        key = _sorted((*melds[meld], *ids))
        if not _is_meld(key, self._scoring):
            problems += self._meld_reasons(key)
        elif self._two_on_clean(melds[meld], ids):
            problems.append(Problem.of("clean_takes_no_two").at(HOUSE))
        if problems:
            return problems
        ending = self._ending_problem(
            self.sizes[self.to_act] - len(ids),
            self.has_canastra(team) or len(key) >= CANASTRA_SIZE,
            discarding=False,
        )
        return [ending] if ending else []

    def _discard_problems(self, card: int) -> list[Problem]:
        problems = self._phase_problem(Phase.PLAY) or self._holding_problems((card,))
        if problems:
            return problems
        team = self.to_act % self.teams
        ending = self._ending_problem(
            self.sizes[self.to_act] - 1, self.has_canastra(team), discarding=True
        )
        return [ending] if ending else []

    @staticmethod
    def _ids(cards: str | Iterable[str | Card]) -> list[int]:
        return [c.id for c in parse_cards(cards)]

    @staticmethod
    def _raise(problems: list[Problem]) -> None:
        if problems:
            raise IllegalMoveError(problems)

    def verify_draw(self) -> None:
        self._raise(self._draw_problems())

    def verify_take(self, cards: str | Iterable[str | Card] = (), meld: int | None = None) -> None:
        """The pile's top card goes onto meld ``meld`` or into a new meld with ``cards``."""
        if not cards and meld is None:
            self._raise(self._draw_problems() or self._auto_take_problems())
            return
        self._raise(self._take_problems(self._ids(cards), meld))

    def verify_meld(self, cards: str | Iterable[str | Card]) -> None:
        self._raise(self._meld_problems(self._ids(cards)))

    def verify_add(self, meld: int, cards: str | Iterable[str | Card]) -> None:
        """``meld`` is the 0-based index of the team's meld."""
        self._raise(self._add_problems(meld, self._ids(cards)))

    def verify_discard(self, card: str | Card) -> None:
        self._raise(self._discard_problems(parse_card(card).id))

    def can_draw(self) -> bool:
        return not self._draw_problems()

    def can_take(self, cards: str | Iterable[str | Card] = (), meld: int | None = None) -> bool:
        try:
            self.verify_take(cards, meld)
        except IllegalMoveError:
            return False
        return True

    def can_meld(self, cards: str | Iterable[str | Card]) -> bool:
        return not self._meld_problems(self._ids(cards))

    def can_add(self, meld: int, cards: str | Iterable[str | Card]) -> bool:
        return not self._add_problems(meld, self._ids(cards))

    def can_discard(self, card: str | Card) -> bool:
        return not self._discard_problems(parse_card(card).id)

    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalMoveError` naming every rule ``action`` breaks now."""
        self._raise(self._problems(action))

    def _problems(self, action: Action) -> list[Problem]:
        ids = card_ids(action.cards)
        kind = action.kind
        if kind is ActionKind.DRAW:
            return self._draw_problems()
        if kind is ActionKind.TAKE:
            if not ids and action.meld is None:
                return self._draw_problems() or self._auto_take_problems()
            return self._take_problems(ids, action.meld)
        if kind is ActionKind.MELD:
            return self._meld_problems(ids)
        if kind is ActionKind.ADD:
            return self._add_problems(-1 if action.meld is None else action.meld, ids)
        if len(ids) != 1:
            return [Problem.of("discard_one").at(TURN)]
        return self._discard_problems(ids[0])

    def _auto_take_problems(self) -> list[Problem]:
        """Why ``take`` with no cards named is refused (empty if some way of taking is legal)."""
        if self._takes():
            return []
        problems = self._take_problems([], None)
        if problems and problems[0].code != "top_laid_at_once":
            return problems
        return [Problem.of("top_fits_nothing", card=str(self.top)).at(PILE)]

    # -- legal actions ------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """The moves worth telling apart now (empty once the round is over).

        New melds are listed as three cards (more follow one ``add`` at a time), sets by their
        lowest cards, and ``add`` one card at a time; ``meld``/``add``/``take`` accept any
        legal set of cards too.
        """
        if self.phase is Phase.DRAW:
            return [_DRAW, *self._takes()] if self.pile else [_DRAW]
        if self.phase is Phase.OVER:
            return []
        seat = self.to_act
        team = seat % self.teams
        hand = self.hands[seat]
        size = self.sizes[seat]
        held = [i for i in range(52) if hand[i]]
        canastra = self.has_canastra(team)
        open_morto = self.morto_open(team)
        ok_two_left = open_morto or canastra
        actions: list[Action] = []
        rules = self._scoring
        edges = rules.edges_only
        if size - 3 >= 2 or ok_two_left:
            for triple in _triples(hand):
                if _is_meld(triple, rules):
                    actions.append(_meld_action(triple))
        for index, meld in enumerate(self.melds[team]):
            clean = _is_clean_canastra(meld) and not self.rules.clean_canastra_takes_two
            if size - 1 < 2 and not (ok_two_left or len(meld) + 1 >= CANASTRA_SIZE):
                continue
            fits = _FITS.get((edges, meld))
            if fits is None:
                fits = _FITS[(edges, meld)] = {}
            for card in held:
                legal = fits.get(card)
                if legal is None:
                    legal = fits[card] = _is_meld(_sorted((*meld, card)), rules)
                if legal and not (clean and card < 4):
                    actions.append(_add_action(index, card))
        if size >= 2 or ok_two_left:
            actions.extend([_DISCARDS[card] for card in held])
        return actions

    def _takes(self) -> list[Action]:
        if self.phase is not Phase.DRAW or not self.pile:
            return []
        top = self.pile[-1]
        if top in _BLACK_THREES or (top < 4 and not self.rules.take_two_on_top):
            return []
        seat = self.to_act
        team = seat % self.teams
        rules = self._scoring
        rest = len(self.pile) - 1
        canastra = self.has_canastra(team)
        ok_low = self.morto_open(team) or canastra
        found: list[Action] = []
        for index, meld in enumerate(self.melds[team]):
            if self._two_on_clean(meld, (top,)) or not _fits(meld, top, rules):
                continue
            if self.sizes[seat] + rest >= 2 or ok_low or len(meld) + 1 >= CANASTRA_SIZE:
                found.append(Action(ActionKind.TAKE, meld=index))
        hand = self.hands[seat]
        if self.sizes[seat] - 2 + rest >= 2 or ok_low:
            for pair in _pairs_with(hand, top):
                if _is_meld(_sorted((*pair, top)), rules):
                    found.append(Action(ActionKind.TAKE, tuple(_CARDS[i] for i in pair)))
        return found

    # -- acting -------------------------------------------------------------------------------

    def _snapshot(self) -> tuple[Any, ...]:
        """What one action may change: the actor's hand and its team's table, and the piles.

        Mortos are copied shallowly: a morto's list is never changed in place (one that
        becomes the stock is copied first).
        """
        seat = self.to_act
        team = seat % self.teams
        return (
            seat,
            self.hands[seat][:],
            self.known[seat][:],
            self.sizes[seat],
            self.stock[:],
            self.mortos[:],
            self.pile[:],
            self.melds[team][:],
            self.dollars[team][:],
            self.took_morto[:],
            self.phase,
            self.went_out_seat,
        )

    def undo(self) -> Move:
        """Take back the last action (an error if there is none); returns what it did."""
        if not self._undo:
            raise IllegalMoveError(Problem.of("nothing_to_undo").at(TURN))
        (
            seat,
            self.hands[seat],
            self.known[seat],
            self.sizes[seat],
            self.stock,
            self.mortos,
            self.pile,
            self.melds[seat % self.teams],
            self.dollars[seat % self.teams],
            self.took_morto,
            self.phase,
            self.went_out_seat,
        ) = self._undo.pop()
        self.to_act = seat
        self.history.pop()
        return self.moves.pop()

    def play(self, action: Action | str) -> Move:
        """Check and do one action (an :class:`Action` or its notation, e.g. ``"meld 7h 8h 9h"``)."""
        if isinstance(action, str):
            action = parse_action(action)
        if action.kind is ActionKind.TAKE and not action.cards and action.meld is None:
            self._raise(self._draw_problems() or self._auto_take_problems())
            action = self._takes()[0]
        self.verify(action)
        return self._apply(action)

    def draw(self) -> Move:
        return self.play(Action(ActionKind.DRAW))

    def take(self, cards: str | Iterable[str | Card] = (), meld: int | None = None) -> Move:
        return self.play(Action(ActionKind.TAKE, parse_cards(cards), meld))

    def meld(self, cards: str | Iterable[str | Card]) -> Move:
        return self.play(Action(ActionKind.MELD, parse_cards(cards)))

    def add(self, meld: int, cards: str | Iterable[str | Card]) -> Move:
        return self.play(Action(ActionKind.ADD, parse_cards(cards), meld))

    def discard(self, card: str | Card) -> Move:
        """Discard ``card``: the turn ends."""
        return self.play(Action(ActionKind.DISCARD, (parse_card(card),)))

    def apply_legal(self, action: Action) -> Move:
        """Do an action taken from :meth:`legal_actions` without checking it again."""
        return self._apply(action)

    def _apply(self, action: Action) -> Move:
        self._undo.append(self._snapshot())
        seat = self.to_act
        team = seat % self.teams
        received: list[int] = []
        dollars: list[int] = []
        took_morto = False
        kind = action.kind
        ids = card_ids(action.cards)
        if kind is ActionKind.DRAW:
            self._receive(seat, self._pop_stock(), received, dollars)
            self.phase = Phase.PLAY
        elif kind is ActionKind.TAKE:
            top = self.pile.pop()
            if action.meld is not None:
                self.melds[team][action.meld] = _sorted((*self.melds[team][action.meld], top))
            else:
                self._take_out(seat, ids)
                self.melds[team].append(_sorted((*ids, top)))
            taken, self.pile = self.pile, []
            for card in taken:
                if card not in _RED_THREES:
                    self.known[seat][card] += 1  # everyone saw the pile go into this hand
            for card in taken:
                self._receive(seat, card, received, dollars)
            self.phase = Phase.PLAY
        elif kind is ActionKind.MELD:
            self._take_out(seat, ids)
            self.melds[team].append(_sorted(ids))
        elif kind is ActionKind.ADD:
            assert action.meld is not None
            self._take_out(seat, ids)
            self.melds[team][action.meld] = _sorted((*self.melds[team][action.meld], *ids))
        else:
            self._take_out(seat, ids)
            self.pile.append(ids[0])
        went_out = False
        if self.sizes[seat] == 0:
            if self.morto_open(team):
                self._take_morto(seat, received, dollars)
                took_morto = True
            else:
                went_out = True
                self.went_out_seat = seat
                self.phase = Phase.OVER
        if kind is ActionKind.DISCARD and not went_out:
            self._next_turn()
        elif self.phase is Phase.PLAY and not self._can_continue(seat):
            self.phase = Phase.OVER  # the stock ran out and the player cannot discard
        self.history.append((seat, action))
        move = Move(
            seat,
            action,
            tuple(_CARDS[i] for i in received),
            tuple(_CARDS[i] for i in dollars),
            took_morto,
            went_out,
            self.phase is Phase.OVER,
        )
        self.moves.append(move)
        return move

    def _can_continue(self, seat: int) -> bool:
        team = seat % self.teams
        return self.sizes[seat] >= 2 or self.has_canastra(team) or self.morto_open(team)

    def _next_turn(self) -> None:
        self.to_act = (self.to_act + 1) % self.players
        self.phase = Phase.DRAW
        if not self.stock and not self.mortos:
            self.phase = Phase.OVER  # the stock is exhausted and no morto can replace it

    # -- the end: the scorer's round ----------------------------------------------------------

    def round_dict(self) -> dict[str, Any]:
        """The table as round JSON, exactly what ``cardscore tranca score`` reads."""
        teams = []
        out_team = None if self.went_out_seat is None else self.went_out_seat % self.teams
        for team in range(self.teams):
            seats = self.team_seats(team)
            data: dict[str, Any] = {
                "name": self.team_name(team),
                "players": [self.names[s] for s in seats],
                "melds": [meld.as_list() for meld in self.team_melds(team)],
                "dollars": [_CARDS[i].code for i in self.dollars[team]],
                "hand": {self.names[s]: [c.code for c in self.hand(s)] for s in seats},
                "took_morto": self.took_morto[team],
                "went_out": out_team == team,
            }
            if out_team == team:
                assert self.went_out_seat is not None
                data["went_out_player"] = self.names[self.went_out_seat]
            teams.append(data)
        data = {"players": self.players, "decks": self.decks, "teams": teams}
        if self.rules.edges_only:
            data["rules"] = {"edges_only": True}
        return data

    def to_round(self) -> Round:
        """The table checked by the scorer's own rules (a round may be cut short: see ``is_over``)."""
        return parse_round(self.round_dict())

    def score(self) -> RoundScore:
        """The table scored by :func:`~cardscore.tranca.scoring.score_round`."""
        return score_round(self.to_round())

    # -- saving and replaying -----------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        """The whole game as JSON: the deck and every action; :meth:`from_dict` replays it."""
        return {
            "game": "tranca",
            "version": SAVE_VERSION,
            "players": self.players,
            "names": list(self.names),
            "first": self.first,
            "rules": self.rules.as_dict(),
            "seed": self.seed,
            "deck": [_CARDS[i].code for i in self.deck],
            "actions": [{"seat": seat, "move": a.notation} for seat, a in self.history],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TrancaState:
        """Replay a saved game action by action (every action checked again)."""
        if not isinstance(data, Mapping) or data.get("game") != "tranca":
            raise CardscoreError(Problem.of("not_a_saved_game"))
        if data.get("version") != SAVE_VERSION:
            version = repr(data.get("version"))
            raise CardscoreError(Problem.of("save_version", version=version, known=SAVE_VERSION))
        missing = [key for key in ("players", "deck") if key not in data]
        if missing:
            raise CardscoreError([Problem.of("save_key_missing", key=k).at(SAVED) for k in missing])
        state = cls(
            data["players"],
            names=data.get("names"),
            rules=PlayRules.from_dict(data.get("rules", {})),
            first=data.get("first", 0),
            deck=data["deck"],
            seed=data.get("seed"),
        )
        for number, entry in enumerate(data.get("actions", []), start=1):
            if not isinstance(entry, Mapping) or not isinstance(entry.get("move"), str):
                raise CardscoreError(
                    Problem.of("save_action_shape", number=number, value=repr(entry))
                )
            seat, move = entry.get("seat"), entry["move"]
            if seat != state.to_act:
                raise CardscoreError(
                    Problem.of(
                        "save_action_seat",
                        number=number,
                        move=move,
                        seat=str(seat),
                        to_act=state.to_act,
                    )
                )
            try:
                state.play(move)
            except CardscoreError as error:
                raise CardscoreError(
                    [p.at(f"action {number} ({move!r})") for p in error.problems]
                ) from None
        return state

    def replay(self) -> TrancaState:
        """A new game replayed from this one's record."""
        return TrancaState.from_dict(self.as_dict())

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.as_dict(), indent=1), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> TrancaState:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as error:
            raise CardscoreError(
                Problem.of("save_unreadable", error=str(error)).at(str(path))
            ) from None
        return cls.from_dict(data)

    def state_dict(self) -> dict[str, Any]:
        """Everything about the current position, for comparing two games."""
        return {
            "hands": [[c.code for c in self.hand(s)] for s in range(self.players)],
            "stock": [_CARDS[i].code for i in self.stock],
            "mortos": [[_CARDS[i].code for i in m] for m in self.mortos],
            "pile": [_CARDS[i].code for i in self.pile],
            "melds": [[[_CARDS[i].code for i in m] for m in t] for t in self.melds],
            "dollars": [[_CARDS[i].code for i in d] for d in self.dollars],
            "took_morto": list(self.took_morto),
            "known": [[_CARDS[i].code for i in range(52) for _ in range(k[i])] for k in self.known],
            "to_act": self.to_act,
            "phase": self.phase.name,
            "went_out_seat": self.went_out_seat,
        }

    # -- for searching players ----------------------------------------------------------------

    def clone(self) -> TrancaState:
        """An independent copy of the position (no history to undo past)."""
        other = object.__new__(TrancaState)
        other.__dict__.update(self.__dict__)
        other.hands = [h[:] for h in self.hands]
        other.known = [k[:] for k in self.known]
        other.sizes = self.sizes[:]
        other.stock = self.stock[:]
        other.mortos = [m[:] for m in self.mortos]
        other.pile = self.pile[:]
        other.melds = [m[:] for m in self.melds]
        other.dollars = [d[:] for d in self.dollars]
        other.took_morto = self.took_morto[:]
        other.history, other.moves, other._undo = [], [], []
        return other

    def determinized(self, seat: int, rng: random.Random) -> TrancaState:
        """A copy where every card ``seat`` cannot see is dealt again at random.

        Other hands keep their sizes, the stock and mortos theirs; ``seat``'s hand, the tables
        and the discard pile stay as they are.
        """
        other = self.clone()
        hidden: list[int] = []
        for s in range(self.players):
            if s != seat:
                hand, known = other.hands[s], other.known[s]
                hidden.extend(i for i in range(52) for _ in range(hand[i] - known[i]))
        hidden.extend(other.stock)
        for morto in other.mortos:
            hidden.extend(morto)
        reds = [c for c in hidden if c in _RED_THREES]  # never held: only stock and mortos
        hidden = [c for c in hidden if c not in _RED_THREES]
        rng.shuffle(hidden)
        at = 0
        for s in range(self.players):
            if s != seat:
                hand = other.known[s][:]
                n = other.sizes[s] - sum(hand)
                for card in hidden[at : at + n]:
                    hand[card] += 1
                other.hands[s] = hand
                at += n
        hidden = hidden[at:] + reds
        rng.shuffle(hidden)
        at = 0
        for i, morto in enumerate(other.mortos):
            other.mortos[i] = hidden[at : at + len(morto)]
            at += len(morto)
        other.stock = hidden[at:]
        return other

    def _repr_html_(self) -> str:
        """The whole table for a notebook: every hand, each team's melds and dollars, the piles."""

        def cards(items: Iterable[Card]) -> str:
            return " ".join(card._repr_html_() for card in items) or "—"

        rows = []
        for team in range(self.teams):
            melds = "<br>".join(
                f"{i}) {cards(m.cards)}" for i, m in enumerate(self.team_melds(team), start=1)
            )
            dollars = cards(_CARDS[i] for i in self.dollars[team])
            rows.append(
                f"<tr><th>{escape(self.team_name(team))}</th><td>{melds or '—'}</td>"
                f"<td>{dollars}</td><td>{'yes' if self.took_morto[team] else 'no'}</td></tr>"
            )
        hands = "".join(
            f"<tr><th>{escape(self.names[s])}{' ▶' if s == self.to_act else ''}</th>"
            f"<td colspan=3>{cards(self.hand(s))}</td></tr>"
            for s in range(self.players)
        )
        top = self.top
        piles = (
            f"pile {len(self.pile)} (top {top._repr_html_() if top else '—'}), "
            f"stock {len(self.stock)}, mortos left {len(self.mortos)} — {self.phase.value}"
        )
        return (
            "<table><tr><th>team</th><th>melds</th><th>dollars</th><th>morto</th></tr>"
            f"{''.join(rows)}{hands}</table><p>{piles}</p>"
        )

    def __repr__(self) -> str:
        return (
            f"<TrancaState players={self.players} to_act={self.to_act} phase={self.phase.name} "
            f"stock={len(self.stock)} mortos={len(self.mortos)} pile={len(self.pile)}>"
        )


_DRAW = Action(ActionKind.DRAW)
_DISCARDS = tuple(Action(ActionKind.DISCARD, (card,)) for card in _CARDS)
_MELD_ACTIONS: dict[tuple[int, ...], Action] = {}
_ADD_ACTIONS: dict[tuple[int, int], Action] = {}


def _meld_action(ids: tuple[int, ...]) -> Action:
    action = _MELD_ACTIONS.get(ids)
    if action is None:
        action = _MELD_ACTIONS[ids] = Action(ActionKind.MELD, tuple(_CARDS[i] for i in ids))
    return action


def _add_action(meld: int, card: int) -> Action:
    action = _ADD_ACTIONS.get((meld, card))
    if action is None:
        action = _ADD_ACTIONS[(meld, card)] = Action(ActionKind.ADD, (_CARDS[card],), meld)
    return action


def _expand(hand: list[int], ids: Iterable[int]) -> list[int]:
    return [i for i in ids for _ in range(hand[i])]


def _triples(hand: list[int]) -> set[tuple[int, ...]]:
    """Candidate three-card melds in a hand (checked afterwards by the meld rules)."""
    found: set[tuple[int, ...]] = set()
    twos = [i for i in _TWOS if hand[i]]
    if hand[0] + hand[1] + hand[2] + hand[3] >= 3:
        found.add(tuple(_expand(hand, _TWOS)[:3]))
    for base in range(_FOUR * 4, _ACE * 4 + 4, 4):
        if hand[base] + hand[base + 1] + hand[base + 2] + hand[base + 3] >= 2:
            naturals = _expand(hand, range(base, base + 4))
            if len(naturals) >= 3:
                found.add(tuple(naturals[:3]))
            for two in twos:
                found.add((two, naturals[0], naturals[1]))
    for suit in range(4):
        present = [hand[r * 4 + suit] > 0 for r in range(13)]
        for low in range(_FOUR, _ACE - 1):
            count = present[low] + present[low + 1] + present[low + 2]
            if count == 3:
                found.add((low * 4 + suit, low * 4 + 4 + suit, low * 4 + 8 + suit))
            elif count == 2 and twos:
                window = tuple(r * 4 + suit for r in (low, low + 1, low + 2) if present[r])
                for two in twos:
                    found.add((two, *window))
    return found


def _pairs_with(hand: list[int], top: int) -> set[tuple[int, ...]]:
    """Candidate pairs of hand cards that make a meld with the pile's ``top`` card."""
    found: set[tuple[int, ...]] = set()
    twos = [i for i in _TWOS if hand[i]]
    rank, suit = divmod(top, 4)
    if rank == 0:  # a 2 on top: it is the joker, or one of a meld of 2s
        all_twos = _expand(hand, _TWOS)
        if len(all_twos) >= 2:
            found.add(tuple(all_twos[:2]))
        for r in range(_FOUR, _ACE + 1):
            naturals = _expand(hand, range(r * 4, r * 4 + 4))
            if len(naturals) >= 2:
                found.add(tuple(naturals[:2]))
        for s in range(4):
            for low in range(_FOUR, _ACE - 1):
                window = [r * 4 + s for r in (low, low + 1, low + 2) if hand[r * 4 + s]]
                for i in range(len(window)):
                    for j in range(i + 1, len(window)):
                        found.add((window[i], window[j]))
        return found
    naturals = _expand(hand, range(rank * 4, rank * 4 + 4))
    if len(naturals) >= 2:
        found.add(tuple(naturals[:2]))
    if naturals:
        for two in twos:
            found.add(_sorted((naturals[0], two)))
    for low in (rank - 2, rank - 1, rank):
        if low < _FOUR or low + 2 > _ACE:
            continue
        others = [r * 4 + suit for r in (low, low + 1, low + 2) if r != rank]
        present = [i for i in others if hand[i]]
        if len(present) == 2:
            found.add(tuple(present))
        elif len(present) == 1:
            for two in twos:
                found.add(_sorted((present[0], two)))
    return found
