"""A score with its reasons: named terms that add up to the total.

Every game's scorer returns one, so the CLI, the web app and Jupyter show the reasoning behind
every point the same way.

Every score answer in JSON (the CLI's ``--json``, the library's ``as_dict``) is ``total`` plus
``terms``, each ``{"term", "points", "cards", "note"}`` with cards as canonical codes:

>>> from cardscore.cards import parse_cards
>>> hearts, pig = parse_cards("5h 6h 7h 8h 9h 10h"), parse_cards("Qs")
>>> b = Breakdown((Term("hearts", -60, cards=hearts), Term("pig", -100, "alone", pig)))
>>> b.total, b["pig"], b.as_dict()["terms"][1]
(-160, -100, {'term': 'pig', 'points': -100, 'cards': ['Qs'], 'note': 'alone'})
>>> print(b.to_text())
hearts  -60  5♥ 6♥ 7♥ 8♥ 9♥ 10♥
pig    -100  Q♠ alone
total  -160
"""

from __future__ import annotations

import html
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from cardscore.cards import Card

__all__ = ["Breakdown", "Term"]


@dataclass(frozen=True, slots=True)
class Term:
    """One line of a score: a name (a stable key for JSON), its points, the cards it counts
    and a note on why."""

    name: str
    points: int
    detail: str = ""
    """The note: what the cards alone do not say (``went out``, ``(K♥ as A♠)``)."""
    cards: tuple[Card, ...] = ()

    @property
    def text(self) -> str:
        """For people: the cards, then the note."""
        if not self.cards:
            return self.detail
        shown = " ".join(map(str, self.cards))
        return f"{shown} {self.detail}" if self.detail else shown

    def as_dict(self) -> dict[str, Any]:
        return {
            "term": self.name,
            "points": self.points,
            "cards": [c.code for c in self.cards],
            "note": self.detail,
        }


@dataclass(frozen=True, slots=True)
class Breakdown:
    """Terms in the order people read them; ``total`` is always their sum."""

    terms: tuple[Term, ...]

    @property
    def total(self) -> int:
        return sum(term.points for term in self.terms)

    def __iter__(self) -> Iterator[Term]:
        return iter(self.terms)

    def __getitem__(self, name: str) -> int:
        """Points of the term called ``name`` (0 if there is none)."""
        return sum(term.points for term in self.terms if term.name == name)

    def points(self) -> dict[str, int]:
        """``{term: points}``, terms of the same name added together."""
        result: dict[str, int] = {}
        for term in self.terms:
            result[term.name] = result.get(term.name, 0) + term.points
        return result

    def as_dict(self) -> dict[str, Any]:
        """``{"total", "terms": [{"term", "points", "cards", "note"}]}``."""
        return {"total": self.total, "terms": [term.as_dict() for term in self.terms]}

    def to_text(self) -> str:
        """A plain aligned table, for logs and doctests (the CLI draws a rich table)."""
        rows = [(t.name, str(t.points), t.text) for t in self.terms]
        rows.append(("total", str(self.total), ""))
        name_width = max(len(r[0]) for r in rows)
        points_width = max(len(r[1]) for r in rows)
        return "\n".join(
            f"{name:<{name_width}}  {points:>{points_width}}  {detail}".rstrip()
            for name, points, detail in rows
        )

    def _repr_html_(self) -> str:
        body = "".join(
            f"<tr><td>{html.escape(t.name)}</td><td style='text-align:right'>{t.points}</td>"
            f"<td>{html.escape(t.text)}</td></tr>"
            for t in self.terms
        )
        return (
            "<table><thead><tr><th>term</th><th>points</th><th>why</th></tr></thead>"
            f"<tbody>{body}<tr><th>total</th><th style='text-align:right'>{self.total}</th>"
            "<th></th></tr></tbody></table>"
        )
