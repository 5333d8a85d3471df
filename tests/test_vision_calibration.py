"""Confidence calibration: the fit recovers a known miscalibration, the reliability table
counts right, the threshold is the lowest that keeps wrong cards under the share asked."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardscore.vision.calibration import (
    calibrated,
    choose_threshold,
    fit_platt,
    reliability,
)


def _draw(n: int, a: float, b: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Scores, and outcomes right with probability sigmoid(a·logit(score) + b)."""
    rng = np.random.default_rng(seed)
    scores = rng.uniform(0.3, 0.999, n)
    z = a * np.log(scores / (1 - scores)) + b
    right = rng.random(n) < 1 / (1 + np.exp(-z))
    return scores, right


def test_the_fit_recovers_a_known_overconfidence() -> None:
    scores, right = _draw(20000, 0.6, -0.4, seed=1)
    a, b = fit_platt(scores.tolist(), right.tolist())
    assert a == pytest.approx(0.6, abs=0.05)
    assert b == pytest.approx(-0.4, abs=0.08)


def test_fitted_confidences_are_reliable_on_fresh_draws() -> None:
    """Fitted on one draw, measured on another: each bin's share right is its confidence."""
    a, b = fit_platt(*(x.tolist() for x in _draw(20000, 0.6, -0.4, seed=2)))
    scores, right = _draw(20000, 0.6, -0.4, seed=3)
    z = a * np.log(scores / (1 - scores)) + b
    probs = 1 / (1 + np.exp(-z))
    for _, _, n, mean, share in reliability(probs.tolist(), right.tolist()):
        assert abs(mean - share) < 0.03 + 2 / math.sqrt(n)


def test_reliability_bins_by_hand() -> None:
    rows = reliability(
        [0.1, 0.6, 0.65, 0.95, 1.0], [False, True, False, True, True], (0, 0.5, 0.9, 1)
    )
    assert rows == [(0, 0.5, 1, 0.1, 0.0), (0.5, 0.9, 2, 0.625, 0.5), (0.9, 1, 2, 0.975, 1.0)]


def test_the_threshold_is_the_lowest_that_keeps_wrong_cards_under_the_share() -> None:
    probs = [0.55, 0.6, 0.7, 0.8, 0.9, 0.95, 0.97, 0.99, 0.99, 0.999]
    right = [False, True, False, True, True, False, True, True, True, True]
    # Wrong at 0.55, 0.7 and 0.95: above 0.95 none is wrong; allowing one in ten, above 0.7.
    assert choose_threshold(probs, right, share=0.0) == 0.97
    assert choose_threshold(probs, right, share=0.1) == 0.8
    assert choose_threshold(probs, [True] * 10, share=0.0) == 0.5


@given(st.floats(0.01, 0.99), st.floats(0.01, 0.99), st.sampled_from([1, 2]))
def test_calibration_keeps_the_order_of_scores(s: float, t: float, corners: int) -> None:
    if s < t:
        assert calibrated(s, corners) <= calibrated(t, corners)
    assert 0 < calibrated(s, corners) < 1


def test_a_reading_below_the_reported_scores_is_flagged_whatever_its_line_says() -> None:
    """The lines say nothing under the scores they were fitted on (a repair's reading); over
    them, the calibrated confidence and the threshold decide."""
    from cardscore.vision.calibration import FLAG_AT
    from cardscore.vision.cards import MIN_CARD
    from cardscore.vision.recognition import unsure

    for corners in (1, 2):
        assert unsure(MIN_CARD * 0.99, corners)
        assert unsure(0.05, corners)
        assert not unsure(0.999, corners)
        grid = np.linspace(MIN_CARD, 0.999, 200)
        assert [unsure(s, corners) for s in grid] == [
            calibrated(s, corners) < FLAG_AT for s in grid
        ]


def test_a_card_its_meld_confirms_is_as_sure_as_such_cards_were_measured() -> None:
    """Its line or the measured share, the greater; a weak reading so confirmed is not
    flagged, one not confirmed is."""
    from cardscore.vision.calibration import CONFIRMED, FLAG_AT
    from cardscore.vision.recognition import unsure

    assert CONFIRMED > FLAG_AT  # else confirmation would unflag nothing
    for corners in (1, 2):
        assert calibrated(0.35, corners, confirmed=True) == CONFIRMED
        assert calibrated(0.9999, corners, confirmed=True) == calibrated(0.9999, corners)
        assert unsure(0.35, corners)
        assert not unsure(0.35, corners, confirmed=True)


@pytest.fixture
def surer_lines(monkeypatch: pytest.MonkeyPatch) -> float:
    """Lines under which a one-corner card at the twins' bars reads sure (those fitted for
    the models before 2026-12-06): the fitted sharp lines now flag a one-corner card under a
    score of about 0.65 themselves, so the bars only decide where lines are that sure (the
    blurred photos' lines are). Returns their threshold."""
    from cardscore.vision import calibration, recognition

    monkeypatch.setattr(calibration, "PLATT", {1: (1.1291, 3.3528), 2: (1.8086, 0.0940)})
    monkeypatch.setattr(recognition, "FLAG_AT", 0.9333)
    return 0.9333


def test_a_card_read_at_one_corner_whose_runner_up_is_its_twin_is_flagged_under_its_bar(
    surer_lines: float,
) -> None:
    """A club that might be the spade of its rank (a heart the diamond), read at one corner
    under TWIN_SURE, is flagged though its line says sure; read surer, at both corners, or
    confirmed by its meld (a run the twin would break), its line decides as before."""
    from cardscore.cards import Card
    from cardscore.vision.calibration import TWIN_SURE, twins
    from cardscore.vision.recognition import unsure

    flag_at = surer_lines

    weak = TWIN_SURE - 0.02
    assert calibrated(weak, 1) >= flag_at  # the line alone would leave it unflagged
    assert twins(Card("4c"), Card("4s"))
    assert twins(Card("Qh"), Card("Qd"))
    assert not twins(Card("4c"), Card("4h"))
    assert not twins(Card("4c"), Card("5c"))
    assert not twins(Card("4c"), Card("4c"))
    assert not twins(Card("4c"), None)
    assert unsure(weak, 1, twin=True)
    assert not unsure(weak, 1)
    assert not unsure(TWIN_SURE + 0.02, 1, twin=True)
    assert unsure(weak, 2, twin=True) == unsure(weak, 2)
    assert not unsure(weak, 1, confirmed=True, twin=True)


def test_a_photo_straightened_from_a_seat_flags_twins_under_a_higher_bar(
    surer_lines: float,
) -> None:
    """From a seat, a twin read at one corner between the two bars is flagged; flat, not.
    Above both, or at both corners, the line decides as before."""
    from cardscore.vision.calibration import TWIN_SURE, TWIN_SURE_STRAIGHTENED
    from cardscore.vision.recognition import unsure

    flag_at = surer_lines

    between = (TWIN_SURE + TWIN_SURE_STRAIGHTENED) / 2
    assert TWIN_SURE < between < TWIN_SURE_STRAIGHTENED
    assert calibrated(between, 1) >= flag_at
    assert unsure(between, 1, twin=True, straightened=True)
    assert not unsure(between, 1, twin=True)
    assert not unsure(between, 1, straightened=True)  # no twin runner-up
    assert not unsure(between, 1, confirmed=True, twin=True, straightened=True)
    above = TWIN_SURE_STRAIGHTENED + 0.02
    assert not unsure(above, 1, twin=True, straightened=True)
    assert unsure(between, 2, twin=True, straightened=True) == unsure(between, 2)


def test_a_photo_straightened_from_a_seat_flags_twins_read_at_both_corners_under_their_bar() -> (
    None
):
    """From a seat, a twin read at both corners under TWIN_SURE_PAIRED_STRAIGHTENED is
    flagged though the fitted line says sure; flat, above the bar, with no twin runner-up or
    confirmed by its meld, the line decides as before."""
    from cardscore.vision.calibration import FLAG_AT, TWIN_SURE_PAIRED_STRAIGHTENED
    from cardscore.vision.recognition import unsure

    flag_at = FLAG_AT
    weak = TWIN_SURE_PAIRED_STRAIGHTENED - 0.05
    assert calibrated(weak, 2) >= flag_at  # the line alone would leave it unflagged
    assert unsure(weak, 2, twin=True, straightened=True)
    assert not unsure(weak, 2, twin=True)
    assert not unsure(weak, 2, straightened=True)
    assert not unsure(weak, 2, confirmed=True, twin=True, straightened=True)
    assert not unsure(TWIN_SURE_PAIRED_STRAIGHTENED + 0.02, 2, twin=True, straightened=True)


def test_on_the_blurred_lines_the_twins_bars_still_decide() -> None:
    """The fitted blurred photos' lines leave a one-corner card at 0.59 unflagged: there a
    twin runner-up flags it (flat, and straightened from a seat)."""
    from cardscore.vision.calibration import TWIN_SURE
    from cardscore.vision.recognition import unsure

    blur = (1.4, 1.3)
    weak = TWIN_SURE - 0.01
    assert not unsure(weak, 1, blur=blur)
    assert unsure(weak, 1, twin=True, blur=blur)
    assert not unsure(0.64, 1, blur=blur, straightened=True)
    assert unsure(0.64, 1, twin=True, blur=blur, straightened=True)
