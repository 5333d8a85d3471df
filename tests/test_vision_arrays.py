"""The vision stages' array code against the plain per-item loops it stands for.

A photo gives thousands of ink blobs (``blobs.py``) and crops (``crops.py``), its card
regions tens of thousands of pixels (``regions.py``), a crowded table thousands of pairs of
cards (``cards.py``) and hundreds of outlines' corners (``view.py``); the code handles them in
arrays, by their outlines, or in plain float arithmetic. The loops here say the same thing one item at a time, the way the stages
once did, and on random inputs both must give exactly the same results, bit for bit and in
the same order: recognition's outputs depend on every bit of them.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardscore.cards import Card
from cardscore.vision import regions, view
from cardscore.vision.blobs import (
    Candidate,
    _black_hat,
    _blobs,
    _edge_weight,
    _local_angles,
    _seen,
)
from cardscore.vision.cards import GROUPED, Placement, group_cards
from cardscore.vision.crops import CROP, CROP_SHIFT, CROP_SIDE, crop_batch
from cardscore.vision.geometry import ASPECT, NORMAL_WIDTH

LEVELS = ((45, 45), (20, 30), (70, 70), (10, 18), (130, 130))


def _table(seed: int) -> np.ndarray:
    """A random pale table with dark glyph-sized marks (digits, letters, strokes, dots) of
    random size, ink, blur and angle, some touching: components of every kind of size."""
    rng = np.random.default_rng(seed)
    h, w = int(rng.integers(120, 320)), int(rng.integers(120, 320))
    image = np.full((h, w, 3), rng.integers(150, 256, 3), np.uint8)
    for _ in range(int(rng.integers(5, 40))):
        ink = tuple(int(v) for v in rng.integers(0, 200, 3))
        x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
        if rng.random() < 0.6:
            text = str(rng.choice(list("A23456789JQK10")))
            scale = float(rng.uniform(0.2, 1.4))
            thickness = int(rng.integers(1, 3))
            cv2.putText(image, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, ink, thickness)
        else:
            end = (x + int(rng.integers(-30, 30)), y + int(rng.integers(-30, 30)))
            cv2.line(image, (x, y), end, ink, int(rng.integers(1, 4)))
    blurred = cv2.GaussianBlur(image, (0, 0), float(rng.uniform(0.3, 1.5)))
    angle = float(rng.uniform(0, 360))
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    return cv2.warpAffine(blurred, turn, (w, h), borderMode=cv2.BORDER_REPLICATE)


def _reference_black_hat(norm: np.ndarray) -> np.ndarray:
    k = max(3, round(0.075 * NORMAL_WIDTH)) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    hat: np.ndarray = cv2.morphologyEx(norm.min(axis=2), cv2.MORPH_BLACKHAT, kernel)
    return hat


def _reference_blobs(
    hat: np.ndarray,
    levels: tuple[int, int],
    on_paper: np.ndarray,
    c4: np.ndarray,
    s4: np.ndarray,
) -> list[Candidate]:
    """One ink mask's candidates: the mask drawn, labelled again, each blob tested alone."""
    low, high = levels
    count, labels = cv2.connectedComponents((hat > low).astype(np.uint8), connectivity=8)
    strong = np.zeros(count, bool)
    strong[np.unique(labels[hat > high])] = True
    strong[0] = False
    ink = strong[labels].astype(np.uint8) * 255
    count, _, stats, centroids = cv2.connectedComponentsWithStats(ink, connectivity=8)
    wn = NORMAL_WIDTH
    out = []
    for i in range(1, count):
        _, _, bw, bh, area = stats[i]
        big = max(bw, bh)
        if not (0.06 * wn <= big <= 0.34 * wn) or area < 0.0012 * wn * wn:
            continue
        cx, cy = centroids[i]
        ix, iy = round(cx), round(cy)
        if not on_paper[iy, ix]:
            continue
        phi = np.degrees(np.arctan2(s4[iy, ix], c4[iy, ix])) / 4.0
        size = big / (1 + 0.15 * abs(np.sin(np.deg2rad(2 * phi))))
        out.append(Candidate(float(cx), float(cy), float(size), float((-phi) % 90.0)))
    return out


def _reference_seen(found: list[Candidate], known: list[Candidate]) -> list[bool]:
    return [
        any(
            abs(c.x - k.x) < 0.25 * k.size
            and abs(c.y - k.y) < 0.25 * k.size
            and 0.8 < c.size / k.size < 1.25
            for k in known
        )
        for c in found
    ]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_each_ink_masks_candidates_are_the_per_blob_loops(seed: int) -> None:
    norm = _table(seed)
    hat = _black_hat(cv2.split(norm))
    assert np.array_equal(hat, _reference_black_hat(norm))
    gray = cv2.cvtColor(norm, cv2.COLOR_BGR2GRAY)
    c4, s4 = _local_angles(gray)
    rng = np.random.default_rng(seed)
    on_paper = rng.random(gray.shape) < rng.uniform(0, 1)  # some blobs off paper
    for levels in LEVELS:
        expected = _reference_blobs(hat, levels, on_paper, c4, s4)
        assert _blobs(hat, levels, on_paper, c4, s4) == expected


def _reference_local_angles(gray: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    g = cv2.GaussianBlur(gray.astype(np.float32), (0, 0), 1.0)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1)
    weight = _edge_weight(gx * gx + gy * gy)
    phi = np.arctan2(gy, gx)
    k = int(NORMAL_WIDTH) | 1
    c4 = cv2.boxFilter(weight * np.cos(4 * phi), -1, (k, k))
    s4 = cv2.boxFilter(weight * np.sin(4 * phi), -1, (k, k))
    return c4, s4


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_local_axes_computed_in_bands_are_the_whole_images(seed: int) -> None:
    gray = cv2.cvtColor(_table(seed), cv2.COLOR_BGR2GRAY)
    for got, expected in zip(_local_angles(gray), _reference_local_angles(gray), strict=True):
        assert np.array_equal(got, expected)


@st.composite
def _crowds(draw: st.DrawFn) -> tuple[list[Candidate], list[Candidate]]:
    """Two lists of candidates, the second's many near copies of the first's (moved and
    resized about as far as the duplicate test's bounds), over a few hundred at times so
    that :func:`_seen` compares them in several runs."""
    seed = draw(st.integers(0, 2**32 - 1))
    n_known, n_found = draw(st.integers(0, 400)), draw(st.integers(0, 700))
    rng = np.random.default_rng(seed)
    span = float(draw(st.sampled_from([30.0, 300.0, 3000.0])))

    def blob() -> Candidate:
        size = float(rng.uniform(7.2, 40.8))
        return Candidate(float(rng.uniform(0, span)), float(rng.uniform(0, span)), size, 0.0)

    known = [blob() for _ in range(n_known)]
    found = []
    for _ in range(n_found):
        if known and rng.random() < 0.7:
            k = known[int(rng.integers(len(known)))]
            dx, dy = rng.uniform(-0.3, 0.3, 2) * k.size
            size = k.size * float(rng.uniform(0.75, 1.3))
            found.append(Candidate(k.x + float(dx), k.y + float(dy), size, 0.0))
        else:
            found.append(blob())
    return found, known


@settings(max_examples=60, deadline=None)
@given(_crowds())
def test_seen_is_the_any_loop(crowd: tuple[list[Candidate], list[Candidate]]) -> None:
    found, known = crowd
    assert _seen(found, known).tolist() == _reference_seen(found, known)


def test_seen_keeps_the_bounds_strict() -> None:
    # A size ratio of exactly 0.8 or 1.25, or a shift of exactly a quarter size: not the same.
    k = Candidate(100.0, 100.0, 20.0, 0.0)
    edge = [
        Candidate(100.0, 100.0, 16.0, 0.0),
        Candidate(100.0, 100.0, 25.0, 0.0),
        Candidate(105.0, 100.0, 20.0, 0.0),
        Candidate(100.0, 95.0, 20.0, 0.0),
        Candidate(104.9, 95.1, 24.9, 0.0),
    ]
    assert _seen(edge, [k]).tolist() == [False, False, False, False, True]
    assert _seen(edge, []).tolist() == [False] * 5
    assert _seen([], [k]).tolist() == []


# --- crops -----------------------------------------------------------------------------------


def _reference_crops(
    norm: np.ndarray, points: list[tuple[float, float, float, float]]
) -> np.ndarray:
    c = (CROP - 1) / 2
    crops = np.empty((len(points), CROP, CROP, 3), np.uint8)
    for n, (x, y, size, angle) in enumerate(points):
        s = CROP_SIDE * size / CROP
        t = np.deg2rad(angle)
        right = np.array([np.cos(t), -np.sin(t)])
        down = np.array([np.sin(t), np.cos(t)])
        centre = np.array([x, y]) + CROP_SHIFT * size * down
        m = np.empty((2, 3))
        m[:, 0] = s * right
        m[:, 1] = s * down
        m[:, 2] = centre - s * c * (right + down)
        interpolation = cv2.INTER_AREA if s > 1 else cv2.INTER_LINEAR
        flags = interpolation | cv2.WARP_INVERSE_MAP
        crops[n] = cv2.warpAffine(
            norm, m, (CROP, CROP), flags=flags, borderMode=cv2.BORDER_REPLICATE
        )
    return crops


_POINTS = st.lists(
    st.tuples(
        st.floats(-20, 340),
        st.floats(-20, 340),
        st.floats(2, 60),  # glyph heights on both sides of a crop's own scale (10 px)
        st.floats(-720, 720),
    ),
    max_size=150,  # past crops._CUT_SPLIT: both cores cut
)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), _POINTS)
def test_crops_are_the_per_crop_loop(seed: int, points: list[tuple[float, ...]]) -> None:
    norm = _table(seed)
    crops = crop_batch(norm, points)  # type: ignore[arg-type]
    assert np.array_equal(crops, _reference_crops(norm, points))  # type: ignore[arg-type]


# --- regions ---------------------------------------------------------------------------------


def _reference_rect(labels: np.ndarray, stat: np.ndarray, i: int) -> tuple[object, ...]:
    """The minimum-area rectangle of all region ``i``'s pixels."""
    x, y, w, h = (int(v) for v in stat[:4])
    ys, xs = np.nonzero(labels[y : y + h, x : x + w] == i)
    return cv2.minAreaRect(np.stack([xs + x, ys + y], axis=1).astype(np.float32))


def _mask(seed: int) -> np.ndarray:
    """Random white regions: filled turned rectangles (cards), blobs, holes and specks, some
    touching, some at the image's edge."""
    rng = np.random.default_rng(seed)
    h, w = int(rng.integers(60, 400)), int(rng.integers(60, 400))
    mask = np.zeros((h, w), np.uint8)
    for _ in range(int(rng.integers(1, 12))):
        centre = (float(rng.uniform(-10, w + 10)), float(rng.uniform(-10, h + 10)))
        side = float(rng.uniform(1, 120))
        box = (centre, (side, side * float(rng.uniform(0.5, 1.8))), float(rng.uniform(0, 180)))
        corners = cv2.boxPoints(box).round().astype(np.int32)
        cv2.fillPoly(mask, [corners], 255)
        if rng.random() < 0.4:
            r = int(rng.integers(1, 30))
            hole = (int(centre[0]) + int(rng.integers(-20, 20)), int(centre[1]))
            cv2.circle(mask, hole, r, 0, -1)
    noise = rng.random((h, w)) < float(rng.uniform(0, 0.02))
    mask[noise] = 255 - mask[noise]
    return mask


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_a_regions_outline_gives_the_rectangle_of_all_its_pixels(seed: int) -> None:
    mask = _mask(seed)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    for i in range(1, count):
        expected = _reference_rect(labels, stats[i], i)
        assert cv2.minAreaRect(regions._outline(labels, stats[i], i)) == expected


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(0.2, 1.0))
def test_region_shapes_drop_the_specks_of_the_per_region_loop(seed: int, scale: float) -> None:
    mask = _mask(seed)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    min_area = (0.02 * max(mask.shape[:2])) ** 2
    for i in range(1, count):
        if stats[i, cv2.CC_STAT_AREA] < min_area:
            labels[labels == i] = 0
    shapes = regions._shapes(mask, scale)
    assert np.array_equal(shapes.labels, labels)
    kept = [i for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= min_area]
    assert sorted(shapes.boxes) == kept


def _reference_groups(cards: list[Placement], w: float) -> list[list[int]]:
    """Every pair of outlines intersected as polygons, joined when they share enough."""
    parent = list(range(len(cards)))

    def find(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for i in range(len(cards)):
        for j in range(i + 1, len(cards)):
            a = cards[i].corners(w * 0.95).astype(np.float32)
            b = cards[j].corners(w * 0.95).astype(np.float32)
            area, _ = cv2.intersectConvexConvex(a, b)
            if float(area) / (0.95 * 0.95 * w * w * ASPECT) > GROUPED:
                parent[find(i)] = find(j)
    groups: dict[int, list[int]] = {}
    for i in range(len(cards)):
        groups.setdefault(find(i), []).append(i)
    out = [sorted(g, key=lambda i: (cards[i].x, cards[i].y)) for g in groups.values()]
    return sorted(out, key=lambda g: (min(cards[i].y for i in g), min(cards[i].x for i in g)))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_grouping_cards_looks_only_at_near_pairs_and_finds_the_same_groups(seed: int) -> None:
    rng = np.random.default_rng(seed)
    spread = float(rng.uniform(150, 900))  # from a heap of cards to a table sparsely laid
    cards = [
        Placement(Card.from_id(int(rng.integers(52))), 0.9, *rng.uniform(0, spread, 2),
                  float(rng.uniform(0, 360)), 1, None)
        for _ in range(int(rng.integers(0, 40)))
    ]  # fmt: skip
    assert group_cards(cards, NORMAL_WIDTH) == _reference_groups(cards, NORMAL_WIDTH)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_views_plain_arithmetic_matches_numpys(seed: int) -> None:
    rng = np.random.default_rng(seed)
    a, b = rng.normal(0, 100, 3), rng.normal(0, 100, 3)
    assert view._cross(a, b).tolist() == np.cross(a, b).tolist()
    corners = rng.uniform(0, 500, (4, 2))
    errors = []
    for k in range(4):
        u, v = corners[k - 1] - corners[k], corners[(k + 1) % 4] - corners[k]
        cos = float(u @ v / (np.linalg.norm(u) * np.linalg.norm(v)))
        errors.append(abs(float(np.degrees(np.arccos(np.clip(cos, -1.0, 1.0)))) - 90.0))
    assert view._off_square(corners) == pytest.approx(float(np.mean(errors)), abs=1e-9)
