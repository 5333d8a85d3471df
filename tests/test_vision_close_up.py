"""Close-ups: a card or a few filling the photo, as a new player photographs a pair or a meld.

The white regions then give a fragment's size, and no whole card but one shows both its
indices; the readings stage tries larger widths until one whole card measures the scale
(:func:`cardscore.vision.readings._close_up`). The cards are drawn by the independent
renderer (``tests/render_tables.py``) and cut from a shared photo.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import need_module

cv2 = need_module("cv2", "needs the vision extra (opencv)")
need_module("onnxruntime", "needs the vision extra (onnxruntime)")

from cardscore.cards import Card  # noqa: E402
from cardscore.vision import recognize  # noqa: E402
from cardscore.vision.image_io import load_image  # noqa: E402
from cardscore.vision.readings import card_width_from_indices  # noqa: E402
from tests.render_tables import DESIGNS, _place, draw_face  # noqa: E402

PALE_WOOD = (150, 190, 215)  # BGR


def _close_up(codes: str, width: int, cloth: tuple[int, int, int], design: int = 0) -> np.ndarray:
    """The cards ``codes`` fanned left to right 0.45 card widths a step, each ``width`` px
    wide, a quarter of a card's width of ``cloth`` around them and 0.2 of its height."""
    cards = [Card(code) for code in codes.split()]
    look = replace(DESIGNS[design], cloth=cloth)
    step = 0.45 * width
    size = (round(width * 1.5 + step * (len(cards) - 1)), round(width * 1.4 * 1.3))
    canvas = np.empty((size[1], size[0], 3), np.uint8)
    canvas[:] = cloth
    for i, card in enumerate(cards):
        face = cv2.resize(
            draw_face(card, look), (width, round(width * 1.4)), interpolation=cv2.INTER_AREA
        )
        _place(canvas, face, width * 0.75 + i * step, size[1] / 2, 0)
    return canvas


@pytest.mark.parametrize("codes", ["Kc", "7d 8d", "9s 9h 9c"])
@pytest.mark.parametrize("width", [240, 320])
@pytest.mark.parametrize("cloth", [DESIGNS[0].cloth, PALE_WOOD], ids=["green", "pale wood"])
def test_a_close_up_of_a_few_cards_reads_them(
    codes: str, width: int, cloth: tuple[int, int, int]
) -> None:
    result = recognize(_close_up(codes, width, cloth))
    assert sorted(c.card.code for c in result.cards) == sorted(codes.split())
    assert result.card_width == pytest.approx(width, rel=0.15)


def test_one_whole_card_measures_the_width_only_when_asked_to() -> None:
    """Two readings of one card, half a turn apart along its diagonal, measure it; the
    usual measure asks for two such cards (one pair may be a pip's and an index's)."""
    from cardscore.vision.geometry import index_to_centre
    from cardscore.vision.readings import IndexHit

    a = IndexHit(Card("7d"), 0.9, 100.0, 100.0, 0.0, None)
    far = 2 * index_to_centre(0.0, 150.0)
    b = IndexHit(Card("7d"), 0.9, 100.0 + far[0], 100.0 + far[1], 180.0, None)
    assert card_width_from_indices([a, b]) is None
    assert card_width_from_indices([a, b], least=1) == pytest.approx(150.0)


@pytest.mark.parametrize("codes", ["Kc Kd Kc", "7d 8d"])
@pytest.mark.parametrize("guess", [1.3, 1.6])
def test_one_whole_card_corrects_a_fans_width_read_surely(codes: str, guess: float) -> None:
    """A fan's white region is no card: its short side, a card's height, is taken for the
    width (``Regions.whole`` false), and at that width the fan's indices still read surely.
    No width shows two whole cards, so the fan's top card, whole, measures the width. (Had
    the guess stood, each card's centre, placed from its index, would lie on its
    neighbour's.)"""
    from cardscore.vision.readings import read_indices
    from cardscore.vision.regions import find_regions

    photo = _close_up(codes, 320, DESIGNS[0].cloth)
    regions = replace(find_regions(photo), card_width=320 * guess, whole=False)
    readings = read_indices(photo, regions)
    assert sum(h.prob >= 0.5 for h in readings.hits) >= 2
    assert readings.card_width == pytest.approx(320, rel=0.1)


# Two cards of shared/data/real-photos/train_06.jpg (x0, y0, x1, y1, in its pixels), each cut
# with a tenth or a quarter of the pair's size around it: the pale table fills the rest.
PAIRS = {"2c 8d": (960, 150, 1250, 470), "7d 6h": (1700, 140, 2030, 450)}


@pytest.mark.needs_shared
@pytest.mark.parametrize("pair", sorted(PAIRS))
@pytest.mark.parametrize("margin", [0.1, 0.25])
def test_a_real_pair_cut_close_reads_both_cards(shared: Path, pair: str, margin: float) -> None:
    photo = load_image(shared / "data" / "real-photos" / "train_06.jpg").image
    x0, y0, x1, y1 = PAIRS[pair]
    mx, my = round((x1 - x0) * margin), round((y1 - y0) * margin)
    cut = np.ascontiguousarray(photo[max(0, y0 - my) : y1 + my, x0 - mx : x1 + mx])
    assert sorted(c.card.code for c in recognize(cut).cards) == sorted(pair.split())


@pytest.mark.parametrize("codes", ["Kc 7h 9d", "5s Qd 8c"])
def test_another_games_fan_is_not_doubted_by_tranca_meld_rules(codes: str) -> None:
    """Three cards fanned that make no Tranca meld (a Gong Zhu pile, a poker hand), each read
    surely (a stroke 4 read at one corner is not: its own score flags it): read as a
    Tranca table, the meld's rules flag every card for the player to confirm; read as another
    game's photo (``melds=False``, as ``gongzhu score --photo`` and the stateless web reading
    do), the same sure readings stand unflagged."""
    photo = _close_up(codes, 320, DESIGNS[0].cloth)
    as_tranca = recognize(photo)
    as_other = recognize(photo, melds=False)
    assert sorted(c.card.code for c in as_other.cards) == sorted(codes.split())
    assert [c.card for c in as_tranca.cards] == [c.card for c in as_other.cards]
    assert all(c.flagged for c in as_tranca.cards)
    assert not any(c.flagged for c in as_other.cards)
