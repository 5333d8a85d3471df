"""The shared real photos under other conditions: turned, smaller, compressed, darker, under
a lamp's cast, blurred or shaken, grainy, in a shadow or a glare, seen from a seat.

    python benchmarks/vision_conditions.py --shared ../shared [CONDITION ...]

The shipped models were trained on these photos, so the figures are no accuracy: they show
where a condition the photos do not have breaks the reading (a photo turned askew, a warm
lamp). Each photo is changed as a phone or a room would (a turned photo gets a plain border
of its own edge's colour, as a wider shot of the table would show), read, and compared with
its labels: cards right (the labels' multiset), reported, wrong and unflagged (reported
beyond the labels, not flagged; ``train_06.jpg``'s label slip is one), right but flagged.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from cardscore.vision import recognize
from cardscore.vision.evaluate import read_labels
from cardscore.vision.image_io import load_image

ROOT = Path(__file__).resolve().parent.parent


def _edge(image: np.ndarray) -> list[int]:
    """The median colour of the photo's top and bottom rows: a border that looks like it."""
    rows = np.concatenate([image[:3].reshape(-1, 3), image[-3:].reshape(-1, 3)])
    return [int(v) for v in np.median(rows, axis=0)]


def turned(image: np.ndarray, degrees: float) -> np.ndarray:
    """The photo turned by ``degrees`` in a canvas wide enough to hold it all."""
    h, w = image.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    c, s = abs(np.cos(np.deg2rad(degrees))), abs(np.sin(np.deg2rad(degrees)))
    nw, nh = int(w * c + h * s), int(w * s + h * c)
    m[:, 2] += ((nw - w) / 2, (nh - h) / 2)
    return cv2.warpAffine(image, m, (nw, nh), borderValue=_edge(image))


def from_seat(image: np.ndarray, keystone: float) -> np.ndarray:
    """The photo as a camera leaning towards the far edge sees it: that edge ``keystone`` of
    the near one's width (as ``tests/render_tables.seat_view``)."""
    h, w = image.shape[:2]
    inset = (1 - keystone) / 2
    flat = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    seen = np.array(
        [[inset * w, inset * h], [(1 - inset) * w, inset * h], [w, h], [0, h]], np.float32
    )
    view = cv2.getPerspectiveTransform(flat, seen)
    return cv2.warpPerspective(image, view, (w, h), borderValue=_edge(image))


def cast(image: np.ndarray, blue: float, green: float, red: float) -> np.ndarray:
    """The photo under coloured light: each channel scaled."""
    scaled = image.astype(np.float32) * np.array([blue, green, red], np.float32)
    return np.clip(scaled, 0, 255).astype(np.uint8)


def jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    _ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR))


def gamma(image: np.ndarray, g: float) -> np.ndarray:
    return np.clip(255 * (image / 255.0) ** g, 0, 255).astype(np.uint8)


def shaken(image: np.ndarray, pixels: int) -> np.ndarray:
    """The phone moved sideways by ``pixels`` while the shutter was open: a line blur."""
    kernel = np.zeros((pixels, pixels), np.float32)
    kernel[pixels // 2, :] = 1 / pixels
    return np.asarray(cv2.filter2D(image, -1, kernel))


def grainy(image: np.ndarray, sigma: float) -> np.ndarray:
    """A dim room's sensor noise: Gaussian, ``sigma`` grey levels, the same every run."""
    rng = np.random.default_rng(0)
    noisy = image + rng.normal(0, sigma, image.shape)
    return np.clip(noisy, 0, 255).astype(np.uint8)


def shadow(image: np.ndarray, light: float) -> np.ndarray:
    """A shadow (the phone's, an arm's) over the photo's upper left, its edge soft: there the
    light falls to ``light`` of the rest."""
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    inside = ((xx + 0.5 * yy) < 0.55 * w).astype(np.float32)
    inside = cv2.GaussianBlur(inside, (0, 0), w / 100)
    lit = image.astype(np.float32) * (1 - (1 - light) * inside)[..., None]
    out: np.ndarray = np.clip(lit, 0, 255).astype(np.uint8)
    return out


def glare(image: np.ndarray) -> np.ndarray:
    """A lamp's reflection: a bright spot, 0.08 of the photo's width, low in the middle."""
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    spot = np.exp(-((xx - 0.5 * w) ** 2 + (yy - 0.75 * h) ** 2) / (2 * (0.08 * w) ** 2))
    out: np.ndarray = np.clip(image + 180 * spot[..., None], 0, 255).astype(np.uint8)
    return out


CONDITIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "as taken": lambda i: i,
    "turned 90°": lambda i: np.ascontiguousarray(np.rot90(i, -1)),
    "turned 20°": lambda i: turned(i, 20),
    "turned 35°": lambda i: turned(i, 35),
    "a third the size": lambda i: cv2.resize(i, None, fx=0.33, fy=0.33, interpolation=cv2.INTER_AREA),
    "JPEG 25": lambda i: jpeg(i, 25),
    "darker (gamma 1.8)": lambda i: gamma(i, 1.8),
    "brighter (gamma 0.6)": lambda i: gamma(i, 0.6),
    "warm lamp": lambda i: cast(i, 0.75, 0.95, 1.1),
    "tungsten lamp": lambda i: cast(i, 0.6, 0.85, 1.05),
    "cold light": lambda i: cast(i, 1.1, 0.95, 0.78),
    "blurred (2 px)": lambda i: cv2.GaussianBlur(i, (0, 0), 2.0),
    "blurred (3 px)": lambda i: cv2.GaussianBlur(i, (0, 0), 3.0),
    "shaken (7 px)": lambda i: shaken(i, 7),
    "shaken (10 px)": lambda i: shaken(i, 10),
    "grainy (noise 12)": lambda i: grainy(i, 12),
    "a dim room (gamma 1.8, 0.6 the light, noise 8)": lambda i: grainy(gamma(i, 1.8) * 0.6, 8),
    "half the side, JPEG 40": lambda i: jpeg(cv2.resize(i, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA), 40),
    "the phone's shadow (light 0.5)": lambda i: shadow(i, 0.5),
    "a deep shadow (light 0.3)": lambda i: shadow(i, 0.3),
    "a lamp's glare": glare,
    "from a seat (0.7)": lambda i: from_seat(i, 0.7),
    "from a seat (0.55)": lambda i: from_seat(i, 0.55),
}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("conditions", nargs="*", help=f"some of: {', '.join(CONDITIONS)}")
    args = parser.parse_args()
    unknown = [c for c in args.conditions if c not in CONDITIONS]
    if unknown:
        parser.error(f"no such condition: {', '.join(unknown)}")
    folder = args.shared / "data" / "real-photos"
    labels = read_labels(folder)
    photos = {name: load_image(folder / name).image for name in sorted(labels)}
    print(
        "| condition | cards right | reported | wrong unflagged | right flagged | missed | extra | s |"
    )
    print("|---|---:|---:|---:|---:|---|---|---:|")
    for name in args.conditions or CONDITIONS:
        right = reported = wrong = flagged = 0
        missed: list[str] = []
        extra: list[str] = []
        start = time.perf_counter()
        for photo, image in photos.items():
            cards = recognize(CONDITIONS[name](image)).cards
            want, seen = Counter(labels[photo]), Counter(c.card for c in cards)
            right += sum((want & seen).values())
            reported += len(cards)
            wrong += sum((Counter(c.card for c in cards if not c.flagged) - want).values())
            flagged += sum((Counter(c.card for c in cards if c.flagged) & want).values())
            missed += [f"{c}" for c in (want - seen).elements()]
            extra += [f"{c}" for c in (seen - want).elements()]
        total = sum(len(c) for c in labels.values())
        seconds = (time.perf_counter() - start) / len(photos)
        print(f"| {name} | {right}/{total} | {reported} | {wrong} | {flagged} | "
              f"{' '.join(missed)} | {' '.join(extra)} | {seconds:.2f} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
