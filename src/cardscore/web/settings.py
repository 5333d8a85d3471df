"""Where the app keeps its data and how much it accepts, read from the environment.

``DATABASE_URL`` picks the database (``postgresql://…`` for a server); without it the app uses
an SQLite file in the user's data folder, or ``./cardscore.sqlite3`` when that folder cannot be
created.

>>> normalize_database_url("postgres://u:p@localhost/db")
'postgresql+psycopg://u:p@localhost/db'
>>> normalize_database_url("sqlite:///x.sqlite3")
'sqlite:///x.sqlite3'
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Settings", "default_database_url", "new_secret", "normalize_database_url"]

_MIB = 1024 * 1024


def normalize_database_url(url: str) -> str:
    """Use psycopg 3 for PostgreSQL URLs written the usual way (``postgres://``)."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def default_database_url() -> str:
    """``DATABASE_URL`` if set, else an SQLite file in the user's data folder."""
    url = os.environ.get("DATABASE_URL")
    if url:
        return normalize_database_url(url)
    try:
        from platformdirs import user_data_path

        folder = user_data_path("cardscore", appauthor=False)
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        folder = Path.cwd()
    return f"sqlite:///{folder / 'cardscore.sqlite3'}"


def new_secret() -> str:
    """A server secret (for signing form tokens): 256 random bits."""
    return secrets.token_urlsafe(32)


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything configurable; :meth:`from_env` is what ``cardscore serve`` uses."""

    database_url: str
    max_body_bytes: int = 1 * _MIB
    """Largest JSON or form request body."""
    max_upload_bytes: int = 15 * _MIB
    """Largest photo upload."""
    max_upload_pixels: int = 50_000_000
    """Largest photo in pixels (checked from the header, before decoding: no bombs)."""
    migrate: bool = True
    """Bring the database schema up to date when the app starts."""
    secret: str = field(default_factory=new_secret, repr=False)
    """Signs the forms' CSRF tokens. Servers behind one address must share it
    (``CARDSCORE_SECRET``); a new one each start only makes open forms ask for a reload."""
    recognitions: int = 2
    """Photos read at once (per worker); more wait in :attr:`recognition_queue`."""
    recognition_queue: int = 4
    """Photos that may wait for a turn; beyond, the answer is 503 with Retry-After."""
    recognition_pixels: int = 50_000_000
    """Pixels being read at once, all photos together: what caps recognition's memory."""

    @classmethod
    def from_env(cls) -> Settings:
        return cls(
            database_url=default_database_url(),
            migrate=os.environ.get("CARDSCORE_SKIP_MIGRATE") != "1",
            secret=os.environ.get("CARDSCORE_SECRET") or new_secret(),
        )
