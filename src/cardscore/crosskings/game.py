"""A Cross Kings game: the deal, legal moves, moves, undo, hands, score, and game records.

36 cards (A–8 and K of each suit) are dealt 6×6; the 12 cards on the two diagonals lie face
down. The marker starts on a centre cell (the second player's choice, ``c3`` by default); the
card under it stays on the board. Each turn takes a card in the marker's row or column (jumping
gaps and cards) and moves the marker there; the first turn must move. The game ends when the
marker's row and column hold no card. Score = player 1's hand score − player 2's.

Cells are named like a chess board: columns ``a``–``f`` left to right, rows ``1``–``6`` top
to bottom (``c3`` is row 2, column 2, counting from 0).

A face-down card is unknown to both players until taken: it is then equally likely to be any
card not yet seen. The deal keeps one such card per face-down cell (a uniform shuffle, so the
same law); ``move(cell, card)`` names another unseen card instead, to record a game played
with real cards.

>>> game = Game.deal(seed=1)
>>> game.legal_moves
('a3', 'b3', 'd3', 'e3', 'f3', 'c1', 'c2', 'c4', 'c5', 'c6')
>>> game = game.move("d3").move("d5")
>>> [m.notation for m in game.moves], game.to_move, game.marker
(['d3=8d', 'd5=Ah'], 1, 'd5')
>>> game.undo(2) == Game.deal(seed=1)
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardscore.cards import Card, Deck, parse_card
from cardscore.crosskings.cards import CARDS, card_number, mask_of
from cardscore.crosskings.scoring import Hand
from cardscore.errors import IllegalMoveError, ImpossibleTableError, InvalidNotationError, Problem

__all__ = [
    "CENTRE",
    "FACE_DOWN",
    "Game",
    "Move",
    "cell_index",
    "cell_name",
]

SIZE = 6
FACE_DOWN: frozenset[int] = frozenset(
    r * SIZE + c for r in range(SIZE) for c in range(SIZE) if r == c or r + c == SIZE - 1
)
"""The 12 diagonal cells, dealt face down."""
CENTRE: tuple[int, ...] = (14, 15, 20, 21)
"""The four centre cells where the marker may start (c3, d3, c4, d4)."""
DEFAULT_START = 14
_COLUMNS = "abcdef"


def cell_name(cell: int) -> str:
    """``14`` → ``'c3'`` (column letter, then row number counted from 1)."""
    row, col = divmod(cell, SIZE)
    return f"{_COLUMNS[col]}{row + 1}"


def cell_index(cell: str | int | tuple[int, int]) -> int:
    """A cell from its name (``'c3'``), its number (0…35) or ``(row, column)`` from 0.

    >>> cell_index("c3"), cell_index((2, 2)), cell_index(14), cell_index("F6")
    (14, 14, 14, 35)
    """
    if isinstance(cell, bool):
        raise InvalidNotationError(Problem.of("not_a_cell", cell=repr(cell)))
    if isinstance(cell, int):
        if 0 <= cell < SIZE * SIZE:
            return cell
    elif isinstance(cell, tuple):
        if (
            len(cell) == 2
            and all(isinstance(x, int) for x in cell)
            and all(0 <= x < SIZE for x in cell)
        ):
            return cell[0] * SIZE + cell[1]
    elif isinstance(cell, str):
        text = cell.strip().lower()
        if len(text) == 2 and text[0] in _COLUMNS and text[1] in "123456":
            return (int(text[1]) - 1) * SIZE + _COLUMNS.index(text[0])
    raise InvalidNotationError(Problem.of("not_a_cell", cell=repr(cell)))


def _lines(cell: int) -> int:
    row, col = divmod(cell, SIZE)
    mask = 0
    for i in range(SIZE):
        mask |= 1 << (row * SIZE + i) | 1 << (i * SIZE + col)
    return mask & ~(1 << cell)


_LINES = tuple(_lines(c) for c in range(SIZE * SIZE))


@dataclass(frozen=True, slots=True)
class Move:
    """One turn: who took which cell, the card it held, and whether it was face down."""

    player: int
    cell: int
    card: Card
    face_down: bool

    @property
    def notation(self) -> str:
        """The game-record form: cell and card, ``'c5=Kh'``."""
        return f"{cell_name(self.cell)}={self.card.code}"

    def __str__(self) -> str:
        hidden = " (face down)" if self.face_down else ""
        return f"P{self.player} {cell_name(self.cell)} {self.card}{hidden}"


@dataclass(frozen=True)
class Game:
    """A game as dealt plus the moves made; every action returns a new ``Game``."""

    cards: tuple[Card, ...]
    """The deal, row by row; under a face-down cell, the card it will show unless told otherwise."""
    start: int = DEFAULT_START
    moves: tuple[Move, ...] = ()
    _left: int = field(init=False, repr=False, compare=False, default=0)
    _hands: tuple[int, int] = field(init=False, repr=False, compare=False, default=(0, 0))

    def __post_init__(self) -> None:
        problems = []
        if len(self.cards) != SIZE * SIZE:
            problems.append(Problem.of("deal_size", n=len(self.cards)))
        try:
            if mask_of(self.cards) != (1 << 36) - 1 and len(self.cards) == 36:
                problems.append(Problem.of("deal_cards"))
        except ImpossibleTableError as error:
            problems.extend(error.problems)
        if self.start not in CENTRE:
            shown = cell_name(self.start) if 0 <= self.start < SIZE * SIZE else self.start
            centre = " ".join(cell_name(c) for c in sorted(CENTRE))
            problems.append(Problem.of("start_not_centre", start=repr(shown), centre=centre))
        if problems:
            raise ImpossibleTableError(problems)
        left, hands, marker = (1 << 36) - 1, [0, 0], self.start
        for number, move in enumerate(self.moves):
            player = number % 2 + 1
            if (
                move.player != player
                or not (_LINES[marker] & left) >> move.cell & 1
                or move.card != self.cards[move.cell]
                or move.face_down != (move.cell in FACE_DOWN)
            ):
                raise IllegalMoveError(
                    Problem.of("move_off_game", number=number + 1, move=str(move))
                )
            marker = move.cell
            left &= ~(1 << move.cell)
            hands[player - 1] |= 1 << card_number(move.card)
        object.__setattr__(self, "_left", left)
        object.__setattr__(self, "_hands", (hands[0], hands[1]))

    # --- dealing ---------------------------------------------------------------------------

    @classmethod
    def deal(
        cls, seed: int | None = None, start: str | int | tuple[int, int] = DEFAULT_START
    ) -> Game:
        """Shuffle and deal (seeded for a repeatable game); ``start`` is the second player's
        choice of centre cell for the marker."""
        cards = Deck(ranks="A2345678K", seed=seed).draw(36)
        return cls(cards, cell_index(start))

    # --- state -----------------------------------------------------------------------------

    @property
    def marker(self) -> str:
        """The marker's cell name."""
        return cell_name(self.marker_cell)

    @property
    def marker_cell(self) -> int:
        return self.moves[-1].cell if self.moves else self.start

    @property
    def to_move(self) -> int:
        """1 or 2: whose turn it is (player 1 moves first)."""
        return len(self.moves) % 2 + 1

    @property
    def cells_left(self) -> int:
        """Mask of cells still holding a card."""
        return self._left

    @property
    def cards_left(self) -> int:
        return self._left.bit_count()

    @property
    def face_down_left(self) -> int:
        return sum(1 for c in FACE_DOWN if self._left >> c & 1)

    @property
    def legal_cells(self) -> tuple[int, ...]:
        moves = _LINES[self.marker_cell] & self._left
        return tuple(c for c in _ORDER[self.marker_cell] if moves >> c & 1)

    @property
    def legal_moves(self) -> tuple[str, ...]:
        """Cells the player to move may take: the marker's row, then its column."""
        return tuple(cell_name(c) for c in self.legal_cells)

    @property
    def is_over(self) -> bool:
        return not _LINES[self.marker_cell] & self._left

    @property
    def p1(self) -> Hand:
        return Hand(tuple(m.card for m in self.moves[0::2]))

    @property
    def p2(self) -> Hand:
        return Hand(tuple(m.card for m in self.moves[1::2]))

    @property
    def hand_masks(self) -> tuple[int, int]:
        return self._hands

    @property
    def score(self) -> int:
        """Player 1's score minus player 2's, for the hands as they stand."""
        return self.p1.score() - self.p2.score()

    def is_face_down(self, cell: str | int | tuple[int, int]) -> bool:
        """Whether the cell's card is still face down (unknown to both players)."""
        index = cell_index(cell)
        return index in FACE_DOWN and bool(self._left >> index & 1)

    def card_at(self, cell: str | int | tuple[int, int]) -> Card | None:
        """The card the players see on a cell: None if taken or still face down."""
        index = cell_index(cell)
        if not self._left >> index & 1 or index in FACE_DOWN:
            return None
        return self.cards[index]

    @property
    def unseen(self) -> tuple[Card, ...]:
        """The cards still face down, as a set both players know (in card order)."""
        hidden = mask_of(self.cards[c] for c in FACE_DOWN if self._left >> c & 1)
        return tuple(CARDS[i] for i in range(36) if hidden >> i & 1)

    # --- moving ----------------------------------------------------------------------------

    def can_move(self, cell: str | int | tuple[int, int], card: Card | str | None = None) -> bool:
        try:
            self.verify_move(cell, card)
        except (IllegalMoveError, InvalidNotationError):
            return False
        return True

    def verify_move(
        self, cell: str | int | tuple[int, int], card: Card | str | None = None
    ) -> None:
        """Raise :class:`IllegalMoveError` unless taking ``cell`` (showing ``card``) is legal."""
        index = cell_index(cell)
        if self.is_over:
            raise IllegalMoveError(Problem.of("crosskings_over"))
        if index not in self.legal_cells:
            legal = " ".join(self.legal_moves)
            raise IllegalMoveError(Problem.of("cell_not_legal", cell=repr(cell), legal=legal))
        if card is None:
            return
        shown = parse_card(card)
        if index in FACE_DOWN:
            if shown not in self.unseen:
                raise IllegalMoveError(
                    Problem.of("face_down_seen", cell=cell_name(index), card=str(shown))
                )
        elif shown != self.cards[index]:
            held, named = str(self.cards[index]), str(shown)
            raise IllegalMoveError(
                Problem.of("cell_holds_other", cell=cell_name(index), held=held, card=named)
            )

    def move(self, cell: str | int | tuple[int, int], card: Card | str | None = None) -> Game:
        """Take the card on ``cell``; for a face-down cell, ``card`` may name what it showed.

        >>> Game.deal(seed=1).move("a1")
        Traceback (most recent call last):
        ...
        cardscore.errors.IllegalMoveError: 'a1' is not in the marker's row or column with a card on it (legal: a3 b3 d3 e3 f3 c1 c2 c4 c5 c6)
        """
        self.verify_move(cell, card)
        index = cell_index(cell)
        cards = self.cards
        if card is not None and index in FACE_DOWN:
            shown = parse_card(card)
            if shown != cards[index]:  # swap with the face-down cell that held it
                other = cards.index(shown)
                swapped = list(cards)
                swapped[index], swapped[other] = shown, cards[index]
                cards = tuple(swapped)
        record = Move(self.to_move, index, cards[index], index in FACE_DOWN)
        return Game(cards, self.start, (*self.moves, record))

    def random_move(self, rng: random.Random | int | None = None) -> Game:
        """Take a uniformly random legal cell (``rng``: a ``random.Random`` or a seed)."""
        if self.is_over:
            raise IllegalMoveError(Problem.of("crosskings_over"))
        chooser = rng if isinstance(rng, random.Random) else random.Random(rng)
        return self.move(chooser.choice(self.legal_cells))

    def undo(self, n: int = 1) -> Game:
        """The game as it was ``n`` moves ago."""
        if not 0 <= n <= len(self.moves):
            raise IllegalMoveError(Problem.of("undo_too_many", n=n, made=len(self.moves)))
        return Game(self.cards, self.start, self.moves[: len(self.moves) - n])

    def replay(self, moves: Iterable[str]) -> Game:
        """Play moves in record notation (``'d3'`` or ``'c5=Kh'``) from this position."""
        game = self
        for number, text in enumerate(moves, start=1):
            cell, _, card = text.partition("=")
            try:
                game = game.move(cell, card or None)
            except (IllegalMoveError, InvalidNotationError) as error:
                raise IllegalMoveError(
                    p.at(f"move {number} {text!r}") for p in error.problems
                ) from None
        return game

    # --- records ---------------------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": "crosskings",
            "cards": [c.code for c in self.cards],
            "start": cell_name(self.start),
            "moves": [m.notation for m in self.moves],
        }

    def to_json(self) -> str:
        return json.dumps(self.as_dict(), indent=2)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        if not isinstance(data, dict) or data.get("game") != "crosskings":
            raise InvalidNotationError(Problem.of("not_a_game_record"))
        cards = data.get("cards")
        if not isinstance(cards, Sequence) or isinstance(cards, str):
            raise InvalidNotationError(Problem.of("record_needs_cards"))
        base = cls(tuple(parse_card(str(c)) for c in cards), cell_index(data.get("start", "c3")))
        moves = data.get("moves", [])
        if not isinstance(moves, list):
            raise InvalidNotationError(Problem.of("record_moves_not_list"))
        return base.replay(str(m) for m in moves)

    @classmethod
    def from_json(cls, text: str) -> Game:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise InvalidNotationError(Problem.of("not_json", error=str(error))) from None
        return cls.from_dict(data)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json() + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> Game:
        return cls.from_json(Path(path).read_text(encoding="utf-8"))

    def __str__(self) -> str:
        """The board, one line per row: ``##`` face down, ``..`` taken, ``[..]`` the marker."""
        lines = ["  " + "".join(f" {letter}  " for letter in _COLUMNS).rstrip()]
        for row in range(SIZE):
            cells = []
            for cell in range(row * SIZE, (row + 1) * SIZE):
                card = self.card_at(cell)
                label = "##" if self.is_face_down(cell) else ".." if card is None else str(card)
                cells.append(f"[{label}]" if cell == self.marker_cell else f" {label} ")
            lines.append(f"{row + 1} " + "".join(cells).rstrip())
        return "\n".join(lines)


def _order(cell: int) -> tuple[int, ...]:
    """The marker's row left to right, then its column top to bottom."""
    row, col = divmod(cell, SIZE)
    in_row = [row * SIZE + i for i in range(SIZE) if i != col]
    in_col = [i * SIZE + col for i in range(SIZE) if i != row]
    return (*in_row, *in_col)


_ORDER = tuple(_order(c) for c in range(SIZE * SIZE))
