"""Large photos: decoded already reduced, in the right scale, read as their originals are;
the classifier's batches give the outputs of one call."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.conftest import SHARED, need, need_module

cv2 = need_module("cv2", "needs the vision extra (opencv)")
need_module("onnxruntime", "needs the vision extra (onnxruntime)")

from cardscore.vision import classifier, recognize  # noqa: E402
from cardscore.vision.image_io import _HALF_ABOVE, _QUARTER_ABOVE, load_image  # noqa: E402

# The most pixels a decoded photo may have: just under the half-scale threshold, or a quarter
# of the quarter-scale one.
CAP = max(_HALF_ABOVE, _QUARTER_ABOVE // 4)


def _jpeg(width: int, height: int, box: tuple[int, int, int, int]) -> bytes:
    """A grey photo with one white box (x0, y0, x1, y1) on it, as JPEG bytes."""
    image = np.full((height, width, 3), 90, np.uint8)
    x0, y0, x1, y1 = box
    image[y0:y1, x0:x1] = 255
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return bytes(data)


@pytest.mark.parametrize(
    ("width", "height", "factor"),
    [
        (3000, 2000, 1),  # the shared photos: as they are
        (3648, 2736, 1),  # 10 MP
        (4000, 3000, 2),  # 12 MP phone photo
        (6000, 4000, 2),  # 24 MP
        (8660, 5773, 2),  # 50 MP
        (9600, 7200, 4),  # 69 MP
    ],
)
def test_a_large_jpeg_is_decoded_reduced_and_maps_back_to_the_photos_pixels(
    width: int, height: int, factor: int
) -> None:
    box = (width // 3, height // 4, width // 3 + width // 10, height // 4 + height // 7)
    loaded = load_image(_jpeg(width, height, box))
    h, w = loaded.image.shape[:2]
    assert loaded.to_original == factor
    assert (w, h) == (-(-width // factor), -(-height // factor))  # libjpeg rounds up
    assert w * h <= CAP
    # The white box, found in the decoded pixels and scaled back, lies where it was drawn.
    ys, xs = np.nonzero(loaded.image[..., 1] > 200)
    found = np.array([xs.min(), ys.min(), xs.max() + 1, ys.max() + 1]) * loaded.to_original
    np.testing.assert_allclose(found, box, atol=2 * factor)


def _turned_by_exif(jpeg: bytes, orientation: int) -> bytes:
    """``jpeg`` with an EXIF segment saying how the phone was held (tag 0x0112), as a phone
    saves a portrait photo: the pixels as the sensor read them, the turn in the tag."""
    entry = (0x0112).to_bytes(2, "big") + b"\x00\x03" + (1).to_bytes(4, "big")
    entry += orientation.to_bytes(2, "big") + b"\x00\x00"
    tiff = b"MM\x00*" + (8).to_bytes(4, "big") + b"\x00\x01" + entry + b"\x00\x00\x00\x00"
    body = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + (len(body) + 2).to_bytes(2, "big") + body + jpeg[2:]


@pytest.mark.parametrize(("width", "height", "factor"), [(1200, 800, 1), (6000, 4000, 2)])
def test_a_portrait_photo_is_read_as_the_phone_shows_it(
    width: int, height: int, factor: int
) -> None:
    # Orientation 6: the sensor's top row is the shown photo's right column, so a box in the
    # stored top-left corner shows in the top-right one, and the photo stands upright.
    box = (0, 0, width // 5, height // 5)
    loaded = load_image(_turned_by_exif(_jpeg(width, height, box), 6))
    h, w = loaded.image.shape[:2]
    assert loaded.to_original == factor
    assert (w, h) == (-(-height // factor), -(-width // factor))
    ys, xs = np.nonzero(loaded.image[..., 1] > 200)
    found = np.array([xs.min(), ys.min(), xs.max() + 1, ys.max() + 1]) * factor
    np.testing.assert_allclose(
        found, (height - height // 5, 0, height, width // 5), atol=2 * factor
    )


def test_a_png_or_an_array_is_never_reduced() -> None:
    image = np.zeros((3000, 4000, 3), np.uint8)
    assert load_image(image).to_original == 1.0
    ok, png = cv2.imencode(".png", image)
    assert ok
    loaded = load_image(bytes(png))
    assert (loaded.to_original, loaded.image.shape) == (1.0, (3000, 4000, 3))


@pytest.mark.needs_shared
@pytest.mark.parametrize("size", [(4242, 2828), (8660, 5773)])  # 12 and 50 MP, 3:2
def test_a_large_upscale_of_a_shared_photo_reads_the_same_cards_in_the_same_places(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    photo = SHARED / "data" / "real-photos" / "train_01.jpg"
    need(photo.exists(), f"{photo} not found (set CARDSCORE_SHARED)")
    original = cv2.imread(str(photo))
    path = tmp_path / "big.jpg"
    big = cv2.resize(original, size, interpolation=cv2.INTER_CUBIC)
    assert cv2.imwrite(str(path), big, [cv2.IMWRITE_JPEG_QUALITY, 92])
    del big
    sx, sy = size[0] / original.shape[1], size[1] / original.shape[0]
    want = recognize(photo)
    got = recognize(path)
    assert len(want.cards) == 11
    # Positions come in the big photo's pixels: each card where its original was, scaled
    # (within 0.075 of a card: a card read at one corner is centred by its angle, which the
    # upscale's resampled edges move a degree or two), flagged if it was. An upscale may
    # flag a card the original did not (train_01's Q♠, read at one corner at 0.78 as it is,
    # reads 0.56-0.63 from its resampled glyphs), never the other way round.
    near = 0.075 * want.card_width
    same = [
        seen
        for seen in got.cards
        for card in want.cards
        if seen.card == card.card
        and (seen.flagged or not card.flagged)
        and abs(seen.x - card.x * sx) < near * sx
        and abs(seen.y - card.y * sy) < near * sy
    ]
    assert sorted(c.card.code for c in same) == sorted(c.card.code for c in want.cards)
    # Anything more is flagged, never a card added silently: at 50 MP a poker chip's printed
    # spade, next to the cards, reads a little like a Q♠ (0.43), and is shown to confirm.
    assert all(c.flagged for c in got.cards if c not in same)
    assert len(got.cards) <= len(same) + 1


def test_crops_in_batches_give_the_outputs_of_one_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    crops = np.random.default_rng(24).integers(0, 256, (70, 32, 32, 3), dtype=np.uint8)
    for path in classifier.MODEL_PATHS:
        monkeypatch.setattr(classifier, "BATCH", 1000)
        whole = classifier.outputs(path, crops, threads=1)  # one batch of 70
        monkeypatch.setattr(classifier, "BATCH", 16)  # four batches of 18 or 17 crops
        parts = classifier.outputs(path, crops)
        monkeypatch.undo()
        for a, b in zip(whole, parts, strict=True):
            assert a.shape == b.shape
            assert a.shape[0] == 70
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)
