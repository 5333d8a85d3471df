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
    for side, name in enumerate(sides):
        colour = COLOURS[side % len(COLOURS)]
        line = " ".join(f"{x(i):.1f},{y(row[side]):.1f}" for i, row in enumerate(points))
        parts.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{line}"/>'
            f'<text x="{_W - _RIGHT + 3}" y="{y(points[-1][side]):.1f}" font-size="10" '
            f'fill="{colour}">{html.escape(name[:14])}</text>'
        )
    parts.append(
        f'<text x="{_PAD}" y="{_H - 8}" font-size="10" fill="#666">0</text>'
        f'<text x="{_W - _RIGHT}" y="{_H - 8}" font-size="10" fill="#666" '
        f'text-anchor="end">{len(points) - 1}</text></svg>'
    )
    return "".join(parts)
