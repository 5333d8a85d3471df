"""Plain card designs drawn from fonts: more index shapes than the Debian decks carry.

The Debian designs print few "J", "Q", "K" indices in the Latin letters and bold serif faces
of a common casino deck (several use B/D/R/V, German or French courts), so the classifier saw
few of them. Each design here is one font (from Debian's :data:`PACKAGES`: DejaVu,
Liberation, FreeFont, URW's base 35, Noto, Symbola and two dozen more; fetched like the decks
when the system has them not) with its own seeded index size, weight and place; faces are
point-symmetric, with pips or a coloured court block in the middle. Pillow (``train`` extra)
draws the glyphs; it is imported only here.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import cv2
import numpy as np

from cardscore.cards import Card, Rank, Suit, full_deck
from train.synth import rank_box

__all__ = [
    "FONT_DECKS",
    "PACKAGES",
    "SUIT_CHARS",
    "SUIT_FONTS",
    "boxed_right",
    "font_decks",
    "font_files",
    "glyph",
]

# Font file stems, one design each: sans, serif and mono; light, regular, bold and condensed.
# Designs are seeded by their place here: new ones go at the end.
FONT_DECKS = (
    "DejaVuSans-Bold",
    "DejaVuSans",
    "DejaVuSansCondensed-Bold",
    "DejaVuSerif-Bold",
    "DejaVuSerif",
    "DejaVuSerifCondensed-Bold",
    "LiberationSans-Bold",
    "LiberationSans-Regular",
    "LiberationSansNarrow-Bold",
    "LiberationSerif-Bold",
    "LiberationSerif-Regular",
    "LiberationMono-Bold",
    "FreeSerifBold",
    "FreeSans",
    "FreeMonoBold",
    "NimbusRoman-Bold",
    "NimbusSans-Bold",
    "NimbusSansNarrow-Regular",
    "C059-Bold",
    "C059-Roman",
    "P052-Bold",
    "URWBookman-Demi",
    "URWGothic-Demi",
    "NotoSerif-Bold",
    "NotoSans-Regular",
    "NotoSerif-Regular",
    # Light, monoline and display faces: an index drawn with one even stroke (as many printed
    # decks are), very thin or very heavy, and other shapes of J, 4, 7 and 9.
    "DejaVuSans-ExtraLight",
    "DejaVuSansMono-Bold",
    "DejaVuSansMono",
    "FreeMono",
    "FreeSansBold",
    "FreeSerif",
    "LiberationSansNarrow-Regular",
    "NimbusMonoPS-Bold",
    "NimbusMonoPS-Regular",
    "NimbusSans-Regular",
    "P052-Roman",
    "URWBookman-Light",
    "URWGothic-Book",
    "NotoSans-Bold",
    "NotoSansDisplay-Bold",
    "LinLibertine_R",
    # More faces, each with its own suits: rounded monoline ones (a "J" drawn with one pen),
    # humanist and geometric sans, old-style and book serifs, typewriter and CJK fonts' Latin.
    "Quicksand-Regular",
    "Quicksand-Bold",
    "Quicksand-Light",
    "OpenSans-Light",
    "ComicNeue-Regular",
    "Roboto-Black",
    "Cantarell-Regular",
    "Cantarell-Bold",
    "Lato-Light",
    "Lato-Black",
    "OpenSans-CondBold",
    "OpenSans-Semibold",
    "Roboto-Bold",
    "RobotoCondensed-Regular",
    "Inter-Medium",
    "Oxygen-Sans-Bold",
    "Carlito-Bold",
    "Roboto-Light",
    "OxygenMono-Regular",
    "Caladea-Bold",
    "LinLibertine_RB",
    "LinBiolinum_R",
    "STIXGeneral-Bold",
    "EBGaramond12-Regular",
    "JunicodeTwoBeta-Bold",
    "UnBatangBold",
    "Hack-Bold",
    "FiraCode-Regular",
    "LinBiolinum_RB",
    "VL-Gothic-Regular",
    "UnDotumBold",
)
_SUIT_FONT = "DejaVuSans"  # has ♠ ♥ ♦ ♣: most designs' suits
# These FONT_DECKS (by place) pick their own suits from SUIT_FONTS; the rest draw
# _SUIT_FONT's.
OWN_SUITS = frozenset((*range(12, 26), *range(42, len(FONT_DECKS))))
# Every suit shape the fonts draw: each design above takes one, so that a club or a spade is
# known by many drawings of it. (FreeSerifBold is not one: its ♠ and ♣ are swapped.)
SUIT_FONTS = (
    "DejaVuSans",
    "DejaVuSerif-Bold",
    "FreeSerif",
    "FreeSans",
    "Symbola_hint",
    "NotoSansSymbols2-Regular",
    "ipag",
    "LinLibertine_RB",
    "STIXGeneral-Regular",
    "FiraCode-Bold",
    "FreeMono",
    "opens___",
    "UnBatang",
    "UnDinaru",
    "VL-Gothic-Regular",
    "LiberationSerif-Bold",
    "NimbusSans-Bold",
    "DejaVuMathTeXGyre",
)
SUIT_CHARS = {
    Suit.SPADES: "\u2660",
    Suit.HEARTS: "\u2665",
    Suit.DIAMONDS: "\u2666",
    Suit.CLUBS: "\u2663",
}
PACKAGES = (
    "fonts-dejavu-core",
    "fonts-dejavu-extra",
    "fonts-liberation",
    "fonts-freefont-ttf",
    "fonts-urw-base35",
    "fonts-noto-core",
    "fonts-symbola",
    "fonts-quicksand",
    "fonts-comic-neue",
    "fonts-cantarell",
    "fonts-lato",
    "fonts-open-sans",
    "fonts-roboto-unhinted",
    "fonts-inter",
    "fonts-oxygen",
    "fonts-crosextra-carlito",
    "fonts-crosextra-caladea",
    "fonts-linuxlibertine",
    "fonts-stix",
    "fonts-ebgaramond",
    "fonts-junicode",
    "fonts-hack",
    "fonts-firacode",
    "fonts-vlgothic",
    "fonts-unfonts-core",
    "fonts-ipafont-gothic",
    "fonts-opensymbol",
)
_FONT_FILES = ("*.ttf", "*.otf")
WIDTH, HEIGHT = 240, 336  # the rendered Debian faces' width; a poker card's aspect


def font_files(cache: Path) -> dict[str, Path]:
    """Font stem -> file: the system's fonts, else Debian's font packages unpacked in ``cache``."""
    roots = [Path("/usr/share/fonts"), cache / "fonts"]
    found: dict[str, Path] = {}
    for root in roots:
        for pattern in _FONT_FILES if root.is_dir() else ():
            for path in sorted(root.rglob(pattern)):
                found.setdefault(path.stem, path)
    if all(stem in found for stem in (*FONT_DECKS, *SUIT_FONTS)):
        return found
    cache.mkdir(parents=True, exist_ok=True)
    for package in PACKAGES:
        if not list(cache.glob(f"{package}_*.deb")):
            subprocess.run(["apt-get", "download", package], cwd=cache, check=True)
        deb = next(cache.glob(f"{package}_*.deb"))
        subprocess.run(["dpkg", "-x", str(deb), str(cache / "fonts")], check=True)
    for pattern in _FONT_FILES:
        for path in sorted((cache / "fonts").rglob(pattern)):
            found.setdefault(path.stem, path)
    return found


def _rank_text(rank: Rank) -> str:
    return "10" if rank is Rank.TEN else rank.value


# Pip centres (fractions of the pip area) for 2..10, as on common decks.
_PIPS: dict[int, list[tuple[float, float]]] = {
    2: [(0.5, 0.0), (0.5, 1.0)],
    3: [(0.5, 0.0), (0.5, 0.5), (0.5, 1.0)],
    4: [(0, 0), (1, 0), (0, 1), (1, 1)],
    5: [(0, 0), (1, 0), (0.5, 0.5), (0, 1), (1, 1)],
    6: [(0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    7: [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    8: [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)],
    9: [(0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0.5, 0.5), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)],
    10: [
        (0, 0),
        (1, 0),
        (0.5, 1 / 6),
        (0, 1 / 3),
        (1, 1 / 3),
        (0, 2 / 3),
        (1, 2 / 3),
        (0.5, 5 / 6),
        (0, 1),
        (1, 1),
    ],
}


class _Style:
    """One design's seeded choices."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rank_h = rng.uniform(0.085, 0.16)  # rank glyph height, card widths
        self.left = rng.uniform(0.035, 0.075)
        self.top = rng.uniform(0.035, 0.07)
        self.suit_scale = rng.uniform(0.6, 1.0)  # suit glyph height / rank height
        self.gap = rng.uniform(0.0, 0.25)  # rank-suit gap, rank heights
        self.squeeze = rng.uniform(0.8, 1.1)  # glyph width factor
        self.red = (int(rng.integers(0, 60)), int(rng.integers(0, 50)), int(rng.integers(170, 235)))
        self.black = (int(rng.integers(0, 45)),) * 3
        self.paper = tuple(
            int(v) for v in np.clip(rng.uniform(236, 252) + rng.normal(0, 2, 3), 0, 255)
        )
        self.frame = bool(rng.random() < 0.5)


def glyph(font_path: Path, text: str, height: int) -> np.ndarray:
    """A glyph's ink (uint8 0..255), cropped tight and scaled to ``height`` px; a
    ValueError if the font has no such glyph (it draws no ink)."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(str(font_path), 4 * height)
    x0, y0, x1, y1 = (round(v) for v in font.getbbox(text))
    canvas = Image.new("L", (x1 - x0 + 8, y1 - y0 + 8), 0)
    ImageDraw.Draw(canvas).text((4 - x0, 4 - y0), text, fill=255, font=font)
    ink = np.asarray(canvas)
    ys, xs = np.nonzero(ink > 40)
    if not len(ys):
        raise ValueError(f"{font_path.name} draws no {text!r}")
    ink = ink[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    scale = height / ink.shape[0]
    size = (max(1, round(ink.shape[1] * scale)), height)
    out: np.ndarray = cv2.resize(ink, size, interpolation=cv2.INTER_AREA)
    return out


def _stamp(face: np.ndarray, ink: np.ndarray, x: int, y: int, colour: tuple[int, ...]) -> None:
    h, w = ink.shape
    x, y = max(0, x), max(0, y)
    h, w = min(h, face.shape[0] - y), min(w, face.shape[1] - x)
    a = ink[:h, :w, None].astype(np.float32) / 255
    roi = face[y : y + h, x : x + w, :3].astype(np.float32)
    face[y : y + h, x : x + w, :3] = (roi * (1 - a) + np.array(colour) * a).astype(np.uint8)


def _court_art(face: np.ndarray, rng: np.random.Generator, style: _Style, left: int) -> None:
    """A busy coloured block where a court card's picture is, clear of the indices."""
    x0, x1 = max(left, int(0.23 * WIDTH)), WIDTH - max(left, int(0.23 * WIDTH))
    y0, y1 = int(0.13 * HEIGHT), int(0.87 * HEIGHT)
    art = np.empty((y1 - y0, x1 - x0, 3), np.uint8)
    art[:] = rng.integers(120, 250, 3)
    for _ in range(40):
        colour = tuple(int(v) for v in rng.integers(0, 256, 3))
        cx, cy = int(rng.integers(0, x1 - x0)), int(rng.integers(0, y1 - y0))
        if rng.random() < 0.5:
            axes = (int(rng.integers(3, 25)), int(rng.integers(3, 25)))
            cv2.ellipse(art, (cx, cy), axes, float(rng.uniform(0, 180)), 0, 360, colour, -1)
        else:
            end = (int(rng.integers(0, x1 - x0)), int(rng.integers(0, y1 - y0)))
            cv2.line(art, (cx, cy), end, colour, int(rng.integers(1, 5)))
    # Court pictures are mirrored top to bottom.
    half = art.shape[0] // 2
    art[art.shape[0] - half :] = art[:half][::-1, ::-1]
    face[y0:y1, x0:x1, :3] = art
    cv2.rectangle(face, (x0, y0), (x1, y1), style.black, 1)


def _face(
    card: Card,
    fonts: dict[str, Path],
    stem: str,
    style: _Style,
    rng: np.random.Generator,
    suit_stem: str = _SUIT_FONT,
) -> np.ndarray:
    face = np.zeros((HEIGHT, WIDTH, 4), np.uint8)
    face[..., :3] = style.paper
    # Rounded corners: transparent outside, so the table shows as on a real card.
    alpha = np.zeros((HEIGHT, WIDTH), np.uint8)
    r = int(0.06 * WIDTH)
    cv2.rectangle(alpha, (r, 0), (WIDTH - 1 - r, HEIGHT - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (WIDTH - 1, HEIGHT - 1 - r), 255, -1)
    for cx, cy in (
        (r, r),
        (WIDTH - 1 - r, r),
        (r, HEIGHT - 1 - r),
        (WIDTH - 1 - r, HEIGHT - 1 - r),
    ):
        cv2.circle(alpha, (cx, cy), r, 255, -1)
    face[..., 3] = alpha
    colour = style.red if card.suit in (Suit.HEARTS, Suit.DIAMONDS) else style.black
    suit_font = fonts[suit_stem]
    # The index: rank over suit, centred on each other.
    rank_px = round(style.rank_h * WIDTH)
    rank = glyph(fonts[stem], _rank_text(card.rank), rank_px)
    rank = cv2.resize(rank, (max(1, round(rank.shape[1] * style.squeeze)), rank_px))
    suit = glyph(suit_font, SUIT_CHARS[card.suit], max(4, round(rank_px * style.suit_scale)))
    index_w = max(rank.shape[1], suit.shape[1])
    index_h = rank.shape[0] + round(style.gap * rank_px) + suit.shape[0]
    index = np.zeros((index_h, index_w), np.uint8)
    rx = (index_w - rank.shape[1]) // 2
    index[: rank.shape[0], rx : rx + rank.shape[1]] = rank
    sx = (index_w - suit.shape[1]) // 2
    index[index_h - suit.shape[0] :, sx : sx + suit.shape[1]] = suit
    x, y = round(style.left * WIDTH), round(style.top * WIDTH)
    # The middle keeps clear of the indices, as printed cards do (wide "10"s included).
    inner = max(0.2 * WIDTH, x + index_w + 0.025 * WIDTH)
    if card.rank in (Rank.JACK, Rank.QUEEN, Rank.KING):
        _court_art(face, rng, style, int(inner + 0.01 * WIDTH))
    elif card.rank is Rank.ACE:
        pip = glyph(suit_font, SUIT_CHARS[card.suit], int(0.3 * WIDTH))
        _stamp(face, pip, (WIDTH - pip.shape[1]) // 2, (HEIGHT - pip.shape[0]) // 2, colour)
    else:
        n = int(_rank_text(card.rank))
        pip = glyph(suit_font, SUIT_CHARS[card.suit], int(0.15 * WIDTH))
        px0 = max(0.32 * WIDTH, inner + 0.01 * WIDTH + pip.shape[1] / 2)
        px1 = WIDTH - px0
        py0, py1 = 0.17 * HEIGHT, 0.83 * HEIGHT
        for fx, fy in _PIPS[n]:
            ink = pip if fy <= 0.5 else pip[::-1, ::-1]
            px = round(px0 + fx * (px1 - px0) - ink.shape[1] / 2)
            py = round(py0 + fy * (py1 - py0) - ink.shape[0] / 2)
            _stamp(face, ink, px, py, colour)
    if style.frame:
        left = round(inner)
        top = int(0.1 * HEIGHT)
        cv2.rectangle(face, (left, top), (WIDTH - 1 - left, HEIGHT - 1 - top), colour, 1)
    # The index top left, and the same turned 180° at the bottom right.
    _stamp(face, index, x, y, colour)
    _stamp(face, index[::-1, ::-1], WIDTH - x - index_w, HEIGHT - y - index_h, colour)
    return face


def boxed_right(card: Card, face: np.ndarray) -> bool:
    """Does the labeller (:func:`train.synth.rank_box`) box this face's rank glyph: top left,
    of a rank's size (not merged with the suit under it, nor broken into pieces)?"""
    x0, y0, x1, y1 = rank_box(face, card.rank is Rank.TEN)
    tall = (y1 - y0) * HEIGHT / WIDTH
    return x0 < 0.15 and (x0 + x1) / 2 < 0.2 and y0 < 0.06 and 0.07 < tall < 0.18


_STYLE_TRIES = 20


def font_decks(cache: Path, seed: int) -> dict[str, dict[Card, np.ndarray]]:
    """``{"font/STEM": {Card: BGRA face}}`` for every font in :data:`FONT_DECKS`.

    A design is drawn again (its next seeded style) while the labeller misboxes one of its
    faces' rank glyphs: such a face would teach its rank's crop as "not an index".
    """
    fonts = font_files(cache)
    decks = {}
    for n, stem in enumerate(FONT_DECKS):
        rng = np.random.default_rng([seed, n])
        own = n in OWN_SUITS
        for _ in range(_STYLE_TRIES):
            style = _Style(rng)
            suits = SUIT_FONTS[int(rng.integers(len(SUIT_FONTS)))] if own else _SUIT_FONT
            faces = {card: _face(card, fonts, stem, style, rng, suits) for card in full_deck()}
            if all(boxed_right(card, face) for card, face in faces.items()):
                break
        else:
            raise ValueError(f"font/{stem}: the labeller misboxes its index in every style tried")
        decks[f"font/{stem}"] = faces
    return decks
