"""Recognition: bad files, geometry of cards and groups, real photos, and the CLI."""

from __future__ import annotations

import json
import struct
import warnings
import zlib
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import need_module

cv2 = need_module("cv2", "needs the vision extra (opencv)")
need_module("onnxruntime", "needs the vision extra (onnxruntime)")

from cardscore.cards import Card, parse_cards  # noqa: E402
from cardscore.cli import main  # noqa: E402
from cardscore.vision import ImageError, recognize  # noqa: E402
from cardscore.vision.blobs import SHADE, Candidate, candidates, read_page  # noqa: E402
from cardscore.vision.cards import Placement, find_cards, group_cards, pair_indices  # noqa: E402
from cardscore.vision.evaluate import read_labels  # noqa: E402
from cardscore.vision.geometry import ASPECT, INDEX_U, INDEX_V, angle_gap  # noqa: E402
from cardscore.vision.groups import meld_reference, pile_orientation  # noqa: E402
from cardscore.vision.image_io import MAX_PIXELS, load_image  # noqa: E402
from cardscore.vision.meld_rules import plausible_meld  # noqa: E402
from cardscore.vision.readings import (  # noqa: E402
    DARK_INK,
    DARKEST_INK,
    FAINT_INK,
    PALE_INK,
    IndexHit,
    _merge,
)
from cardscore.vision.recognition import Recognition  # noqa: E402
from tests.conftest import need  # noqa: E402

W = 120.0


def _png_bytes(width: int, height: int, body: bytes = b"") -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body) + chunk(b"IEND", b"")
    )


# --- bad files -----------------------------------------------------------------------------


def test_not_an_image(tmp_path: Path) -> None:
    path = tmp_path / "notes.jpg"
    path.write_text("this is not a photo")
    with pytest.raises(ImageError, match="not a photo cardscore can read"):
        recognize(path)


def test_missing_and_empty_files(tmp_path: Path) -> None:
    with pytest.raises(ImageError, match="does not exist"):
        recognize(tmp_path / "nope.jpg")
    (tmp_path / "empty.png").write_bytes(b"")
    with pytest.raises(ImageError, match="empty"):
        recognize(tmp_path / "empty.png")
    with pytest.raises(ImageError, match="folder"):
        recognize(tmp_path)


def test_truncated_jpeg_and_png() -> None:
    image = np.full((200, 300, 3), 200, np.uint8)
    cv2.putText(image, "Q", (40, 120), cv2.FONT_HERSHEY_SIMPLEX, 3, (0, 0, 0), 5)
    jpeg = cv2.imencode(".jpg", image)[1].tobytes()
    png = cv2.imencode(".png", image)[1].tobytes()
    assert load_image(jpeg).image.shape == (200, 300, 3)
    for data in (jpeg[: len(jpeg) // 2], png[: len(png) - 20]):
        with pytest.raises(ImageError, match="truncated"):
            recognize(data)


def test_enormous_pixel_count_is_refused_before_decoding() -> None:
    bomb = _png_bytes(200_000, 200_000)  # 40 gigapixels declared in a tiny file
    with pytest.raises(ImageError, match=r"\(40000 MP\); the limit is \d+ MP"):
        recognize(bomb)
    assert MAX_PIXELS >= 6000 * 4000 * 4


def test_bad_arrays() -> None:
    with pytest.raises(ImageError, match=r"uint8 \(0–255\), not float32 \(a float image in 0–1"):
        recognize(np.zeros((100, 100), np.float32))
    with pytest.raises(ImageError, match="not of shape 5×5×5×5"):
        recognize(np.zeros((5, 5, 5, 5), np.uint8))
    with pytest.raises(ImageError, match="1, 3 or 4 channels, not 2"):
        recognize(np.zeros((100, 100, 2), np.uint8))
    with pytest.raises(ImageError, match="too small"):
        recognize(cv2.imencode(".png", np.zeros((10, 10, 3), np.uint8))[1].tobytes())


def test_blank_table_has_no_cards() -> None:
    result = recognize(np.full((600, 900, 3), (60, 120, 40), np.uint8))
    assert result.cards == ()
    assert result.tranca_draft() == {"melds": [], "piles": [], "dollars": []}


@pytest.mark.parametrize("level", [0, 255])
def test_a_black_or_a_white_photo_has_no_cards_and_warns_nothing(level: int) -> None:
    # A phone's photo taken with the lens covered, or burnt out: no light is no paper.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert recognize(np.full((600, 800, 3), level, np.uint8)).cards == ()


# --- geometry: index hits → cards → groups --------------------------------------------------


def _hit(code: str, x: float, y: float, angle: float = 0.0, prob: float = 0.99) -> IndexHit:
    return IndexHit(Card(code), prob, x, y, angle, None)


def _corner_hits(code: str, cx: float, cy: float, angle: float = 0.0) -> list[IndexHit]:
    """The two index hits of an upright card centred at (cx, cy), turned by 0 or 90°."""
    t = np.deg2rad(angle)
    right, down = np.array([np.cos(t), -np.sin(t)]), np.array([np.sin(t), np.cos(t)])
    off = (0.5 - INDEX_U) * W * right + (0.5 - INDEX_V) * W * ASPECT * down
    c = np.array([cx, cy])
    (x1, y1), (x2, y2) = c - off, c + off
    return [_hit(code, x1, y1, angle), _hit(code, x2, y2, angle + 180)]


def test_a_card_whose_two_corners_read_as_different_cards_is_reported_once() -> None:
    from cardscore.vision.cards import one_per_spot

    # A real photo's Q♠ (a model held out from that photo): one corner read Qs 0.74, the
    # other 4s 0.52. They cannot pair, and each alone put a card on the same spot.
    queen, four = _corner_hits("Qs", 500, 400)
    four = replace(four, card=Card("4s"), prob=0.52)
    placed = pair_indices([replace(queen, prob=0.74), four], W)
    assert len(placed) == 2
    (kept,) = one_per_spot(placed, W)
    assert (kept.card, kept.confidence) == (Card("Qs"), 0.74)
    # Two cards of a tight fan, a quarter of a card apart, both stay.
    fan = pair_indices(_corner_hits("9h", 500, 400)[:1] + _corner_hits("Th", 530, 400)[:1], W)
    assert len(one_per_spot(fan, W)) == 2
    # A deck whose indices sit nearer its corners than the average's: each corner alone puts
    # the centre 0.12 W short of the true one, so the two guesses lie 0.24 W apart.
    queen, four = _corner_hits("Qh", 500, 400)
    shift = 0.085 * W
    queen = replace(queen, x=queen.x - shift, y=queen.y - shift, prob=0.88)
    four = replace(four, card=Card("Kh"), x=four.x + shift, y=four.y + shift, prob=0.6)
    placed = pair_indices([queen, four], W)
    assert 0.2 * W < np.hypot(placed[0].x - placed[1].x, placed[0].y - placed[1].y) < 0.3 * W
    assert [p.card.code for p in one_per_spot(placed, W)] == ["Qh"]
    # Two overlapping cards turned half a turn from each other, farther apart, both stay.
    apart = pair_indices(_corner_hits("Qh", 500, 400)[:1] + _corner_hits("Kh", 545, 400)[1:], W)
    assert len(one_per_spot(apart, W)) == 2


def test_a_card_found_twice_half_a_turn_round_each_over_the_others_index_is_one_card() -> None:
    from cardscore.vision.cards import _covers, one_per_spot

    # A real photo's glared 7♠ under a tungsten cast: its top index paired with its bottom
    # one, and a spade pip beside the bottom index read 7♠ alone, half a turn round. Each
    # card's outline lies over an index read of the other, which no two cards lying on a
    # table show (the one on top hides the index under it): one card, the surer stays.
    whole = Placement(Card("7s"), 0.99, 500.0, 400.0, 0.0, 2, None)
    again = Placement(Card("7s"), 0.98, 462.0, 405.0, 184.0, 1, Card("9s"))
    assert _covers(whole, again, W)
    assert _covers(again, whole, W)
    assert [(p.card, p.indices) for p in one_per_spot([again, whole], W)] == [(Card("7s"), 2)]
    # Read as another card, it stays: the rule tells a card read again, not a misreading.
    other = replace(again, card=Card("9s"))
    assert len(one_per_spot([other, whole], W)) == 2
    # Two decks' 9♥ in a tight fan, laid the same way round (the training generator's tables
    # show them): each outline, guessed from a deck-average card, can lie over the other's
    # index, and both stay.
    under = Placement(Card("9h"), 0.98, 500.0, 400.0, 14.0, 2, None)
    over = Placement(Card("9h"), 0.77, 517.0, 404.0, 11.0, 1, None)
    assert _covers(under, over, W)
    assert _covers(over, under, W)
    assert len(one_per_spot([under, over], W)) == 2


def test_a_foreshortened_cards_two_corners_read_alike_are_one_card() -> None:
    from cardscore.vision.cards import SAME_TURNED_SPOT, TURNED_SPOT, one_per_spot
    from cardscore.vision.geometry import index_to_centre

    # A card seen from a seat and not straightened: its corners lie nearer each other than a
    # card's, too near to pair, and each one's centre guess overshoots the other's.
    top, bottom = _corner_hits("Jh", 500, 400)
    near = 0.45 * W  # between the two spots: one card only if read alike
    assert TURNED_SPOT * W < near < SAME_TURNED_SPOT * W
    bottom = replace(bottom, x=bottom.x - 0.5 * W, y=bottom.y - 0.6 * W, prob=0.9)
    placed = pair_indices([replace(top, prob=0.95), bottom], W)
    assert len(placed) == 2
    assert placed[0].angle == 0
    towards_index = -index_to_centre(0.0, 1.0) / np.hypot(*index_to_centre(0.0, 1.0))
    x, y = np.array([placed[0].x, placed[0].y]) + near * towards_index
    shifted = [placed[0], replace(placed[1], x=float(x), y=float(y))]
    (kept,) = one_per_spot(shifted, W)
    assert (kept.card, kept.confidence) == (Card("Jh"), 0.95)
    # Read as two cards, that far apart they are two.
    other = [shifted[0], replace(shifted[1], card=Card("8c"))]
    assert len(one_per_spot(other, W)) == 2
    # A fan of one card of two decks: the top card's far index read alone puts its centre a
    # step past the card under it, not back towards that card's index: two cards.
    fan = [shifted[0], replace(shifted[1], x=placed[0].x + near, y=placed[0].y)]
    assert len(one_per_spot(fan, W)) == 2


def test_a_near_cards_corners_pair_at_the_scale_its_glyphs_show() -> None:
    """From a seat the near cards are larger than the photo's typical card: a card 1.45 times
    as large lies with its corners too far apart to pair at the photo's width, and its centre
    guessed from each corner alone lands two ways (two cards, one of them extra). Its glyphs
    are as much larger than the photo's others, and at that scale the two pair; at the
    typical glyph's size they do not."""
    from cardscore.vision.cards import NEAR_SCALE

    scale = 1.45
    top, bottom = _corner_hits("3h", 500, 400)
    bottom = replace(
        bottom, x=top.x + scale * (bottom.x - top.x), y=top.y + scale * (bottom.y - top.y)
    )
    others = [replace(h, size=20.0) for h in _corner_hits("9c", 200, 200)]
    glyph = 20.0 * scale
    near = [replace(top, size=glyph * 0.9), replace(bottom, size=glyph * 1.1)]
    cards = pair_indices(others + near, W)
    assert [(c.card.code, c.indices) for c in cards] == [("9c", 2), ("3h", 2)]
    (card,) = cards[1:]
    cx, cy = (top.x + bottom.x) / 2, (top.y + bottom.y) / 2
    assert (card.x, card.y) == (pytest.approx(cx), pytest.approx(cy))
    # Glyphs of the typical size: two one-index cards, as a photo's two separate cards are.
    typical = [replace(h, size=20.0) for h in near]
    assert [c.indices for c in pair_indices(others + typical, W)] == [2, 1, 1]
    # Just under the threshold on average: the same.
    under = [replace(h, size=20.0 * NEAR_SCALE * 0.98) for h in near]
    assert [c.indices for c in pair_indices(others + under, W)] == [2, 1, 1]


def test_a_cards_corners_read_along_the_photos_axes_pair_along_its_diagonal() -> None:
    """A card turned 20° in the photo whose two indices were both read at the photo's axes
    (0° and 180°: a real photo turned askew): they fit no card in those frames, but the line
    between them is its diagonal, so they make one card at 20°. Two same cards of a fan half
    a turn apart, farther than a card's diagonal, stay two (two decks hold each card twice)."""
    from cardscore.vision.cards import DIAGONAL_FIT

    top, bottom = _corner_hits("9h", 500, 400, angle=20.0)
    askew = [replace(top, angle=0.0), replace(bottom, angle=180.0)]
    (card,) = pair_indices(askew, W)
    assert (card.card, card.indices) == (Card("9h"), 2)
    assert card.angle == pytest.approx(20.0, abs=0.5)
    assert (card.x, card.y) == (pytest.approx(500), pytest.approx(400))
    # Further along the same line than a card's corners by more than DIAGONAL_FIT: no pair.
    reach = np.array([bottom.x - top.x, bottom.y - top.y])
    far = reach * (1 + 1.5 * DIAGONAL_FIT / float(np.hypot(*reach) / W))
    fan = [askew[0], replace(askew[1], x=top.x + far[0], y=top.y + far[1])]
    assert [p.indices for p in pair_indices(fan, W)] == [1, 1]


def test_a_card_stretched_along_its_length_pairs_after_every_other_fit() -> None:
    """A photo from a seat straightened a little too far: a far card's corners lie 1.1 card
    heights apart down the card (a deck-average card's 0.76), further than any deck's. They
    still make one card, not one from each corner; but a corner that fits a card of its own
    geometry pairs with it first, beyond LONG_DOWN nothing pairs, nor where another card's
    index lies on the card the two would make."""
    from cardscore.vision.cards import LONG_DOWN

    top, bottom = _corner_hits("2d", 500, 400)

    def lengthened(hit: IndexHit, down: float) -> IndexHit:
        return replace(hit, x=hit.x - 0.1 * W, y=top.y + down * W * ASPECT)

    (card,) = pair_indices([top, lengthened(bottom, 1.1)], W)
    assert (card.card, card.indices) == (Card("2d"), 2)
    beyond = lengthened(bottom, LONG_DOWN + 0.05)
    assert [p.indices for p in pair_indices([top, beyond], W)] == [1, 1]
    # Down a column, the top card's index and the bottom card's far corner misread as the
    # top card lie as far apart, the column's other indices between them: no card.
    column = [top, _hit("Qs", top.x, top.y + 0.45 * W), lengthened(bottom, 1.1)]
    assert [p.indices for p in pair_indices(column, W)] == [1, 1, 1]
    # Another 2♦ (two decks) whose corner fits the top one's at a deck's own distance wins.
    other = replace(bottom, x=bottom.x + 0.05 * W, prob=0.9)
    cards = pair_indices([top, lengthened(bottom, 1.1), other], W)
    assert sorted(c.indices for c in cards) == [1, 2]
    (pair,) = [c for c in cards if c.indices == 2]
    assert pair.y == pytest.approx((top.y + other.y) / 2)


def test_two_corner_indices_make_one_card() -> None:
    cards = pair_indices(_corner_hits("9h", 500, 400), W)
    assert len(cards) == 1
    assert cards[0].card == Card("9h")
    assert cards[0].indices == 2
    assert cards[0].x == pytest.approx(500)
    assert cards[0].y == pytest.approx(400)
    assert cards[0].confidence > 0.999


def test_same_card_twice_from_two_decks_stays_two_cards() -> None:
    hits = _corner_hits("Kd", 300, 300) + _corner_hits("Kd", 900, 300)
    assert [c.card for c in pair_indices(hits, W)] == [Card("Kd"), Card("Kd")]
    # Far apart but turned 180° to each other: still not one card.
    far = [_hit("Kd", 100, 100), _hit("Kd", 700, 700, 180)]
    assert len(pair_indices(far, W)) == 2


def test_meld_pile_and_dollar_grouping() -> None:
    # A fanned meld: only each card's top-left index shows, cards 0.3 W apart.
    meld = [_hit(code, 100 + i * 0.3 * W, 100) for i, code in enumerate(["5h", "6h", "7h", "8h"])]
    pile = _corner_hits("Ks", 700, 200, angle=90)  # turned 90° to the meld: clean
    dollar = _corner_hits("3d", 1000, 200)
    cards = pair_indices(meld + pile + dollar, W)
    groups = group_cards(cards, W)
    as_codes = sorted(sorted(cards[i].card.code for i in g) for g in groups)
    assert as_codes == [["3d"], ["5h", "6h", "7h", "8h"], ["Ks"]]
    reference = meld_reference([[cards[i] for i in g] for g in groups if len(g) > 1])
    assert reference == pytest.approx(0.0)
    ks = next(c for c in cards if c.card == Card("Ks"))
    assert pile_orientation(ks.angle, reference) == "horizontal"
    assert pile_orientation(ks.angle + 90, reference) == "vertical"


@pytest.mark.parametrize(
    ("codes", "plausible"),
    [
        ("5h 6h 7h", True),
        ("5h 2c 7h", True),  # a 2 as joker fills the gap
        ("Kd Kc 2s Ks", True),  # a set with its joker
        ("2s 2h 2d", True),  # a meld of 2s
        ("Kd 2s 2c", False),  # two 2s as jokers
        ("5h 6h 8h 9h", False),  # two gaps, no joker
        ("9h 8c 2h", False),  # two suits, not a set
        ("3s 4s 5s", False),  # 3s never go in melds
        ("5h 7h", True),  # a 6h (or a 2) makes it a meld: one card may be missed
        ("Qs Qd", True),
        ("3s Qs", False),
        ("9h 8c", False),
        ("Ah", False),
    ],
)
def test_plausible_meld_follows_the_tranca_meld_model(codes: str, plausible: bool) -> None:
    assert plausible_meld(list(parse_cards(codes))) is plausible


def _placed(code: str, angle: float, x: float = 0.0) -> Placement:
    return Placement(Card(code), 0.99, x, 0.0, angle, 2, None)


def test_orientation_reference_ignores_implausible_or_crooked_melds() -> None:
    # train_01's fault: a wrong "meld" of 3s and Qs turned ~90° to each other made every lone
    # upright card a horizontal pile.
    wrong = [_placed("3s", 81), _placed("Qs", 270)]
    assert meld_reference([wrong]) is None
    assert pile_orientation(0.0, meld_reference([wrong])) == "vertical"
    # A legal-looking pair whose cards do not lie alike (28° apart) sets no reference either.
    crooked = [_placed("6s", 270), _placed("5s", 62)]
    assert meld_reference([crooked]) is None
    # Plausible melds lying alike do, whichever way up a card's index was read.
    turned = [_placed("Kd", 88), _placed("Kc", 268), _placed("Ks", 91)]
    reference = meld_reference([turned, wrong])
    assert reference is not None
    assert pile_orientation(0.0, reference) == "horizontal"
    assert pile_orientation(91.0, reference) == "vertical"
    # Two good melds at right angles to each other: no trustworthy reference.
    upright = [_placed("5h", 1), _placed("6h", 359), _placed("7h", 2)]
    assert meld_reference([turned, upright]) is None


def test_lone_cards_become_piles_dollars_or_loose_cards() -> None:
    from cardscore.vision.groups import find_groups

    hits = (
        _corner_hits("3s", 200, 200)
        + _corner_hits("Qs", 260, 230, angle=90)  # overlapping the 3s at 90°: a wrong meld
        + _corner_hits("9h", 600, 200)
        + _corner_hits("3d", 900, 200)
        + _corner_hits("3c", 1200, 200)
        + _corner_hits("Js", 1500, 200, angle=90)
    )
    cards = pair_indices(hits, W)
    groups = {
        tuple(cards[i].card.code for i in g.cards): (g.kind, g.orientation)
        for g in find_groups(cards)
    }
    assert groups == {
        ("3s", "Qs"): ("meld", None),
        ("9h",): ("pile", "vertical"),  # the photo's axes decide, not the wrong meld
        ("3d",): ("dollar", None),
        ("3c",): ("loose", None),  # no canastra of 3s
        ("Js",): ("pile", "horizontal"),
    }


def test_one_glyph_merges_but_the_same_card_fanned_twice_stays_two() -> None:
    rank = _hit("Kc", 100, 100)
    assert _merge([rank, _hit("Kc", 100, 125, prob=0.6)]) == [rank]  # its suit below fired too
    assert _merge([rank, _hit("Kc", 108, 101, prob=0.6)]) == [rank]  # a ten's halves
    # A set with Kc twice, fanned 0.25 W apart: two cards.
    twice = [rank, _hit("Kc", 100 + 0.25 * W, 100, prob=0.6)]
    assert len(_merge(twice)) == 2
    # The same, turned 90°: "to the side" follows the card, not the photo.
    turned = [_hit("Kc", 100, 100, 90), _hit("Kc", 100, 100 - 0.25 * W, 90, 0.6)]
    assert len(_merge(turned)) == 2
    assert len(_merge([turned[0], _hit("Kc", 125, 100, 90, 0.6)])) == 1


def test_a_wide_tens_halves_merge_where_other_cards_stay_two() -> None:
    # A held-out design's wide "10": its "1" and its "0" each read Ts, 0.2 W apart across
    # the card. Two 9s that far apart are two cards of a tight fan.
    assert len(_merge([_hit("Ts", 100, 100), _hit("Ts", 100 + 0.2 * W, 102, prob=0.87)])) == 1
    assert len(_merge([_hit("9s", 100, 100), _hit("9s", 100 + 0.2 * W, 102, prob=0.87)])) == 2
    assert len(_merge([_hit("Ts", 100, 100), _hit("Ts", 100 + 0.25 * W, 102, prob=0.87)])) == 2


def test_a_weaker_reading_of_another_card_on_the_same_glyph_is_no_card() -> None:
    # From held-out tables: in a run of clubs fanned 0.25 W apart, the "10" glyph also read
    # as Ts 0.04 W away, and a crop halfway between a J and a Q read as a ten 0.15 W from
    # each. Both made a phantom card in the meld.
    run = [_hit(code, 100 + i * 0.25 * W, 100) for i, code in enumerate(["9c", "Tc", "Jc", "Qc"])]
    ten = _hit("Ts", 100 + 0.29 * W, 101, prob=0.72)
    between = _hit("Th", 100 + 0.625 * W, 97, prob=0.62)
    kept = _merge([*run, ten, between])
    assert sorted(h.card.code for h in kept) == ["9c", "Jc", "Qc", "Tc"]
    melds = group_cards(pair_indices(kept, W), W)
    assert [len(g) for g in melds] == [4]
    # The next index of a tight fan, 0.2 W away, stays; so does a card turned across.
    assert len(_merge([run[0], _hit("8c", 100 + 0.2 * W, 100, prob=0.5)])) == 2
    assert len(_merge([run[0], _hit("8c", 100 + 0.05 * W, 100, 90, prob=0.5)])) == 2


# --- candidates ------------------------------------------------------------------------------


def _card_with_a_five(grey: int, blur: float) -> np.ndarray:
    """A table with one card (120 px wide: the normalised scale) and a "5" index 11 px tall."""
    image = np.full((300, 400, 3), (60, 120, 160), np.uint8)
    cv2.rectangle(image, (100, 50), (220, 218), (245, 245, 245), -1)
    cv2.putText(image, "5", (108, 78), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (grey,) * 3, 1, cv2.LINE_AA)
    return cv2.GaussianBlur(image, (0, 0), blur) if blur else image


def _index_blobs(cands: list[Candidate]) -> list[Candidate]:
    return [c for c in cands if c.x < 140 and c.y < 100]


def test_the_fainter_ink_mask_finds_a_soft_pale_index_once() -> None:
    sharp = _card_with_a_five(150, 0.0)
    assert len(_index_blobs(candidates(sharp))) == 1
    assert len(_index_blobs(candidates(sharp, PALE_INK))) == 1  # not proposed twice
    soft = _card_with_a_five(150, 1.2)  # out of focus: too faint for the usual mask
    assert _index_blobs(candidates(soft)) == []
    (found,) = _index_blobs(candidates(soft, PALE_INK))
    assert abs(found.x - 112) < 3
    assert abs(found.y - 72) < 3
    assert 9 <= found.size <= 13  # the whole glyph, so the crop frames it
    # The usual candidates all stay.
    assert set(candidates(soft)) <= set(candidates(soft, PALE_INK))


def test_the_faintest_ink_mask_finds_a_washed_out_index_once() -> None:
    # An over-exposed photo of a thin, light index: its strokes are 15-30 grey levels under
    # the paper, too faint even for the pale mask's hysteresis.
    washed = _card_with_a_five(205, 1.2)
    assert _index_blobs(candidates(washed, PALE_INK, None, DARK_INK)) == []
    (found,) = _index_blobs(candidates(washed, PALE_INK, None, DARK_INK, FAINT_INK))
    assert abs(found.x - 112) < 3
    assert abs(found.y - 72) < 3
    assert 9 <= found.size <= 13
    # Given the card regions, it looks on them alone: off them is the table's grain.
    card = np.zeros(washed.shape[:2], np.uint8)
    card[50:219, 100:221] = 1
    assert len(_index_blobs(candidates(washed, PALE_INK, card, DARK_INK, FAINT_INK))) == 1
    elsewhere = np.zeros_like(card)
    elsewhere[150:219, 100:221] = 1
    assert _index_blobs(candidates(washed, PALE_INK, elsewhere, DARK_INK, FAINT_INK)) == []
    # A glyph the other masks find is not proposed again.
    sharp = _card_with_a_five(150, 0.0)
    assert candidates(sharp, PALE_INK, None, DARK_INK, FAINT_INK) == candidates(sharp)


def test_the_darker_ink_mask_parts_a_glyph_from_a_thin_pale_line_it_touches() -> None:
    # A card's printed frame (or the next card's edge) touching the index: at the usual ink
    # level the glyph and the line are one blob, too tall to be a glyph; the line is paler
    # than the glyph's strokes, so the darker mask has the glyph alone.
    image = _card_with_a_five(20, 0.0)
    cv2.line(image, (109, 60), (109, 200), (190, 190, 190), 1)
    assert _index_blobs(candidates(image)) == []
    assert _index_blobs(candidates(image, PALE_INK)) == []
    (found,) = _index_blobs(candidates(image, PALE_INK, None, DARK_INK))
    assert abs(found.x - 112) < 3
    assert abs(found.y - 72) < 3
    assert 9 <= found.size <= 13
    # Without the line the darker mask adds nothing: the usual blob is not proposed twice.
    clean = _card_with_a_five(20, 0.0)
    assert candidates(clean, None, None, DARK_INK) == candidates(clean)


def test_the_darkest_ink_mask_parts_a_bold_glyph_from_the_pip_beside_it() -> None:
    # A bold index printed close to a big pip, joined to it by a stroke of mid-grey ink (blur
    # between the two): every other mask has them as one blob, too wide to frame the glyph.
    # Only the glyph's and the pip's cores reach the darkest level.
    image = _card_with_a_five(20, 0.0)
    cv2.circle(image, (131, 72), 6, (20, 20, 20), -1)
    cv2.line(image, (117, 72), (125, 72), (140, 140, 140), 2)
    others = (PALE_INK, None, DARK_INK, FAINT_INK)
    assert all(c.size > 15 for c in _index_blobs(candidates(image, *others)))
    new = set(candidates(image, *others, DARKEST_INK)) - set(candidates(image, *others))
    (found,) = _index_blobs(list(new))
    assert abs(found.x - 112) < 3
    assert abs(found.y - 72) < 3
    assert 9 <= found.size <= 13
    # A glyph standing alone is not proposed again.
    clean = _card_with_a_five(20, 0.0)
    assert candidates(clean, *others, DARKEST_INK) == candidates(clean, *others)


def test_ink_on_a_card_region_in_shade_is_a_candidate() -> None:
    from cardscore.vision.regions import find_regions

    # A second card in deep shade, paper darker than 0.7 of the photo's brightest: ink on it
    # counts as on paper only because the card regions say so (the readings pass them).
    image = _card_with_a_five(20, 0.0)
    image[:, 240:] = (30, 60, 80)
    cv2.rectangle(image, (260, 50), (380, 218), (150, 150, 150), -1)
    cv2.putText(image, "5", (268, 78), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 1, cv2.LINE_AA)
    shaded = [c for c in candidates(image) if c.x > 240]
    assert shaded == []
    regions = find_regions(image, card_width=120.0)
    cards = (regions.labels > 0).astype(np.uint8)
    found = [c for c in candidates(image, None, cards) if c.x > 240 and c.y < 100]
    (five,) = found
    assert abs(five.x - 272) < 3
    # Without regions (training's candidates) nothing changes; with them nothing is lost.
    assert set(candidates(image)) <= set(candidates(image, None, cards))


def test_ink_on_a_card_in_a_shadow_is_a_candidate_without_regions() -> None:
    # A shadow over the right of the photo dims a card there to 0.3 of the light (its paper
    # well under 0.7 of the photo's brightest), and its outline is in no card region: beside
    # its own paper the card is paper. A table darker than SHADE of the brightest is not,
    # nor a coloured one, however bright against the table around it.
    image = _card_with_a_five(20, 0.0)
    cv2.rectangle(image, (260, 50), (380, 218), (245, 245, 245), -1)
    cv2.putText(image, "5", (268, 78), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (20, 20, 20), 2, cv2.LINE_AA)
    image[:, 240:] = (image[:, 240:] * 0.3).astype(np.uint8)
    assert [c for c in candidates(image) if c.x > 240] == []
    (five,) = [c for c in candidates(image, shade=SHADE) if c.x > 240]
    assert abs(five.x - 272) < 3
    assert abs(five.y - 72) < 3
    dark = _card_with_a_five(20, 0.0)
    dark[:, 240:] = 36  # a dark table: 0.15 of the card's paper, a black mark on it
    cv2.putText(dark, "5", (280, 78), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 1, cv2.LINE_AA)
    assert [c for c in candidates(dark, PALE_INK, shade=SHADE) if c.x > 240] == []
    assert [c for c in candidates(dark, PALE_INK, shade=0.01) if c.x > 240] != []
    # Nor is a wooden table in the shadow, however much brighter than the shade around.
    wood = _card_with_a_five(20, 0.0)
    wood[:, 240:] = (150, 190, 230)  # pale wood, 0.8 as bright as the card
    cv2.putText(wood, "5", (268, 78), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (20, 20, 20), 2, cv2.LINE_AA)
    wood[:, 240:] = (wood[:, 240:] * 0.5).astype(np.uint8)
    assert [c for c in candidates(wood, shade=SHADE) if c.x > 240] == []
    # In even light nothing changes.
    clean = _card_with_a_five(20, 0.0)
    assert candidates(clean, shade=SHADE) == candidates(clean)


def test_pale_ink_in_a_shadow_is_measured_against_its_own_paper() -> None:
    # Two cards with the same pale grey "5"; a shadow dims the right one to 0.45 of the light,
    # its ink's contrast with it. Measured against its own paper (Page.ink_gain) the shaded
    # five is as much a candidate as the lit one; measured as it is, it is too faint.
    image = _card_with_a_five(170, 0.0)
    cv2.putText(image, "5", (108, 78), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (170,) * 3, 2, cv2.LINE_AA)
    cv2.rectangle(image, (260, 50), (380, 218), (245, 245, 245), -1)
    cv2.putText(image, "5", (268, 78), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (170,) * 3, 2, cv2.LINE_AA)
    assert len(candidates(image, shade=SHADE)) == 2
    image[:, 240:] = (image[:, 240:] * 0.45).astype(np.uint8)
    page = read_page(image, SHADE)
    assert page.ink_gain is not None
    assert page.ink_gain[72, 112] == 1  # the lit card's ink is measured as it is
    assert page.ink_gain[72, 272] > 1.4
    lit, shaded = sorted(candidates(image, shade=SHADE, page=page), key=lambda c: c.x)
    assert abs(shaded.x - 160 - lit.x) < 2
    assert abs(shaded.y - lit.y) < 2
    as_it_is = replace(page, ink_gain=None)
    assert [c.x for c in candidates(image, shade=SHADE, page=as_it_is)] == [lit.x]


def test_grey_cards_on_a_brighter_pink_table_still_give_the_card_width() -> None:
    from cardscore.vision.paper import card_masks
    from cardscore.vision.regions import _shapes, find_regions

    # A held-out synthetic table: pink, brighter than the grey cards lying in its shade. The
    # brightest pixels, taken as paper, are the table's; no whole card comes out of that mask,
    # so the least coloured of the bright pixels are taken as paper instead.
    ramp = np.linspace(0, 1, 900)[None, :, None]
    image = (np.array([115, 109, 156]) * (1 - ramp) + np.array([155, 148, 205]) * ramp).astype(
        np.uint8
    )
    image = np.repeat(image, 600, axis=0)
    for k in range(4):
        x = 40 + 130 * k
        cv2.rectangle(image, (x, 100), (x + 110, 254), (145, 140, 136), -1)
        cv2.putText(image, "7", (x + 8, 125), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (20,) * 3, 2)
    assert not any(_shapes(mask, 1.0).single for mask in card_masks(image))
    assert find_regions(image).card_width == pytest.approx(110, abs=3)


def test_region_and_photo_axes_reach_a_bitten_corner_and_a_card_off_every_region() -> None:
    from cardscore.vision.readings import _with_region_angles
    from cardscore.vision.regions import Regions

    # A card 120 mask px wide turned 30°, its top-left corner cut out of the region (a red
    # index at the edge): the index's candidate still gets the card's axes as a second guess.
    # Far from every region (a card in shade the mask left out), only the photo's axes.
    labels = np.zeros((300, 300), np.int32)
    labels[50:218, 50:170] = 3
    labels[50:85, 50:75] = 0
    regions = Regions(1.0, labels, {3: 30.0}, {}, 120.0)
    index, far = Candidate(62.0, 66.0, 15.0, 0.0), Candidate(260.0, 270.0, 15.0, 20.0)
    assert _with_region_angles([index, far], regions, 1.0) == [
        index,
        far,
        Candidate(62.0, 66.0, 15.0, 30.0),
        Candidate(260.0, 270.0, 15.0, 0.0),
    ]


def test_a_card_whose_glyphs_and_outline_agree_is_not_cut_along_the_photos_axes() -> None:
    from cardscore.vision.readings import _with_region_angles
    from cardscore.vision.regions import Regions

    # A card turned 30°, its glyph's axes read 31°: its outline (a rectangle 1.4 times as
    # long as wide) agrees, so no crop is cut along the photo's axes, where the glyph reads
    # askew. A squarish region (a fan spread wide) shows no axes to agree: the photo's are
    # tried as well.
    labels = np.zeros((300, 300), np.int32)
    labels[50:218, 50:170] = 3
    glyph = Candidate(70.0, 70.0, 15.0, 31.0)
    card = Regions(1.0, labels, {3: 30.0}, {3: ((110.0, 134.0), (120.0, 168.0), 30.0)}, 120.0)
    assert _with_region_angles([glyph], card, 1.0) == [glyph]
    fan = Regions(1.0, labels, {3: 30.0}, {3: ((110.0, 134.0), (160.0, 168.0), 30.0)}, 120.0)
    assert _with_region_angles([glyph], fan, 1.0) == [glyph, Candidate(70.0, 70.0, 15.0, 0.0)]


def test_a_blob_read_weakly_gets_one_more_look_along_its_rank_to_suit_axis() -> None:
    from cardscore.vision.labels import BACKGROUND
    from cardscore.vision.readings import SECOND_LOOK, _second_looks

    # Three rank-sized blobs, each with a suit-sized blob 1.1 glyph heights away in the
    # direction a card turned 30° (or 3°) points "down". Only a blob some crop reads a little
    # like an index, and none as a hit, gets that direction as one more guess, and only when
    # its guesses so far (the local edges: 0°, 90°, ...) are more than 8° from it.
    t30, t3 = np.deg2rad(30.0), np.deg2rad(3.0)
    ranks = [Candidate(100.0, 100.0, 16.0, 0.0), Candidate(300.0, 100.0, 16.0, 0.0)]
    ranks += [Candidate(500.0, 100.0, 16.0, 0.0), Candidate(700.0, 100.0, 16.0, 0.0)]
    suits = [
        Candidate(r.x + 17.6 * np.sin(t), r.y + 17.6 * np.cos(t), 11.0, 0.0)
        for r, t in zip(ranks, (t30, t30, t30, t3), strict=True)
    ]
    blobs = ranks + suits
    points = [(b.x, b.y, b.size, 90.0 * k) for b in blobs for k in range(4)]
    rows_of = {(b.x, b.y): list(range(4 * n, 4 * n + 4)) for n, b in enumerate(blobs)}
    probs = np.zeros((len(points), BACKGROUND + 1))
    probs[:, BACKGROUND] = 1.0
    for n, best in enumerate((0.1, 0.6, SECOND_LOOK / 2, 0.1)):  # weak, a hit, no ink, weak
        probs[4 * n, 7], probs[4 * n, BACKGROUND] = best, 1 - best
    (guess,), smaller = _second_looks(blobs, points, probs, rows_of)
    assert smaller == []  # none taller than a glyph
    assert (guess.x, guess.y, guess.size) == (100.0, 100.0, 16.0)
    assert guess.angle == pytest.approx(30.0)


def test_a_tall_blob_read_weakly_is_also_cropped_smaller_in_its_best_orientation() -> None:
    from cardscore.vision.labels import BACKGROUND
    from cardscore.vision.readings import SECOND_LOOK, SHRINK, TALL, _second_looks

    # A glyph one blob with the card's edge (tall, weak), the same read as a hit, a tall
    # blob nothing like an index, and a weak one of a glyph's own size.
    tall = TALL * 120.0 + 6.0
    blobs = [Candidate(100.0 * (n + 1), 100.0, size, 0.0) for n, size in
             enumerate((tall, tall, tall, 16.0))]  # fmt: skip
    points = [(b.x, b.y, b.size, 90.0 * k) for b in blobs for k in range(4)]
    rows_of = {(b.x, b.y): list(range(4 * n, 4 * n + 4)) for n, b in enumerate(blobs)}
    probs = np.zeros((len(points), BACKGROUND + 1))
    probs[:, BACKGROUND] = 1.0
    for n, best in enumerate((0.08, 0.6, SECOND_LOOK / 2, 0.08)):
        # Read best half a turn round (its third crop).
        probs[4 * n + 2, 7], probs[4 * n + 2, BACKGROUND] = best, 1 - best
    _turns, smaller = _second_looks(blobs, points, probs, rows_of)
    assert smaller == [(100.0, 100.0, tall * SHRINK, 180.0)]


def test_a_weak_blob_smaller_than_the_photos_glyphs_is_also_cropped_much_larger(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cardscore.vision import crops
    from cardscore.vision.labels import BACKGROUND
    from cardscore.vision.readings import LARGER, UNDERSIZED, BlobReadings, _larger

    # Three blobs read as cards (glyphs of 14, 15 and 16: the photo's median is 15), then two
    # read weakly: one smaller than that (12), one larger (20, a pip in glare, say).
    sizes = (14.0, 15.0, 16.0, 12.0, 20.0)
    points = [(10.0 * n, 5.0, size, 0.0) for n, size in enumerate(sizes)]
    rows_of = {(10.0 * n, 5.0): [n] for n in range(5)}
    probs = np.zeros((5, BACKGROUND + 1))
    for n, best in enumerate((0.9, 0.9, 0.9, 0.3, 0.3)):
        probs[n, 7], probs[n, BACKGROUND] = best, 1 - best
    monkeypatch.setattr(
        crops, "classify", lambda batch, model=None: np.zeros((len(batch), BACKGROUND + 1))
    )
    read = _larger(np.zeros((40, 60, 3), np.uint8), BlobReadings(points, probs, rows_of), None)
    assert read.points[5:] == [
        (30.0, 5.0, 12.0 * LARGER, 0.0),
        (30.0, 5.0, 12.0 * UNDERSIZED, 0.0),
        (40.0, 5.0, 20.0 * LARGER, 0.0),
    ]
    assert read.rows_of[30.0, 5.0] == [3, 5, 6]
    assert read.rows_of[40.0, 5.0] == [4, 7]


def test_a_blob_read_weakly_is_cropped_again_larger(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardscore.vision import crops
    from cardscore.vision.labels import BACKGROUND
    from cardscore.vision.readings import LARGER, SECOND_LOOK, BlobReadings, _larger

    # Three blobs, each cropped in two turns: read weakly (0.3), as a card (0.9), as no ink.
    # Only the weak one is cropped again, in both its turns, LARGER times larger.
    points = [(10.0 * n, 5.0, 12.0, 90.0 * k) for n in range(3) for k in range(2)]
    rows_of = {(10.0 * n, 5.0): [2 * n, 2 * n + 1] for n in range(3)}
    probs = np.zeros((6, BACKGROUND + 1))
    for n, best in enumerate((0.3, 0.9, SECOND_LOOK / 2)):
        probs[2 * n, 7], probs[2 * n :, BACKGROUND] = best, 1 - best
    batches: list[int] = []

    def classify(batch: np.ndarray, model: object = None) -> np.ndarray:
        batches.append(len(batch))
        return np.full((len(batch), BACKGROUND + 1), 1 / (BACKGROUND + 1))

    monkeypatch.setattr(crops, "classify", classify)
    norm = np.zeros((40, 60, 3), np.uint8)
    read = _larger(norm, BlobReadings(points, probs, rows_of), None)
    assert batches == [2]
    assert read.points[6:] == [(0.0, 5.0, 12.0 * LARGER, 0.0), (0.0, 5.0, 12.0 * LARGER, 90.0)]
    assert read.rows_of == {(0.0, 5.0): [0, 1, 6, 7], (10.0, 5.0): [2, 3], (20.0, 5.0): [4, 5]}
    assert read.probs.shape == (8, BACKGROUND + 1)
    assert (read.probs[:6] == probs).all()
    # Nothing read weakly: the readings as they were, no second call.
    strong = BlobReadings(points[2:4], probs[2:4], {(10.0, 5.0): [0, 1]})
    assert _larger(norm, strong, None) is strong
    assert batches == [2]


# --- the classifier ensemble ----------------------------------------------------------------


def _lit_table(cards: list[tuple[int, int, int, int, int]]) -> np.ndarray:
    """A dark table with white rectangles (x, y, width, height, brightness)."""
    image = np.full((600, 900, 3), 40, np.uint8)
    for x, y, w, h, level in cards:
        image[y : y + h, x : x + w] = level
    return image


def test_card_width_survives_uneven_light_and_a_tight_meld() -> None:
    from cardscore.vision.regions import _typical, find_regions

    # Best-lit: a tight meld, one card-shaped block 1.4 cards wide; in the shade: three cards.
    # The brighter half of the card class alone would show only the meld.
    image = _lit_table(
        [(60, 60, 140, 210, 255)] + [(300 + 150 * i, 300, 100, 140, 170) for i in range(3)]
    )
    assert find_regions(image).card_width == pytest.approx(100, abs=3)
    # As common as the meld's size, a card's wins; no two alike: the smallest (a meld is
    # larger than its cards; regions too small to read never get here, see _shapes).
    assert _typical([152, 152, 98, 98, 152, 98]) == 98
    assert _typical([183, 128]) == 128


def test_card_width_from_ragged_card_shaped_regions() -> None:
    from cardscore.vision.regions import find_regions

    # Cards with a corner bitten off (glare, art as pale as the table) are no whole card's
    # shape but card-proportioned: they give the width, not the fragment beside them.
    image = _lit_table([(100 + 200 * i, 100, 120, 170, 230) for i in range(3)])
    image[400:430, 100:130] = 230
    for i in range(3):
        image[100:160, 100 + 200 * i : 170 + 200 * i] = 40
    assert find_regions(image).card_width == pytest.approx(120, abs=4)


def test_the_ensemble_is_the_geometric_mean_of_its_members_where_the_first_sees_ink() -> None:
    from cardscore.vision.classifier import MODEL_PATHS, SCREEN, classify
    from cardscore.vision.labels import BACKGROUND

    assert len(MODEL_PATHS) == 2
    # Index-like glyphs over a dot: some crops the plain model calls background outright,
    # others it gives a little weight to some card.
    # Ten crops of bare, grainy paper at the end, as a photo shows it: background.
    crops = np.full((70, 32, 32, 3), 240, np.uint8)
    grain = np.random.default_rng(0).normal(0, 6, (10, 32, 32, 3))
    crops[60:] = np.clip(235 + grain, 0, 255).astype(np.uint8)
    for n, text in enumerate("A23456789JQK" * 5):
        ink = (0, 0, 200 if n % 2 else 0)
        org = (6 + n % 5, 14 + n % 4)
        scale = 0.4 + 0.05 * (n % 3)
        cv2.putText(crops[n], text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, ink, 1 + n % 2)
        cv2.circle(crops[n], (12, 24), 3, ink, -1)
    members = [classify(crops, [path]) for path in MODEL_PATHS]
    screened = members[0][:, :BACKGROUND].max(axis=1) >= SCREEN
    assert 5 < screened.sum() < 65  # both kinds of crop are tried
    geometric = np.exp(np.mean([np.log(m) for m in members], axis=0))
    geometric /= geometric.sum(axis=1, keepdims=True)
    probs = classify(crops)
    np.testing.assert_allclose(probs[screened], geometric[screened], atol=1e-5)
    np.testing.assert_allclose(probs[~screened], members[0][~screened], atol=1e-6)
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, atol=1e-5)


def _glyph_crops() -> np.ndarray:
    """Crops of index-like glyphs (some read as cards, some barely) and of plain paper, ink
    specks and table: what a photo's candidates look like to the classifier."""
    rng = np.random.default_rng(5)
    crops = np.full((120, 32, 32, 3), 235, np.uint8)
    for n, text in enumerate("A23456789TJQK" * 6):
        ink = (0, 0, 190) if n % 2 else (20, 20, 20)
        org = (5 + n % 6, 13 + n % 5)
        cv2.putText(crops[n], text, org, cv2.FONT_HERSHEY_SIMPLEX, 0.35 + 0.05 * (n % 4), ink)
        cv2.circle(crops[n], (11 + n % 3, 24), 2 + n % 3, ink, -1)
    for n in range(78, 120):
        cv2.line(crops[n], tuple(rng.integers(0, 32, 2)), tuple(rng.integers(0, 32, 2)), (60,) * 3)
    crops[110:] = rng.integers(0, 120, (10, 32, 32, 3), dtype=np.uint8)  # a dark, grainy table
    return crops


def test_the_int8_screen_changes_no_crop_the_plain_model_would_pass(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The screen only spares the plain model background: every crop the plain model gives
    SCREEN or more reads exactly as without the screen, and the crops it rules out are ones
    the plain model gives less than SCREEN (the screen's own probabilities: under LOOSE_SCREEN)."""
    from cardscore.vision import classifier
    from cardscore.vision.classifier import LOOSE_SCREEN, MODEL_PATH, SCREEN, SCREEN_PATH
    from cardscore.vision.labels import BACKGROUND

    assert classifier._screen_of(MODEL_PATH) == SCREEN_PATH  # shipped, made from the model
    crops = _glyph_crops()
    screened = classifier.classify(crops)
    monkeypatch.setattr(classifier, "SCREEN_PATH", SCREEN_PATH.with_name("absent.onnx"))
    assert classifier._screen_of(MODEL_PATH) is None
    plain = classifier.classify(crops)
    first = classifier.classify(crops, [MODEL_PATH])
    passes = first[:, :BACKGROUND].max(axis=1) >= SCREEN
    assert 5 < passes.sum() < 100  # both kinds of crop are tried
    np.testing.assert_array_equal(screened[passes], plain[passes])
    ruled_out = (screened != plain).any(axis=1)
    assert ruled_out.sum() >= 20
    assert (screened[ruled_out, :BACKGROUND] < LOOSE_SCREEN).all()
    assert (first[ruled_out, :BACKGROUND] < SCREEN).all()
    np.testing.assert_allclose(screened.sum(axis=1), 1.0, atol=1e-5)


def test_a_screen_made_from_another_model_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardscore.vision import classifier
    from cardscore.vision.classifier import MODEL_PATH, MODEL_PATHS, SCREEN_PATH

    assert SCREEN_PATH not in MODEL_PATHS  # no member of the ensemble
    assert classifier._screen_of(MODEL_PATHS[1]) is None  # only the plain model's
    # A retrained plain model: the shipped screen no longer names its hash.
    monkeypatch.setattr(classifier, "model_hash", lambda path: "0" * 64)
    assert classifier._screen_of(MODEL_PATH) is None


def test_the_classifier_reads_alike_in_any_batches_on_any_threads() -> None:
    from cardscore.vision import classifier
    from cardscore.vision.classifier import MODEL_PATH

    crops = np.concatenate([_glyph_crops()] * 5)  # 600: several batches
    one = classifier._run(MODEL_PATH, ["logits", "embedding"], crops, 1)
    for threads in (2, 3):
        split = classifier._run(MODEL_PATH, ["logits", "embedding"], crops, threads)
        for a, b in zip(one, split, strict=True):
            np.testing.assert_array_equal(a, b)
    alone = classifier._run(MODEL_PATH, ["logits"], crops[:7], 2)[0]
    np.testing.assert_array_equal(alone, one[0][:7])


# --- real photos ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def photo_results(request: pytest.FixtureRequest) -> dict[str, tuple[list[Card], list[Card]]]:
    shared: Path = request.getfixturevalue("shared")
    folder = shared / "data" / "real-photos"
    need(folder.is_dir(), f"{folder} not found")
    labels = read_labels(folder)
    return {
        name: ([c.card for c in recognize(folder / name).cards], cards)
        for name, cards in labels.items()
    }


@pytest.fixture(scope="module")
def shared() -> Path:
    from tests.conftest import SHARED

    need((SHARED / "seeds").is_dir(), f"../shared not found at {SHARED} (set CARDSCORE_SHARED)")
    return SHARED


# The shipped models were trained on crops of these six photos, so this is a regression check
# of every card, photo by photo, not an accuracy figure (benchmarks/RESULTS.md has those, on
# designs the models never saw). Not read as labelled: train_06's label "Jd", whose photo
# shows a J♠.
KNOWN_MISSES: dict[str, tuple[list[str], list[str]]] = {
    "train_06.jpg": (["Jd"], ["Js"]),
}
"""Per photo: (labelled but not read, read but not labelled), as card codes."""


@pytest.mark.needs_shared
@pytest.mark.parametrize("photo", ["train_01.jpg", "train_03.jpg"])
def test_a_real_photo_turned_askew_reads_each_card_once(shared: Path, photo: str) -> None:
    """Turned 20° (a phone held askew of the table), a photo's lone cards are still read
    once each: their two corners, read along the photo's axes, pair along the card's
    diagonal (each used to be read twice, a second 9♥ or 6♦ beside the first, unflagged)."""
    from collections import Counter

    import cv2

    folder = shared / "data" / "real-photos"
    image = load_image(folder / photo).image
    h, w = image.shape[:2]
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), 20.0, 1.0)
    edge = [int(v) for v in np.median(image[:3].reshape(-1, 3), axis=0)]
    turned = cv2.warpAffine(image, turn, (w, h), borderMode=cv2.BORDER_CONSTANT, borderValue=edge)
    seen = Counter(c.card for c in recognize(turned).cards)
    assert seen == Counter(read_labels(folder)[photo])


@pytest.mark.needs_shared
def test_a_real_photo_under_a_warm_lamp_reads_as_it_does_in_daylight(
    shared: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under a tungsten lamp's cast (blue ×0.6, green ×0.85, red ×1.05) the pale table and
    the cards' paper look alike: white balance first, the photo reads as without the cast;
    read as it is, a fan of red cards is lost."""
    from collections import Counter

    import cardscore.vision.recognition as recognition
    from cardscore.vision.balance import Balanced, white_balance

    folder = shared / "data" / "real-photos"
    photo = load_image(folder / "train_06.jpg").image
    lamp = np.clip(photo * np.array([0.6, 0.85, 1.05]), 0, 255).astype(np.uint8)
    assert white_balance(lamp).gains[0] > 1.5
    assert white_balance(photo).image is photo
    daylight = Counter(c.card for c in recognize(photo).cards)
    assert Counter(c.card for c in recognize(lamp).cards) == daylight
    monkeypatch.setattr(recognition, "white_balance", lambda image: Balanced(image, (1, 1, 1)))
    assert sum((daylight - Counter(c.card for c in recognize(lamp).cards)).values()) >= 3


@pytest.mark.needs_shared
def test_real_photos_read_as_labelled_but_for_known_misses(
    photo_results: dict[str, tuple[list[Card], list[Card]]],
) -> None:
    from collections import Counter

    for name, (seen, cards) in photo_results.items():
        missed = sorted(c.code for c in (Counter(cards) - Counter(seen)).elements())
        extra = sorted(c.code for c in (Counter(seen) - Counter(cards)).elements())
        assert (missed, extra) == KNOWN_MISSES.get(name, ([], [])), name


# --- the command line ----------------------------------------------------------------------


def test_cli_bad_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "table.jpg"
    path.write_bytes(b"GIF89a not really")
    assert main(["recognize", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("cardscore: error: ")
    assert "table.jpg" in err


def _assert_outlines_drawn(
    photo: np.ndarray, annotated: np.ndarray, cards: list[dict[str, object]]
) -> None:
    """Each card's outline is drawn in its colour (green; red when flagged): on the middle of
    each edge, the colour is there in the annotated image and was not in the photo."""
    green, red = (0, 200, 0), (0, 0, 230)
    found = edges = 0
    for card in cards:
        colour = np.array(red if card["flagged"] else green, np.uint8)
        corners = np.array(card["corners"], float)
        for a, b in zip(corners, np.roll(corners, -1, axis=0), strict=True):
            x, y = np.round((a + b) / 2).astype(int)
            near = (slice(max(y - 3, 0), y + 4), slice(max(x - 3, 0), x + 4))
            drawn = np.all(annotated[near] == colour, axis=-1)
            assert not np.all(photo[near] == colour, axis=-1).any()
            edges += 1
            found += bool(drawn.any())
    # A later card's outline or label may cover part of an earlier one's edge, never most.
    assert edges >= 4 * 5
    assert found >= 0.9 * edges, (found, edges)
    assert not np.array_equal(photo, annotated)


@pytest.mark.needs_shared
def test_cli_json_and_annotation(
    shared: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    photo = shared / "data" / "real-photos" / "train_01.jpg"
    need(photo.exists(), f"{photo} not found")
    out_png = tmp_path / "seen.png"
    assert main(["recognize", str(photo), "--json", "--annotate", str(out_png)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) >= {"cards", "groups", "tranca"}
    codes = [c["card"] for c in data["cards"]]
    assert all(Card(code).code == code for code in codes)  # canonical codes, "Th" not "10H"
    assert len(set(parse_cards("9H 8C 2H 4C JS")) & set(map(Card, codes))) >= 2
    assert set(data["tranca"]) == {"melds", "piles", "dollars"}
    annotated = cv2.imread(str(out_png))
    assert annotated is not None
    assert annotated.shape[:2] == (2000, 3000)
    _assert_outlines_drawn(cv2.imread(str(photo)), annotated, data["cards"])
    assert main(["recognize", str(photo)]) == 0
    text = capsys.readouterr().out
    assert "groups:" in text
    assert "tranca draft" in text


def test_cli_says_a_photo_taken_at_an_angle_was_straightened(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A table photographed from a seat: the report says by how much it leaned, and every
    card is where the photo shows it (its outline around its centre, inside the photo)."""
    from tests.render_tables import DESIGNS, render_table

    table = render_table(11, DESIGNS[1], keystone=0.7)
    photo = tmp_path / "seated.png"
    cv2.imwrite(str(photo), table.image)
    assert main(["recognize", str(photo), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert 15 < data["image"]["tilt"] < 35
    h, w = table.image.shape[:2]
    for card in data["cards"]:
        outline = np.array(card["corners"], np.float32)
        assert cv2.pointPolygonTest(outline, (card["x"], card["y"]), False) > 0
        assert (outline >= -2).all()
        assert (outline[:, 0] <= w + 2).all()
        assert (outline[:, 1] <= h + 2).all()
    assert main(["recognize", str(photo)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert f"taken {data['image']['tilt']:.0f}° off overhead, straightened" in first
    flat = tmp_path / "flat.png"
    cv2.imwrite(str(flat), render_table(11, DESIGNS[1]).image)
    assert main(["recognize", str(flat)]) == 0
    assert "straightened" not in capsys.readouterr().out


# --- a Tranca table composed from real photographed cards ----------------------------------

# The bottom row of two shared photos, left to right: five lone upright cards each.
BOTTOM_ROWS = {"train_01.jpg": "9h 8c 2h 4c Js", "train_10.jpg": "5d Ks 2h 6c 2c"}


def _bottom_row_cards(photo: Path) -> list[np.ndarray]:
    """Upright crops of the photo's five lone bottom-row cards (they lie nearly square on)."""
    from cardscore.vision.regions import find_regions

    image = cv2.imread(str(photo))
    regions = find_regions(image)
    boxes = []
    for (cx, cy), (w, h), _ in regions.boxes.values():
        short, long_ = sorted((w, h))
        if 0.9 < short / regions.card_width < 1.1 and 1.3 < long_ / short < 1.5:
            boxes.append((cy, cx, short, long_))
    row = sorted(sorted(boxes)[-5:], key=lambda b: b[1])
    crops = []
    for cy, cx, short, long_ in row:
        x0, y0 = round(cx - short / 2), round(cy - long_ / 2)
        crops.append(image[y0 : y0 + round(long_), x0 : x0 + round(short)].copy())
    return crops


def _compose(cards: list[np.ndarray], table: tuple[int, int, int]) -> np.ndarray:
    """A team's side: a meld of cards 0–2 fanned, card 3 as a pile turned 90°, card 4 alone."""
    h, w = cards[0].shape[:2]
    canvas = np.zeros((3 * h, 5 * w, 3), np.uint8)
    canvas[:] = table
    rng = np.random.default_rng(0)
    canvas = np.clip(canvas + rng.normal(0, 3, canvas.shape), 0, 255).astype(np.uint8)
    step = int(0.32 * w)
    for k, card in enumerate(cards[:3]):
        y, x = h // 2, w // 2 + k * step
        canvas[y : y + card.shape[0], x : x + card.shape[1]] = card
    pile = np.rot90(cards[3])
    y, x = h // 2, 3 * w
    canvas[y : y + pile.shape[0], x : x + pile.shape[1]] = pile
    y, x = 2 * h - h // 3, w
    canvas[y : y + cards[4].shape[0], x : x + cards[4].shape[1]] = cards[4]
    return canvas


@pytest.mark.needs_shared
@pytest.mark.parametrize(
    "photo",
    [
        "train_01.jpg",
        pytest.param(
            "train_10.jpg",
            marks=pytest.mark.xfail(
                reason="the white-region stage merges train_10's bottom-row cards with the pale"
                " table, so _bottom_row_cards finds 1 of the 5 cards",
                raises=AssertionError,
                strict=True,
            ),
        ),
    ],
)
def test_meld_and_pile_from_real_cards(shared: Path, photo: str) -> None:
    path = shared / "data" / "real-photos" / photo
    need(path.exists(), f"{path} not found")
    cards = _bottom_row_cards(path)
    assert len(cards) == 5
    codes = BOTTOM_ROWS[photo].split()
    table = (150, 185, 215)  # the photos' pale wooden table, BGR
    result = recognize(_compose(cards, table))
    kinds = {g.kind: g for g in result.groups}
    meld = [result.cards[i] for i in kinds["meld"].cards]
    # Each card read right, or flagged with the right card offered (train_01's 9♥, half
    # under its neighbour, is read right and flagged, Q♥ offered).
    wanted = codes[:3]
    taken = [
        c.alternative.code
        if c.card.code not in wanted and c.flagged and c.alternative
        else c.card.code
        for c in meld
    ]
    assert sorted(taken) == sorted(wanted)
    piles = [g for g in result.groups if g.kind == "pile"]
    by_code = {result.cards[g.cards[0]].card.code: g.orientation for g in piles}
    assert by_code[codes[3]] == "horizontal"  # turned 90° to the meld: a clean canastra
    assert by_code[codes[4]] == "vertical"
    draft = result.tranca_draft()
    assert sorted(draft["melds"][0]) == sorted(c.card.code for c in meld)


@pytest.mark.needs_shared
def test_lone_upright_cards_on_a_photo_are_not_clean_piles(shared: Path) -> None:
    # train_01: lone cards lying upright, and overlapping pairs that are no melds (one of them,
    # 3s and Qs, turned 90° to each other) that must not decide the piles' orientation.
    path = shared / "data" / "real-photos" / "train_01.jpg"
    need(path.exists(), f"{path} not found")
    result = recognize(path)
    lone = [g for g in result.groups if len(g.cards) == 1]
    assert len(lone) >= 5
    for group in lone:
        seen = result.cards[group.cards[0]]
        if seen.card.rank.value == "3":
            assert group.kind in ("dollar", "loose")
        else:
            assert (group.kind, group.orientation) == ("pile", "vertical"), seen
    assert all(p["clean"] is False for p in result.tranca_draft()["piles"])


def _train_01_misjudged(
    shared: Path, monkeypatch: pytest.MonkeyPatch, wrong: float
) -> tuple[Path, Recognition]:
    """train_01 and its right reading; then its white regions are made to give ``wrong``
    times the card width (as a pale table's can)."""
    from cardscore.vision import recognition
    from cardscore.vision.paper import Paper

    path = shared / "data" / "real-photos" / "train_01.jpg"
    need(path.exists(), f"{path} not found")
    right = recognize(path)
    find = recognition.find_regions

    def misjudged(
        image: np.ndarray, card_width: float | None = None, paper: Paper | None = None
    ) -> object:
        regions = find(image, card_width, paper)
        return replace(regions, card_width=regions.card_width * wrong)

    monkeypatch.setattr(recognition, "find_regions", misjudged)
    return path, right


@pytest.mark.needs_shared
@pytest.mark.parametrize("wrong", [0.55, 2.0])
def test_a_card_width_the_whole_cards_indices_disprove_is_measured_again(
    shared: Path, monkeypatch: pytest.MonkeyPatch, wrong: float
) -> None:
    from cardscore.vision import readings

    # Far too small or too large: train_01's lone cards' two corners measure it again.
    path, right = _train_01_misjudged(shared, monkeypatch, wrong)
    again = recognize(path)
    assert again.card_width == pytest.approx(right.card_width, rel=0.12)
    # The width measured is a few per cent off the regions' own, at which train_01's K♦ (one
    # corner seen, read at 0.97) may be lost: at most that one card differs.
    assert _differ(again, right) <= 1
    # Without the second reading the wrong width stands, and more cards are lost or misread.
    # (Up to 1.8 times too large the same cards are read: a lone card's corners, too near
    # to pair at that width, are one card read twice, its two guesses past each other.)
    monkeypatch.setattr(readings, "REMEASURE", float("inf"))
    unchecked = recognize(path)
    assert unchecked.card_width == pytest.approx(right.card_width * wrong)
    assert _differ(unchecked, right) > 1


def _differ(a: Recognition, b: Recognition) -> int:
    """How many cards one reading has that the other has not, both ways."""
    from collections import Counter

    ca, cb = Counter(c.card for c in a.cards), Counter(c.card for c in b.cards)
    return sum(((ca - cb) + (cb - ca)).values())


@pytest.mark.needs_shared
@pytest.mark.parametrize("wrong", [0.35, 2.9])
def test_a_card_width_at_which_no_whole_card_is_read_is_tried_at_other_scales(
    shared: Path, monkeypatch: pytest.MonkeyPatch, wrong: float
) -> None:
    from cardscore.vision import readings

    # So far off (a pale table's fragment, in a held-out table 0.37 times the card) that no
    # card shows both its indices: nothing to measure the card by until the scale is right.
    path, right = _train_01_misjudged(shared, monkeypatch, wrong)
    measured: list[float | None] = []
    measure = readings.card_width_from_indices

    def spy(hits: list[object], least: int = 2) -> float | None:
        measured.append(measure(hits, least))  # type: ignore[arg-type]
        return measured[-1]

    monkeypatch.setattr(readings, "card_width_from_indices", spy)
    again = recognize(path)
    assert measured[0] is None
    assert again.card_width == pytest.approx(right.card_width, rel=0.12)
    assert sorted(c.card for c in again.cards) == sorted(c.card for c in right.cards)
    monkeypatch.setattr(readings, "RESCALE", ())
    unchecked = recognize(path)
    assert len(unchecked.cards) < len(right.cards) / 2


def test_a_weak_card_completing_a_meld_is_adopted_and_flagged() -> None:
    from cardscore.vision.cards import adopt_weak

    # A set of aces fanned 0.3 W apart; the middle Ac was read at only 0.44.
    fan = [_hit(code, 100 + i * 0.3 * W, 100) for i, code in enumerate(["Ac", "Ac", "As"])]
    fan[1] = _hit("Ac", 100 + 0.3 * W, 100, prob=0.44)
    cards = pair_indices(fan, W)
    strong = [c for c in cards if c.confidence >= 0.5]
    weak = [c for c in cards if c.confidence < 0.5]
    groups = group_cards(strong, W)
    assert [c.card.code for c in adopt_weak(strong, weak, W, groups)] == ["Ac"]
    # Not when it would spoil the meld, lies crooked, sits on a card found, or touches no meld.
    # A tight fan (about 0.23 W a card, jittered): the weak Qs's centre, guessed from its one
    # index, lies 0.19 W from the Ks's; it is still its own card.
    tight = [_hit(c, 100 + u * W, 100) for c, u in (("Js", 0), ("Ks", 0.46), ("As", 0.72))]
    cards = pair_indices(tight, W)
    qs = pair_indices([_hit("Qs", 100 + 0.27 * W, 100, prob=0.45)], W)
    assert [c.card.code for c in adopt_weak(cards, qs, W, group_cards(cards, W))] == ["Qs"]
    for odd in (
        _hit("Kd", 100 + 0.3 * W, 100, prob=0.44),
        _hit("Ac", 100 + 0.3 * W, 100, angle=40, prob=0.44),
        _hit("Ac", 100 + 0.05 * W, 100, prob=0.44),
        _hit("Ac", 900, 100, prob=0.44),
    ):
        assert adopt_weak(strong, pair_indices([odd], W), W, groups) == []


def test_weak_cards_bridging_a_lone_card_and_its_meld_are_adopted_in_turn() -> None:
    from cardscore.vision.cards import adopt_weak

    def fan(spec: list[tuple[str, float, float]]) -> tuple[list[Placement], list[Placement]]:
        cards = pair_indices([_hit(c, 100 + u * W, 100, prob=p) for c, u, p in spec], W)
        return [c for c in cards if c.confidence >= 0.5], [c for c in cards if c.confidence < 0.5]

    # From held-out tables. A run Ts Js Qs Ks whose Js read 0.31: the Ts, 0.85 W from the
    # Qs, was a group of its own, and the Js touches both groups.
    strong, weak = fan([("Ts", 0, 0.97), ("Js", 0.42, 0.31), ("Qs", 0.85, 0.87), ("Ks", 1.2, 0.9)])
    assert len(group_cards(strong, W)) == 2
    adopted = adopt_weak(strong, weak, W, group_cards(strong, W))
    assert [c.card.code for c in adopted] == ["Js"]
    assert [len(g) for g in group_cards(strong + adopted, W)] == [4]
    # A set of fives whose second and third cards read 0.45 and 0.41: the 5h only touches
    # the meld once the 5s beside it is in.
    spec = [("5s", 0, 0.94), ("5s", 0.38, 0.45), ("5h", 0.76, 0.41), ("5h", 1.14, 0.9)]
    strong, weak = fan([*spec, ("5c", 1.52, 0.92), ("5c", 1.9, 0.94)])
    adopted = adopt_weak(strong, weak, W, group_cards(strong, W))
    assert sorted(c.card.code for c in adopted) == ["5h", "5s"]
    # Not when the cards it touches and it make no meld.
    strong, weak = fan([("Ts", 0, 0.97), ("8d", 0.42, 0.31), ("Qs", 0.85, 0.87), ("Ks", 1.2, 0.9)])
    assert adopt_weak(strong, weak, W, group_cards(strong, W)) == []


def test_two_weak_cards_completing_a_meld_only_together_are_adopted() -> None:
    from cardscore.vision.cards import adopt_weak

    # From a held-out table: a run 5h..Jh whose 6h and 8h read 0.46 and 0.45. Neither alone
    # makes the run legal (the other's gap stays open); the two together do.
    spec = [("5h", 0.96), ("6h", 0.46), ("7h", 0.96), ("8h", 0.45), ("9h", 0.9), ("Th", 0.9)]
    cards = pair_indices(
        [_hit(c, 100 + k * 0.3 * W, 100, prob=p) for k, (c, p) in enumerate(spec)], W
    )
    strong = [c for c in cards if c.confidence >= 0.5]
    weak = [c for c in cards if c.confidence < 0.5]
    adopted = adopt_weak(strong, weak, W, group_cards(strong, W))
    assert sorted(c.card.code for c in adopted) == ["6h", "8h"]
    # Not a pair that still makes no meld.
    odd = [w if w.card.code == "6h" else replace(w, card=Card("8d")) for w in weak]
    assert adopt_weak(strong, odd, W, group_cards(strong, W)) == []


def test_a_weak_card_completing_a_meld_with_a_misread_card_mended_is_adopted() -> None:
    from cardscore.vision.cards import adopt_weak

    # From a held-out table: Js Qs Ks As, the Js read at 0.42 and the Qs as a 9s (0.54, its
    # runner-up the Qs). The 9s spoils the meld: only with it mended does the Js complete it.
    hits = [
        _hit(c, 100 + k * 0.3 * W, 100, prob=p)
        for k, (c, p) in enumerate([("Js", 0.42), ("9s", 0.54), ("Ks", 0.99), ("As", 1.0)])
    ]
    hits[1] = replace(hits[1], runner_up=Card("Qs"))
    cards = pair_indices(hits, W)
    strong = [c for c in cards if c.confidence >= 0.5]
    weak = [c for c in cards if c.confidence < 0.5]
    assert [c.card.code for c in adopt_weak(strong, weak, W, group_cards(strong, W))] == ["Js"]
    # Without that runner-up, nothing mends the meld.
    strong = [replace(c, runner_up=None) for c in strong]
    assert adopt_weak(strong, weak, W, group_cards(strong, W)) == []


def test_a_one_index_card_read_far_off_its_melds_angle_is_recentred_at_it() -> None:
    from cardscore.vision.cards import straighten

    # From a held-out table: in an upright run 8d 9d Td Jd the 9d's one index read best at
    # 330°, which put its centre on the 8d's.
    hits = [_hit(c, 100 + i * 0.28 * W, 100) for i, c in enumerate(["8d", "9d", "Td", "Jd"])]
    hits[1] = _hit("9d", hits[1].x, hits[1].y, 330.0, 0.92)
    cards = pair_indices(hits, W)
    nine = next(i for i, c in enumerate(cards) if c.card == Card("9d"))
    upright = pair_indices([_hit("9d", hits[1].x, hits[1].y)], W)[0]
    assert np.hypot(cards[nine].x - upright.x, cards[nine].y - upright.y) > 0.2 * W
    fixed = straighten(cards, group_cards(cards, W), W)
    assert fixed[nine].angle == pytest.approx(0.0, abs=1e-6)
    assert (fixed[nine].x, fixed[nine].y) == pytest.approx((upright.x, upright.y))
    assert [c for i, c in enumerate(fixed) if i != nine] == [
        c for i, c in enumerate(cards) if i != nine
    ]
    # A pair sets no angle (a photo's random overlapping pair), nor do crooked others.
    pair = [cards[0], cards[nine]]
    assert straighten(pair, [[0, 1]], W) == pair
    crooked = [replace(c, angle=a) for c, a in zip(cards, (0, 330, 40, 300), strict=True)]
    assert straighten(crooked, [[0, 1, 2, 3]], W) == crooked


def test_a_row_of_glyphs_read_askew_each_its_own_way_takes_the_rows_angle() -> None:
    from cardscore.vision.cards import straighten

    # From a cream tuning table: a run 4s..8s laid upright, its faint 4, 6, 7 and 8 read
    # about 20° off and its 5 upright; each centre, guessed through its own angle, fell
    # between two cards.
    turns = (340.8, 357.2, 337.4, 340.7, 337.1)
    codes = ["4s", "5s", "6s", "7s", "8s"]
    hits = [
        _hit(c, 100 + i * 0.33 * W, 300, t)
        for i, (c, t) in enumerate(zip(codes, turns, strict=True))
    ]
    cards = pair_indices(hits, W)
    fixed = straighten(cards, group_cards(cards, W), W)
    upright = pair_indices([_hit(c, h.x, h.y) for c, h in zip(codes, hits, strict=True)], W)
    for card, want in zip(fixed, upright, strict=True):
        assert angle_gap(card.angle, 0.0) < 3.0
        assert np.hypot(card.x - want.x, card.y - want.y) < 0.05 * W
    # The 5, read within a few degrees of the row, keeps its own reading.
    assert fixed[1] == cards[1]


def test_a_row_laid_askew_whose_cards_agree_and_a_fan_keep_their_angles() -> None:
    from cardscore.vision.cards import row_angle, straighten

    # Cards turned 7° laid along the photo's x axis (a hand's row a little off the cards'
    # own axis), one read 4° further: the cards' agreement stands.
    turned = zip(["9s", "Ts", "Js", "Qs"], (7.0, 11.0, 7.0, 6.0), strict=True)
    askew = [_hit(c, 100 + i * 0.3 * W, 300, a) for i, (c, a) in enumerate(turned)]
    cards = pair_indices(askew, W)
    assert row_angle(cards, W) is not None
    assert straighten(cards, group_cards(cards, W), W) == cards
    # A fan: each card turned 6° more than the last about a point below the cards.
    pivot = np.array([300.0, 300.0 + 1.5 * W])
    fan = []
    for i, code in enumerate(["5h", "6h", "7h", "8h"]):
        t = np.deg2rad(9.0 - 6.0 * i)
        spot = pivot + np.array([[np.cos(t), np.sin(t)], [-np.sin(t), np.cos(t)]]) @ np.array(
            [-0.37 * W, -1.5 * W - 0.55 * W]
        )
        fan.append(_hit(code, float(spot[0]), float(spot[1]), float(np.degrees(t)) % 360))
    fanned = pair_indices(fan, W)
    assert row_angle(fanned, W) is None
    assert straighten(fanned, group_cards(fanned, W), W) == fanned


def _four_index_meld(
    codes: list[str], step: float, aspect: float = ASPECT
) -> tuple[list[IndexHit], dict[str, tuple[float, float]]]:
    """The hits a meld of a four-index deck shows, laid left to right from (100, 100): each
    card's top-left index and its bottom-left one (turned half a turn), and the top card's
    right-hand two as well; with the cards' true centres."""
    hits, centres = [], {}
    across, down = (1 - 2 * INDEX_U) * W, (1 - 2 * INDEX_V) * W * aspect
    for k, code in enumerate(codes):
        x, y = 100 + k * step, 100.0
        hits += [_hit(code, x, y), _hit(code, x, y + down, 180.0)]
        if k == len(codes) - 1:
            hits += [_hit(code, x + across, y), _hit(code, x + across, y + down, 180.0)]
        centres[code] = (x + across / 2, y + down / 2)
    return hits, centres


def test_a_four_index_decks_meld_is_placed_by_each_cards_left_side() -> None:
    """A deck printing its index in all four corners shows, of each card under the next, the
    index at the top and at the bottom of its left side: the two are one card, which lies to
    their right, and the top card's other two indices are that card too."""
    codes = ["6c", "7c", "8c", "9c", "Tc"]
    hits, centres = _four_index_meld(codes, 0.35 * W)
    cards = find_cards(hits)
    assert sorted(c.card.code for c in cards) == sorted(codes)
    for card in cards:
        x, y = centres[card.card.code]
        assert np.hypot(card.x - x, card.y - y) < 0.05 * W
        assert angle_gap(card.angle, 0.0) < 1.0
        assert card.indices == 2


def test_a_four_index_cards_third_corner_read_surest_is_no_second_card() -> None:
    """The top card's top-right index, read more surely than either of its left-hand pair,
    is still that card's third corner, not a card of its own a step to the right."""
    codes = ["6c", "7c", "8c"]
    hits, _ = _four_index_meld(codes, 0.35 * W)
    *_, top_left, bottom_left, top_right, bottom_right = hits
    weaker = [replace(h, prob=0.8) for h in (top_left, bottom_left, bottom_right)]
    hits = [*hits[:-4], *weaker, replace(top_right, prob=0.99)]
    cards = pair_indices(hits, W)
    assert sorted(c.card.code for c in cards) == sorted(codes)


@pytest.mark.parametrize("turn", [0.0, 20.0, 24.0, 340.0])
def test_a_four_index_meld_turned_in_the_photo_keeps_each_card_on_its_own_spot(
    turn: float,
) -> None:
    """On a table turned 20° in the photo a tall four-index card's top-left and bottom-left
    index also fit a card upright in the photo (its diagonal along the photo's axes); the
    side pair, which fits along the glyphs' own axes, is the card, not one on its
    neighbour's spot."""
    codes = ["9s", "Ts", "Js"]
    hits, centres = _four_index_meld(codes, 0.35 * W, aspect=1.56)
    t = np.deg2rad(turn)
    spin = np.array([[np.cos(t), np.sin(t)], [-np.sin(t), np.cos(t)]])  # counter-clockwise
    origin = np.array([100.0, 100.0])

    def turned(x: float, y: float) -> np.ndarray:
        return np.asarray(origin + spin @ (np.array([x, y]) - origin))

    hits = [replace(h, x=float(p[0]), y=float(p[1]), angle=(h.angle + turn) % 360)
            for h in hits for p in [turned(h.x, h.y)]]  # fmt: skip
    cards = find_cards(hits)
    assert sorted(c.card.code for c in cards) == sorted(codes)
    for card in cards:
        x, y = turned(*centres[card.card.code])
        assert np.hypot(card.x - x, card.y - y) < 0.05 * W
        assert angle_gap(card.angle, turn) < 2.0


def test_a_tall_decks_corners_pair_before_a_diagonal_with_another_turned_index() -> None:
    # From a tall four-index deck (1.56 as tall as wide, its indices near the corners): its
    # two corners misfit a deck-average card by 0.22, and its top-left index and its weakly
    # read bottom-left one lie a card's diagonal apart, 38° off the glyphs' axes, fitting it
    # within 0.04: they paired, and turned the card and its whole meld.
    across, down = 0.8 * W, 0.96 * W * ASPECT
    top_left = _hit("Ts", 100.0, 100.0)
    bottom_right = _hit("Ts", 100.0 + across, 100.0 + down, 180.0)
    bottom_left = _hit("Ts", 100.0 - 0.075 * W, 100.0 + down, 180.0, prob=0.3)
    cards = find_cards([top_left, bottom_left, bottom_right])
    assert len(cards) == 1
    assert angle_gap(cards[0].angle, 0.0) < 1.0
    assert cards[0].indices == 2
    assert np.hypot(cards[0].x - (100 + across / 2), cards[0].y - (100 + down / 2)) < 0.01 * W


def test_corner_angles_tens_of_degrees_off_still_pair_and_the_surer_one_decides() -> None:
    # A pile turned 90°: the surer corner says 267°, the other's local edges said 42°.
    a, b = _corner_hits("8d", 400, 300, angle=267)
    b = IndexHit(b.card, 0.89, b.x, b.y, 42.0, None)
    cards = pair_indices([a, b], W)
    assert len(cards) == 1
    assert pile_orientation(cards[0].angle, None) == "horizontal"
    # A ten's two halves, each read with its own angle, are one hit.
    halves = [_hit("Td", 241, 64, 317, 0.85), _hit("Td", 254, 66, 47, 0.65)]
    assert len(_merge(halves)) == 1


def test_corners_sharing_one_wrong_angle_pair_on_the_photo_axes() -> None:
    # From a held-out table: an upright 7d pile whose two corners both read best 36° off
    # (the 7's diagonal stroke): in their frame the corners do not fit one card, in the
    # photo's they do. One card, upright: a vertical (dirty) pile, not a "7d 7d" meld.
    a, b = _corner_hits("7d", 400, 300)
    a, b = (
        IndexHit(a.card, 0.98, a.x, a.y, 324.0, None),
        IndexHit(b.card, 0.98, b.x, b.y, 143.0, None),
    )
    cards = pair_indices([a, b], W)
    assert len(cards) == 1
    assert cards[0].angle == pytest.approx(0.0)
    assert pile_orientation(cards[0].angle, None) == "vertical"
    # Two 7d of a set, fanned: still two cards.
    fan = [_hit("7d", 100, 100), _hit("7d", 100 + 0.3 * W, 100)]
    assert len(pair_indices(fan, W)) == 2


def test_a_card_that_spoils_a_meld_is_flagged_and_mended_by_its_runner_up() -> None:
    from cardscore.vision.repairs import meld_doubts

    def placed(code: str, runner_up: str | None = None) -> Placement:
        return Placement(Card(code), 0.95, 0, 0, 0, 1, Card(runner_up) if runner_up else None)

    run = [placed("9c"), placed("Ts", "Tc"), placed("Jc", "Js")]
    assert meld_doubts(run, [[0, 1, 2]]) == {1: Card("Tc")}
    # No runner-up mends it, but one card alone spoils it: that card is flagged.
    spoilt = [placed("9c"), placed("Tc"), placed("Jc"), placed("Qh", "Qs")]
    assert meld_doubts(spoilt, [[0, 1, 2, 3]]) == {3: None}
    # Two misreads, each mended by its runner-up, and no other pair would do: both mended.
    twice = [placed("9d"), placed("Td"), placed("Td", "Jd"), placed("Td", "Qd"), placed("Kd")]
    assert meld_doubts(twice, [[0, 1, 2, 3, 4]]) == {2: Card("Jd"), 3: Card("Qd")}
    # Two pairs would (a set of 8s or of Qs): nothing to choose by, the spoilers are flagged.
    either = [placed("8h", "Qh"), placed("8c", "Qc"), placed("Qs", "8s"), placed("Qd", "8d")]
    assert meld_doubts(either, [[0, 1, 2, 3]]) == dict.fromkeys([0, 1, 2, 3])
    # Nothing to blame on one card: all are flagged. Good melds and pairs are left alone.
    mixed = [placed("9c"), placed("Ts"), placed("Jh"), placed("5d"), placed("6d"), placed("7d")]
    assert meld_doubts(mixed, [[0, 1, 2], [3, 4, 5], [0, 3]]) == dict.fromkeys([0, 1, 2])


def test_corners_pair_when_only_the_halfway_angle_fits_the_card() -> None:
    # From a held-out table: a pile turned ~270°, corners read at 253° and 91° (271° + 180°);
    # in the surer hit's frame the other corner sits just outside the window.
    a = _hit("7s", 568, 282, 253, 0.97)
    b = _hit("7s", 443, 377, 91, 0.96)
    cards = pair_indices([a, b], W)
    assert len(cards) == 1
    assert pile_orientation(cards[0].angle, None) == "horizontal"


def test_a_table_scored_without_its_cut_cards_counts_only_their_wrong_readings() -> None:
    """A card whose index the photo cuts off is neither expected nor, read right, extra; read
    wrong it is an extra card and a silent mistake; a meld with such a card is not judged.
    A reading of a card's mirror image (a synthetic photo's border) is not counted."""
    from cardscore.vision.evaluate import score_table
    from cardscore.vision.groups import Group
    from cardscore.vision.recognition import SeenCard

    def seen(code: str, x: float, flagged: bool = False) -> SeenCard:
        return SeenCard(Card(code), 0.99, x, 100.0, 0.0, (), 1, flagged)

    truth = [(Card("5h"), 100.0, 100.0, 0), (Card("6h"), 140.0, 100.0, 0)]
    truth += [(Card("Kc"), 600.0, 100.0, 1)]
    cut = [(Card("7h"), 180.0, 100.0, 0), (Card("2d"), 900.0, 100.0, 2)]
    kinds = {0: "meld", 1: "pile:horizontal", 2: "pile:vertical"}
    cards = (seen("5h", 100), seen("6h", 140), seen("7h", 180), seen("Kc", 600), seen("3d", 900))
    groups = (Group("meld", (0, 1, 2)), Group("pile", (3,), "horizontal"))
    result = Recognition(cards, groups, 1000, 200, 150.0)
    score = score_table(truth, kinds, result, 150.0, cut)
    assert (score.cards, score.cards_right, score.cards_extra) == (3, 3, 1)
    assert (score.wrong_unflagged, score.flagged) == (1, 0)
    assert (score.melds, score.piles, score.piles_right) == (0, 1, 1)
    # Scored as before, the cut cards' right readings are extra, and the meld is judged.
    before = score_table(truth, kinds, result, 150.0)
    assert (before.cards_extra, before.wrong_unflagged, before.melds) == (2, 2, 1)
    # Whatever is read on a mirror image of a card leaves the count, right or wrong.
    mirror = Recognition((*cards, seen("9c", 300)), groups, 1000, 200, 150.0)
    assert score_table(truth, kinds, mirror, 150.0, cut, [(310.0, 100.0)]) == score
    assert score_table(truth, kinds, mirror, 150.0, cut).cards_extra == 2
