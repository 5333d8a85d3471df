"""A photo given as a PIL image, or as an array in RGB where recognize() takes BGR: read as
the colours it shows, never hearts read as spades in silence."""

from __future__ import annotations

import io
import warnings
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import SHARED, need, need_module

cv2 = need_module("cv2", "needs the vision extra (opencv)")
need_module("onnxruntime", "needs the vision extra (onnxruntime)")
Image = need_module("PIL.Image", "needs the vision extra (pillow)")

from cardscore.vision import recognition, recognize  # noqa: E402
from cardscore.vision.channels import ChannelOrderWarning  # noqa: E402
from cardscore.vision.evaluate import score_table  # noqa: E402
from cardscore.vision.image_io import load_image  # noqa: E402
from cardscore.vision.recognition import Recognition  # noqa: E402
from tests.render_tables import DESIGNS, render_table  # noqa: E402


def _seen(result: Recognition) -> list[tuple[str, int, int, bool]]:
    return sorted((c.card.code, round(c.x), round(c.y), c.flagged) for c in result.cards)


def _rgb(image: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(image[..., ::-1])


@pytest.mark.parametrize(("seed", "design"), [(11, 0), (11, 1), (12, 1)])
def test_an_rgb_array_is_read_as_rgb_and_the_caller_warned(
    monkeypatch: pytest.MonkeyPatch, seed: int, design: int
) -> None:
    table = render_table(seed, DESIGNS[design])
    assert sum(c.suit.name in ("HEARTS", "DIAMONDS") for c, *_ in table.truth) >= 3
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a BGR array: no warning
        given = recognize(table.image)
    with pytest.warns(ChannelOrderWarning, match=r"looks RGB.*array\[\.\.\., ::-1\]"):
        swapped = recognize(_rgb(table.image))
    assert _seen(swapped) == _seen(given)
    # What the check is for: read as given, the RGB array's red suits come out wrong.
    monkeypatch.setattr(recognition, "looks_rgb", lambda *_: False)
    blind = score_table(table.truth, table.kinds, recognize(_rgb(table.image)), table.card_width)
    right = score_table(table.truth, table.kinds, given, table.card_width)
    assert blind.cards_right < right.cards_right


def test_a_grey_array_is_not_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    grey = cv2.cvtColor(render_table(11, DESIGNS[0]).image, cv2.COLOR_BGR2GRAY)
    checked: list[object] = []
    monkeypatch.setattr(recognition, "looks_rgb", lambda *a: checked.append(a) or False)
    recognize(grey)
    assert not checked


def test_a_pil_image_reads_as_its_bgr_array_and_stands_as_its_exif_says(
    tmp_path: Path,
) -> None:
    table = render_table(11, DESIGNS[0])
    picture = Image.fromarray(_rgb(table.image))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _seen(recognize(picture)) == _seen(recognize(table.image))
    # Any mode: grey, with alpha, a palette.
    for mode in ("L", "RGBA", "P"):
        loaded = load_image(picture.convert(mode))
        assert (loaded.image.shape, loaded.name) == (table.image.shape, "<PIL image>")
    # Image.open leaves the EXIF turn to its caller: the photo stands as the phone showed it.
    exif = picture.getexif()
    exif[0x0112] = 6  # the stored top row is the shown right column
    path = tmp_path / "portrait.jpg"
    picture.save(path, exif=exif.tobytes())
    h, w = table.image.shape[:2]
    assert load_image(Image.open(path)).image.shape == (w, h, 3)
    assert load_image(path).image.shape == (w, h, 3)


@pytest.mark.needs_shared
def test_a_shared_photo_given_as_rgb_reads_as_its_file() -> None:
    photo = SHARED / "data" / "real-photos" / "train_03.jpg"
    need(photo.exists(), f"{photo} not found (set CARDSCORE_SHARED)")
    with pytest.warns(ChannelOrderWarning):
        swapped = recognize(_rgb(cv2.imread(str(photo))))
    assert _seen(swapped) == _seen(recognize(photo))
    buffer = io.BytesIO()  # and its PIL image, as a notebook opens it
    Image.open(photo).save(buffer, "PNG")
    codes = [(c.card.code, c.flagged) for c in recognize(Image.open(buffer)).cards]
    assert sorted(codes) == sorted((c.card.code, c.flagged) for c in recognize(photo).cards)
