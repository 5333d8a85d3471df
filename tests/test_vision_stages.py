"""The recognition pipeline's stages, each on its own input, and their one-way order.

photo → view (the table seen from above: a photo taken at an angle straightened) → regions
(card regions, card width) → focus (a blurred photo sharpened) → readings (index hits at a
confirmed scale) →
cards (physical cards) → repairs (gaps, crowds, doubts, rereads through an injected reader)
→ groups (melds, piles, dollars) → the Recognition; no module imports a later one.
"""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import need_module

need_module("cv2", "needs the vision extra (opencv)")
need_module("onnxruntime", "needs the vision extra (onnxruntime)")

import cv2  # noqa: E402

from cardscore.cards import Card  # noqa: E402
from cardscore.vision.cards import ALONE_MIN, MIN_CARD, Placement, find_cards  # noqa: E402
from cardscore.vision.crops import CropReader  # noqa: E402
from cardscore.vision.geometry import (  # noqa: E402
    ASPECT,
    INDEX_U,
    INDEX_V,
    CardBox,
    index_to_centre,
)
from cardscore.vision.groups import find_groups  # noqa: E402
from cardscore.vision.labels import BACKGROUND  # noqa: E402
from cardscore.vision.readings import IndexHit, normalise, read_indices  # noqa: E402
from cardscore.vision.regions import find_regions  # noqa: E402
from cardscore.vision.repairs import CardReading, empty_boxes, lone_threes, repair  # noqa: E402
from tests.render_tables import DESIGNS, cream, render_table  # noqa: E402

VISION = Path(__file__).resolve().parent.parent / "src" / "cardscore" / "vision"
# Every module of cardscore.vision, each after all it imports: the shared ground, the stages
# in the order the data goes through them, then what reads their result.
ORDER = (
    "labels",
    "image_io",
    "calibration",
    "geometry",
    "meld_rules",
    "deck",
    "parallel",
    "classifier",
    "crops",
    "balance",
    "paper",
    "view",
    "regions",
    "focus",
    "blobs",
    "readings",
    "channels",
    "cards",
    "repairs",
    "groups",
    "picture",
    "recognition",
    "annotate",
    "hands",
    "evaluate",
    "learn",
    "cli",
)
STAGES = ("balance", "view", "regions", "readings", "cards", "repairs", "groups", "recognition")
W = 120.0
STEP = 0.3 * W


def _imports(module: str) -> set[str]:
    """The cardscore.vision modules ``module`` imports, at the top or inside a function."""
    tree = ast.parse((VISION / f"{module}.py").read_text())
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    prefix = "cardscore.vision."
    return {n[len(prefix) :].split(".")[0] for n in names if n.startswith(prefix)} - {module}


def test_every_vision_module_has_its_place_in_the_order() -> None:
    modules = {p.stem for p in VISION.glob("*.py")} - {"__init__"}
    assert modules == set(ORDER)


@pytest.mark.parametrize("module", ORDER)
def test_no_vision_module_imports_a_later_one(module: str) -> None:
    later = set(ORDER[ORDER.index(module) + 1 :]) | {"train"}
    assert _imports(module) & later == set()


def test_the_later_stages_look_at_the_photo_only_through_the_reader_they_are_handed() -> None:
    # Cards, repairs and groups work on what the stages before them found: none of them
    # classifies, crops or finds anything in the photo itself.
    pixels = {"classifier", "crops", "regions", "blobs", "image_io", "deck"}
    for stage in ("cards", "repairs", "groups"):
        assert _imports(stage) & pixels == set(), stage
    assert _imports("repairs") & {"groups", "recognition"} == set()


def test_the_stages_follow_each_other_in_the_recognition() -> None:
    source = (VISION / "recognition.py").read_text()
    body = source[source.index("def _recognize(") :]
    calls = (
        "white_balance(",
        "find_view(",
        "find_regions(",
        "read_indices(",
        "find_cards(",
        "repair(",
        "find_groups(",
    )
    assert [body.index(c) for c in calls] == sorted(body.index(c) for c in calls)
    assert [s for s in STAGES if s in ORDER] == list(STAGES)


# View: photo → the table seen from above.


def _square(corners: np.ndarray) -> float:
    """The largest of a quadrilateral's corners' distances from a right angle (degrees)."""
    worst = 0.0
    for k in range(4):
        u, v = corners[k - 1] - corners[k], corners[(k + 1) % 4] - corners[k]
        cos = u @ v / (np.linalg.norm(u) * np.linalg.norm(v))
        worst = max(worst, abs(float(np.degrees(np.arccos(np.clip(cos, -1, 1)))) - 90))
    return worst


def test_a_photo_taken_from_a_seat_is_straightened_and_an_overhead_one_left_as_it_is() -> None:
    """The cards' outlines give the horizon; turned back, a lone card is a rectangle again,
    the view's pixels map back onto the photo's, and a photo from above is not touched
    (seeds never measured)."""
    import cv2

    from cardscore.vision.paper import find_paper
    from cardscore.vision.view import find_view, paper_outlines, table_quads

    for seed in range(10, 13):
        overhead = render_table(seed, DESIGNS[0]).image
        assert find_view(overhead).image is overhead
        seated = render_table(seed, DESIGNS[0], keystone=0.7)
        view = find_view(seated.image)
        assert 15 < view.tilt < 35
        paper = find_paper(seated.image)
        quads = table_quads(paper_outlines(paper, paper.masks[0]), seated.image.shape[1::-1])
        to_view = np.linalg.inv(view.to_photo)
        straight = [cv2.perspectiveTransform(q.reshape(1, -1, 2), to_view)[0] for q in quads]
        assert max(_square(q) for q in quads) > 5  # leaning in the photo
        assert np.median([_square(q) for q in straight]) < 2.5  # square again
        # And back: the view's pixels are the photo's, through the view.
        corners = np.concatenate(quads)
        back = view.photo_points(np.concatenate(straight))
        assert np.abs(back - corners).max() < 1e-6 * max(seated.image.shape)


def test_the_lean_is_measured_on_the_card_mask_that_shows_the_cards_under_uneven_light() -> None:
    """One card well lit and four in shade, seen from a seat: the brightest split of the
    paper keeps only the lit card, too few to measure the lean by; the mask that shows all
    five straightens the photo."""
    import cv2

    from cardscore.vision.paper import find_paper
    from cardscore.vision.view import find_view, paper_outlines, table_quads
    from tests.render_tables import seat_view

    h, w = 600, 800
    flat = np.full((h, w, 3), (50, 90, 40), np.uint8)
    for x, y, shade in ((100, 80, 250), (330, 80, 170), (560, 80, 170), (200, 340, 170),
                        (480, 340, 170)):  # fmt: skip
        cv2.rectangle(flat, (x, y), (x + 130, y + 180), (shade, shade, shade), -1)
    photo = cv2.warpPerspective(flat, seat_view(h, w, 0.6), (w, h), borderMode=cv2.BORDER_REPLICATE)
    paper = find_paper(photo)
    assert [len(table_quads(paper_outlines(paper, m), (w, h))) for m in paper.masks] == [1, 5]
    assert 25 < find_view(photo).tilt < 40


def test_cards_whose_print_cuts_their_paper_into_pieces_still_show_the_lean(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Cards with a dark line printed across them (a frame, a design's edge), lone and in
    fans, seen from a seat (far edge 0.7): the paper's pieces are no rectangles on the table,
    so the lean is measured on the mask with its thin gaps bridged; without that bridge the
    photo is read as it is."""
    from cardscore.vision import view
    from tests.render_tables import seat_view

    h, w = 900, 1200
    flat = np.full((h, w, 3), (60, 110, 40), np.uint8)
    for x, y in [
        *((150 + 40 * k, 120) for k in range(4)),
        *((150 + 40 * k, 520) for k in range(3)),
    ]:
        _slashed_card(flat, x, y)
    for x, y in ((700, 120), (950, 120), (700, 520), (950, 520)):
        _slashed_card(flat, x, y)
    photo = cv2.warpPerspective(flat, seat_view(h, w, 0.7), (w, h), borderMode=cv2.BORDER_REPLICATE)
    assert 15 < view.find_view(photo).tilt < 30
    monkeypatch.setattr(view, "_BRIDGE", 0.0)
    assert view.find_view(photo).tilt == 0.0


def test_a_pale_board_the_cards_lie_on_shows_the_lean_where_the_cards_alone_do_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Cards on a board nearly as white as they are, seen from a seat (far edge 0.6): the
    card masks take the board and its cards for one paper region, one quadrilateral, which
    measures the lean as well as a table's cards do (:data:`~cardscore.vision.view.BOARD`).
    A lone card is too small to be measured by: that photo is read as it is."""
    from cardscore.vision import view
    from tests.render_tables import seat_view

    h, w = 900, 1200
    flat = np.full((h, w, 3), (40, 80, 130), np.uint8)  # a wooden floor
    cv2.rectangle(flat, (300, 150), (900, 750), (228, 232, 236), -1)  # the board
    for x, y in ((380, 220), (560, 220), (700, 480)):
        cv2.rectangle(flat, (x, y), (x + 110, y + 155), (246, 246, 246), -1)
        cv2.putText(flat, "7", (x + 8, y + 25), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (20, 20, 20), 2)
    seat = seat_view(h, w, 0.6)
    photo = cv2.warpPerspective(flat, seat, (w, h), borderMode=cv2.BORDER_REPLICATE)
    seen = view.find_view(photo)
    assert 25 < seen.tilt < 40
    board = np.array([[300, 150], [900, 150], [900, 750], [300, 750]], np.float64)
    in_photo = cv2.perspectiveTransform(board.reshape(1, -1, 2), seat)
    straight = cv2.perspectiveTransform(in_photo, np.linalg.inv(seen.to_photo))[0]
    assert _square(in_photo[0]) > 5
    assert _square(straight) < 2.5
    monkeypatch.setattr(view, "BOARD", 1.0)
    assert view.find_view(photo).tilt == 0.0
    monkeypatch.undo()
    lone = np.full((h, w, 3), (40, 80, 130), np.uint8)
    cv2.rectangle(lone, (500, 300), (650, 510), (246, 246, 246), -1)
    photo = cv2.warpPerspective(lone, seat, (w, h), borderMode=cv2.BORDER_REPLICATE)
    assert view.find_view(photo).tilt == 0.0


def _slashed_card(flat: np.ndarray, x: int, y: int) -> None:
    """A white card 150 × 210 px with a dark outline and a dark line slanting across it."""
    cv2.rectangle(flat, (x, y), (x + 150, y + 210), (245, 245, 245), -1)
    cv2.rectangle(flat, (x, y), (x + 150, y + 210), (90, 90, 90), 2)
    cv2.line(flat, (x + 18, y), (x + 40, y + 210), (70, 70, 70), 3)


def _card_shapes(view_image: np.ndarray) -> list[float]:
    """Long side to short of each quadrilateral the view's brightest card mask shows."""
    from cardscore.vision.paper import find_paper
    from cardscore.vision.view import paper_outlines, table_quads

    paper = find_paper(view_image)
    shapes = []
    for q in table_quads(paper_outlines(paper, paper.masks[0]), view_image.shape[1::-1]):
        sides = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)
        one, other = sides[0] + sides[2], sides[1] + sides[3]
        shapes.append(float(max(one, other) / min(one, other)))
    return shapes


def test_a_view_no_centred_camera_gives_is_stretched_until_its_lone_cards_look_like_cards(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Six lone cards (1.4 long sides to a short one) in a picture warped by moving its
    corners (the far edge half the near one's width): turned back with a phone's focal
    length they come out twice as long as wide, and the view stretched along the lean makes
    them card-shaped again. A photo from above, or one whose cards already look like cards,
    is not stretched."""
    import cv2

    from cardscore.vision import view as view_stage
    from cardscore.vision.view import CARD_SHAPE, find_view
    from tests.render_tables import seat_view

    h, w = 600, 800
    flat = np.full((h, w, 3), (50, 90, 40), np.uint8)
    for x, y in ((100, 60), (330, 60), (560, 60), (100, 340), (330, 340), (560, 340)):
        cv2.rectangle(flat, (x, y), (x + 100, y + 140), (240, 240, 240), -1)
    photo = cv2.warpPerspective(flat, seat_view(h, w, 0.5), (w, h), borderMode=cv2.BORDER_REPLICATE)
    shapes = _card_shapes(find_view(photo).image)
    assert len(shapes) == 6
    # The longest card shape, within the pixels the warps round away.
    assert all(CARD_SHAPE[0] <= s <= CARD_SHAPE[1] + 0.03 for s in shapes), shapes
    with monkeypatch.context() as m:
        m.setattr(view_stage, "card_stretch", lambda *_: 1.0)
        turned_only = _card_shapes(find_view(photo).image)
    assert min(turned_only) > 1.9  # what the stretch undoes
    # A milder warp leaves the cards card-shaped when only turned back: not stretched.
    milder = cv2.warpPerspective(
        flat, seat_view(h, w, 0.7), (w, h), borderMode=cv2.BORDER_REPLICATE
    )
    with monkeypatch.context() as m:
        m.setattr(view_stage, "card_stretch", lambda *_: 1.0)
        unstretched = find_view(milder).to_photo
    assert np.array_equal(find_view(milder).to_photo, unstretched)
    assert find_view(flat).image is flat


def test_a_ragged_or_cut_off_region_is_no_rectangle_to_measure_the_lean_by() -> None:
    """A card region the mask cut into (one side slanting in along most of its length: the
    lines fitted to its sides meet far from its corners) is left out, as is a card the
    photo's edge cuts off; the whole card is kept."""
    from cardscore.vision.view import table_quads

    top = [[x, 0.0] for x in range(100)] + [[100.0, y] for y in range(140)]
    bottom = [[x, 140.0] for x in range(100, 0, -1)]
    straight = [[0.0, y] for y in range(140, 0, -1)]
    slanting = (
        [[0.0, y] for y in range(140, 119, -1)]
        + [[16 * (y - 21) / 98, y] for y in range(119, 21, -1)]
        + [[0.0, y] for y in range(21, 0, -1)]
    )
    card = np.array(top + bottom + straight, np.float64) + 50
    ragged = np.array(top + bottom + slanting, np.float64) + 50
    assert len(table_quads([card], (300, 300))) == 1
    assert table_quads([ragged], (300, 300)) == []
    assert table_quads([card - 50], (300, 300)) == []  # on the photo's edge


def test_the_horizon_is_where_the_tables_parallel_sides_meet() -> None:
    """Rectangles on a table seen through a known keystone: their vanishing points lie on the
    image of the table's line at infinity, and the horizon found is that line."""
    import cv2

    from cardscore.vision.view import horizon
    from tests.render_tables import seat_view

    h, w = 600, 800
    view = seat_view(h, w, 0.6)
    flat = [
        np.array([[x, y], [x + a, y], [x + a, y + b], [x, y + b]], np.float64)
        for x, y, a, b in ((100, 100, 120, 170), (500, 80, 170, 120), (300, 350, 250, 170))
    ]
    seen = [cv2.perspectiveTransform(q.reshape(1, -1, 2), view)[0] for q in flat]
    found = horizon(seen, (w, h))
    assert found is not None
    # The table's line at infinity, seen: view^-T (0, 0, 1), in the horizon's coordinates
    # (about the photo's centre, in long sides).
    into = np.array([[w, 0, w / 2], [0, w, h / 2], [0, 0, 1.0]])  # normalised → pixels
    expected = into.T @ np.linalg.inv(view).T @ np.array([0.0, 0.0, 1.0])
    expected /= np.linalg.norm(expected)
    assert abs(abs(float(found @ expected)) - 1) < 1e-6
    assert horizon(seen[:1], (w, h)) is None  # one rectangle is not enough to trust


def test_a_table_photographed_from_a_seat_is_read_as_from_above() -> None:
    """Photographed from a seat (the far edge 0.7 of the near one's width), the tables' cards
    are read where the photo shows them, and its lean is reported (seeds never measured)."""
    from cardscore.vision import recognize
    from cardscore.vision.evaluate import TableScore, score_table

    total, tilts = TableScore(), []
    for design in DESIGNS:
        for seed in range(10, 16):
            table = render_table(seed, design, keystone=0.7)
            result = recognize(table.image)
            tilts.append(result.as_dict()["image"]["tilt"])
            total.add(score_table(table.truth, table.kinds, result, table.card_width))
    assert all(15 < t < 35 for t in tilts)
    # Floors, not figures: the shipped models read 142 of the 144 cards and 23 of the 26
    # melds, 2 wrong and unflagged, and every pile (read as the photo is: 125 cards, 15
    # melds, 5 wrong and unflagged). Straightened from the brightest card mask alone, a view
    # within a pixel of today's, they read all 144 and 25 melds, none wrong and unflagged: a
    # few cards here are read near their threshold, and resampling flips them.
    assert total.cards_right >= 0.95 * total.cards
    assert total.wrong_unflagged <= 3  # one card of margin, as every floor here has
    assert total.piles_right >= total.piles - 1


# Regions: the table seen from above → card regions and the card width.


def test_regions_give_the_width_of_the_white_cards_on_a_table() -> None:
    image = np.full((600, 900, 3), (40, 110, 60), np.uint8)
    for x in (100, 300, 500, 700):
        image[200:340, x : x + 100] = 245  # cards 100 px wide, 140 high
    regions = find_regions(image)
    assert regions.card_width == pytest.approx(100, rel=0.05)
    assert len(regions.angles) == 4
    assert find_regions(image, 80.0).card_width == 80.0  # a width given is kept


def test_regions_keep_the_boxes_of_whole_cards_with_the_angle_their_long_side_gives() -> None:
    image = np.full((600, 900, 3), (40, 110, 60), np.uint8)
    image[200:340, 100:200] = 245  # upright: 100 px wide, 140 high
    image[250:350, 400:540] = 245  # lying across
    image[100:140, 650:850] = 245  # no card's shape (a strip of paper)
    boxes = sorted(find_regions(image).whole_cards, key=lambda b: b.x)
    assert [(round(b.x), round(b.y)) for b in boxes] == [(150, 270), (470, 300)]
    assert [(b.width, b.height) for b in boxes] == [pytest.approx((100, 140), abs=2)] * 2
    assert [round(b.angle) % 180 for b in boxes] == [0, 90]


def test_a_card_whose_pips_notch_its_edge_is_a_whole_card() -> None:
    """A sideways 5 of clubs far from a seat: the mask's opening eats the thin paper beside
    its corner indices and pips, which cut its corners off and notch its edge. Its outline
    is still one card's, and its box is kept for repairs.empty_boxes."""
    image = np.full((600, 900, 3), (40, 110, 60), np.uint8)
    image[200:340, 100:200] = 245  # 100 px wide, 140 high
    for x, y in ((100, 200), (180, 200), (100, 318), (180, 318)):
        image[y : y + 22, x : x + 20] = 30  # an index and the paper beside it
    for x, y in ((100, 240), (172, 240), (100, 272), (172, 272)):
        image[y : y + 28, x : x + 28] = 30  # a pip reaching the edge
    paper = np.count_nonzero(np.all(image[200:340, 100:200] == 245, axis=2))
    assert paper / (100 * 140) < 0.8
    regions = find_regions(image)
    assert [(round(b.x), round(b.y)) for b in regions.whole_cards] == [(150, 270)]
    assert (regions.whole_cards[0].width, regions.whole_cards[0].height) == pytest.approx(
        (100, 140), abs=2
    )


def test_a_point_just_off_a_region_takes_the_region_most_present_near_it() -> None:
    """A red index at a card's edge cuts its corner out of the region: its blob lies off
    every region, and takes the one most present within REGION_REACH card widths."""
    from cardscore.vision.regions import REGION_REACH

    image = np.full((600, 900, 3), (40, 110, 60), np.uint8)
    image[200:340, 100:200] = 245
    image[200:340, 500:600] = 245
    regions = find_regions(image)
    card = regions.card_width * regions.scale
    x, y = 150 * regions.scale, 270 * regions.scale
    inside = regions.at(x, y, card)
    assert inside > 0
    assert regions.at(x, y - 80 * regions.scale, card) == inside  # 10 px over its top edge
    beyond = 70 * regions.scale + (REGION_REACH + 0.05) * card
    assert regions.at(x, y - beyond, card) == 0
    assert regions.at(550 * regions.scale, y, card) not in (0, inside)


def test_a_table_as_white_as_the_cards_is_parted_from_them_by_their_outlines() -> None:
    """A white tablecloth is one bright class with the cards: only the cards' thin outlines
    part them (paper.outlined_mask). The regions measure the card, and the cards are read
    as on a felt (seeds never measured)."""
    from cardscore.vision import recognize
    from cardscore.vision.evaluate import TableScore, score_table

    white = (235, 235, 235)
    total, widths = TableScore(), []
    for seed in range(10, 16):
        for design in DESIGNS:
            table = render_table(seed, replace(design, cloth=white))
            regions = find_regions(table.image)
            assert regions.whole
            assert regions.outlined
            widths.append(regions.card_width)
            total.add(score_table(table.truth, table.kinds, recognize(table.image), 150.0))
    assert float(np.median(widths)) == pytest.approx(150, rel=0.05)
    # Floors, not figures: the shipped models read 141 of the 144 cards, 2 wrong and
    # unflagged, every pile; without the outlined regions (no region a whole card, the
    # width measured by the cards' corners) 138, 3 wrong and unflagged.
    assert total.cards_right >= 0.95 * total.cards
    assert total.piles_right >= total.piles - 1


def test_a_glyph_printed_against_a_cards_outline_is_a_candidate_once_the_rim_is_no_ink() -> None:
    """On a white table a card's printed outline is a thin dark line on paper, ink like the
    glyphs: a glyph touching it is one blob with the whole outline, no candidate."""
    from cardscore.vision.blobs import candidates

    image = np.full((200, 300, 3), 235, np.uint8)
    image[31:200, 41:160] = 246
    cv2.rectangle(image, (40, 30), (160, 200), (90, 90, 90), 1)
    cv2.putText(image, "5", (46, 40), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (20, 20, 20), 2)
    rims = np.zeros(image.shape[:2], np.uint8)
    cv2.rectangle(rims, (40, 30), (160, 200), 1, 3)
    assert candidates(image) == []
    (glyph,) = candidates(image, rims=rims)
    assert (round(glyph.x), round(glyph.y)) == (51, 36)


def test_a_red_glyph_touching_a_black_frame_is_a_candidate_in_the_red_ink_mask() -> None:
    """A court card's black frame line beside a red index: every mask that takes the darkest
    channel sees one blob, too large for a glyph; red ink alone is the glyph."""
    from cardscore.vision.blobs import INK_HIGH, INK_LOW, candidates
    from cardscore.vision.readings import DARK_INK, DARKEST_INK, FAINT_INK, PALE_INK

    image = np.full((200, 300, 3), 246, np.uint8)
    cv2.rectangle(image, (55, 20), (200, 190), (30, 30, 30), 2)  # the frame, touching the K
    cv2.putText(image, "K", (44, 45), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (40, 40, 200), 2)
    masks = (PALE_INK, None, DARK_INK, FAINT_INK, DARKEST_INK)
    assert candidates(image, *masks) == []
    (glyph,) = candidates(image, *masks, red=(INK_LOW, INK_HIGH))
    assert (round(glyph.x), round(glyph.y)) == (49, 38)
    # Black ink is no red ink: a black glyph there stays one blob with the frame.
    black = np.full_like(image, 246)
    cv2.rectangle(black, (55, 20), (200, 190), (30, 30, 30), 2)
    cv2.putText(black, "K", (44, 45), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (20, 20, 20), 2)
    assert candidates(black, *masks, red=(INK_LOW, INK_HIGH)) == []


def test_a_black_glyph_touching_a_thin_frame_line_is_a_candidate_once_the_mask_is_opened() -> None:
    """A black index whose stroke touches a court card's thin black frame: one blob with the
    whole frame in every ink mask; opened by a square wider than the line, the glyph alone."""
    from cardscore.vision.blobs import candidates
    from cardscore.vision.readings import DARK_INK, DARKEST_INK, FAINT_INK, OPENING, PALE_INK

    image = np.full((200, 300, 3), 246, np.uint8)
    cv2.rectangle(image, (55, 20), (200, 190), (30, 30, 30), 1)  # the frame, touching the K
    cv2.putText(image, "K", (44, 45), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (20, 20, 20), 3)
    masks = (PALE_INK, None, DARK_INK, FAINT_INK, DARKEST_INK)
    assert candidates(image, *masks) == []
    (glyph,) = candidates(image, *masks, opening=OPENING)
    assert (round(glyph.x), round(glyph.y)) == (48, 39)


def test_a_large_bold_index_is_one_candidate_on_a_wider_black_hat() -> None:
    """A jumbo index's K, 0.27 card widths high: its strokes meet wider than the usual
    black-hat's kernel, which breaks it into two arms, each half its size; the wider one
    keeps it whole, its centre in ink more than the usual reach from paper. A normal index
    gains nothing from it."""
    from cardscore.vision.blobs import BOLD_FROM, bold_candidates, candidates, read_page
    from cardscore.vision.geometry import NORMAL_WIDTH
    from cardscore.vision.readings import BOLD, DARK_INK, DARKEST_INK, FAINT_INK, PALE_INK

    masks = (PALE_INK, None, DARK_INK, FAINT_INK, DARKEST_INK)
    ink = np.zeros((200, 300), np.uint8)
    cv2.putText(ink, "K", (40, 90), cv2.FONT_HERSHEY_DUPLEX, 1.6, 255, 2)
    image = np.full((200, 300, 3), 246, np.uint8)
    image[ink > 0] = 20
    height = int(np.ptp(np.nonzero(ink)[0])) + 1
    assert height >= BOLD_FROM * NORMAL_WIDTH
    pieces = candidates(image, *masks)
    assert len(pieces) == 2
    assert all(c.size < 0.6 * height for c in pieces)
    (whole,) = bold_candidates(read_page(image), pieces, BOLD)
    ys, xs = np.nonzero(ink)
    assert (whole.x, whole.y) == (pytest.approx(xs.mean(), abs=1), pytest.approx(ys.mean(), abs=1))
    assert whole.size == pytest.approx(height, rel=0.1)
    small = np.full((200, 300, 3), 246, np.uint8)
    cv2.putText(small, "K", (40, 90), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (20, 20, 20), 2)
    assert bold_candidates(read_page(small), candidates(small, *masks), BOLD) == []


def test_a_jumbo_index_deck_is_read_again_on_the_wider_black_hat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Tables of a deck whose index is 0.26 card widths high (a jumbo-index deck): its
    glyphs' median says so, and the wider black-hat's whole glyphs find cards the usual one
    broke (seeds never measured). A usual deck's photo never looks there."""
    from dataclasses import replace as replaced
    from typing import Any

    from cardscore.vision import readings, recognize
    from cardscore.vision.evaluate import score_table

    def right(index: float) -> int:
        tables = [render_table(seed, replaced(DESIGNS[0], index=index)) for seed in (12, 15)]
        return sum(
            score_table(t.truth, t.kinds, recognize(t.image), t.card_width).cards_right
            for t in tables
        )

    looks: list[bool] = []  # each look for candidates: whether on the wider black-hat
    usual, bold = readings.candidates, readings.bold_candidates

    def candidates(*args: Any, **kwargs: Any) -> Any:
        looks.append(False)
        return usual(*args, **kwargs)

    def bold_candidates(*args: Any) -> Any:
        looks.append(True)
        return bold(*args)

    monkeypatch.setattr(readings, "candidates", candidates)
    monkeypatch.setattr(readings, "bold_candidates", bold_candidates)
    with_bold = right(0.26)
    assert any(looks)
    looks.clear()
    recognize(render_table(12, DESIGNS[0]).image)
    assert looks
    assert not any(looks)
    monkeypatch.setattr(readings, "BOLD_GLYPH", 99.0)
    assert with_bold > right(0.26)


def test_a_ten_of_a_jumbo_index_photo_read_at_one_corner_is_flagged() -> None:
    """A jumbo "10" is wider than a meld's step, and its halves read as a ten more or as its
    twin, surer than the lines say (calibration.wide_ten): in a jumbo-index photo every ten
    read at one corner and not confirmed by its meld is flagged, those its line alone would
    leave unflagged too (tuning seeds), and the report says the deck's index is a jumbo one.
    The same tables printed with the usual index are not read bold."""
    from dataclasses import replace as replaced

    from cardscore.cards import Rank
    from cardscore.vision.calibration import twins
    from cardscore.vision.cli import text_report
    from cardscore.vision.recognition import read_photo, unsure

    tens = []
    for seed in (212, 216):
        result, readings, _ = read_photo(render_table(seed, replaced(DESIGNS[0], index=0.26)).image)
        assert readings.blobs.bold
        assert result.as_dict()["image"]["jumbo_index"]
        assert "a jumbo index" in text_report(result)
        tens += [
            c
            for c in result.cards
            if c.card.rank is Rank.TEN and c.indices == 1 and not c.confirmed
        ]
        plain, usual, _ = read_photo(render_table(seed, DESIGNS[0]).image)
        assert not usual.blobs.bold
        assert not plain.jumbo
        assert "jumbo" not in text_report(plain)
    assert all(c.flagged for c in tens)
    line_alone = [unsure(c.score or 0.0, 1, twin=twins(c.card, c.alternative)) for c in tens]
    assert not all(line_alone)  # what the rule adds


@pytest.mark.needs_shared
def test_a_red_card_backs_lattice_is_not_opened_into_glyphs(
    shared: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two red-backed cards in `train_01.jpg`: their lattice is a blob too large for a glyph
    that the opened mask breaks into glyph-sized pieces (one was read as a 10♦, flagged).
    Only uncoloured ink is opened, at every scale the photo may be read at."""
    from cardscore.vision import blobs
    from cardscore.vision.blobs import candidates
    from cardscore.vision.geometry import NORMAL_WIDTH
    from cardscore.vision.readings import OPENING

    photo = cv2.imread(str(shared / "data" / "real-photos" / "train_01.jpg"))
    backs = photo[650:1350, 1800:2500]  # the photo's cards are 214 px wide
    scaled = [
        cv2.resize(
            backs, None, fx=NORMAL_WIDTH / w, fy=NORMAL_WIDTH / w, interpolation=cv2.INTER_AREA
        )
        for w in (130, 150, 180, 214, 260)
    ]
    for norm in scaled:
        assert candidates(norm, opening=OPENING) == candidates(norm)
    monkeypatch.setattr(blobs, "OPENED_CHROMA", 255)  # colour no reason to leave a blob whole
    assert any(len(candidates(n, opening=OPENING)) > len(candidates(n)) for n in scaled)


def test_a_red_gingham_cloth_is_neither_cards_nor_indices() -> None:
    """A checked tablecloth: its white squares are not taken for cards, its checks' corners not
    for indices; the cards on it are read as on a plain cloth (seeds never measured)."""
    from cardscore.vision import recognize
    from cardscore.vision.evaluate import TableScore, score_table

    red = (40, 40, 200)
    total = TableScore()
    for seed in range(10, 16):
        for design in DESIGNS:
            table = render_table(seed, design, checked=red)
            assert find_regions(table.image).card_width == pytest.approx(150, rel=0.25)
            total.add(score_table(table.truth, table.kinds, recognize(table.image), 150.0))
    assert total.cards_extra == 0
    # Floors, not figures: the same tables on a plain cloth read 136 of 144 cards, here 124
    # (most of those lost are 10s, jacks and 9s).
    assert total.cards_right >= 0.85 * total.cards
    assert total.piles_right >= total.piles - 2


def test_a_cream_low_contrast_deck_is_read() -> None:
    """Cream paper, grey ink, a faded red, on a beige cloth: little between ink, paper and table
    (seeds never measured)."""
    from cardscore.vision import recognize
    from cardscore.vision.evaluate import TableScore, score_table

    total = TableScore()
    for design in DESIGNS:
        for seed in range(10, 16):
            table = render_table(seed, cream(design))
            total.add(score_table(table.truth, table.kinds, recognize(table.image), 150.0))
    assert total.cards_right >= 0.9 * total.cards
    # The shipped models read 137 of the 144 cards right and every pile, but 6 cards wrong
    # and unflagged: read from one corner (a club taken for a spade) at scores the calibration
    # holds sure. That close to their twins, a scale 2% off moves them: on 4 of these tables
    # no region is shaped like a whole card, and since such a guessed width is read the
    # cheapest first (readings.read_indices) stroke-plain's seed 15 is read at 157 px where
    # it was at 160 (both measured by its cards' corners; the card is 150): 14 of its 16
    # cards right, 2 wrong and unflagged, where it read all 16 (139 right, 4 wrong before).
    # Before a two-index card's corners set its meld's angle, the faint glyphs' own axes
    # (20-30° off) put one-index cards' centres a fan step over: 136 right, 6 wrong.
    assert total.wrong_unflagged <= 6
    assert total.piles_right >= total.piles - 1


def test_the_independent_renderer_lays_out_another_decks_faces() -> None:
    """``faces`` puts another deck's art on the renderer's tables (the benchmark's printed
    designs): the cards show that deck's paper, a face's transparent corners the cloth, and
    the table reads as with the renderer's own faces."""
    import cv2

    from cardscore.cards import full_deck
    from cardscore.vision import recognize
    from cardscore.vision.evaluate import score_table
    from tests.render_tables import draw_face

    blue_paper = replace(DESIGNS[1], paper=(250, 225, 200))
    opaque, cut = {}, {}
    for card in full_deck():
        face = cv2.resize(draw_face(card, blue_paper), (240, 336))
        alpha = np.full(face.shape[:2], 255, np.uint8)
        opaque[card] = np.dstack([face, alpha])
        alpha = alpha.copy()
        alpha[:24, :24] = 0  # a corner cut away
        cut[card] = np.dstack([face, alpha])
    own = render_table(3, DESIGNS[0])
    whole = render_table(3, DESIGNS[0], faces=opaque)
    table = render_table(3, DESIGNS[0], faces=cut)
    assert [c for c, *_ in table.truth] == [c for c, *_ in own.truth]
    _, x, y, _ = table.truth[-1]  # the dollar
    paper = table.image[round(y) + 20, round(x) - 35].astype(int)
    assert abs(paper - np.array((250, 225, 200))).max() < 30
    # Where the corners were cut, the cloth (or the card under it) shows: nearer the cloth's
    # colour than the whole faces' paper there.
    changed = np.abs(whole.image.astype(int) - table.image.astype(int)).max(axis=2) > 60
    assert changed.sum() > 100
    cloth = np.array(DESIGNS[0].cloth)
    near = np.abs(table.image[changed].astype(int) - cloth).sum(axis=1).mean()
    far = np.abs(whole.image[changed].astype(int) - cloth).sum(axis=1).mean()
    assert near < 0.5 * far
    score = score_table(table.truth, table.kinds, recognize(table.image), table.card_width)
    assert score.cards_right == score.cards


def test_a_recognition_draws_itself_for_jupyter() -> None:
    """Its SVG holds one outline per card (the unsure ones marked), each card's code, and one
    dashed outline per group; Jupyter shows it (``_repr_svg_``)."""
    from xml.etree import ElementTree

    from cardscore.vision import recognize

    # From a seat, its far K♠ is read as a K♣, flagged (tests/test_vision_deck_confirmed.py).
    result = recognize(render_table(45, DESIGNS[0], keystone=0.55).image)
    assert result.flagged, "pick a table with a card to confirm"
    svg = result._repr_svg_()
    assert svg == result.svg()
    root = ElementTree.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    classes = [p.get("class", "") for p in root.iter(f"{ns}polygon")]
    assert classes.count("card") + classes.count("card flagged") == len(result.cards)
    assert classes.count("card flagged") == len(result.flagged)
    assert sum(c.startswith("group") for c in classes) == len(result.groups)
    texts = [t.text for t in root.iter(f"{ns}text")]
    for seen in result.cards:
        assert f"{seen.card}{'?' if seen.flagged else ''}" in texts
    assert f"{len(result.cards)} cards · {len(result.flagged)} to confirm" in texts
    assert float(root.get("width", 0)) == 640


# Readings: card regions and scale → index hits at the scale whole cards confirm.


def test_readings_read_a_tables_indices_at_the_scale_whole_cards_measure() -> None:
    table = render_table(7000, DESIGNS[0], card_width=150)
    regions = find_regions(table.image)
    assert regions.whole  # its lone cards' regions measure the width
    read = read_indices(table.image, regions)
    assert read.card_width == pytest.approx(150, rel=0.12)
    assert read.image.shape[1] == round(table.image.shape[1] * read.factor)
    truth = {card for card, *_ in table.truth}
    hits = {h.card for h in read.hits if h.prob >= 0.5}
    assert len(hits & truth) >= 0.5 * len(truth)  # (the recognition's figures: vision_bench)
    assert not hits - truth
    # Told a wrong width, the readings measure the cards again; unless it is to be kept.
    wrong = replace(regions, card_width=150 * 0.6)
    assert read_indices(table.image, wrong).card_width == pytest.approx(150, rel=0.12)
    assert read_indices(table.image, wrong, rescale=False).card_width == 90.0


def test_a_width_no_whole_card_region_gave_is_tried_cheapest_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cardscore.vision import readings

    # Glare or a cold light can leave no region shaped like a whole card; a fragment's side,
    # 0.3 of the card, would have the photo read at 11 times its pixels.
    table = render_table(7001, DESIGNS[0], card_width=150)
    fragment = replace(find_regions(table.image), card_width=45.0, whole=False)
    read_at: list[int] = []
    find = readings._find_indices

    def spy(norm: np.ndarray, *args: object) -> object:
        read_at.append(norm.shape[0] * norm.shape[1])
        return find(norm, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(readings, "_find_indices", spy)
    read = read_indices(table.image, fragment)
    assert read.card_width == pytest.approx(150, rel=0.12)
    at_fragment = normalise(table.image, 45.0).image
    assert max(read_at) < 0.2 * at_fragment.shape[0] * at_fragment.shape[1]
    # A width measured on whole-card regions is read at first, however small.
    read_at.clear()
    read_indices(table.image, replace(fragment, whole=True))
    assert read_at[0] == at_fragment.shape[0] * at_fragment.shape[1]


def test_a_table_turned_askew_in_the_photo_is_read_as_one_squared_to_it() -> None:
    """The whole table turned 30° in the photo (a phone held askew): its cards' glyphs and
    outlines agree on their axes, so no crop is cut along the photo's own axes, where a
    glyph askew reads as another card and sure of it (seeds never measured)."""
    from cardscore.vision import recognize
    from cardscore.vision.evaluate import TableScore, score_table

    total = TableScore()
    for design in DESIGNS:
        for seed in range(10, 16):
            table = render_table(seed, design, turn=30)
            total.add(
                score_table(table.truth, table.kinds, recognize(table.image), table.card_width)
            )
    # Floors, not figures: the shipped models read 143 of the 144 cards, 25 of the 26 melds
    # and every pile, none wrong and unflagged (with crops along the photo's axes too: 126
    # cards, 17 melds, 15 piles, 26 wrong and unflagged).
    assert total.cards_right >= 0.97 * total.cards
    assert total.wrong_unflagged <= 1
    assert total.piles_right >= total.piles - 1


def test_normalise_scales_a_card_to_the_normal_width() -> None:
    norm = normalise(np.zeros((300, 400, 3), np.uint8), 60.0)
    assert (norm.factor, norm.image.shape, norm.sharpened) == (2.0, (600, 800, 3), False)


# Cards: index hits → physical cards.


def _index(code: str, x: float, prob: float, y: float = 300.0) -> IndexHit:
    """The top-left index hit of an upright card centred at (x, y)."""
    sx, sy = np.array([x, y]) - index_to_centre(0.0, W)
    return IndexHit(Card(code), prob, float(sx), float(sy), 0.0, None)


def test_cards_pair_two_corners_and_keep_a_weak_card_where_it_completes_a_meld() -> None:
    far = np.array([(1 - 2 * INDEX_U) * W, (1 - 2 * INDEX_V) * ASPECT * W])
    top = _index("Qd", 600, 0.8)
    bottom = IndexHit(Card("Qd"), 0.7, top.x + far[0], top.y + far[1], 180.0, None)
    queen = find_cards([top, bottom])
    assert [(p.card.code, p.indices, round(p.confidence, 2)) for p in queen] == [("Qd", 2, 0.94)]
    assert (queen[0].x, queen[0].y) == pytest.approx((600, 300))
    # A weak Kc too weak to stand alone is no card; one step over a fan of kings, it
    # completes the set.
    assert find_cards([_index("Kc", 172, 0.25)]) == ()
    fan = [_index("Kh", 100, 0.9), _index("Ks", 136, 0.9), _index("Kc", 172, 0.25)]
    assert [(p.card.code, round(p.x)) for p in find_cards(fan)] == [
        ("Kh", 100),
        ("Ks", 136),
        ("Kc", 172),
    ]
    # A weak 7c there would make no meld: left out.
    fan[2] = _index("7c", 172, 0.25)
    assert [p.card.code for p in find_cards(fan)] == ["Kh", "Ks"]


def test_cards_keep_a_weak_card_no_card_found_contradicts() -> None:
    """An index read weakly but from ALONE_MIN up is a card (reported, and flagged by its
    score) unless it is a card found read again or a mark on one."""
    assert [p.card.code for p in find_cards([_index("Jc", 172, ALONE_MIN)])] == ["Jc"]
    # Three weak jacks in a fan, each leaving the one before it its index: all three.
    jacks = [_index(c, x, 0.35) for c, x in (("Jh", 100), ("Js", 136), ("Jd", 172))]
    assert [p.card.code for p in find_cards(jacks)] == ["Jh", "Js", "Jd"]
    # A weak 7c in a fan of kings is no meld, but nothing says it is not there.
    fan = [_index("Kh", 100, 0.9), _index("Ks", 136, 0.9), _index("7c", 172, 0.35)]
    assert [p.card.code for p in find_cards(fan)] == ["Kh", "Ks", "7c"]
    # A queen seen at both corners; a weak 7c read on her face (its index on her, her own
    # far index under the card it would be) is a mark on her, no card.
    far = np.array([(1 - 2 * INDEX_U) * W, (1 - 2 * INDEX_V) * ASPECT * W])
    top = _index("Qd", 600, 0.9)
    bottom = IndexHit(Card("Qd"), 0.9, top.x + far[0], top.y + far[1], 180.0, None)
    pip = IndexHit(Card("7c"), 0.4, 600.0, 300.0, 0.0, None)
    assert [p.card.code for p in find_cards([top, bottom, pip])] == ["Qd"]
    # Her far corner read again, half a turn round and a fifth of a card off, as a 7d.
    again = IndexHit(Card("7d"), 0.4, bottom.x + 0.2 * W, bottom.y, 180.0, None)
    assert [p.card.code for p in find_cards([top, bottom, again])] == ["Qd"]


def test_a_two_index_cards_corners_set_its_angle_and_its_melds() -> None:
    """Faint glyphs can be read upright 30° off their card: the line between a card's two
    corners tells its angle, and a meld's one-index cards take it."""
    far = np.array([(1 - 2 * INDEX_U) * W, (1 - 2 * INDEX_V) * ASPECT * W])
    top = replace(_index("9s", 300, 0.9), angle=330.0)
    bottom = IndexHit(Card("9s"), 0.9, top.x + far[0], top.y + far[1], 150.0, None)
    (nine,) = find_cards([top, bottom])
    assert nine.angle == pytest.approx(0.0, abs=0.5) or nine.angle == pytest.approx(360.0, abs=0.5)
    # Two one-index cards fanned before it, read 30° off as well: their centres are guessed
    # along that angle, then set right by the nine's.
    fan = [replace(_index(c, x, 0.9), angle=330.0) for c, x in (("7s", 228), ("8s", 264))]
    cards = find_cards([*fan, top, bottom])
    assert [p.card.code for p in cards] == ["7s", "8s", "9s"]
    for p, x in zip(cards[:2], (228, 264), strict=True):
        assert (p.x, p.y) == pytest.approx((x, 300), abs=1)
        assert p.angle % 360 == pytest.approx(0.0, abs=0.5)


def test_a_card_read_at_two_corners_measures_the_reach_from_its_index_to_its_centre() -> None:
    """A near card of a photo taken at an angle is larger than the photo's typical one: its
    two corners, further apart than a deck-average card's, say how far its index lies from
    its centre. A four-index deck's side pair does not (its index's place across is a guess)."""
    far = np.array([(1 - 2 * INDEX_U) * W, (1 - 2 * INDEX_V) * ASPECT * W]) * 1.2
    top = _index("Qd", 600, 0.9)
    bottom = IndexHit(Card("Qd"), 0.9, top.x + far[0], top.y + far[1], 180.0, None)
    (queen,) = find_cards([top, bottom])
    assert queen.reach == pytest.approx(tuple(far / 2))
    (side,) = find_cards([top, IndexHit(Card("Qd"), 0.9, top.x, top.y + far[1], 180.0, None)])
    assert side.indices == 2
    assert side.reach is None
    # One index alone measures nothing.
    assert find_cards([top])[0].reach is None


def test_a_four_index_side_pairs_a_wide_ten_but_not_glyphs_read_far_from_parallel() -> None:
    """A meld of a four-index deck shows each card's left side: its index at the top and,
    half a turn round, at the bottom. A wide "10" read nearer its "1" at one end and its
    "0" at the other lies further across from its partner than any other rank's: it is
    still one card, lying to the right of its side, not a card on its neighbour's spot."""
    down = (1 - 2 * INDEX_V) * ASPECT * W
    for code, across in (("Th", 0.14), ("Th", -0.14), ("9h", 0.1)):
        top = _index(code, 600, 0.9)
        bottom = IndexHit(Card(code), 0.9, top.x + across * W, top.y + down, 180.0, None)
        (card,) = find_cards([top, bottom])
        assert card.indices == 2
        assert card.x == pytest.approx(600, abs=0.1 * W)
    # Two glyphs read two degrees apart each way: halfway between them, they are one side.
    top = replace(_index("9h", 600, 0.9), angle=2.0)
    bottom = IndexHit(Card("9h"), 0.9, top.x + 0.135 * W, top.y + down, 178.0, None)
    assert find_cards([top, bottom])[0].indices == 2
    # Glyphs 20° apart are no side: a card turned 20° (its top index read upright, its
    # bottom one 20° past half a turn), seen at its opposite corners, lies where it lies.
    reach = index_to_centre(340.0, W)
    top = IndexHit(Card("3d"), 0.9, 600 - float(reach[0]), 300 - float(reach[1]), 0.0, None)
    bottom = IndexHit(Card("3d"), 0.9, 600 + float(reach[0]), 300 + float(reach[1]), 200.0, None)
    (card,) = find_cards([top, bottom])
    assert (card.x, card.y) == pytest.approx((600, 300))


def test_cards_keep_one_card_a_spot() -> None:
    # One spot read as two cards (a glyph at two sizes, say): the surer stays.
    read = find_cards([_index("9s", 300, 0.9), _index("8s", 303, 0.6)])
    assert [p.card.code for p in read] == ["9s"]


# Repairs: cards → cards repaired, through a stand-in reader.


class _Reader:
    """A stand-in for the photo: a crop at x reads as ``beliefs[round(x)]`` (card → p), any
    other crop as ``elsewhere``; it keeps the points it was shown."""

    shape = (600, 900, 3)

    def __init__(self, beliefs: dict[int, dict[str, float]], elsewhere: dict[str, float]) -> None:
        self.beliefs, self.elsewhere = beliefs, elsewhere
        self.shown: list[tuple[float, float, float, float]] = []

    def read(self, points: list[tuple[float, float, float, float]]) -> np.ndarray:
        self.shown.extend(points)
        out = np.zeros((len(points), BACKGROUND + 1))
        for row, (x, *_) in zip(out, points, strict=True):
            for code, p in self.beliefs.get(round(x), self.elsewhere).items():
                row[Card(code).id] = p
            row[BACKGROUND] = 1 - row.sum()
        return out


def _fan(codes: str, places: list[float]) -> tuple[list[Placement], list[IndexHit]]:
    """Upright cards at these places along x, each with the index hit that made it."""
    cards = [Placement(Card(c), 0.95, x, 300.0, 0.0, 1, None) for c, x in zip(codes.split(), places, strict=True)]  # fmt: skip
    return cards, [replace(_index(p.card.code, p.x, 0.95), size=28.0) for p in cards]


def test_repairs_fill_a_fans_gap_with_the_card_the_reader_sees_there() -> None:
    cards, hits = _fan("Kh Ks Kc", [100, 100 + STEP, 100 + 3 * STEP])
    reader = _Reader({}, {"Kd": 0.25})  # sure enough in a gap, not past an end
    repaired = repair(cards, hits, reader)
    assert [(p.card.code, round(p.x)) for p in repaired.cards[3:]] == [("Kd", 172)]
    assert repaired.readings[3] == CardReading(Card("Kd"), 0.25, None, False)
    assert all(not r.doubted for r in repaired.readings)
    assert reader.shown  # it looked, and only through the reader
    # Nothing there: the cards as they were, each read as found.
    quiet = repair(cards, hits, _Reader({}, {}))
    assert quiet.cards == tuple(cards)
    assert [r.card for r in quiet.readings] == [p.card for p in cards]


def test_repairs_centre_a_fans_one_index_cards_by_the_reach_its_two_index_card_measures() -> None:
    """The near end of a photo taken at an angle: a fan's cards 1.2 times the photo's typical
    card. Each one-index card's centre, guessed with a deck-average card's reach from its
    index, falls short towards its neighbour's; its group's card seen at both corners says
    how far its centre really lies, and its index stays where it was seen."""
    usual = index_to_centre(0.0, W)
    cards, hits = _fan("7h 8h 9h", [100 + k * STEP for k in range(3)])
    larger = replace(cards[2], indices=2, reach=(float(usual[0] * 1.2), float(usual[1] * 1.2)))
    placed = repair([*cards[:2], larger], hits, _Reader({}, {})).cards
    for p, hit in zip(placed[:2], hits[:2], strict=True):
        assert (p.x - hit.x, p.y - hit.y) == pytest.approx(tuple(usual * 1.2))
    assert placed[2] == larger
    # No card of the fan seen at both corners: the deck-average reach stands.
    assert repair(cards, hits, _Reader({}, {})).cards == tuple(cards)
    # A reach no card of a photo shows (twice a typical card's) is a misfit pair's: unused.
    odd = replace(larger, reach=(float(usual[0] * 2), float(usual[1] * 2)))
    assert repair([*cards[:2], odd], hits, _Reader({}, {})).cards[:2] == tuple(cards[:2])


def test_repairs_read_again_the_card_that_alone_makes_a_run() -> None:
    # 7h 8h 9h Th with the 8h read as a 6h and no runner-up: its index read again gives the
    # 8h some belief, which mends the run; the card is flagged with the 6h as alternative.
    cards, hits = _fan("7h 6h 9h Th", [100 + k * STEP for k in range(4)])
    reader = _Reader({round(hits[1].x): {"6h": 0.9, "8h": 0.045}}, {})
    repaired = repair(cards, hits, reader)
    assert repaired.cards == tuple(cards)
    assert [(r.card.code, r.doubted) for r in repaired.readings] == [
        ("7h", False),
        ("8h", True),
        ("9h", False),
        ("Th", False),
    ]
    assert repaired.readings[1].alternative == Card("6h")
    assert repaired.readings[1].score == pytest.approx(0.045)
    # The reader sees no 8h: every card of the run stays in doubt, none is changed.
    doubted = repair(cards, hits, _Reader({}, {}))
    assert [(r.card.code, r.doubted) for r in doubted.readings] == [
        ("7h", True),
        ("6h", True),
        ("9h", True),
        ("Th", True),
    ]


class _SpotReader:
    """A stand-in for the photo: a crop within ``near`` px of a spot reads as its beliefs
    (card → p), any other as no index; it keeps the points it was shown."""

    shape = (600, 900, 3)

    def __init__(self, spots: list[tuple[float, float, dict[str, float]]], near: float = 6.0):
        self.spots, self.near = spots, near
        self.shown: list[tuple[float, float, float, float]] = []

    def read(self, points: list[tuple[float, float, float, float]]) -> np.ndarray:
        self.shown.extend(points)
        out = np.zeros((len(points), BACKGROUND + 1))
        for row, (x, y, *_) in zip(out, points, strict=True):
            for sx, sy, beliefs in self.spots:
                if np.hypot(x - sx, y - sy) <= self.near:
                    for code, p in beliefs.items():
                        row[Card(code).id] = p
            row[BACKGROUND] = 1 - row.sum()
        return out


def _box_corners(box: CardBox) -> list[tuple[float, float]]:
    """Where a card lying in ``box`` shows its two indices (its long side its height)."""
    spots = []
    for turn in (0.0, 180.0):
        spot = np.array([box.x, box.y]) - index_to_centre(box.angle + turn, W) * box.width / W
        spots.append((float(spot[0]), float(spot[1])))
    return spots


def test_repairs_read_a_whole_card_region_no_card_was_found_in_at_its_corners() -> None:
    """A clean pile's K♠ lies across the table; its indices left no blob (merged with the
    court art's frame), so no card was found, but its white region is a whole card's."""
    box = CardBox(700.0, 300.0, W, W * ASPECT, 90.0)
    near, far = _box_corners(box)
    both = _SpotReader([(near[0], near[1], {"Ks": 0.9}), (far[0], far[1], {"Ks": 0.8})])
    repaired = repair([], [], both, [box])
    (card,) = repaired.cards
    assert (card.card, card.indices, round(card.x), round(card.y)) == (Card("Ks"), 2, 700, 300)
    assert card.confidence == pytest.approx(1 - 0.1 * 0.2)
    # The best of many crops with no blob to centre them: the player confirms it.
    assert repaired.readings[0].doubted is True
    assert [(g.kind, g.orientation) for g in find_groups(repaired.as_read())] == [
        ("pile", "horizontal")
    ]
    # Read at one corner only: a card at one index.
    one = repair([], [], _SpotReader([(far[0], far[1], {"Ks": 0.7})]), [box])
    assert [(p.card, p.indices) for p in one.cards] == [(Card("Ks"), 1)]
    assert one.readings[0].doubted is True
    # Too unsure, or no index at all: nothing there.
    for beliefs in ({"Ks": 0.4}, {}):
        assert repair([], [], _SpotReader([(near[0], near[1], beliefs)]), [box]).cards == ()


def test_repairs_leave_a_whole_card_region_with_a_card_or_a_sure_index_in_it() -> None:
    box = CardBox(700.0, 300.0, W, W * ASPECT, 0.0)
    near, _ = _box_corners(box)
    reader = _SpotReader([(near[0], near[1], {"Qh": 0.9})])
    found = Placement(Card("Qh"), 0.95, 702.0, 298.0, 0.0, 2, None)
    assert repair([found], [], reader, [box]).cards == (found,)
    sure = IndexHit(Card("Qh"), 0.9, near[0], near[1], 0.0, None, 28.0)
    assert repair([], [sure], reader, [box]).cards == ()
    assert not reader.shown  # neither was looked at again
    # A region of no card's width (a scrap of paper, a box of cards stuck together) neither.
    wide = CardBox(700.0, 300.0, 2 * W, 2 * W * ASPECT, 0.0)
    assert repair([], [], reader, [wide]).cards == ()


def test_a_lone_cards_region_is_read_at_its_corners_on_a_rendered_table() -> None:
    """The real reader on a rendered table, with no card found at all: each lone card (a
    pile's top or a dollar) is read in its region, where the table has it."""
    table = render_table(7000, DESIGNS[0], card_width=150)
    regions = find_regions(table.image)
    norm = normalise(table.image, regions.card_width, regions)
    boxes = [b.scaled(norm.factor) for b in regions.whole_cards]
    found = empty_boxes(CropReader(norm.image), [], boxes, [])
    lone = [t for t in table.truth if table.kinds[t[3]] != "meld"]
    assert lone
    for card, x, y, group in lone:
        at = [p for p in found if np.hypot(p.x / norm.factor - x, p.y / norm.factor - y) < 30]
        assert [p.card for p in at] == [card], (card, table.kinds[group])
        kind = table.kinds[group]
        if kind.startswith("pile"):
            across = round(at[0].angle / 90) % 2 == 1
            assert across == (kind == "pile:horizontal")


def test_repairs_take_a_weak_lone_black_three_for_the_pile_top_it_may_be() -> None:
    # A lone J♣ turned across the table (a clean pile) read weakly as a 3♣, the J♣ second:
    # shown as the J♣, flagged, the 3 its alternative, and grouped as the pile it is.
    pile = Placement(Card("3c"), 0.6, 700.0, 300.0, 90.0, 2, Card("Jc"))
    repaired = repair([pile], [], _Reader({}, {}))
    assert repaired.readings == (CardReading(Card("Jc"), pytest.approx(0.4), Card("3c"), True),)
    assert repaired.as_read() == (replace(pile, card=Card("Jc")),)
    groups = find_groups(repaired.as_read())
    assert [(g.kind, g.orientation) for g in groups] == [("pile", "horizontal")]
    # Read surely, or second to another 3, or red (a dollar), or in a meld: left as read.
    for card, sure, second in (("3c", 0.9, "Jc"), ("3s", 0.5, "3c"), ("3h", 0.5, "Jh")):
        alone = replace(pile, card=Card(card), confidence=sure, runner_up=Card(second))
        assert repair([alone], [], _Reader({}, {})).readings[0].card == Card(card)
    # In a group of cards the meld, not the lone-card rule, judges the 3 (meld_doubts).
    run, _ = _fan("3c Qc Kc", [100 + k * STEP for k in range(3)])
    run[0] = replace(run[0], confidence=0.6, runner_up=Card("Jc"))
    assert lone_threes(run, [[0, 1, 2]]) == {}
    assert lone_threes(run, [[0], [1, 2]]) == {0: Card("Jc")}


# Groups: cards → melds, piles (with orientation), dollars, loose cards.


def test_groups_orient_piles_against_the_melds_and_tell_dollars_from_loose_threes() -> None:
    tilt = 30.0
    right = np.array([np.cos(np.deg2rad(tilt)), -np.sin(np.deg2rad(tilt))])
    run = [
        Placement(Card(c), 0.9, *(np.array([150.0, 200.0]) + k * STEP * right), tilt, 1, None)
        for k, c in enumerate(("9c", "Tc", "Jc"))
    ]
    lone = [
        Placement(Card("Qh"), 0.9, 700.0, 200.0, tilt, 1, None),  # lying like the run: dirty
        Placement(Card("5s"), 0.9, 700.0, 500.0, tilt + 90, 1, None),  # turned to it: clean
        Placement(Card("3h"), 0.9, 400.0, 800.0, 0.0, 1, None),
        Placement(Card("3c"), 0.9, 700.0, 800.0, 0.0, 1, None),
    ]
    groups = find_groups([*run, *lone])
    assert [(g.kind, g.cards, g.orientation) for g in groups] == [
        ("meld", (0, 1, 2), None),
        ("pile", (3,), "vertical"),
        ("pile", (4,), "horizontal"),
        ("dollar", (5,), None),
        ("loose", (6,), None),
    ]
    # Without the run, the photo's axes decide: 30° is nearer upright than across.
    assert [g.orientation for g in find_groups(lone)[:2]] == ["vertical", "horizontal"]


def test_groups_confirm_a_card_whose_meld_rules_out_its_runner_up() -> None:
    from cardscore.cards import parse_cards
    from cardscore.vision.groups import Group, confirmed_by_meld

    meld = Group("meld", (0, 1, 2))
    run = parse_cards("5h 6h 7h")
    # A 6d would break the run; a 2 (the joker) would not.
    assert confirmed_by_meld(run, [None, Card("6d"), Card("2c")], [meld]) == {1}
    # A set of jacks: the 3 a jack may be is ruled out, another jack is not.
    jacks = parse_cards("Jh Js Jd")
    assert confirmed_by_meld(jacks, [Card("3h"), Card("Jc"), None], [meld]) == {0}
    # A meld that is none as read confirms nothing; nor do two cards, or a pile.
    assert confirmed_by_meld(parse_cards("5h 6h 9c"), [Card("4h")] * 3, [meld]) == set()
    pair = Group("meld", (0, 1))
    assert confirmed_by_meld(jacks, [Card("3h")] * 3, [pair]) == set()
    assert confirmed_by_meld(jacks, [Card("3h")] * 3, [Group("pile", (0,), "vertical")]) == set()


def test_a_recognition_leaves_unflagged_the_weak_jacks_their_meld_confirms() -> None:
    """A stroke design's J, read as J but unsure of a 3 (a seed never measured): in a meld of
    jacks the 3 is ruled out, so the card is reported confirmed and not flagged; a card alone
    keeps its flag."""
    from cardscore.vision import recognize
    from cardscore.vision.evaluate import match_cards

    table = render_table(27, DESIGNS[1])
    result = recognize(table.image)
    match = match_cards([(x, y) for _, x, y, _ in table.truth], result, table.card_width)
    truth = {j: table.truth[i][0] for i, j in match.items()}
    weak = [
        (j, c) for j, c in enumerate(result.cards) if c.score is not None and c.score < MIN_CARD
    ]
    confirmed = [(j, c) for j, c in weak if c.confirmed]
    assert len(confirmed) >= 3
    for j, seen in confirmed:
        assert seen.card == truth[j]
        assert not seen.flagged
        assert seen.as_dict()["confirmed"] is True
    assert all(c.flagged for _, c in weak if not c.confirmed)


def test_white_balance_greys_the_paper_and_leaves_neutral_or_glaring_photos_alone() -> None:
    """A table under a warm cast comes out with its cards' paper grey again (the cast's
    inverse, within rounding); a photo without a cast, or whose brightest part is a glare,
    is the very same array."""
    from cardscore.vision.balance import BRIGHTEST, white_balance

    table = render_table(10, DESIGNS[0]).image
    assert white_balance(table).image is table
    warm = np.clip(table * np.array([0.7, 0.9, 1.0]), 0, 255).astype(np.uint8)
    balanced = white_balance(warm)
    assert balanced.gains == pytest.approx((1 / 0.7, 1 / 0.9, 1.0), abs=0.03)
    pixels = balanced.image.reshape(-1, 3).astype(float)
    brightest = pixels[pixels.sum(axis=1) >= np.quantile(pixels.sum(axis=1), 1 - BRIGHTEST)]
    paper = np.median(brightest, axis=0)
    assert paper.max() / paper.min() < 1.03
    glare = warm.copy()
    glare[: warm.shape[0] // 4] = 255
    assert white_balance(glare).image is glare
