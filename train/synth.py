"""Synthetic tables: rendered card faces laid on random backgrounds, with known geometry.

Scenes are drawn at the recogniser's normalised scale (a card about
:data:`~cardscore.vision.geometry.NORMAL_WIDTH` px wide). Each placed card records its centre,
rotation (degrees, counter-clockwise as seen) and size, so every index glyph's position and
orientation is known: that labels the classifier's crops and scores the test tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

import cv2
import numpy as np

from cardscore.cards import Card, Rank
from cardscore.vision.geometry import NORMAL_WIDTH
from train.played import played_sides

__all__ = [
    "PhotoTruth",
    "Placed",
    "Scene",
    "SceneMaker",
    "Weather",
    "draw_weather",
    "jitter",
    "rank_box",
]


@dataclass(frozen=True)
class Placed:
    """A card on a synthetic table: face, centre (px), rotation (degrees CCW), width (px)."""

    card: Card
    deck: str
    x: float
    y: float
    angle: float
    width: float
    height: float
    group: int  # which meld / pile / loose card it belongs to


class PhotoTruth(NamedTuple):
    """What a benchmark expects of a photo of a scene (:meth:`SceneMaker.photo_truth`), in
    :func:`cardscore.vision.evaluate.score_table`'s terms."""

    shown: list[tuple[Card, float, float, int]]
    unseen: list[tuple[Card, float, float, int]]
    mirrored: list[tuple[float, float]]


@dataclass
class Scene:
    image: np.ndarray
    cards: list[Placed]
    owner: np.ndarray  # index of the topmost card per pixel of the flat table, -1 for table
    groups: dict[int, str] = field(default_factory=dict)  # group id -> kind
    # The flat table's pixels to the photo's (a homography) where the camera was tilted;
    # the cards' places, the owner map and the index points' flat positions stay the table's.
    view: np.ndarray | None = None


@dataclass(frozen=True)
class Weather:
    """What a real deck, light and hand do to a photo that the rendered faces lack, one
    table's draw (:func:`draw_weather`); None: not on this table."""

    # A worn or cream deck: the faces' paper colour (BGR) and how much of the way from it to
    # black the darkest ink goes (1: the face as rendered).
    faded: tuple[tuple[float, float, float], float] | None = None
    cast: tuple[float, float, float] | None = None  # white balance off: each channel times this
    # A lamp's reflection: centre and radii (table fractions), and how far toward white.
    glare: tuple[float, float, float, float, float] | None = None
    shake: tuple[float, float] | None = None  # a moving phone: streak length (px), direction (°)

    def print_face(self, bgr: np.ndarray) -> np.ndarray:
        """A face's colours (float BGR, 0-255) as this deck printed them."""
        if self.faded is None:
            return bgr
        paper, contrast = self.faded
        return np.asarray(paper, np.float32) * (1 - contrast * (1 - bgr / 255))

    def light(self, canvas: np.ndarray) -> np.ndarray:
        """The photo's cast and glare, on the table as lit (float BGR)."""
        h, w = canvas.shape[:2]
        if self.cast is not None:
            canvas = canvas * np.asarray(self.cast, np.float32)
        if self.glare is not None:
            cx, cy, rx, ry, strength = self.glare
            yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
            spot = np.exp(-(((xx / w - cx) / rx) ** 2 + ((yy / h - cy) / ry) ** 2))
            canvas = canvas + (255 - canvas) * (strength * spot)[..., None]
        return canvas

    def move(self, canvas: np.ndarray) -> np.ndarray:
        """The shake's streak: a line kernel along its direction."""
        if self.shake is None:
            return canvas
        length, angle = self.shake
        size = int(np.ceil(length)) | 1
        kernel = np.zeros((size, size), np.float32)
        t = np.deg2rad(angle)
        half = (size - 1) / 2
        for s in np.linspace(-length / 2, length / 2, 4 * size):
            kernel[round(half - s * np.sin(t)), round(half + s * np.cos(t))] += 1
        return cv2.filter2D(canvas, -1, kernel / kernel.sum())


# Each weathered table draws each of these on its own, with this chance.
WEATHER_CHANCE = 0.4


def draw_weather(rng: np.random.Generator) -> Weather:
    """One weathered table's draws: a faded or cream deck (paper from white to cream, ink
    45-85% of the way to black), a white balance up to a quarter off per
    channel, a lamp's glare (up to 85% toward white at its centre), a shake of 3-9 px at the
    normalised scale; each with :data:`WEATHER_CHANCE`.

    >>> w = draw_weather(np.random.default_rng(4))
    >>> isinstance(w, Weather)
    True
    """

    def maybe() -> bool:
        return bool(rng.random() < WEATHER_CHANCE)

    faded = cast = glare = shake = None
    if maybe():
        warmth = rng.uniform(0, 1)
        paper = (
            float(rng.uniform(235, 255) - 70 * warmth * rng.uniform(0.6, 1)),  # blue falls first
            float(rng.uniform(235, 255) - 35 * warmth),
            float(rng.uniform(235, 255) - 15 * warmth),
        )
        faded = (paper, float(rng.uniform(0.45, 0.85)))
    if maybe():
        b, g, r = (float(c) for c in rng.uniform(0.75, 1.25, 3))
        cast = (b, g, r)
    if maybe():
        cx, cy, rx, ry, strength = rng.uniform(
            (0.1, 0.1, 0.05, 0.05, 0.4), (0.9, 0.9, 0.25, 0.25, 0.85)
        )
        glare = (float(cx), float(cy), float(rx), float(ry), float(strength))
    if maybe():
        shake = (float(rng.uniform(3, 9)), float(rng.uniform(0, 180)))
    return Weather(faded, cast, glare, shake)


# A tilted photo's camera: tilt from looking straight down (degrees), and its distance from
# the table's centre in table widths (a phone held over a table at arm's length).
TILT = (5.0, 40.0)
DISTANCE = (0.9, 1.6)


def camera_view(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A homography from a flat ``h`` × ``w`` table to a photo of it taken by a pinhole camera
    tilted by :data:`TILT` degrees, from any side: the far cards smaller and foreshortened
    (their glyphs squashed along the tilt), the near ones larger, as a phone photo taken from
    a seat at the table shows them. The photo keeps the table's size and centre."""
    tilt = np.deg2rad(rng.uniform(*TILT))
    side = rng.uniform(0, 2 * np.pi)  # the direction the camera leans from
    distance = rng.uniform(*DISTANCE) * w
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    centred = corners - (w / 2, h / 2)
    c, s = np.cos(side), np.sin(side)
    # The table turned so the camera leans along its y axis, then seen from the camera: at
    # (0, -distance sin tilt, distance cos tilt), looking at the table's centre.
    x = centred[:, 0] * c - centred[:, 1] * s
    y = centred[:, 0] * s + centred[:, 1] * c
    depth = distance + y * np.sin(tilt)  # along the optical axis
    u = x / depth
    v = y * np.cos(tilt) / depth
    # Back to the table's turn, then scaled and centred so the photo's area matches the table's.
    seen = np.stack([u * c + v * s, -u * s + v * c], axis=1)
    d1, d2 = seen[2] - seen[0], seen[3] - seen[1]
    area = 0.5 * abs(d1[0] * d2[1] - d1[1] * d2[0])
    seen = (seen - seen.mean(axis=0)) * np.sqrt(w * h / area) + (w / 2, h / 2)
    return np.asarray(
        cv2.getPerspectiveTransform(corners.astype(np.float32), seen.astype(np.float32)),
        np.float64,
    )


def seen_at(view: np.ndarray, x: float, y: float) -> tuple[float, float]:
    """Where the flat table's point (x, y) lies in the photo ``view`` makes of it."""
    p = view @ np.array([x, y, 1.0])
    return float(p[0] / p[2]), float(p[1] / p[2])


def jitter(
    point: tuple[float, float, float, float], rng: np.random.Generator
) -> tuple[float, float, float, float]:
    """A training crop's point (x, y, size, angle) cut a little off, as the recogniser's own
    candidates are: size ±7%, angle σ 2.5° (the size is drawn first)."""
    x, y, size, angle = point
    return x, y, size * rng.uniform(0.93, 1.07), angle + rng.normal(0, 2.5)


def rank_box(face: np.ndarray, ten: bool = False) -> tuple[float, float, float, float]:
    """The top-left rank glyph's box (x0, y0, x1, y1) as fractions of the face size.

    Only a ten's glyph has two parts ("1" and "0" side by side); on other cards the blob
    beside the rank is a pip or court art, which must not widen the box.
    """
    h, w = face.shape[:2]
    bgr = face[..., :3].astype(np.float32)
    alpha = face[..., 3:4].astype(np.float32) / 255
    flat = (bgr * alpha + 255 * (1 - alpha)).astype(np.uint8)
    hsv = cv2.cvtColor(flat, cv2.COLOR_BGR2HSV)
    ink = ((hsv[..., 2] < 150) | (hsv[..., 1] > 90)).astype(np.uint8)
    ink[: int(0.015 * h)] = 0
    ink[:, : int(0.015 * w)] = 0
    region = ink[: int(0.42 * h), : int(0.32 * w)]
    count, _, stats, _ = cv2.connectedComponentsWithStats(region, connectivity=8)
    boxes = []
    for i in range(1, count):
        x, y, bw, bh, area = stats[i]
        if 0.05 * w <= bh <= 0.36 * w and bw <= 0.3 * w and area > 0.0008 * w * w and x < 0.2 * w:
            boxes.append((x, y, x + bw, y + bh))
    if not boxes:
        return (0.04, 0.03, 0.2, 0.15)
    top = min(boxes, key=lambda b: b[1])
    x0, y0, x1, y1 = top
    tall = y1 - y0
    for b in boxes if ten else []:  # the other half of a "10": as tall, right beside it
        if (
            b is not top
            and abs(b[1] - y0) < 0.25 * tall
            and abs((b[3] - b[1]) - tall) < 0.25 * tall
            and max(b[0] - x1, x0 - b[2]) <= 0.5 * tall
        ):
            x0, y0, x1, y1 = min(x0, b[0]), min(y0, b[1]), max(x1, b[2]), max(y1, b[3])
    return (x0 / w, y0 / h, x1 / w, y1 / h)


def point_symmetric_index(face: np.ndarray) -> bool:
    """Is the bottom-right index the top-left one turned 180°? (Some decks print it upright.)"""
    h, w = face.shape[:2]
    gray = cv2.cvtColor(np.ascontiguousarray(face[..., :3]), cv2.COLOR_BGR2GRAY).astype(np.float32)
    hh, ww = int(0.3 * h), int(0.25 * w)
    tl = gray[:hh, :ww]
    br = gray[h - hh :, w - ww :][::-1, ::-1]
    a, b = tl - tl.mean(), br - br.mean()
    score = float((a * b).sum() / (np.sqrt((a * a).sum() * (b * b).sum()) + 1e-6))
    return score > 0.6


def _background(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    kind = rng.integers(4)
    base = rng.uniform(20, 230, 3)
    if kind == 0:  # beige / wood-ish tables like the real photos
        base = np.array([rng.uniform(90, 200), rng.uniform(140, 215), rng.uniform(170, 240)])
    img = np.ones((h, w, 3), np.float32) * base
    if kind in (0, 1):  # stripes (wood grain / planks)
        freq = rng.uniform(0.005, 0.05)
        phase = rng.uniform(0, 6.3)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        t = np.deg2rad(rng.uniform(0, 180))
        wave = np.sin((xx * np.cos(t) + yy * np.sin(t)) * freq + phase)
        img += wave[..., None] * rng.uniform(3, 30)
    noise = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), rng.uniform(1, 8))
    img += noise[..., None] * rng.uniform(2, 25)
    return img


class SceneMaker:
    """Draws random tables from a list of decks (``{name: {Card: BGRA face}}``).

    For training, ``soft_focus`` is the share of tables photographed out of focus (a blur
    of 1.2–1.9 px at the normalised scale, as real photos can be), and ``court_weight`` makes
    J, Q and K that much likelier to be dealt: their indices differ most between designs.
    ``played`` is the share of tables that are a team's side of a round the Tranca engine
    played to the end (:mod:`train.played`: its melds, piles and dollars, not dealt at random;
    ``court_weight`` does not apply to them). ``weights`` makes a design that much likelier
    to be a table's (by name; 1 where not given). ``tilted`` is the share of tables
    photographed at an angle (:func:`camera_view`), ``weathered`` the share whose deck, light
    or hand is a real table's (:func:`draw_weather`). The defaults draw the benchmark's tables.
    """

    def __init__(
        self,
        decks: dict[str, dict[Card, np.ndarray]],
        seed: int,
        soft_focus: float = 0.0,
        court_weight: float = 1.0,
        played: float = 0.0,
        weights: Mapping[str, float] | None = None,
        tilted: float = 0.0,
        weathered: float = 0.0,
    ) -> None:
        self.decks = decks
        self.names = sorted(decks)
        weights = weights or {}
        unknown = sorted(set(weights) - set(decks))
        if unknown:
            raise ValueError(f"weights name designs that are not among the decks: {unknown}")
        chances = np.array([weights.get(name, 1.0) for name in self.names])
        # None: every design alike, the benchmark's draws.
        self._chances = None if np.all(chances == 1.0) else chances / chances.sum()
        self.soft_focus = soft_focus
        self.court_weight = court_weight
        self.played = played
        self.tilted = tilted
        self.weathered = weathered
        self._kinds: dict[int, str] = {}
        self.reseed(seed)
        self.boxes = {
            (name, card): rank_box(face, card.rank is Rank.TEN)
            for name in self.names
            for card, face in decks[name].items()
        }
        self.symmetric = {
            (name, card): point_symmetric_index(face)
            for name in self.names
            for card, face in decks[name].items()
        }

    def reseed(self, seed: int) -> None:
        """Draws the next tables from ``seed``, as a new maker of the same designs would,
        without measuring every face again (training's seeded shards of tables)."""
        self.rng = np.random.default_rng(seed)
        self._sides = played_sides(seed)  # lazy: no round is played unless a table asks
        self._kinds = {}

    def _design(self) -> str:
        """A table's design, drawn by the designs' weights."""
        if self._chances is None:
            return self.names[self.rng.integers(len(self.names))]
        return self.names[self.rng.choice(len(self.names), p=self._chances)]

    def _face(self, deck: str, card: Card) -> np.ndarray:
        return self.decks[deck][card]

    def _deal(self, cards: list[Card]) -> Card:
        if self.court_weight == 1.0:  # the benchmark's draws, unchanged
            return cards[self.rng.integers(len(cards))]
        courts = (Rank.JACK, Rank.QUEEN, Rank.KING)
        weights = np.array([self.court_weight if c.rank in courts else 1.0 for c in cards])
        return cards[self.rng.choice(len(cards), p=weights / weights.sum())]

    def layout(self, h: int, w: int, tranca: bool = False) -> list[Placed]:
        """Random groups: loose cards, overlapping pairs, fanned melds, piles."""
        rng = self.rng
        deck = self._design()
        cards = list(self.decks[deck])
        width = NORMAL_WIDTH * rng.uniform(0.88, 1.12)
        placed: list[Placed] = []
        aspect = self._face(deck, cards[0]).shape[0] / self._face(deck, cards[0]).shape[1]
        height = width * aspect
        base = float(rng.integers(4) * 90) if not tranca else 0.0
        occupied: list[tuple[float, float, float]] = []
        group = 0
        for _ in range(60):
            if len(occupied) >= (7 if tranca else 6):
                break
            kind = rng.choice(["meld", "pair", "loose", "pile"], p=[0.45, 0.25, 0.15, 0.15])
            n = {"meld": int(rng.integers(3, 9)), "pair": 2, "loose": 1, "pile": 1}[str(kind)]
            jitter = rng.normal(0, 4 if tranca else 10)
            angle = base + jitter
            if kind == "pile" and rng.random() < 0.5:
                angle += 90
            if not tranca and rng.random() < 0.15:
                angle = rng.uniform(0, 360)
            step_card = np.array([rng.uniform(0.22, 0.4) * width, 0.0])
            if kind == "meld" and rng.random() < 0.4:
                step_card = np.array([0.0, rng.uniform(0.2, 0.3) * height])
            if kind == "pair":
                step_card = np.array([rng.uniform(0.1, 0.5), rng.uniform(0.05, 0.4)]) * width
            t = np.deg2rad(angle)
            right = np.array([np.cos(t), -np.sin(t)])
            down = np.array([np.sin(t), np.cos(t)])
            span = step_card[0] * (n - 1) * right + step_card[1] * (n - 1) * down
            extent = float(np.hypot(*span)) / 2 + 0.75 * height
            cx, cy = (
                rng.uniform(extent, max(extent + 1, w - extent)),
                rng.uniform(extent, max(extent + 1, h - extent)),
            )
            if any(np.hypot(cx - ox, cy - oy) < extent + oe for ox, oy, oe in occupied):
                continue
            occupied.append((cx, cy, extent))
            start = np.array([cx, cy]) - span / 2
            for k in range(n):
                card = self._deal(cards)
                p = start + k * (step_card[0] * right + step_card[1] * down)
                a = angle + (rng.normal(0, 3) if kind == "pair" else rng.normal(0, 0.7))
                placed.append(
                    Placed(card, deck, float(p[0]), float(p[1]), float(a), width, height, group)
                )
            group += 1
        return placed

    def render(self, placed: list[Placed], h: int, w: int, view: np.ndarray | None = None) -> Scene:
        """The table's photo: the cards laid on a background, seen through ``view`` (a
        :func:`camera_view`; None: from straight above), lit, blurred, noisy, JPEG."""
        rng = self.rng
        # No draw when no table is weathered: the benchmark's tables stay as they were.
        weathered = self.weathered > 0 and rng.random() < self.weathered
        weather = draw_weather(rng) if weathered else Weather()
        canvas = _background(rng, h, w)
        owner = np.full((h, w), -1, np.int32)
        tint = rng.uniform(0.94, 1.03, 3)
        for i, pc in enumerate(placed):
            face = self._face(pc.deck, pc.card)
            fh, fw = face.shape[:2]
            s = pc.width / fw
            t = np.deg2rad(pc.angle)
            right = np.array([np.cos(t), -np.sin(t)]) * s
            down = np.array([np.sin(t), np.cos(t)]) * s
            m = np.empty((2, 3), np.float32)
            m[:, 0], m[:, 1] = right, down
            m[:, 2] = np.array([pc.x, pc.y]) - right * fw / 2 - down * fh / 2
            # Warp only into the card's bounding box: scenes are drawn by the thousand.
            corners = m[:, :2] @ np.array([[0, fw, 0, fw], [0, 0, fh, fh]]) + m[:, 2:3]
            x0, y0 = np.maximum(0, np.floor(corners.min(axis=1)) - 6).astype(int)
            x1, y1 = np.minimum([w, h], np.ceil(corners.max(axis=1)) + 6).astype(int)
            if x1 <= x0 or y1 <= y0:
                continue
            m[:, 2] -= (x0, y0)
            flags = cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
            warped = cv2.warpAffine(face, m, (x1 - x0, y1 - y0), flags=flags)
            alpha = warped[..., 3:4].astype(np.float32) / 255
            # A soft shadow under the card, then the card itself.
            shadow = cv2.GaussianBlur(alpha, (0, 0), rng.uniform(1, 4))
            if shadow.ndim == 2:
                shadow = shadow[..., None]
            roi = canvas[y0:y1, x0:x1]
            roi *= 1 - 0.35 * shadow
            printed = weather.print_face(warped[..., :3].astype(np.float32))
            roi[:] = roi * (1 - alpha) + printed * tint * alpha
            owner[y0:y1, x0:x1][alpha[..., 0] > 0.5] = i
        if view is not None:
            # The camera sees the table before light, optics and sensor touch the photo.
            canvas = cv2.warpPerspective(canvas, view, (w, h), flags=cv2.INTER_LINEAR,
                                         borderMode=cv2.BORDER_REFLECT)  # fmt: skip
        # Light: a brightness gradient and a colour cast, then optics and sensor.
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        gx, gy = rng.normal(0, 0.25, 2)
        light = 1 + gx * (xx / w - 0.5) + gy * (yy / h - 0.5)
        canvas *= light[..., None] * rng.uniform(0.6, 1.15) * rng.uniform(0.9, 1.1, 3)
        canvas = weather.light(canvas)
        sigma = rng.uniform(0, 1.3)
        if self.soft_focus and rng.random() < self.soft_focus:
            sigma = rng.uniform(1.2, 1.9)
        if sigma > 0.3:
            canvas = cv2.GaussianBlur(canvas, (0, 0), sigma)
        canvas = weather.move(canvas)
        canvas += rng.normal(0, rng.uniform(0, 6), canvas.shape)
        image = np.clip(canvas, 0, 255).astype(np.uint8)
        quality = int(rng.integers(40, 96))
        _ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        return Scene(np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR)), placed, owner, view=view)

    def scene(self, tranca: bool = False) -> Scene:
        """A random table about 9 × 6.5 card widths (Tranca: one team's side, upright), or
        (a ``played`` share of the others) a played round's side, laid out like a random one;
        a ``tilted`` share of them photographed at an angle."""
        h, w = round(NORMAL_WIDTH * 20 / 3), round(NORMAL_WIDTH * 55 / 6)
        # No draw when no table is played: the benchmark's and the plain tables stay as they were.
        played = not tranca and self.played > 0 and self.rng.random() < self.played
        if tranca:
            placed = self.tranca_layout(h, w)
        else:
            placed = self.played_layout(h, w) if played else self.layout(h, w)
        # No draw when no table is tilted, likewise.
        tilted = self.tilted > 0 and self.rng.random() < self.tilted
        scene = self.render(placed, h, w, camera_view(self.rng, h, w) if tilted else None)
        if tranca or played:
            scene.groups = dict(self._kinds)
        return scene

    def played_layout(self, h: int, w: int, groups: int = 7) -> list[Placed]:
        """The next played side's groups (at most ``groups``, in a random order) where they fit,
        with the random tables' geometry: a quarter turn of the whole table, melds fanned
        across or down, a clean pile crosswise, a few groups at any angle."""
        rng = self.rng
        side = next(self._sides)
        deck = self._design()
        face = next(iter(self.decks[deck].values()))
        width = NORMAL_WIDTH * rng.uniform(0.88, 1.12)
        height = width * face.shape[0] / face.shape[1]
        base = float(rng.integers(4) * 90)
        placed: list[Placed] = []
        occupied: list[tuple[float, float, float]] = []
        self._kinds = {}
        for index in rng.permutation(len(side)):
            if len(self._kinds) >= groups:
                break
            group = side[int(index)]
            angle = base + rng.normal(0, 10)
            if rng.random() < 0.15:
                angle = rng.uniform(0, 360)
            if group.kind == "pile:horizontal":
                angle += 90
            step = np.array([rng.uniform(0.22, 0.4) * width, 0.0])
            if rng.random() < 0.4:
                step = np.array([0.0, rng.uniform(0.2, 0.3) * height])
            t = np.deg2rad(angle)
            along = step[0] * np.array([np.cos(t), -np.sin(t)]) + step[1] * np.array(
                [np.sin(t), np.cos(t)]
            )
            n = len(group.cards)
            extent = float(np.hypot(*along)) * (n - 1) / 2 + 0.75 * height
            centre = self._free_spot(extent, occupied, h, w)
            if centre is None:
                continue  # the photo shows part of the side
            number = len(self._kinds)
            self._kinds[number] = group.kind
            for k, card in enumerate(group.cards):
                x, y = centre + (k - (n - 1) / 2) * along
                a = angle + rng.normal(0, 0.7)
                placed.append(
                    Placed(card, deck, float(x), float(y), float(a), width, height, number)
                )
        return placed

    def _free_spot(
        self, extent: float, occupied: list[tuple[float, float, float]], h: int, w: int
    ) -> np.ndarray | None:
        """A centre whose disc of radius ``extent`` stays clear of the ``occupied`` ones (a few
        tries; ``None`` if none is found), then occupied too."""
        for _ in range(10):
            cx = self.rng.uniform(extent, max(extent + 1, w - extent))
            cy = self.rng.uniform(extent, max(extent + 1, h - extent))
            if all(np.hypot(cx - ox, cy - oy) >= extent + oe for ox, oy, oe in occupied):
                occupied.append((cx, cy, extent))
                return np.array([cx, cy])
        return None

    def tranca_layout(self, h: int, w: int) -> list[Placed]:
        """One team's side of a Tranca table: melds fanned upright, piles, dollars.

        Melds are runs of one suit (4…A) or sets of one rank, fanned left to right; each
        pile shows its top card, turned 90° (clean) or not (dirty); red 3s lie alone.
        """
        rng = self.rng
        deck = self._design()
        faces = self.decks[deck]
        width = NORMAL_WIDTH * rng.uniform(0.9, 1.1)
        any_face = next(iter(faces.values()))
        height = width * any_face.shape[0] / any_face.shape[1]
        tilt = rng.normal(0, 3)
        placed: list[Placed] = []
        self._kinds = {}
        x, y = 0.1 * width, 0.75 * height
        group = 0
        rows = ["meld", "meld", "meld", "pile", "pile", "dollar"]
        rng.shuffle(rows)
        ranks = "456789TJQKA"
        for kind in rows:
            if kind == "meld":
                n = int(rng.integers(3, 8))
                if rng.random() < 0.6:
                    suit = "shdc"[rng.integers(4)]
                    first = int(rng.integers(0, len(ranks) - n + 1))
                    codes = [ranks[first + k] + suit for k in range(n)]
                else:
                    rank = ranks[rng.integers(len(ranks))]
                    codes = [rank + "shdc"[rng.integers(4)] for _ in range(n)]
                step = rng.uniform(0.25, 0.38) * width
                span = (n - 1) * step + width
            else:
                codes = (
                    ["3" + "hd"[rng.integers(2)]]
                    if kind == "dollar"
                    else [ranks[rng.integers(len(ranks))] + "shdc"[rng.integers(4)]]
                )
                step, span = 0.0, width
            turned = kind == "pile" and rng.random() < 0.5
            if turned:
                span = height
            if x + span > w - 0.1 * width:
                x = 0.1 * width
                y += 1.2 * height
            if y + 0.6 * height > h:
                break
            self._kinds[group] = (
                f"{kind}:{'horizontal' if turned else 'vertical'}" if kind == "pile" else kind
            )
            start = x + width / 2 if kind == "meld" else x + span / 2
            for k, code in enumerate(codes):
                card = Card(code)
                if card not in faces:
                    continue
                angle = tilt + (90.0 if turned else 0.0) + rng.normal(0, 1.5)
                cx = start + k * step
                placed.append(
                    Placed(
                        card,
                        deck,
                        float(cx + rng.normal(0, 1)),
                        float(y),
                        float(angle),
                        width,
                        height,
                        group,
                    )
                )
            x += span + rng.uniform(0.25, 0.6) * width
            group += 1
        return placed

    def photo_truth(self, scene: Scene, scale: float = 1.0) -> PhotoTruth:
        """The scene's cards as a benchmark scores them (``scale``: the photo's size over the
        scene's): those whose index the photo shows whole, and the rest (cut by the photo's
        edge or hidden), each as (card, centre x, centre y, group) in the photo's pixels.

        A card counts by its index, not its centre: a tilted photo cuts off a meld's top
        while showing most of each card, and shows a card's index whose centre lies outside.
        Beyond the flat table's edges a tilted photo shows the table mirrored (the warp's
        reflected border): where the cards' mirror images lie is the third part.
        """
        h, w = scene.owner.shape
        whole = {
            i
            for i, x, y, _, half, _ in self.index_points(scene)
            if min(x, y, w - x, h - y) >= max(half)
        }
        shown: list[tuple[Card, float, float, int]] = []
        unseen: list[tuple[Card, float, float, int]] = []
        mirrored: list[tuple[float, float]] = []
        for i, p in enumerate(scene.cards):
            x, y = seen_at(scene.view, p.x, p.y) if scene.view is not None else (p.x, p.y)
            (shown if i in whole else unseen).append((p.card, x * scale, y * scale, p.group))
            if scene.view is None:
                continue
            # cv2.BORDER_REFLECT: the table's column -1 is its column 0, -2 its 1, w its w - 1.
            for u in (p.x, -p.x - 1, 2 * w - p.x - 1):
                for v in (p.y, -p.y - 1, 2 * h - p.y - 1):
                    x, y = seen_at(scene.view, u, v)
                    near = -p.width <= x < w + p.width and -p.width <= y < h + p.width
                    if (u, v) != (p.x, p.y) and near:
                        mirrored.append((x * scale, y * scale))
        return PhotoTruth(shown, unseen, mirrored)

    def index_points(
        self, scene: Scene
    ) -> list[tuple[int, float, float, float, tuple[float, float], bool]]:
        """Visible index glyphs: (card, x, y, upright angle, rank half-size, trusted).

        A bottom-right index that is not the top-left one turned 180° is not trusted: crops
        of it are neither positives nor negatives.
        """
        out = []
        for i, pc in enumerate(scene.cards):
            x0, y0, x1, y1 = self.boxes[(pc.deck, pc.card)]
            t = np.deg2rad(pc.angle)
            right = np.array([np.cos(t), -np.sin(t)])
            down = np.array([np.sin(t), np.cos(t)])
            for flip in (False, True):
                u = ((x0 + x1) / 2 - 0.5) * pc.width
                v = ((y0 + y1) / 2 - 0.5) * pc.height
                if flip:
                    u, v = -u, -v
                p = np.array([pc.x, pc.y]) + u * right + v * down
                ix, iy = round(p[0]), round(p[1])
                h, w = scene.owner.shape
                if not (0 <= ix < w and 0 <= iy < h) or scene.owner[iy, ix] != i:
                    continue
                half = ((x1 - x0) * pc.width / 2, (y1 - y0) * pc.height / 2)
                trusted = not flip or self.symmetric[(pc.deck, pc.card)]
                angle = (pc.angle + (180 if flip else 0)) % 360
                if scene.view is None:
                    out.append((i, float(p[0]), float(p[1]), angle, half, trusted))
                elif (seen := _seen_index(scene.view, p, angle, half, (h, w))) is not None:
                    out.append((i, *seen, trusted))
        return out


def _seen_index(
    view: np.ndarray,
    p: np.ndarray,
    angle: float,
    half: tuple[float, float],
    shape: tuple[int, int],
) -> tuple[float, float, float, tuple[float, float]] | None:
    """An index glyph of the flat table (centre ``p``, upright ``angle``, rank ``half``-size)
    as the tilted photo ``view`` shows it: centre, upright angle and half-size along the
    glyph's own axes as seen; None where it falls outside the photo."""
    x, y = seen_at(view, float(p[0]), float(p[1]))
    h, w = shape
    if not (0 <= x < w and 0 <= y < h):
        return None
    t = np.deg2rad(angle)
    step = 2.0  # px: the view's local stretch along the glyph's right and down
    right = np.subtract(seen_at(view, *(p + step * np.array([np.cos(t), -np.sin(t)]))), (x, y))
    down = np.subtract(seen_at(view, *(p + step * np.array([np.sin(t), np.cos(t)]))), (x, y))
    seen_angle = float(np.degrees(np.arctan2(down[0], down[1]))) % 360
    stretch = (float(np.hypot(*right)) / step, float(np.hypot(*down)) / step)
    return x, y, seen_angle, (half[0] * stretch[0], half[1] * stretch[1])
