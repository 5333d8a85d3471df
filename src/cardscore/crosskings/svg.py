"""Pictures of the board: SVG for Jupyter and the web app, text for terminals and doctests.

Face-down cards show their backs, taken cards are greyed with the taker's colour, the marker
is a ring, legal moves have a green border, and with an analysis each legal move carries its
expected result and margin (the best move in gold).

>>> print(Board(Game.deal(seed=1).move("d3")))
   a   b   c   d   e   f
1  ##  3♠  6♠  3♣  K♣  ##
2  5♦  ##  7♠  5♠  ##  3♦
3  2♣  K♠  ## [..] 5♥  7♥
4  K♥  A♣  ##  ##  2♥  3♥
5  6♦  ##  4♦  A♥  ##  7♣
6  ##  6♣  K♦  2♦  7♦  ##
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cardscore.crosskings.game import SIZE, Game, cell_name

if TYPE_CHECKING:
    from cardscore.crosskings.analysis import Analysis

__all__ = ["Board"]

CELL_W, CELL_H, GAP, MARGIN = 56, 76, 8, 26
PLAYER_COLOURS = {1: "#1e63b5", 2: "#c2410c"}


@dataclass(frozen=True)
class Board:
    """The board of a game, optionally with every legal move's evaluation."""

    game: Game
    analysis: Analysis | None = None

    def text(self) -> str:
        """One line per row: ``##`` face down, ``..`` taken, ``[..]`` around the marker."""
        return str(self.game)

    def __str__(self) -> str:
        return self.text()

    def svg(self) -> str:
        """A standalone SVG document (deterministic: the same board gives the same bytes)."""
        game = self.game
        width = MARGIN + SIZE * (CELL_W + GAP) + GAP
        height = MARGIN + SIZE * (CELL_H + GAP) + GAP + 34
        evaluations = {m.cell: m for m in self.analysis.moves} if self.analysis else {}
        legal = set(game.legal_moves)
        taken_by = {m.cell: m.player for m in game.moves}
        parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif">',
            f'<rect width="{width}" height="{height}" fill="#2f6f3e" rx="10"/>',
        ]
        for i, letter in enumerate("abcdef"):
            x = MARGIN + GAP + i * (CELL_W + GAP) + CELL_W / 2
            parts.append(
                f'<text x="{x:g}" y="18" fill="#e8f5e9" font-size="13" '
                f'text-anchor="middle">{letter}</text>'
            )
        for row in range(SIZE):
            y = MARGIN + GAP + row * (CELL_H + GAP) + CELL_H / 2 + 5
            parts.append(
                f'<text x="13" y="{y:g}" fill="#e8f5e9" font-size="13" '
                f'text-anchor="middle">{row + 1}</text>'
            )
        for cell in range(SIZE * SIZE):
            row, col = divmod(cell, SIZE)
            x = MARGIN + GAP + col * (CELL_W + GAP)
            y = MARGIN + GAP + row * (CELL_H + GAP)
            name = cell_name(cell)
            parts.append(f'<g class="cell" data-cell="{name}">')
            if cell in taken_by:
                card = game.cards[cell]
                colour = PLAYER_COLOURS[taken_by[cell]]
                parts.append(
                    f'<rect x="{x}" y="{y}" width="{CELL_W}" height="{CELL_H}" rx="6" '
                    f'fill="#ffffff" fill-opacity="0.18" stroke="{colour}" stroke-width="2" '
                    'stroke-dasharray="4 3"/>'
                )
                parts.append(
                    f'<text x="{x + CELL_W / 2:g}" y="{y + CELL_H / 2 + 6:g}" font-size="17" '
                    f'fill="{colour}" text-anchor="middle" opacity="0.9">'
                    f"{html.escape(str(card))}</text>"
                )
            elif game.is_face_down(cell):
                parts.append(
                    f'<rect x="{x}" y="{y}" width="{CELL_W}" height="{CELL_H}" rx="6" '
                    'fill="#283593" stroke="#f5f5f5" stroke-width="2"/>'
                )
                parts.append(
                    f'<rect x="{x + 7}" y="{y + 7}" width="{CELL_W - 14}" height="{CELL_H - 14}" '
                    'rx="4" fill="none" stroke="#9fa8da" stroke-width="1.5" '
                    'stroke-dasharray="3 3"/>'
                )
            else:
                card = game.cards[cell]
                ink = "#c62828" if card.suit.is_red else "#111111"
                parts.append(
                    f'<rect x="{x}" y="{y}" width="{CELL_W}" height="{CELL_H}" rx="6" '
                    'fill="#fffdf7" stroke="#444" stroke-width="1"/>'
                )
                parts.append(
                    f'<text x="{x + CELL_W / 2:g}" y="{y + CELL_H / 2 + 8:g}" font-size="24" '
                    f'font-weight="bold" fill="{ink}" text-anchor="middle">'
                    f"{html.escape(str(card))}</text>"
                )
            if name in legal:
                best = name in evaluations and evaluations[name].optimal
                stroke = "#ffd54f" if best else "#66ff99"
                parts.append(
                    f'<rect x="{x - 3}" y="{y - 3}" width="{CELL_W + 6}" height="{CELL_H + 6}" '
                    f'rx="8" fill="none" stroke="{stroke}" stroke-width="{4 if best else 3}"/>'
                )
            if name in evaluations:
                m = evaluations[name]
                parts.append(
                    f'<rect x="{x + 2}" y="{y + CELL_H - 24}" width="{CELL_W - 4}" height="22" '
                    'rx="3" fill="#000000" fill-opacity="0.72"/>'
                )
                parts.append(
                    f'<text x="{x + CELL_W / 2:g}" y="{y + CELL_H - 14:g}" font-size="9.5" '
                    f'fill="#ffffff" text-anchor="middle">{float(m.expected_result):.3f}</text>'
                )
                parts.append(
                    f'<text x="{x + CELL_W / 2:g}" y="{y + CELL_H - 4:g}" font-size="9.5" '
                    f'fill="#ffffff" text-anchor="middle">{float(m.expected_margin):+.2f}</text>'
                )
            if cell == game.marker_cell:
                parts.append(
                    f'<circle cx="{x + CELL_W / 2:g}" cy="{y + 16}" r="9" fill="#fdd835" '
                    'stroke="#212121" stroke-width="2"/>'
                )
            parts.append("</g>")
        p1, p2 = game.p1.score(), game.p2.score()
        status = (
            f"game over: P1 {p1} – P2 {p2}"
            if game.is_over
            else f"P{game.to_move} to move · P1 {p1} – P2 {p2} · {game.cards_left} cards left"
        )
        if self.analysis is not None and not game.is_over:
            status += f" · best {self.analysis.best.cell}"
        parts.append(
            f'<text x="{width / 2:g}" y="{height - 12}" fill="#ffffff" font-size="14" '
            f'text-anchor="middle">{html.escape(status)}</text>'
        )
        parts.append("</svg>")
        return "\n".join(parts) + "\n"

    def _repr_svg_(self) -> str:
        return self.svg()

    def _repr_html_(self) -> str:
        return f"<div>{self.svg()}</div>"
