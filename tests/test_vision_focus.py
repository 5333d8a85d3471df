"""The focus stage: a photo's blur measured from its edges, and a blurred photo sharpened
back before its indices are read (:mod:`cardscore.vision.focus`)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import need_module

need_module("cv2", "needs the vision extra (opencv)")
need_module("onnxruntime", "needs the vision extra (onnxruntime)")

import cv2  # noqa: E402

from cardscore.vision import calibration, focus, recognize  # noqa: E402
from cardscore.vision.evaluate import match_cards  # noqa: E402
from cardscore.vision.focus import SHARP, measure_blur, refocus  # noqa: E402
from tests.render_tables import DESIGNS, render_table  # noqa: E402


def _disc(size: int = 400) -> np.ndarray:
    """A dark disc on pale paper, drawn 4 × larger and shrunk: edges at every angle, sharp."""
    big = np.full((4 * size, 4 * size), 230, np.uint8)
    cv2.circle(big, (2 * size, 2 * size), int(1.3 * size), 30, -1)
    return cv2.resize(big, (size, size), interpolation=cv2.INTER_AREA)


@pytest.mark.parametrize("sigma", [1.5, 2.0, 3.0])
def test_a_gaussian_blur_is_measured_in_every_direction(sigma: float) -> None:
    blur = measure_blur(cv2.GaussianBlur(_disc(), (0, 0), sigma))
    assert blur.sigmas == pytest.approx((sigma,) * 4, abs=0.25)


def test_a_sharp_edge_measures_under_the_threshold_and_is_left_as_it_is() -> None:
    disc = _disc()
    assert measure_blur(disc).worst < 0.6 < SHARP
    focused = refocus(disc)
    assert not focused.sharpened
    assert focused.image is disc


def test_a_shaken_photo_is_measured_long_the_way_it_moved() -> None:
    line = np.full((1, 9), 1 / 9, np.float32)  # moved 9 px sideways
    blur = measure_blur(cv2.filter2D(_disc(), -1, line))
    along, across = blur.sigmas[0], blur.sigmas[2]
    assert along > SHARP > across
    cov = blur.covariance()
    assert cov[0, 0] > 2 * cov[1, 1]
    assert abs(cov[0, 1]) < 0.2 * cov[0, 0]


def test_a_shake_its_sharpest_edges_underrate_is_told_by_its_median_edges() -> None:
    """A table shaken 4 px (a card 120 px wide; seed 224, used for nothing else): its card
    edges are ramps, and their sharpest quarter measures under SHARP; the median edges
    measure it long one way, and the photo is sharpened. As drawn, it is no shake."""
    from cardscore.vision.readings import normalise
    from cardscore.vision.regions import find_regions

    table = render_table(224, DESIGNS[0])
    n = round(4 * table.card_width / 120)
    shaken = cv2.filter2D(table.image, -1, np.full((1, n), 1 / n, np.float32))
    read = normalise(shaken, find_regions(shaken).card_width)
    assert read.blur.worst < SHARP
    assert read.blur.shaken
    assert read.sharpened
    still = normalise(table.image, find_regions(table.image).card_width)
    assert not still.blur.shaken
    assert not still.sharpened
    # A lens's blur, the same every way, is no shake however soft.
    assert not measure_blur(cv2.GaussianBlur(_disc(), (0, 0), 2.0)).shaken


def test_a_shaken_photos_cards_are_flagged_below_their_own_threshold() -> None:
    """The table shaken 4 px (seed 224): read on the blurred lines, but every card less sure
    than FLAG_AT_SHAKEN is flagged, those between the two thresholds among them."""
    table = render_table(224, DESIGNS[0])
    n = round(4 * table.card_width / 120)
    result = recognize(cv2.filter2D(table.image, -1, np.full((1, n), 1 / n, np.float32)))
    assert result.blur.shaken
    assert result.sharpened
    between = [
        c
        for c in result.cards
        if calibration.FLAG_AT_BLURRED <= c.confidence < calibration.FLAG_AT_SHAKEN
    ]
    assert between
    assert all(c.flagged for c in between)
    assert all(c.confidence >= calibration.FLAG_AT_SHAKEN for c in result.cards if not c.flagged)


def test_a_blank_image_has_no_edges_to_measure() -> None:
    blank = np.full((100, 100, 3), 200, np.uint8)
    assert measure_blur(blank).worst == 0.0
    assert not refocus(blank).sharpened


def test_the_blur_is_measured_on_the_paper_it_is_given() -> None:
    sharp, soft = _disc(), cv2.GaussianBlur(_disc(), (0, 0), 3.0)
    half = np.hstack([sharp[:, :200], soft[:, 200:]])
    left = np.zeros(half.shape, np.uint8)
    left[:, :190] = 1
    assert measure_blur(half, left).worst < SHARP < measure_blur(half, 1 - left).worst


def _right(image: np.ndarray, table: object) -> tuple[int, bool]:
    result = recognize(image)
    truth = table.truth  # type: ignore[attr-defined]
    match = match_cards([(x, y) for _, x, y, _ in truth], result, table.card_width)  # type: ignore[attr-defined]
    return sum(result.cards[j].card == truth[i][0] for i, j in match.items()), result.sharpened


def test_a_blurred_table_reads_better_sharpened(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables of the independent renderer's designs (seeds 220-223: neither the tuning nor the
    measuring seeds), blurred 2 px at a card 120 px wide: sharpened, most of what the blur
    cost comes back."""
    tables = [render_table(seed, design) for seed in range(220, 222) for design in DESIGNS]
    blurred = [cv2.GaussianBlur(t.image, (0, 0), 2.0 * t.card_width / 120) for t in tables]
    total = sum(len(t.truth) for t in tables)
    read = [_right(image, t) for image, t in zip(blurred, tables, strict=True)]
    assert all(sharpened for _, sharpened in read)
    with monkeypatch.context() as patched:
        patched.setattr(focus, "SHARP", float("inf"))
        as_is = sum(_right(image, t)[0] for image, t in zip(blurred, tables, strict=True))
    sharpened = sum(right for right, _ in read)
    assert sharpened >= 0.9 * total
    assert sharpened > as_is


def test_cards_of_a_blurred_photo_are_calibrated_on_their_own_lines() -> None:
    calibrated = calibration.calibrated
    for corners in (1, 2):
        for score in (0.9, 0.99, 0.999):
            assert calibrated(score, corners, blur=(1.5, 1.4)) != calibrated(score, corners)
            # Measured on the calibration tables: a shake's misreadings are surer than a
            # lens's, so the same score is worth less where the blur runs one way.
            lens = calibrated(score, corners, blur=(1.8, 1.7))
            assert calibrated(score, corners, blur=(1.8, 0.6)) < lens
    # ... and a card read from one corner is worth less the blurrier the photo.
    assert calibrated(0.99, 1, blur=(2.5, 2.4)) < calibrated(0.99, 1, blur=(1.4, 1.3))


def test_a_photo_straightened_from_a_seat_keeps_the_usual_lines_unless_it_blurred() -> None:
    assert calibration.blurred_lines(True, False, 1.4)  # a lens's blur or a shake
    assert not calibration.blurred_lines(True, True, 1.4)  # far cards' few pixels
    assert calibration.blurred_lines(True, True, calibration.BLURRED + 0.1)
    assert not calibration.blurred_lines(False, False, 1.0)
