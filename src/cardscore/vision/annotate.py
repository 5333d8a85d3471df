"""Draw what was recognised on the photo: outlines, codes and groups, for a person to check."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from cardscore.errors import Problem
from cardscore.vision.image_io import ImageError, load_image
from cardscore.vision.recognition import Recognition

__all__ = ["annotate", "save_annotated"]

_KIND_COLOURS = {"meld": (40, 160, 40), "pile": (200, 90, 20), "dollar": (20, 140, 220)}
_FLAGGED = (0, 0, 230)


def annotate(image: np.ndarray, result: Recognition) -> np.ndarray:
    """A copy of ``image`` (the photo, BGR) with every card and group drawn on it."""
    out = image.copy()
    scale = out.shape[1] / max(result.width, 1)
    thick = max(2, round(result.card_width * scale / 60))
    font = max(0.6, result.card_width * scale / 160)
    for group in result.groups:
        colour = _KIND_COLOURS.get(group.kind, (128, 128, 128))
        points = np.array([p for i in group.cards for p in result.cards[i].corners]) * scale
        hull = cv2.convexHull(points.astype(np.int32))
        cv2.polylines(out, [hull], True, colour, thick * 2)
        label = group.kind + (f" ({group.orientation})" if group.orientation else "")
        x, y = hull[:, 0, 0].min(), hull[:, 0, 1].min()
        cv2.putText(
            out,
            label,
            (int(x), int(max(y - 3 * thick, 12))),
            cv2.FONT_HERSHEY_SIMPLEX,
            font * 0.8,
            colour,
            thick,
        )
    for seen in result.cards:
        colour = _FLAGGED if seen.flagged else (0, 200, 0)
        corners = (np.array(seen.corners) * scale).astype(np.int32)
        cv2.polylines(out, [corners], True, colour, thick)
        text = f"{seen.card.code}{'?' if seen.flagged else ''} {seen.confidence:.2f}"
        org = (int(seen.x * scale - font * 40), int(seen.y * scale))
        cv2.putText(out, text, org, cv2.FONT_HERSHEY_SIMPLEX, font, (255, 255, 255), thick * 3)
        cv2.putText(out, text, org, cv2.FONT_HERSHEY_SIMPLEX, font, colour, thick)
    return out


def save_annotated(source: str | Path | bytes, result: Recognition, path: str | Path) -> None:
    """Write the annotated photo to ``path`` (format from its suffix, e.g. ``.png``)."""
    image = load_image(source).image
    if not cv2.imwrite(str(path), annotate(image, result)):
        raise ImageError(Problem.of("image_unwritable", path=str(path)))
