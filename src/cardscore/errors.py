"""The exceptions cardscore raises, split by cause, and the problems they carry.

Every error about input is a :class:`CardscoreError` (so also a :class:`ValueError`)::

    ValueError
    └── CardscoreError                  invalid_input: bad input, one Problem per thing wrong
        ├── InvalidNotationError        invalid_notation: text no notation reads (pile, move…)
        │   └── InvalidCardError        invalid_card: a token that is no card
        ├── ImpossibleTableError        impossible_table: cards that cannot all be on the table
        ├── IllegalMoveError            illegal_move: an action the rules forbid now
        │   ├── DeckExhaustedError      deck_exhausted: more cards asked than the deck holds
        │   └── tranca.InvalidMeldError invalid_meld: cards that form no meld
        └── tranca.InvalidRoundError    invalid_round: a round that cannot have happened

Each problem's own ``code`` is finer than its error's (``not_a_card_at``, ``meld_mixed``…);
the class's code is the default for a problem given as plain text.

An error's ``problems`` hold every problem found at once (bulk inputs report them all). A
:class:`Problem` is the English message itself (a ``str``, so code that prints problems keeps
working) plus a stable ``code`` and its ``params``, which let a front end say it in another
language with :func:`translate`:

>>> err = InvalidCardError([Problem.of("pile_too_small", cards=5)])
>>> isinstance(err, ValueError), err.problems
(True, ('a pile is a closed canastra of at least 7 cards, not 5',))
>>> err.problems[0].code, err.problems[0].params
('pile_too_small', {'cards': 5})
>>> translate(err.problems[0], "pt-BR")
'um monte é uma canastra fechada de pelo menos 7 cartas, não de 5'
>>> translate(err.problems[0].at("team 'Ana', pile 2"), "pt-BR")
"team 'Ana', pile 2: um monte é uma canastra fechada de pelo menos 7 cartas, não de 5"

A plain string is still a problem; its code comes from the error's class:

>>> IllegalMoveError("no such move").problems[0].as_dict()
{'code': 'illegal_move', 'params': {}, 'message': 'no such move'}
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

__all__ = [
    "CardscoreError",
    "DeckExhaustedError",
    "IllegalMoveError",
    "ImpossibleTableError",
    "InvalidCardError",
    "InvalidNotationError",
    "Problem",
    "catalogue",
    "check_level",
    "translate",
]

Param = str | int
_LOCALES = Path(__file__).parent / "locales"
_FILES = {"en": "en.json", "pt": "pt_BR.json", "pt-br": "pt_BR.json", "pt_br": "pt_BR.json"}


@cache
def catalogue(locale: str = "en") -> Mapping[str, str]:
    """The message templates of ``locale`` (``'en'``, ``'pt-BR'``), keyed by problem code.

    >>> catalogue("pt-BR")["illegal_move"]
    'jogada proibida: {message}'
    """
    name = _FILES.get(locale.lower())
    if name is None:
        return {}
    data: dict[str, str] = json.loads((_LOCALES / name).read_text(encoding="utf-8"))
    return data


class Problem(str):
    """One thing wrong with the input: its English message, a stable ``code`` and ``params``.

    It *is* its message (a ``str``, compared and printed as one), so its repr is the message's.

    >>> p = Problem.of("not_a_rank", token="Z")
    >>> p, p.code, p.params, p == "'Z' is not a rank (expected A 2-10 T J Q K)"
    ("'Z' is not a rank (expected A 2-10 T J Q K)", 'not_a_rank', {'token': 'Z'}, True)
    """

    code: str
    params: dict[str, Param]

    def __new__(
        cls, message: str, code: str = "invalid_input", params: Mapping[str, Param] | None = None
    ) -> Problem:
        made = super().__new__(cls, message)
        made.code = code
        made.params = dict(params or {})
        return made

    @classmethod
    def of(cls, code: str, /, **params: Param) -> Problem:
        """The problem ``code`` with its English message from the catalogue."""
        return cls(_FORMAT.format(catalogue("en")[code], **params), code, params)

    @property
    def message(self) -> str:
        return str(self)

    def at(self, where: str) -> Problem:
        """The same problem found in ``where`` (a team, a meld, a file): ``'where: message'``."""
        inner = self.params.get("where")
        place = where if inner is None else f"{where}: {inner}"
        return Problem(f"{where}: {self}", self.code, {**self.params, "where": place})

    def as_dict(self) -> dict[str, Any]:
        """``{"code", "params", "message"}``: what ``--json`` and the web API print."""
        return {"code": self.code, "params": dict(self.params), "message": str(self)}

    def __reduce__(self) -> tuple[Any, ...]:
        return (Problem, (str(self), self.code, self.params))


class _Formatter(string.Formatter):
    """``str.format`` plus plurals: ``{n:card|cards}`` is ``card`` when ``n`` is 1, else ``cards``.

    Three forms are for 1, 2 and more: ``{n:one|both|all}``. A list (items joined by ``, `` in
    the params) reads with a word of the language: ``{hands:&and}`` is ``1 and 2``.
    """

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec.startswith("&"):
            return f" {format_spec[1:]} ".join(str(value).split(", "))
        if "|" in format_spec:
            forms = format_spec.split("|")
            return forms[min(int(value), len(forms)) - 1] if value >= 1 else forms[-1]
        return str(super().format_field(value, format_spec))


_FORMAT = _Formatter()


def _fields(template: str) -> set[str]:
    return {re.split(r"[.\[!:]", f)[0] for _, f, _, _ in string.Formatter().parse(template) if f}


def translate(problem: str, locale: str) -> str:
    """``problem`` said in ``locale``; English, or the message itself, where no template fits.

    The place a problem was found at (``where``) stays as given, but for the rule names it
    quotes (codes ``place_…``, like ``turn (6)``), which are said in ``locale`` too.

    >>> translate(Problem.of("no_round_to_undo"), "pt-BR")
    'não há rodada para desfazer'
    >>> translate("plain text", "pt-BR"), translate(Problem.of("no_round_to_undo"), "de")
    ('plain text', 'there is no round to undo')
    """
    if not isinstance(problem, Problem) or locale.lower().startswith("en"):
        return str(problem)
    params: dict[str, Param] = {**problem.params}
    where = params.pop("where", None)
    message = str(problem)
    if where is not None and message.startswith(f"{where}: "):
        message = message[len(f"{where}: ") :]
    template = catalogue(locale).get(problem.code)
    values: dict[str, Param] = {**params, "message": message}
    if template is None or not _fields(template) <= values.keys():
        return str(problem)
    text = _FORMAT.format(template, **values)
    return f"{_place(str(where), locale)}: {text}" if where is not None else text


@cache
def _places(locale: str) -> Mapping[str, str]:
    """The rule names problems are found at (codes ``place_…``): English to ``locale``."""
    english, there = catalogue("en"), catalogue(locale)
    return {english[c]: there[c] for c in english if c.startswith("place_") and c in there}


def _place(where: str, locale: str) -> str:
    """``where`` with each of its parts that is a rule name said in ``locale``.

    >>> _place("action 3 ('take'): discard pile (4.4)", "pt-BR")
    "action 3 ('take'): lixo (4.4)"
    """
    return ": ".join(_places(locale).get(part, part) for part in where.split(": "))


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name.removesuffix("Error")).lower()


class CardscoreError(ValueError):
    """Base class: bad input to cardscore, with one :class:`Problem` per thing found wrong."""

    code: ClassVar[str] = "invalid_input"
    problems: tuple[Problem, ...]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "code" not in cls.__dict__:
            cls.code = _snake(cls.__name__)

    def __init__(self, problems: str | Iterable[str]) -> None:
        found = (problems,) if isinstance(problems, str) else tuple(problems)
        if not found:
            raise TypeError("an error needs at least one problem")
        self.problems = tuple(p if isinstance(p, Problem) else Problem(p, self.code) for p in found)
        super().__init__("; ".join(self.problems))

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.problems,))


class InvalidNotationError(CardscoreError):
    """Text that no notation understands (a card code, a pile string, a move)."""


class InvalidCardError(InvalidNotationError):
    """A token that is not a card in any notation cardscore reads."""


class ImpossibleTableError(CardscoreError):
    """Cards that cannot all be on the table at once (too many copies, a card in two places)."""


class IllegalMoveError(CardscoreError):
    """An action the rules of the game do not allow in the current state."""


class DeckExhaustedError(IllegalMoveError):
    """Asking a deck for more cards than it still holds."""


def check_level(level: object, levels: Iterable[int]) -> None:
    """Refuse a computer player's ``level`` that is not one of ``levels`` (every game's bots).

    >>> check_level(5, (0, 1, 2))
    Traceback (most recent call last):
    ...
    cardscore.errors.CardscoreError: ...
    """
    allowed = sorted(levels)
    if level not in allowed:
        listed = ", ".join(map(str, allowed))
        raise CardscoreError(Problem.of("bad_level", levels=listed, level=repr(level)))
