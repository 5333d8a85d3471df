"""An inline SVG chart of running totals by round (no JavaScript, no library).

>>> svg = totals_chart(["A", "B"], [[100, -20], [250, 40]], target=300)
>>> svg.startswith("<svg") and svg.count("<polyline") == 2 and "300" in svg
True
"""

from __future__ import annotations

import html
import itertools
from collections.abc import Sequence

__all__ = ["COLOURS", "totals_chart"]

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
_W, _H, _PAD, _RIGHT = 320, 180, 28, 72  # room on the right for the names
_LINE = 11.0  # a name label's height (font size 10): end labels at least this far apart


def _spread(ys: Sequence[float], gap: float, top: float, bottom: float) -> list[float]:
    """Label heights as near ``ys`` as they can be, at least ``gap`` apart, within the chart.

    >>> _spread([50.0, 50.0, 120.0], 11, 11, 176)
    [44.5, 55.5, 120.0]
    >>> _spread([5.0, 5.0], 11, 11, 176), _spread([5.0, 5.0, 30.0], 11, 11, 176)
    ([11.0, 22.0], [11.0, 22.0, 33.0])
    """
    order = sorted(range(len(ys)), key=lambda i: (ys[i], i))
    # Runs of labels that would touch, each centred on its members' mean, merged until none do.
    groups: list[tuple[float, list[int]]] = []
    for i in order:
        groups.append((ys[i], [i]))
        while len(groups) > 1:
            (a, first), (b, second) = groups[-2], groups[-1]
            a_end, b_start = a + gap * (len(first) - 1) / 2, b - gap * (len(second) - 1) / 2
            if b_start - a_end >= gap:
                break
            members = first + second
            groups[-2:] = [(sum(ys[m] for m in members) / len(members), members)]
    out = [0.0] * len(ys)
    for centre, members in groups:
        start = centre - gap * (len(members) - 1) / 2
        start = float(min(max(start, top), bottom - gap * (len(members) - 1)))
        for k, member in enumerate(members):
            out[member] = start + k * gap
    # A run held in at the top or bottom edge may now reach its neighbour: push them apart.
    for before, after in itertools.pairwise(order):
        out[after] = max(out[after], out[before] + gap)
    for after, before in zip(order[::-1], order[-2::-1], strict=False):
        out[before] = min(out[before], out[after] - gap)
    return out


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


def totals_chart(
    sides: Sequence[str],
    totals: Sequence[Sequence[int]],
    target: int | None,
    label: str = "running totals by round",
) -> str:
    """Totals after each round (``totals[round][side]``), one line per side, from 0 at round 0;
    ``label`` says what it shows to a screen reader."""
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
        f'role="img" aria-label="{html.escape(label)}">',
        f'<line x1="{_PAD}" y1="{y(0):.1f}" x2="{_W - _RIGHT}" y2="{y(0):.1f}" stroke="#999"/>',
    ]
    if target is not None:
        parts.append(
            f'<line x1="{_PAD}" y1="{y(target):.1f}" x2="{_W - _RIGHT}" y2="{y(target):.1f}" '
            f'stroke="#999" stroke-dasharray="4 3"/><text x="{_PAD}" y="{y(target) - 3:.1f}" '
            f'font-size="10" fill="#666">{target}</text>'
        )
    label_y = _spread([y(total) for total in points[-1]], _LINE, _LINE, _H - 4)
    shown = _sample(len(points))
    for side, name in enumerate(sides):
        colour = COLOURS[side % len(COLOURS)]
        line = " ".join(f"{x(i):.1f},{y(points[i][side]):.1f}" for i in shown)
        short = name if len(name) <= 14 else name[:13] + "…"
        parts.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{line}"/>'
            f'<text x="{_W - _RIGHT + 3}" y="{label_y[side]:.1f}" font-size="10" '
            f'fill="{colour}"><title>{html.escape(name)}</title>{html.escape(short)}</text>'
        )
    parts.append(
        f'<text x="{_PAD}" y="{_H - 8}" font-size="10" fill="#666">0</text>'
        f'<text x="{_W - _RIGHT}" y="{_H - 8}" font-size="10" fill="#666" '
        f'text-anchor="end">{len(points) - 1}</text></svg>'
    )
    return "".join(parts)
