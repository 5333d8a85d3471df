"""Two card designs drawn by type designers: fonts' playing-card glyphs, for measuring only.

Unicode's Playing Cards block (U+1F0A1–U+1F0DE) has a glyph for every card, and Symbola and
Noto Sans Symbols2 draw each one as a whole face: a corner index at two opposite corners,
the pips laid out as on a printed card, and the court cards' pictures. No model was trained
on these faces and no change was chosen on them. (The training's font designs draw their
suits from 18 fonts' suit characters, these two fonts' among them: the suits' shapes are not
new, the faces, their index letters and their layout are.)

The glyphs are drawn in one colour; the red suits' faces are inked red, as a printed deck's,
and the face inside the glyph's outline is white paper.

    >>> from cardscore.cards import Card
    >>> chr(codepoint(Card("As"))), chr(codepoint(Card("Qh"))), chr(codepoint(Card("Kc")))
    ('🂡', '🂽', '🃞')
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from cardscore.cards import Card, Rank, Suit, full_deck

# Each font's file stem (train.fontdecks.font_files finds it) and the name its rows carry.
FONTS = {"Symbola_hint": "font/symbola", "NotoSansSymbols2-Regular": "font/noto-symbols2"}
_BLOCK = {Suit.SPADES: 0x1F0A0, Suit.HEARTS: 0x1F0B0, Suit.DIAMONDS: 0x1F0C0, Suit.CLUBS: 0x1F0D0}
# The block's order within a suit: ace, 2-10, jack, knight (no French card: skipped), queen, king.
_OFFSET = {Rank(r): k for k, r in enumerate("A23456789TJ", start=1)} | {
    Rank.QUEEN: 0xD,
    Rank.KING: 0xE,
}
_RED_INK = (30, 30, 200)  # BGR
_HEIGHT = 720  # rendered face height, px: the layouts shrink it to their card size


def codepoint(card: Card) -> int:
    """The Playing Cards block's code point for ``card``."""
    return _BLOCK[card.suit] + _OFFSET[card.rank]


def glyph_faces(font: Path) -> dict[Card, np.ndarray] | None:
    """Every card's face (BGRA, transparent outside its outline) as ``font`` draws it, or
    None when the font has no such glyphs."""
    typeface = ImageFont.truetype(str(font), _HEIGHT)
    faces = {}
    for card in full_deck():
        face = _face(typeface, chr(codepoint(card)), card.suit.is_red)
        if face is None:
            return None
        faces[card] = face
    return faces


def _face(typeface: ImageFont.FreeTypeFont, char: str, red: bool) -> np.ndarray | None:
    """One glyph as a card face: white paper inside its outermost outline, its strokes inked."""
    left, top, right, bottom = (round(v) for v in typeface.getbbox(char))
    canvas = Image.new("L", (right - left + 8, bottom - top + 8), 0)
    ImageDraw.Draw(canvas).text((4 - left, 4 - top), char, font=typeface, fill=255)
    ink = np.asarray(canvas)
    outlines, _ = cv2.findContours(
        (ink > 127).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE
    )
    if not outlines:
        return None
    outline = max(outlines, key=cv2.contourArea)
    x, y, w, h = cv2.boundingRect(outline)
    if w * h < 0.5 * ink.size or h < w:  # no card-shaped glyph: the font lacks the block
        return None
    paper = np.zeros_like(ink)
    cv2.drawContours(paper, [outline], -1, 255, cv2.FILLED)
    share = ink.astype(np.float32)[..., None] / 255
    colour = np.array(_RED_INK if red else (20, 20, 20), np.float32)
    bgr = 255 * (1 - share) + colour * share
    face = np.dstack([bgr.astype(np.uint8), np.maximum(paper, ink)])
    cropped: np.ndarray = face[y : y + h, x : x + w]
    return cropped
