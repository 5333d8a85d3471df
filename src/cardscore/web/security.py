"""Secret keys, CSRF tokens, request-size limits and photo checks.

A match has two keys: the edit key changes it, the share key only reads it. The share key is
derived from the edit key, so the editor's page can show the share link while the database
keeps only hashes of both. Keys are compared in constant time.

>>> edit = new_key()
>>> share = share_key_for(edit)
>>> access_for(edit, key_hash(edit), key_hash(share)), access_for(share, key_hash(edit), key_hash(share))
('edit', 'read')
>>> access_for("guess", key_hash(edit), key_hash(share)) is None
True
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import io
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cardscore.errors import CardscoreError

__all__ = [
    "Access",
    "BodyLimitMiddleware",
    "ImageInfo",
    "access_for",
    "check_image",
    "csrf_matches",
    "csrf_signed",
    "key_hash",
    "new_csrf_token",
    "new_key",
    "new_match_id",
    "share_key_for",
]

Access = Literal["edit", "read"]


def new_key() -> str:
    """An unguessable key (256 bits of randomness)."""
    return secrets.token_urlsafe(32)


def new_match_id() -> str:
    """A match's public id (not a secret: it only names the match)."""
    return secrets.token_urlsafe(9)


def share_key_for(edit_key: str) -> str:
    """The read-only key that goes with ``edit_key`` (one-way: it does not reveal the edit key)."""
    digest = hmac.new(edit_key.encode(), b"cardscore share key", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def access_for(key: str | None, edit_hash: str, share_hash: str) -> Access | None:
    """What ``key`` allows on a match with these key hashes (both compared, constant time)."""
    if not key:
        return None
    given = key_hash(key)
    is_edit = hmac.compare_digest(given, edit_hash)
    is_share = hmac.compare_digest(given, share_hash)
    if is_edit:
        return "edit"
    return "read" if is_share else None


def new_csrf_token(secret: str) -> str:
    """A form token: a random nonce and its HMAC-SHA256 under the server's secret.

    >>> token = new_csrf_token("s3cret")
    >>> csrf_signed(token, "s3cret"), csrf_signed(token, "other"), csrf_signed("x.y", "s3cret")
    (True, False, False)
    """
    nonce = secrets.token_urlsafe(18)
    return f"{nonce}.{_csrf_mac(nonce, secret)}"


def _csrf_mac(nonce: str, secret: str) -> str:
    digest = hmac.new(secret.encode(), b"cardscore csrf " + nonce.encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(digest.digest()).decode().rstrip("=")


def csrf_signed(token: str | None, secret: str) -> bool:
    """Whether ``token`` was made by :func:`new_csrf_token` with this secret."""
    if not token or token.count(".") != 1:
        return False
    nonce, mac = token.split(".")
    return hmac.compare_digest(mac.encode(), _csrf_mac(nonce, secret).encode())


def csrf_matches(cookie: str | None, submitted: str | None, secret: str) -> bool:
    """Double-submit check with a signed token: the form's token equals the cookie's, and the
    server signed it (a cookie planted by another site or subdomain is not enough)."""
    if not cookie or not submitted:
        return False
    same = hmac.compare_digest(cookie.encode(), submitted.encode())
    return same and csrf_signed(cookie, secret)


class BodyLimitMiddleware:
    """Refuse request bodies over a limit (413) while they stream in, before anything parses them.

    Paths where ``is_upload(path)`` (photos) get the larger limit ``uploads``.
    """

    def __init__(
        self, app: ASGIApp, default: int, uploads: int, is_upload: Callable[[str], bool]
    ) -> None:
        self.app = app
        self.default = default
        self.uploads = uploads
        self.is_upload = is_upload

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        limit = self.uploads if self.is_upload(path) else self.default
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > limit:
                await _too_large(send, limit)
                return
        received = 0
        refused = False

        async def limited_receive() -> Message:
            nonlocal received, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    # Answer now; the app then sees a client that went away and stops reading.
                    refused = True
                    await _too_large(send, limit)
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            if not refused:
                await send(message)

        try:
            await self.app(scope, limited_receive, guarded_send)
        except Exception:
            if not refused:
                raise


async def _too_large(send: Send, limit: int) -> None:
    from cardscore.web.problems import problem_bytes

    body = problem_bytes(413, f"the request body is larger than {limit:,} bytes")
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/problem+json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


@dataclass(frozen=True, slots=True)
class ImageInfo:
    format: str
    width: int
    height: int


_MAGIC = {
    b"\xff\xd8\xff": "JPEG",
    b"\x89PNG\r\n\x1a\n": "PNG",
}


def _sniff(data: bytes) -> str | None:
    for magic, name in _MAGIC.items():
        if data.startswith(magic):
            return name
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WEBP"
    try:
        from cardscore.vision.image_io import is_heic
    except ImportError:  # no vision extra: no photo is read, nor a HEIC one's header
        return None
    return "HEIC" if is_heic(data) else None


def _size(data: bytes, kind: str, max_pixels: int) -> tuple[int, int]:
    """The image's (width, height) from its header (Pillow's, or for HEIC pillow-heif's)."""
    if kind == "HEIC":
        try:
            import pillow_heif
        except ImportError:
            raise CardscoreError(
                "the HEIC image cannot be read: this server has no pillow-heif (send a JPEG)"
            ) from None
        try:
            width, height = pillow_heif.open_heif(io.BytesIO(data)).size
        except (ValueError, RuntimeError, OSError, SyntaxError) as error:
            message = str(error).strip()
            raise CardscoreError(f"the HEIC image cannot be read: {message}") from None
        return width, height
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data), formats=[kind]) as image:
            width, height = image.size
    except Image.DecompressionBombError:
        raise CardscoreError(f"the image has more than {max_pixels:,} pixels") from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as error:
        raise CardscoreError(f"the {kind} image cannot be read: {error}") from None
    return width, height


def check_image(data: bytes, max_pixels: int) -> ImageInfo:
    """Check a photo by its bytes (JPEG, PNG, WebP or HEIC) and its size from the header only.

    Nothing is decoded before the pixel count is known, so a small file that unpacks to a huge
    image (a decompression bomb) is refused cheaply.
    """
    kind = _sniff(data)
    if kind is None:
        raise CardscoreError("the upload is not a JPEG, PNG, WebP or HEIC image")
    width, height = _size(data, kind, max_pixels)
    if width * height > max_pixels:
        raise CardscoreError(
            f"the image is {width}×{height} = {width * height:,} pixels; "
            f"the limit is {max_pixels:,}"
        )
    return ImageInfo(kind, width, height)
