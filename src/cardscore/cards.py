"""Playing cards: ranks, suits, cards, decks, and the one parser for every card notation.

>>> card = parse_card("10♥")
>>> card, str(card), card.code
(Card('Th'), '10♥', 'Th')
>>> parse_cards("As, ace_spades Q♢ 2c")
(Card('As'), Card('As'), Card('Qd'), Card('2c'))
>>> Card("Ah") > Card("Kh"), Card("Ah").rank, Card.from_id(Card("Ah").id)
(True, Rank.ACE, Card('Ah'))
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from enum import Enum
from functools import total_ordering

from cardscore.errors import (
    CardscoreError,
    DeckExhaustedError,
    ImpossibleTableError,
    InvalidCardError,
    Problem,
)

__all__ = [
    "Card",
    "Deck",
    "Rank",
    "Suit",
    "check_decks",
    "count_over",
    "full_deck",
    "parse_card",
    "parse_cards",
]


@total_ordering
class Rank(Enum):
    """A card's rank; the value is its character in the canonical code (``T`` for ten)."""

    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"

    # Each member is the only one of its value, and equal only to itself: the identity hash
    # (in C) says the same as Enum's (a Python call per hash, in every set and dict of cards).
    __hash__ = object.__hash__

    @property
    def index(self) -> int:
        """0 for a two … 12 for an ace (ace high)."""
        return _RANK_INDEX[self]

    @property
    def label(self) -> str:
        """How people write it: ``10`` for a ten, otherwise the code character."""
        return "10" if self is Rank.TEN else self.value

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Rank):
            return NotImplemented
        return self.index < other.index

    def __repr__(self) -> str:
        return f"Rank.{self.name}"


class Suit(Enum):
    """A card's suit; the value is its lowercase letter in the canonical code."""

    SPADES = "s"
    HEARTS = "h"
    DIAMONDS = "d"
    CLUBS = "c"

    __hash__ = object.__hash__  # as Rank's

    @property
    def index(self) -> int:
        """0 spades, 1 hearts, 2 diamonds, 3 clubs."""
        return _SUIT_INDEX[self]

    @property
    def symbol(self) -> str:
        """The suit's symbol as people print it (``♥``)."""
        return _SUIT_SYMBOL[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    def __repr__(self) -> str:
        return f"Suit.{self.name}"


RANKS: tuple[Rank, ...] = tuple(Rank)
SUITS: tuple[Suit, ...] = tuple(Suit)
_RANK_INDEX = {rank: i for i, rank in enumerate(RANKS)}
_SUIT_INDEX = {suit: i for i, suit in enumerate(SUITS)}
_SUIT_SYMBOL = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}


@total_ordering
@dataclass(frozen=True, slots=True, init=False, eq=True)
class Card:
    """One playing card, ordered by rank (ace high) then suit.

    Build it from a code in any notation ``parse_card`` reads, or from a rank and a suit.
    There are only 52 of them: every way of getting a card returns the same object, so
    code that knows the 52 by identity (the poker evaluator's C fast path) sees them all.

    >>> Card("Ah") == Card(Rank.ACE, Suit.HEARTS) == Card("ace_hearts")
    True
    >>> Card("Ah").id, Card("2s").id
    (49, 0)
    >>> Card("As") is Card.from_id(Card("As").id) is parse_card("A♠")
    True
    """

    rank: Rank
    suit: Suit

    # The 52 cards are the only ones (see above): equal cards are the same object, so the
    # identity hash (in C) agrees with equality and costs no Python call.
    __hash__ = object.__hash__

    def __new__(cls, card: str | Rank, suit: Suit | None = None) -> Card:
        if isinstance(card, Rank) and isinstance(suit, Suit):
            return _BY_ID[_RANK_INDEX[card] * 4 + _SUIT_INDEX[suit]]
        if isinstance(card, str) and suit is None:
            return parse_card(card)
        raise TypeError(f"Card takes a code like 'Ah' or a Rank and a Suit, not {card!r}")

    def __reduce__(self) -> tuple[Callable[[int], Card], tuple[int]]:
        """Pickles (and copies) as the card's id, so unpickling gives back the shared card."""
        return _card_from_id, (self.id,)

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    @property
    def id(self) -> int:
        """Compact integer form, 0…51: ``rank.index * 4 + suit.index``."""
        return _IDS[self]

    @classmethod
    def from_id(cls, card_id: int) -> Card:
        """The card whose :attr:`id` is ``card_id``."""
        if not 0 <= card_id < 52:
            raise InvalidCardError(Problem.of("bad_card_id", card_id=repr(card_id)))
        return _BY_ID[card_id]

    @property
    def code(self) -> str:
        """Canonical machine code: rank ``A 2-9 T J Q K`` + lowercase suit (``Th``)."""
        return _CODES[self]

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.id < other.id

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __str__(self) -> str:
        return _TEXTS[self]

    def _repr_html_(self) -> str:
        colour = "#c62828" if self.suit.is_red else "#111"
        return f'<span style="color:{colour};font-weight:bold">{self}</span>'


def _make_card(rank: Rank, suit: Suit) -> Card:
    card = object.__new__(Card)
    object.__setattr__(card, "rank", rank)
    object.__setattr__(card, "suit", suit)
    return card


def _card_from_id(card_id: int) -> Card:
    return Card.from_id(card_id)


_BY_ID: tuple[Card, ...] = tuple(_make_card(rank, suit) for rank in RANKS for suit in SUITS)
# Worked out once for the 52 (scoring asks for them for every card of every round).
_IDS: dict[Card, int] = {card: i for i, card in enumerate(_BY_ID)}
_TEXTS: dict[Card, str] = {card: card.rank.label + card.suit.symbol for card in _BY_ID}
_CARD_SET = frozenset(_BY_ID)
_CODES: dict[Card, str] = {card: card.rank.value + card.suit.value for card in _BY_ID}

# --- notations -------------------------------------------------------------------------------
# Each notation is one small parser returning a Card or None; parse_card tries them in turn.

_RANK_TOKENS = {rank.value.lower(): rank for rank in RANKS} | {"10": Rank.TEN}
_SUIT_TOKENS = {suit.value: suit for suit in SUITS} | {
    "♠": Suit.SPADES,
    "♤": Suit.SPADES,
    "♥": Suit.HEARTS,
    "♡": Suit.HEARTS,
    "♦": Suit.DIAMONDS,
    "♢": Suit.DIAMONDS,
    "♣": Suit.CLUBS,
    "♧": Suit.CLUBS,
}
_RANK_NAMES = {
    "two": Rank.TWO,
    "three": Rank.THREE,
    "four": Rank.FOUR,
    "five": Rank.FIVE,
    "six": Rank.SIX,
    "seven": Rank.SEVEN,
    "eight": Rank.EIGHT,
    "nine": Rank.NINE,
    "ten": Rank.TEN,
    "jack": Rank.JACK,
    "queen": Rank.QUEEN,
    "king": Rank.KING,
    "ace": Rank.ACE,
}
_SUIT_NAMES = {suit.name.lower(): suit for suit in SUITS}
_CODE = re.compile(r"(10|[2-9tjqka])([shdc♠♤♥♡♦♢♣♧])", re.IGNORECASE)
_NAME = re.compile(r"([a-z]+)(?:_of_|_)([a-z]+)", re.IGNORECASE)


def _parse_code(token: str) -> Card | None:
    """Rank then suit: ``Ah``, ``AH``, ``ah``, ``10h``, ``Th``, ``A♥``, ``10♡``."""
    match = _CODE.fullmatch(token)
    if match is None:
        return None
    return _BY_ID[_RANK_TOKENS[match[1].lower()].index * 4 + _SUIT_TOKENS[match[2].lower()].index]


def _parse_name(token: str) -> Card | None:
    """The Tranca seed's names: ``ace_spades``, ``two_hearts`` (also ``ace_of_spades``)."""
    match = _NAME.fullmatch(token)
    if match is None:
        return None
    rank = _RANK_NAMES.get(match[1].lower())
    suit = _SUIT_NAMES.get(match[2].lower())
    return None if rank is None or suit is None else _BY_ID[rank.index * 4 + suit.index]


_NOTATIONS = (_parse_code, _parse_name)
# Every token _parse_code reads, whole: most items of a round or a hand are one such code, and a
# look-up here reads it without the splitting and the regular expressions.
_EXACT: dict[str, Card] = {
    r + s: _BY_ID[rank.index * 4 + suit.index]
    for rank_token, rank in _RANK_TOKENS.items()
    for suit_token, suit in _SUIT_TOKENS.items()
    for r in {rank_token, rank_token.upper()}
    for s in {suit_token, suit_token.upper()}
}
_SEPARATORS = re.compile(r"[\s,;]+")
_RUN = re.compile(rf"(?:{_CODE.pattern}){{2,}}", re.IGNORECASE)  # codes run together: AsAh


def _tokens(text: str) -> list[str]:
    """The card tokens in ``text``: separated by spaces, commas or semicolons, or run together."""
    found: list[str] = []
    for token in _SEPARATORS.split(text.strip()):
        if _RUN.fullmatch(token):
            found.extend(match.group() for match in _CODE.finditer(token))
        elif token:
            found.append(token)
    return found


def parse_card(token: str | Card) -> Card:
    """Read one card in any notation cardscore knows.

    >>> [parse_card(t) for t in ("AS", "as", "A♤", "Th", "10♡", "Q♢", "two_hearts")]
    [Card('As'), Card('As'), Card('As'), Card('Th'), Card('Th'), Card('Qd'), Card('2h')]
    >>> parse_card("1h")
    Traceback (most recent call last):
    ...
    cardscore.errors.InvalidCardError: '1h' is not a card (expected a rank A 2-10 T J Q K and a suit s h d c ♠ ♥ ♦ ♣, like 'Ah' or '10♥')
    """
    if isinstance(token, Card):
        return token
    if not isinstance(token, str):
        raise InvalidCardError(Problem.of("not_a_card_text", token=repr(token)))
    return _parse_token(token.strip(), None)


def _parse_token(token: str, position: int | None) -> Card:
    for notation in _NOTATIONS:
        card = notation(token)
        if card is not None:
            return card
    if position is None:
        raise InvalidCardError(Problem.of("not_a_card", token=token))
    raise InvalidCardError(Problem.of("not_a_card_at", position=position, token=token))


def _only_cards(items: tuple[object, ...]) -> bool:
    """Whether every item is one of the 52 cards (a set look-up each, in C)."""
    try:
        return _CARD_SET.issuperset(items)
    except TypeError:  # an unhashable item, so no card
        return False


def parse_cards(cards: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Read several cards: one string separated by spaces or commas, or an iterable of tokens.

    Codes may also be run together, as ranges write hands (``AsAh``):

    >>> parse_cards("AsAh 10h")
    (Card('As'), Card('Ah'), Card('Th'))

    Every bad token is reported, each with its 1-based position:

    >>> parse_cards("Ah, Kx 10s Zz")
    Traceback (most recent call last):
    ...
    cardscore.errors.InvalidCardError: card 2 'Kx' is not a card (...); card 4 'Zz' is not a card (...)
    """
    if type(cards) is tuple and _only_cards(cards):
        return cards  # already read: rebuilding a meld, or a round's checked cards
    if type(cards) is list:  # a round's JSON list, most often of exact codes only
        exact = [_EXACT.get(item) if type(item) is str else None for item in cards]
        if all(exact):  # a Card is always true
            return tuple(exact)  # type: ignore[arg-type]
    tokens: list[str | Card] = []
    for item in [cards] if isinstance(cards, str) else cards:
        if isinstance(item, str):
            card = _EXACT.get(item)
            if card is not None:
                tokens.append(card)
            else:
                tokens.extend(_tokens(item))
        else:
            tokens.append(item)
    parsed: list[Card] = []
    problems: list[Problem] = []
    for position, token in enumerate(tokens, start=1):
        if isinstance(token, Card):
            parsed.append(token)
            continue
        if not isinstance(token, str):
            problems.append(Problem.of("not_a_card_text_at", position=position, token=repr(token)))
            continue
        try:
            parsed.append(_parse_token(token, position))
        except InvalidCardError as error:
            problems.extend(error.problems)
    if problems:
        raise InvalidCardError(problems)
    return tuple(parsed)


# --- decks -----------------------------------------------------------------------------------


def full_deck(ranks: Iterable[Rank] | None = None) -> tuple[Card, ...]:
    """One standard deck (or only the given ranks), in id order."""
    wanted = set(RANKS if ranks is None else ranks)
    return tuple(card for card in _BY_ID if card.rank in wanted)


class Deck:
    """A stock of cards from ``decks`` standard decks, optionally limited to some ranks.

    >>> deck = Deck(seed=7)
    >>> len(deck), len(deck.draw(5)), len(deck)
    (52, 5, 47)
    >>> Deck(decks=2).count(Card("Ah"))
    2
    >>> Deck(ranks="A2345678K").remaining
    36
    >>> Deck(ranks="A").draw(5)
    Traceback (most recent call last):
    ...
    cardscore.errors.DeckExhaustedError: cannot draw 5 cards: only 4 remain in the deck
    """

    def __init__(
        self,
        decks: int = 1,
        ranks: Iterable[Rank | str] | None = None,
        *,
        seed: int | None = None,
        shuffle: bool = True,
    ) -> None:
        if not isinstance(decks, int) or decks < 1:
            raise CardscoreError(Problem.of("bad_decks", decks=repr(decks)))
        self.decks = decks
        self.ranks = tuple(sorted({_as_rank(r) for r in (RANKS if ranks is None else ranks)}))
        self._cards: list[Card] = list(full_deck(self.ranks)) * decks
        self._random = random.Random(seed)
        if shuffle:
            self.shuffle()

    def shuffle(self) -> None:
        """Shuffle the remaining cards with the deck's own (seeded) random generator."""
        self._random.shuffle(self._cards)

    def draw(self, n: int = 1) -> tuple[Card, ...]:
        """Take ``n`` cards from the top; an error (and no change) if fewer remain."""
        if n < 0:
            raise CardscoreError(Problem.of("negative_draw", n=repr(n)))
        if n > len(self._cards):
            raise DeckExhaustedError(Problem.of("deck_exhausted", n=n, left=len(self._cards)))
        drawn = self._cards[len(self._cards) - n :]
        del self._cards[len(self._cards) - n :]
        return tuple(reversed(drawn))

    def put_back(self, cards: Iterable[Card], *, shuffle: bool = True) -> None:
        """Return cards to the stock (e.g. discards reshuffled into a new stock)."""
        self._cards[:0] = list(cards)
        if shuffle:
            self.shuffle()

    @property
    def remaining(self) -> int:
        return len(self._cards)

    def count(self, card: Card) -> int:
        return self._cards.count(card)

    def __len__(self) -> int:
        return len(self._cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(reversed(self._cards))

    def __repr__(self) -> str:
        ranks = "" if len(self.ranks) == 13 else f", ranks={''.join(r.value for r in self.ranks)!r}"
        return f"<Deck decks={self.decks}{ranks} remaining={len(self._cards)}>"


def _as_rank(rank: Rank | str) -> Rank:
    if isinstance(rank, Rank):
        return rank
    found = _RANK_TOKENS.get(str(rank).lower())
    if found is None:
        raise InvalidCardError(Problem.of("not_a_rank", token=str(rank)))
    return found


def count_over(cards: Iterable[Card], decks: int = 1) -> list[Problem]:
    """One message per card used more often than ``decks`` decks hold (empty if all fit).

    >>> count_over(parse_cards("Ah Ah Ah Ks"), decks=2)
    ['A♥ appears 3 times, but 2 decks hold only 2']
    """
    counts = Counter(cards)
    return [
        Problem.of("too_many_copies", card=str(card), code=card.code, n=n, decks=decks)
        for card, n in sorted(counts.items())
        if n > decks
    ]


def check_decks(cards: Iterable[Card], decks: int = 1) -> None:
    """Raise :class:`ImpossibleTableError` naming every card that ``decks`` decks cannot supply.

    >>> check_decks(parse_cards("Ah Ah"), decks=1)
    Traceback (most recent call last):
    ...
    cardscore.errors.ImpossibleTableError: A♥ appears 2 times, but 1 deck holds only 1
    """
    problems = count_over(cards, decks)
    if problems:
        raise ImpossibleTableError(problems)
