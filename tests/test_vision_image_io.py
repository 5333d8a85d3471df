"""Large photos: decoded already reduced, in the right scale, read as their originals are;
the classifier's batches give the outputs of one call."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import SHARED, need, need_module

cv2 = need_module("cv2", "needs the vision extra (opencv)")
need_module("onnxruntime", "needs the vision extra (onnxruntime)")

from cardscore.vision import ImageError, classifier, image_io, recognize  # noqa: E402
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


# --- HEIC: an iPhone's photos ---------------------------------------------------------------


def _heic(image: np.ndarray, orientation: int = 1) -> bytes:
    """``image`` (BGR) as a HEIC file, as a phone saves it (``orientation``: the EXIF turn,
    which pillow-heif writes as the file's rotation), encoded fast."""
    pillow_heif = need_module("pillow_heif", "needs the vision extra (pillow-heif)")
    from PIL import Image

    pillow_heif.register_heif_opener()
    picture = Image.fromarray(np.ascontiguousarray(image[..., ::-1]))
    exif = picture.getexif()
    exif[0x0112] = orientation
    buffer = io.BytesIO()
    picture.save(
        buffer, format="HEIF", quality=90, exif=exif.tobytes(), enc_params={"preset": "ultrafast"}
    )
    return buffer.getvalue()


def _grey_with_box(width: int, height: int, box: tuple[int, int, int, int]) -> np.ndarray:
    image = np.full((height, width, 3), 90, np.uint8)
    x0, y0, x1, y1 = box
    image[y0:y1, x0:x1] = 255
    return image


@pytest.mark.parametrize(("orientation", "factor"), [(1, 1), (1, 2), (6, 1), (6, 2)])
def test_a_heic_photo_is_read_turned_as_the_phone_shows_it_and_reduced_as_a_jpeg(
    monkeypatch: pytest.MonkeyPatch, orientation: int, factor: int
) -> None:
    width, height = 1600, 1200
    if factor == 2:  # as a 12 MP photo is, without encoding one (x265 takes seconds)
        monkeypatch.setattr(image_io, "_HALF_ABOVE", width * height - 1)
    box = (0, 0, width // 5, height // 5)
    data = _heic(_grey_with_box(width, height, box), orientation)
    assert image_io.is_heic(data)
    loaded = load_image(data)
    h, w = loaded.image.shape[:2]
    assert loaded.to_original == factor
    shown = (width, height) if orientation == 1 else (height, width)
    assert (w, h) == (shown[0] // factor, shown[1] // factor)
    # Orientation 6: the stored top-left corner shows top right.
    want = box if orientation == 1 else (height - height // 5, 0, height, width // 5)
    ys, xs = np.nonzero(loaded.image[..., 1] > 200)
    found = np.array([xs.min(), ys.min(), xs.max() + 1, ys.max() + 1]) * factor
    np.testing.assert_allclose(found, want, atol=4 * factor)


def test_a_bad_heic_is_refused_clearly_and_its_size_checked_before_decoding(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = _heic(_grey_with_box(320, 240, (10, 10, 50, 50)))
    with pytest.raises(ImageError, match=r"'<bytes>' cannot be decoded as an image \(.+\)"):
        load_image(data[: len(data) // 2])
    decoded: list[object] = []
    monkeypatch.setattr(image_io, "MAX_PIXELS", 320 * 240 - 1)
    monkeypatch.setattr(np, "asarray", lambda *a, **k: decoded.append(a) or [])
    with pytest.raises(ImageError) as refused:
        load_image(data)
    assert [p.code for p in refused.value.problems] == ["image_too_many_pixels"]
    assert "320×240" in str(refused.value)
    assert not decoded
    monkeypatch.undo()
    # Without pillow-heif (an old install): what to install, not "not an image".
    monkeypatch.setitem(sys.modules, "pillow_heif", None)
    with pytest.raises(ImageError) as missing:
        load_image(data)
    assert [p.code for p in missing.value.problems] == ["image_heic_unsupported"]
    assert "pip install 'cardscore[vision]'" in str(missing.value)


@pytest.mark.needs_shared
def test_a_shared_photo_as_heic_reads_the_same_cards_in_the_same_places() -> None:
    photo = SHARED / "data" / "real-photos" / "train_01.jpg"
    need(photo.exists(), f"{photo} not found (set CARDSCORE_SHARED)")
    want = recognize(photo)
    got = recognize(_heic(cv2.imread(str(photo))))
    assert len(want.cards) == 11
    near = 0.05 * want.card_width
    assert sorted(c.card.code for c in got.cards) == sorted(c.card.code for c in want.cards)
    for card in want.cards:
        assert any(
            seen.card == card.card and abs(seen.x - card.x) < near and abs(seen.y - card.y) < near
            for seen in got.cards
        ), card
