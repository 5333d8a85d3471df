"""A score with its reasons: named terms that add up to the total.

Every game's scorer returns one, so the CLI, the web app and Jupyter show the reasoning behind
every point the same way.

>>> b = Breakdown((Term("hearts", -60, "♥5 ♥6 ♥7 ♥8 ♥9 ♥10"), Term("pig", -100, "♠Q")))
>>> b.total, b.as_dict()
(-160, {'hearts': -60, 'pig': -100})
>>> print(b.to_text())
hearts  -60  ♥5 ♥6 ♥7 ♥8 ♥9 ♥10
pig    -100  ♠Q
total  -160
"""

from __future__ import annotations

import html
from collections.abc import Iterator
from dataclasses import dataclass

__all__ = ["Breakdown", "Term"]


@dataclass(frozen=True, slots=True)
class Term:
    """One line of a score: a name (a stable key for JSON), its points, and why."""

    name: str
    points: int
    detail: str = ""


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

    def as_dict(self) -> dict[str, int]:
        """``{term: points}``, terms of the same name added together."""
        result: dict[str, int] = {}
        for term in self.terms:
            result[term.name] = result.get(term.name, 0) + term.points
        return result

    def to_text(self) -> str:
        """A plain aligned table, for logs and doctests (the CLI draws a rich table)."""
        rows = [(t.name, str(t.points), t.detail) for t in self.terms]
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
            f"<td>{html.escape(t.detail)}</td></tr>"
            for t in self.terms
        )
        return (
            "<table><thead><tr><th>term</th><th>points</th><th>why</th></tr></thead>"
            f"<tbody>{body}<tr><th>total</th><th style='text-align:right'>{self.total}</th>"
            "<th></th></tr></tbody></table>"
        )
