"""Melds: what a team lays on the table, classified and checked with every reason it fails.

A meld is an unordered collection of 3+ cards: a *sequence* (one suit, consecutive ranks in
4…A, the ace only high), a *set* (one rank, any suits), each with at most one 2 as a joker
(filling a gap or extending an end), or a meld made only of 2s. 3s never go in melds. Seven or
more cards make a canastra: clean (no 2), dirty (one 2 as joker) or of 2s.

The cards are kept in the order people lay them (the joker in its gap), so two melds of the same
cards are equal whatever order they were given in; ``extend`` returns a new meld, which is all a
game needs to grow a meld card by card.

>>> meld = Meld("9h 2c 5h 6h 7h 8h 4h")
>>> meld
Meld('4h 5h 6h 7h 8h 9h 2c')
>>> str(meld), meld.kind, meld.canastra, meld.card_points, meld.bonus
('4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 2♣', MeldKind.SEQUENCE, CanastraKind.DIRTY, 50, 100)
>>> Meld("5s 2d 7s").extend("8s 9s 10s Js")
Meld('5s 2d 7s 8s 9s Ts Js')
>>> Meld("7d 8d 9d 2h Jd Kd")
Traceback (most recent call last):
...
cardscore.tranca.melds.InvalidMeldError: 7♦ 8♦ 9♦ 2♥ J♦ K♦ is no sequence: it lacks 10♦ and Q♦, and one 2 fills only one gap
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache
from typing import NamedTuple

from cardscore.cards import Card, Rank, Suit, parse_cards
from cardscore.errors import IllegalMoveError, Problem
from cardscore.tranca.rules import (
    CANASTRA_SIZE,
    CLEAN_CANASTRA,
    DIRTY_CANASTRA,
    EDGE_RANKS,
    MIN_MELD,
    TWOS_CANASTRA,
    TrancaRules,
    card_points,
)

__all__ = [
    "CanastraKind",
    "InvalidMeldError",
    "Meld",
    "MeldKind",
    "card_order",
    "format_cards",
    "meld_problems",
]

_DEFAULT_RULES = TrancaRules()
_RANK_AT = {rank.index: rank for rank in Rank}
_ACE = Rank.ACE.index
_FOUR = Rank.FOUR.index


class InvalidMeldError(IllegalMoveError):
    """Cards that do not form a meld, with every reason why."""


class MeldKind(Enum):
    SEQUENCE = "sequence"
    SET = "set"
    TWOS = "twos"
    """Only 2s: no joker in it; seven of them are the canastra of 2s."""

    def __repr__(self) -> str:
        return f"MeldKind.{self.name}"


class CanastraKind(Enum):
    CLEAN = "clean"
    DIRTY = "dirty"
    TWOS = "twos"

    @property
    def bonus(self) -> int:
        """+200 clean, +100 dirty, +1,000 for a canastra of 2s."""
        return _BONUS[self]

    def __repr__(self) -> str:
        return f"CanastraKind.{self.name}"


_BONUS = {
    CanastraKind.CLEAN: CLEAN_CANASTRA,
    CanastraKind.DIRTY: DIRTY_CANASTRA,
    CanastraKind.TWOS: TWOS_CANASTRA,
}


def card_order(card: Card) -> int:
    """Sort key in card order (rank, then suit): one key per card, far cheaper than comparing."""
    return card.id


def format_cards(cards: Iterable[Card]) -> str:
    """Cards as people write them, separated by spaces: ``4♥ 5♥ 2♣``."""
    return " ".join(str(card) for card in cards)


class _Checked(NamedTuple):
    """What :func:`_checked` finds out about some cards."""

    kind: MeldKind | None
    """``None`` when the cards are no meld."""
    cards: tuple[Card, ...]
    """In laying order (as given when no meld)."""
    problems: tuple[Problem, ...]
    canastra: CanastraKind | None
    card_points: int


@lru_cache(maxsize=8192)
def _checked(cards: tuple[Card, ...], rules: TrancaRules) -> _Checked:
    """:func:`_classify` and what scoring asks of a meld, once per card tuple (in the order
    given, which the messages show).

    Checking a round checks each meld and then builds it (a second classification), scoring
    asks each meld its canastra and points, and a game asks about the same few combinations
    again and again; cards and rules are immutable, so the answer can be shared. Its problems
    are shared too: callers place them with ``Problem.at``, which makes new ones.
    """
    kind, ordered, problems = _classify(cards, rules)
    return _Checked(
        kind, ordered, tuple(problems), _canastra_of(kind, ordered), sum(map(card_points, cards))
    )


def _canastra_of(kind: MeldKind | None, cards: tuple[Card, ...]) -> CanastraKind | None:
    """The canastra that a meld of ``kind`` holding ``cards`` is (``None`` if none)."""
    if kind is None or len(cards) < CANASTRA_SIZE:
        return None
    if kind is MeldKind.TWOS:
        return CanastraKind.TWOS
    has_joker = any(c.rank is Rank.TWO for c in cards)
    return CanastraKind.DIRTY if has_joker else CanastraKind.CLEAN


def _classify(
    cards: tuple[Card, ...], rules: TrancaRules
) -> tuple[MeldKind | None, tuple[Card, ...], list[Problem]]:
    """The meld's kind and its cards in laying order, or ``None`` and every reason it is no meld."""
    problems: list[Problem] = []
    shown = format_cards(cards)
    if len(cards) < MIN_MELD:
        problems.append(Problem.of("meld_too_short", cards=shown or "it", n=len(cards)))
    threes = [c for c in cards if c.rank is Rank.THREE]
    if threes:
        problems.append(Problem.of("meld_has_threes", cards=shown, threes=format_cards(threes)))
    if problems:
        return None, cards, problems
    twos = sorted((c for c in cards if c.rank is Rank.TWO), key=card_order)
    naturals = sorted((c for c in cards if c.rank is not Rank.TWO), key=card_order)
    if not naturals:
        return MeldKind.TWOS, tuple(sorted(cards, key=lambda c: c.suit.index)), []
    if len(twos) > 1:
        problems.append(
            Problem.of("meld_many_twos", cards=shown, n=len(twos), twos=format_cards(twos))
        )
    ranks = {c.rank for c in naturals}
    if len(ranks) == 1:
        rank = naturals[0].rank
        if not rules.allows_set_of(rank):
            edges = ", ".join(r.label for r in sorted(EDGE_RANKS))
            problems.append(Problem.of("meld_not_edge", cards=shown, rank=rank.label, edges=edges))
        ordered = tuple(sorted(naturals, key=lambda c: c.suit.index)) + tuple(twos)
        return (None if problems else MeldKind.SET), ordered, problems
    return _classify_sequence(cards, naturals, twos, problems)


def _classify_sequence(
    cards: tuple[Card, ...], naturals: list[Card], twos: list[Card], problems: list[Problem]
) -> tuple[MeldKind | None, tuple[Card, ...], list[Problem]]:
    shown = format_cards(cards)
    suits = sorted({c.suit for c in naturals}, key=lambda s: s.index)
    if len(suits) > 1:
        symbols = " and ".join(s.symbol for s in suits)
        problems.append(Problem.of("meld_mixed", cards=shown, suits=symbols))
        return None, cards, problems
    suit = suits[0]
    indices = [c.rank.index for c in naturals]
    repeated = [card for card, n in Counter(naturals).items() if n > 1]
    if repeated:
        problems.append(
            Problem.of("sequence_repeats", cards=shown, repeated=format_cards(repeated))
        )
        return None, cards, problems
    low, high = min(indices), max(indices)
    missing = [Card(_RANK_AT[i], suit) for i in range(low, high + 1) if i not in indices]
    if len(missing) > len(twos[:1]):
        lacks = _and(format_cards([c]) for c in missing)
        code = "sequence_gap_two" if twos else "sequence_gap"
        if high == _ACE and low <= 5:
            code += "_ace"
        problems.append(Problem.of(code, cards=shown, lacks=lacks, n=len(missing)))
    elif twos and not missing and low == _FOUR and high == _ACE:
        problems.append(Problem.of("sequence_two_no_place", cards=shown))
    if problems:
        return None, cards, problems
    ordered = list(naturals)  # already in rank order
    if twos:
        joker = twos[0]
        if missing:
            ordered.insert(missing[0].rank.index - low, joker)
        elif high < _ACE:
            ordered.append(joker)
        else:
            ordered.insert(0, joker)
    return MeldKind.SEQUENCE, tuple(ordered), []


def _and(items: Iterable[str]) -> str:
    words = list(items)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def meld_problems(
    cards: str | Iterable[str | Card], rules: TrancaRules = _DEFAULT_RULES
) -> tuple[Problem, ...]:
    """Every reason ``cards`` are no meld (empty when they are one).

    >>> meld_problems("Kh Kd 2c")
    ()
    >>> meld_problems("3h 2c")
    ('3♥ 2♣ has 2 cards; a meld needs at least 3', '3♥ 2♣ holds 3♥: 3s never go in melds (red 3s are dollars laid apart, black 3s are trancas)')
    """
    return _checked(parse_cards(cards), rules).problems


@dataclass(frozen=True, slots=True, init=False)
class Meld:
    """A valid meld; building one from cards that are no meld raises :class:`InvalidMeldError`.

    ``rules`` only matter for checking (the house rule forbids some sets); a meld valid under any
    rules is valid under the defaults, so ``repr`` rebuilds it.
    """

    cards: tuple[Card, ...]
    kind: MeldKind
    # Worked out with the check (see _checked): derived from the cards, so not compared.
    _canastra: CanastraKind | None = field(compare=False, repr=False)
    _card_points: int = field(compare=False, repr=False)

    def __init__(
        self, cards: str | Iterable[str | Card], *, rules: TrancaRules = _DEFAULT_RULES
    ) -> None:
        checked = _checked(parse_cards(cards), rules)
        if checked.kind is None:
            raise InvalidMeldError(checked.problems)
        object.__setattr__(self, "cards", checked.cards)
        object.__setattr__(self, "kind", checked.kind)
        object.__setattr__(self, "_canastra", checked.canastra)
        object.__setattr__(self, "_card_points", checked.card_points)

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def joker(self) -> Card | None:
        """The 2 standing in for another card (never in a meld of only 2s)."""
        if self.kind is MeldKind.TWOS:
            return None
        return next((c for c in self.cards if c.rank is Rank.TWO), None)

    @property
    def rank(self) -> Rank | None:
        """The rank of a set or of a meld of 2s; ``None`` for a sequence."""
        if self.kind is MeldKind.SEQUENCE:
            return None
        return self.cards[0].rank  # a set lists its naturals first

    @property
    def suit(self) -> Suit | None:
        """The suit of a sequence; ``None`` for a set."""
        if self.kind is not MeldKind.SEQUENCE:
            return None
        return next(c.suit for c in self.cards if c.rank is not Rank.TWO)

    @property
    def canastra(self) -> CanastraKind | None:
        """The canastra's kind once the meld has 7+ cards, else ``None``."""
        return self._canastra

    @property
    def card_points(self) -> int:
        return self._card_points

    @property
    def bonus(self) -> int:
        """The canastra bonus (0 for a meld that is no canastra)."""
        return 0 if self.canastra is None else self.canastra.bonus

    def can_extend(
        self, cards: str | Iterable[str | Card], rules: TrancaRules = _DEFAULT_RULES
    ) -> bool:
        """Whether adding ``cards`` still makes a meld."""
        return not meld_problems((*self.cards, *parse_cards(cards)), rules)

    def extend(
        self, cards: str | Iterable[str | Card], rules: TrancaRules = _DEFAULT_RULES
    ) -> Meld:
        """A new meld with ``cards`` added (an error if they do not fit)."""
        return Meld((*self.cards, *parse_cards(cards)), rules=rules)

    def as_list(self) -> list[str]:
        """The canonical card codes, as round JSON holds them."""
        return [c.code for c in self.cards]

    def __repr__(self) -> str:
        return f"Meld({' '.join(self.as_list())!r})"

    def __str__(self) -> str:
        return format_cards(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def _repr_html_(self) -> str:
        return " ".join(c._repr_html_() for c in self.cards)
