"""A recognition as a picture: where each card was read, what it was read as, which ones the
user must confirm, and the groups they make (SVG, for Jupyter and for saving).

The photo itself is not drawn (a :class:`~cardscore.vision.recognition.Recognition` does not
keep it; :func:`cardscore.vision.annotate.annotate` draws on the photo). Each card is its
outline at its place in the photo, its code in the middle (red suits in red); a card to
confirm is orange with a "?"; each meld, pile and dollar is a dashed outline around its cards.

>>> from cardscore.cards import Card
>>> from cardscore.vision.recognition import Recognition, SeenCard
>>> box = ((40.0, 20.0), (140.0, 20.0), (140.0, 160.0), (40.0, 160.0))
>>> seen = SeenCard(Card("Qh"), 0.62, 90.0, 90.0, 0.0, box, 1, True)
>>> svg = recognition_svg(Recognition((seen,), (), 400, 300, 100.0))
>>> svg.startswith("<svg") and "Q♥?" in svg and "1 card · 1 to confirm" in svg
True
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Protocol

from cardscore.cards import Card
from cardscore.vision.groups import Group

__all__ = ["recognition_svg"]


class SeenCard(Protocol):
    """A card as reported (:class:`~cardscore.vision.recognition.SeenCard`)."""

    @property
    def card(self) -> Card: ...
    @property
    def confidence(self) -> float: ...
    @property
    def x(self) -> float: ...
    @property
    def y(self) -> float: ...
    @property
    def corners(self) -> tuple[tuple[float, float], ...]: ...
    @property
    def flagged(self) -> bool: ...
    @property
    def alternative(self) -> Card | None: ...


class Recognition(Protocol):
    """What a photo shows (:class:`~cardscore.vision.recognition.Recognition`): drawn from
    its cards and groups alone, so that the pipeline's last stage can draw itself."""

    @property
    def cards(self) -> Sequence[SeenCard]: ...
    @property
    def groups(self) -> Sequence[Group]: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def card_width(self) -> float: ...


WIDTH = 640  # the picture's width on screen (px); its drawing is in the photo's pixels
TABLE, SURE, UNSURE = "#2f6f3e", "#15803d", "#ea580c"
RED, BLACK = "#c81e1e", "#111827"
GROUP_COLOURS = {"meld": "#fde047", "pile": "#93c5fd", "dollar": "#fca5a5", "loose": "#d1d5db"}


def recognition_svg(result: Recognition, width: int = WIDTH) -> str:
    """``result`` drawn as a standalone SVG document ``width`` px wide (deterministic)."""
    w, h = max(result.width, 1), max(result.height, 1)
    unit = max(result.card_width, 1.0)  # sizes scale with the cards, not the photo
    caption = unit * 0.35
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
        f'height="{round(width * (h + 2 * caption) / w)}" viewBox="0 0 {w} {h + 2 * caption:g}" '
        'font-family="DejaVu Sans, Arial, sans-serif">',
        f'<rect width="{w}" height="{h + 2 * caption:g}" fill="{TABLE}"/>',
    ]
    for group in result.groups:
        outline = _hull([p for i in group.cards for p in result.cards[i].corners])
        colour = GROUP_COLOURS.get(group.kind, "#d1d5db")
        label = group.kind + (f" ({group.orientation})" if group.orientation else "")
        parts.append(
            f'<polygon class="group {group.kind}" points="{_points(outline)}" fill="none" '
            f'stroke="{colour}" stroke-width="{unit * 0.03:.1f}" '
            f'stroke-dasharray="{unit * 0.08:.1f} {unit * 0.05:.1f}"/>'
        )
        x, y = min(p[0] for p in outline), min(p[1] for p in outline)
        parts.append(
            f'<text x="{x:.1f}" y="{max(y - unit * 0.06, unit * 0.2):.1f}" fill="{colour}" '
            f'font-size="{unit * 0.16:.1f}">{html.escape(label)}</text>'
        )
    # Outlines first, then every code over them: a card under another keeps its code in sight.
    parts.extend(_outline(seen, unit) for seen in result.cards)
    parts.extend(_code(seen, unit) for seen in result.cards)
    n, unsure = len(result.cards), sum(c.flagged for c in result.cards)
    status = f"{n} card{'s' if n != 1 else ''} · {unsure} to confirm"
    parts.append(
        f'<text x="{w / 2:g}" y="{h + caption * 1.3:.1f}" fill="#ffffff" '
        f'font-size="{caption * 0.8:.1f}" text-anchor="middle">{status}</text>'
    )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _outline(seen: SeenCard, unit: float) -> str:
    """A card's outline (orange when it is to be confirmed), with its reading as a tooltip."""
    kind = "card flagged" if seen.flagged else "card"
    edge = UNSURE if seen.flagged else SURE
    title = f"{seen.card} · confidence {seen.confidence:.2f}" + (
        f" · or {seen.alternative}" if seen.alternative else ""
    )
    return (
        f'<polygon class="{kind}" points="{_points(seen.corners)}" fill="#ffffff" '
        f'fill-opacity="0.85" stroke="{edge}" stroke-width="{unit * 0.04:.1f}">'
        f"<title>{html.escape(title)}</title></polygon>"
    )


def _code(seen: SeenCard, unit: float) -> str:
    """A card's code in its middle, red suits in red, "?" when it is to be confirmed."""
    ink = RED if seen.card.suit.is_red else BLACK
    label = f"{seen.card}{'?' if seen.flagged else ''}"
    return (
        f'<text x="{seen.x:.1f}" y="{seen.y + unit * 0.1:.1f}" fill="{ink}" '
        f'font-size="{unit * 0.28:.1f}" font-weight="bold" text-anchor="middle" '
        f'stroke="#ffffff" stroke-width="{unit * 0.04:.1f}" paint-order="stroke">'
        f"{html.escape(label)}</text>"
    )


def _points(points: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def _hull(points: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """The convex hull of ``points``, counter-clockwise (Andrew's monotone chain).

    >>> _hull([(0, 0), (2, 0), (1, 1), (2, 2), (0, 2)])
    [(0, 0), (2, 0), (2, 2), (0, 2)]
    """
    ordered = sorted(set(points))
    if len(ordered) < 3:
        return ordered

    def turn(o: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[tuple[float, float]] = []
    upper: list[tuple[float, float]] = []
    for chain, seq in ((lower, ordered), (upper, ordered[::-1])):
        for p in seq:
            while len(chain) >= 2 and turn(chain[-2], chain[-1], p) <= 0:
                chain.pop()
            chain.append(p)
    return lower[:-1] + upper[:-1]
