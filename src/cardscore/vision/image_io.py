"""Reading photos safely: paths, bytes (a web upload) or arrays in; clear errors for bad files.

Sizes are checked from the file header before decoding, so a decompression bomb is refused
without allocating it; truncated JPEG and PNG files are refused rather than half-read.
Very large photos are decoded at half or quarter scale (JPEG decoders do that for free):
cards stay far bigger than the recogniser needs. An iPhone's HEIC photo is decoded by
pillow-heif (the vision extra's libheif) and reduced as a JPEG of its size would be.
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

import numpy as np

from cardscore.errors import CardscoreError, Problem

if TYPE_CHECKING:
    from PIL.Image import Image as PILImage
    from typing_extensions import TypeIs

__all__ = [
    "MAX_PIXELS",
    "ImageError",
    "LoadedImage",
    "PhotoSource",
    "image_size",
    "is_heic",
    "load_image",
]

# What a photo may be given as: a path, the file's bytes, a BGR array or a PIL image.
PhotoSource: TypeAlias = "str | Path | bytes | np.ndarray | PILImage"

MAX_PIXELS = 120_000_000  # 120 MP: larger than any phone photo, small enough to decode
_MP = f"{MAX_PIXELS / 1e6:.0f}"  # as messages show it
# JPEGs above _HALF_ABOVE pixels are decoded at half scale, above _QUARTER_ABOVE at quarter
# scale; libjpeg scales in the DCT, so the full-size image is never allocated. A 12 MP phone
# photo comes out 2000×1500, its cards still wider than the 120 px the recogniser reads them
# at (framed like the shared photos), for a quarter of the decoding and the proposals' pixel
# work. 48–50 MP photos stay at half (about 12 MP): at quarter the shared photos' upscales lost
# two of 66 cards. Up to 10 MP stays as it is.
_HALF_ABOVE = 10_000_000
_QUARTER_ABOVE = 64_000_000


class ImageError(CardscoreError):
    """A photo that cannot be read: missing, not an image, truncated, or far too large."""


class LoadedImage:
    """A decoded BGR image and the factor from its pixels back to the original photo's."""

    __slots__ = ("image", "name", "to_original")

    def __init__(self, image: np.ndarray, to_original: float, name: str) -> None:
        self.image = image
        self.to_original = to_original
        self.name = name


def _png_size(data: bytes) -> tuple[int, int] | None:
    if data[:8] != b"\x89PNG\r\n\x1a\n" or len(data) < 24:
        return None
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    if data[:2] != b"\xff\xd8":
        return None
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            i += 1
            continue
        marker = data[i + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
            i += 1 if marker == 0xFF else 2
            continue
        length = struct.unpack(">H", data[i + 2 : i + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", data[i + 5 : i + 9])
            return width, height
        i += 2 + length
    return None


def image_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a PNG or JPEG header, or None for other formats.

    >>> image_size(b"\\x89PNG\\r\\n\\x1a\\n" + b"\\0\\0\\0\\rIHDR" + (640).to_bytes(4, "big") + (480).to_bytes(4, "big"))
    (640, 480)
    """
    return _png_size(data) or _jpeg_size(data)


# An ISO base media file (HEIF, AVIF) names its brands in its first box, ``ftyp``: these are
# HEVC-coded HEIF, which OpenCV does not read (it reads AVIF itself).
_HEVC_BRANDS = frozenset({b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx"})


def is_heic(data: bytes) -> bool:
    """Whether ``data`` is a HEIC (HEVC-coded HEIF) file, as an iPhone saves a photo.

    >>> is_heic(b"\\0\\0\\0\\x18ftypheic\\0\\0\\0\\0mif1heic")
    True
    >>> is_heic(b"\\0\\0\\0\\x14ftypavif\\0\\0\\0\\0avif")
    False
    """
    if len(data) < 16 or data[4:8] != b"ftyp":
        return False
    end = min(int.from_bytes(data[:4], "big"), len(data), 256)
    brands = [data[8:12], *(data[i : i + 4] for i in range(16, end - 3, 4))]
    return any(brand in _HEVC_BRANDS for brand in brands)


def _reduction(width: int, height: int) -> float:
    """How many times smaller a JPEG of this size is decoded (1, 2 or 4)."""
    pixels = width * height
    return 4.0 if pixels > _QUARTER_ABOVE else 2.0 if pixels > _HALF_ABOVE else 1.0


def _check_pixels(name: str, width: int, height: int) -> None:
    if width * height > MAX_PIXELS:
        mp = f"{width * height / 1e6:.0f}"
        raise ImageError(
            Problem.of(
                "image_too_many_pixels", name=name, width=width, height=height, mp=mp, limit=_MP
            )
        )


def _undecodable(name: str, reason: str) -> ImageError:
    """The error for a photo its decoder gave up on, with the decoder's ``reason``."""
    return ImageError(Problem.of("image_undecodable", name=name, error=reason))


def _decode_heic(data: bytes, name: str) -> LoadedImage:
    """A HEIC photo, turned as the phone showed it (libheif applies the file's rotation and
    mirroring), its size checked before it is decoded, reduced as a JPEG of its size is."""
    import io

    import cv2

    try:
        import pillow_heif
    except ImportError:
        raise ImageError(Problem.of("image_heic_unsupported", name=name)) from None
    try:
        heif = pillow_heif.open_heif(io.BytesIO(data), convert_hdr_to_8bit=True, bgr_mode=True)
    except (ValueError, RuntimeError, OSError, SyntaxError) as error:
        raise _undecodable(name, str(error).strip()) from None
    width, height = heif.size
    _check_pixels(name, width, height)
    try:
        pixels = np.asarray(heif)
    except (ValueError, RuntimeError, OSError, SyntaxError) as error:
        raise _undecodable(name, str(error).strip()) from None
    if pixels.ndim != 3 or pixels.shape[2] not in (3, 4):
        raise ImageError(Problem.of("image_format", name=name))
    image = np.ascontiguousarray(pixels[..., :3])
    factor = _reduction(width, height)
    if factor > 1:
        size = (round(image.shape[1] / factor), round(image.shape[0] / factor))
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    return LoadedImage(image, factor, name)


def _truncated(data: bytes) -> bool:
    if data[:2] == b"\xff\xd8":
        return b"\xff\xd9" not in data[-64:]
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return b"IEND" not in data[-32:]
    return False


def _decode(data: bytes, name: str) -> LoadedImage:
    import cv2

    if not data:
        raise ImageError(Problem.of("image_empty", name=name))
    if is_heic(data):
        return _decode_heic(data, name)
    size = image_size(data)
    if size is not None:
        _check_pixels(name, *size)
    if _truncated(data):
        raise ImageError(Problem.of("image_truncated", name=name))
    flags, factor = cv2.IMREAD_COLOR, 1.0
    if size is not None and data[:2] == b"\xff\xd8":
        factor = _reduction(*size)
        flags = {
            1.0: cv2.IMREAD_COLOR,
            2.0: cv2.IMREAD_REDUCED_COLOR_2,
            4.0: cv2.IMREAD_REDUCED_COLOR_4,
        }[factor]
    buffer = np.frombuffer(data, np.uint8)
    try:
        image = cv2.imdecode(buffer, flags)
    except cv2.error as error:
        raise _undecodable(name, str(error.err)) from None
    if image is None:
        raise ImageError(Problem.of("image_format", name=name))
    if image.shape[0] * image.shape[1] * factor * factor > MAX_PIXELS:
        raise ImageError(Problem.of("image_too_large", name=name, limit=_MP))
    if min(image.shape[:2]) < 64:
        raise ImageError(
            Problem.of("image_too_small", name=name, width=image.shape[1], height=image.shape[0])
        )
    return LoadedImage(image, factor, name)


def load_image(source: PhotoSource) -> LoadedImage:
    """Decode a photo from a path, raw file bytes, a BGR (or grey) uint8 array (OpenCV's
    order), or a PIL image; a file's EXIF orientation is applied, so a portrait photo stands
    as the phone showed it."""
    if isinstance(source, np.ndarray):
        return _from_array(source, "<array>")
    if _is_pil(source):
        return _from_pil(source)
    if isinstance(source, bytes | bytearray | memoryview):
        return _decode(bytes(source), "<bytes>")
    path = Path(source)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ImageError(Problem.of("image_missing", path=str(path))) from None
    except IsADirectoryError:
        raise ImageError(Problem.of("image_is_folder", path=str(path))) from None
    except OSError as error:
        raise ImageError(
            Problem.of("image_unreadable", path=str(path), error=str(error.strerror))
        ) from None
    return _decode(data, str(path))


def _from_array(image: np.ndarray, name: str) -> LoadedImage:
    if image.dtype != np.uint8:
        raise ImageError(Problem.of("image_array_type", dtype=str(image.dtype)))
    if image.ndim not in (2, 3):
        shape = "×".join(map(str, image.shape))
        raise ImageError(Problem.of("image_array_shape", shape=shape))
    if image.ndim == 2:
        image = np.repeat(image[..., None], 3, axis=2)
    if image.shape[2] == 4:
        image = np.ascontiguousarray(image[..., :3])
    if image.shape[2] != 3:
        raise ImageError(Problem.of("image_array_channels", channels=image.shape[2]))
    if image.shape[0] * image.shape[1] > MAX_PIXELS:
        raise ImageError(Problem.of("image_array_too_large", limit=_MP))
    return LoadedImage(image, 1.0, name)


def _is_pil(source: object) -> TypeIs[PILImage]:
    """Whether ``source`` is a PIL image (without importing PIL where it is not)."""
    return type(source).__module__.startswith("PIL.") and hasattr(source, "convert")


def _from_pil(picture: PILImage) -> LoadedImage:
    """A PIL image in BGR: turned as its EXIF says (``Image.open`` leaves that to the caller),
    any mode made RGB, then OpenCV's channel order."""
    from PIL import ImageOps

    width, height = picture.size
    if width * height > MAX_PIXELS:
        raise ImageError(Problem.of("image_array_too_large", limit=_MP))
    upright = ImageOps.exif_transpose(picture)
    rgb = np.asarray(upright.convert("RGB"))
    return _from_array(np.ascontiguousarray(rgb[..., ::-1]), "<PIL image>")
