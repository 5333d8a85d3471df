"""An inline SVG chart of running totals by round (no JavaScript, no library).

>>> svg = totals_chart(["A", "B"], [[100, -20], [250, 40]], target=300)
>>> svg.startswith("<svg") and svg.count("<polyline") == 2 and "300" in svg
True
"""

from __future__ import annotations

import html
from collections.abc import Sequence

__all__ = ["COLOURS", "totals_chart"]

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
_W, _H, _PAD, _RIGHT = 320, 180, 28, 72  # room on the right for the names


def totals_chart(sides: Sequence[str], totals: Sequence[Sequence[int]], target: int | None) -> str:
    """Totals after each round (``totals[round][side]``), one line per side, from 0 at round 0."""
    points = [[0] * len(sides), *[list(t) for t in totals]]
    values = [v for row in points for v in row] + ([target] if target is not None else [])
    low, high = min(0, *values), max(0, *values)
    span = (high - low) or 1
    steps = max(1, len(points) - 1)

    def x(i: int) -> float:
        return _PAD + (_W - _PAD - _RIGHT) * i / steps

    def y(v: int) -> float:
        return _H - _PAD - (_H - 2 * _PAD) * (v - low) / span

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_W} {_H}" class="chart" '
        'role="img" aria-label="running totals by round">',
        f'<line x1="{_PAD}" y1="{y(0):.1f}" x2="{_W - _RIGHT}" y2="{y(0):.1f}" stroke="#999"/>',
    ]
    if target is not None:
        parts.append(
            f'<line x1="{_PAD}" y1="{y(target):.1f}" x2="{_W - _RIGHT}" y2="{y(target):.1f}" '
            f'stroke="#999" stroke-dasharray="4 3"/><text x="{_PAD}" y="{y(target) - 3:.1f}" '
            f'font-size="10" fill="#666">{target}</text>'
        )
    shown = _sample(len(points))
    labels = _apart([y(points[-1][side]) for side in range(len(sides))])
    for side, name in enumerate(sides):
        colour = COLOURS[side % len(COLOURS)]
        line = " ".join(f"{x(i):.1f},{y(points[i][side]):.1f}" for i in shown)
        parts.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{line}"/>'
            f'<text x="{_W - _RIGHT + 3}" y="{labels[side]:.1f}" font-size="10" '
            f'fill="{colour}">{html.escape(name[:14])}</text>'
        )
    parts.append(
        f'<text x="{_PAD}" y="{_H - 8}" font-size="10" fill="#666">0</text>'
        f'<text x="{_W - _RIGHT}" y="{_H - 8}" font-size="10" fill="#666" '
        f'text-anchor="end">{len(points) - 1}</text></svg>'
    )
    return "".join(parts)


_MOST_POINTS = 2 * (_W - _PAD - _RIGHT)  # two a pixel: more would not show


def _sample(count: int) -> list[int]:
    """Which of ``count`` points to draw: all, or evenly spread ones, always the last.

    >>> _sample(4), len(_sample(1001)), _sample(1001)[-1]
    ([0, 1, 2, 3], 440, 1000)
    """
    if count <= _MOST_POINTS:
        return list(range(count))
    step = (count - 1) / (_MOST_POINTS - 1)
    return [round(i * step) for i in range(_MOST_POINTS)]


def _apart(ys: list[float], gap: float = 11.0) -> list[float]:
    """End labels moved apart so that none overlaps (equal totals put them on one spot).

    >>> _apart([50.0, 50.0, 120.0])
    [44.5, 55.5, 120.0]
    """
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    placed = [ys[i] for i in order]
    for _ in range(100):  # push clusters apart until no two are closer than ``gap``
        moved = False
        for k in range(1, len(placed)):
            overlap = gap - (placed[k] - placed[k - 1])
            if overlap > 1e-9:
                placed[k - 1] -= overlap / 2
                placed[k] += overlap / 2
                moved = True
        if not moved:
            break
    out = [0.0] * len(ys)
    for rank, i in enumerate(order):
        out[i] = placed[rank]
    return out
