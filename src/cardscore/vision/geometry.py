"""Card geometry every stage shares: the normalised card width, a card's axes, where its
corner index lies, how far apart two angles are, and whether cards lie alike.

Every stage after the regions works in a normalised image where a card is
:data:`NORMAL_WIDTH` px wide; an angle is a card's rotation, degrees counter-clockwise as seen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = [
    "ASPECT",
    "COHERENT",
    "INDEX_U",
    "INDEX_V",
    "NORMAL_WIDTH",
    "CardBox",
    "angle_gap",
    "card_axes",
    "common_upright",
    "index_to_centre",
]


NORMAL_WIDTH = 120.0  # card width (px) in the normalised image the candidates come from
ASPECT = 1.4  # card height / width
INDEX_U, INDEX_V = (
    0.13,
    0.12,
)  # rank glyph centre from the top-left corner, in W and H (deck average)
COHERENT = 0.95  # mean resultant length of doubled angles: two cards within about 18°


@dataclass(frozen=True)
class CardBox:
    """A white region shaped like one whole card: its centre, width (short side) and height
    (pixels of the image the regions were found in), and the angle a card lying in it has
    (degrees counter-clockwise, 0 upright; its long side is the card's height, so the angle
    is known up to half a turn).

    >>> CardBox(100.0, 50.0, 60.0, 84.0, 90.0).scaled(0.5)
    CardBox(x=50.0, y=25.0, width=30.0, height=42.0, angle=90.0)
    """

    x: float
    y: float
    width: float
    height: float
    angle: float

    def scaled(self, factor: float) -> CardBox:
        """The same box in pixels ``factor`` times as many."""
        return CardBox(
            self.x * factor, self.y * factor, self.width * factor, self.height * factor, self.angle
        )


def angle_gap(a: float, b: float, period: float = 360.0) -> float:
    """How far apart two angles are (degrees), modulo ``period``.

    >>> angle_gap(350, 10), angle_gap(0, 180), angle_gap(170, 0, period=180.0)
    (20.0, 180.0, 10.0)
    """
    half = period / 2
    return abs((a - b + half) % period - half)


def card_axes(angle: float) -> tuple[np.ndarray, np.ndarray]:
    """Unit vectors along a card turned ``angle``: its right and its down, in image px."""
    t = np.deg2rad(angle)
    return np.array([np.cos(t), -np.sin(t)]), np.array([np.sin(t), np.cos(t)])


def index_to_centre(angle: float, w: float) -> np.ndarray:
    """From a card's top-left corner index to its centre, for a card turned ``angle``."""
    right, down = card_axes(angle)
    return np.asarray((0.5 - INDEX_U) * w * right + (0.5 - INDEX_V) * w * ASPECT * down)


def common_upright(angles: Sequence[float]) -> float | None:
    """The common long-axis direction (period 180°) of cards lying alike, else ``None``."""
    t = np.deg2rad(np.array(angles, dtype=float) * 2)
    c, s = float(np.cos(t).mean()), float(np.sin(t).mean())
    if np.hypot(c, s) < COHERENT:
        return None
    return float(np.degrees(np.arctan2(s, c)) / 2)
