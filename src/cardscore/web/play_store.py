"""Games played against the computer, kept in the database so that any server process can go on
with any game, and a restart loses none.

A game's address is one token: its public id (:data:`ID_CHARS` characters) followed by a secret
key. The database keeps the key's hash only; whoever holds the whole token may see and play the
game (seat 1's view: the document with the hidden cards never leaves the server). A wrong key
answers as an unknown game does (404), so the token cannot be guessed a half at a time.

A move is optimistic, like a match's save: the game is read at its version, the move is worked
out outside any transaction, and one transaction stores the new document only if the game is
still at that version (``UPDATE … WHERE version = read``, atomic on SQLite and PostgreSQL). Of two
moves on the same game at once one is stored and the other gets a 409; a refused or conflicting
move stores nothing.

Storage is bounded: each new game first deletes the finished games untouched for
:attr:`PlayLimits.finished_days`, the others untouched for :attr:`PlayLimits.idle_days`, and
then the oldest-touched games beyond :attr:`PlayLimits.games`.

>>> from cardscore.web.db import make_engine
>>> from cardscore.web import migrate
>>> engine = make_engine("sqlite://")
>>> migrate.upgrade(engine)
>>> store = PlayStore(engine)
>>> token = store.create("demo", {"moves": []}, over=False)
>>> game = store.load(token)
>>> game.version, game.document
(1, {'moves': []})
>>> store.save(game, {"moves": ["draw"]}, over=False).version
2
>>> store.save(game, {"moves": ["take"]}, over=False)  # still at version 1: refused
Traceback (most recent call last):
...
cardscore.web.play_store.PlayConflictError: game changed (version 1 sent, 2 stored)
>>> store.load(token).document
{'moves': ['draw']}
"""

from __future__ import annotations

import secrets
import threading
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import (
    Engine,
    Table,
    and_,
    bindparam,
    delete,
    func,
    insert,
    or_,
    select,
    update,
)

from cardscore.web.db import write_engine
from cardscore.web.models import PlayGameRow, utcnow
from cardscore.web.security import key_hash

__all__ = [
    "ID_CHARS",
    "PlayConflictError",
    "PlayLimits",
    "PlayStore",
    "StoredGame",
    "UnknownGameError",
]

ID_CHARS = 12
"""Length of a game's public id, the first part of its token (``token_urlsafe(9)``)."""

_GAMES = cast(Table, PlayGameRow.__table__)
_SELECT = select(
    _GAMES.c.id, _GAMES.c.game, _GAMES.c.key_hash, _GAMES.c.document, _GAMES.c.version
).where(_GAMES.c.id == bindparam("game_id"))
_SELECT_VERSION = select(_GAMES.c.version).where(_GAMES.c.id == bindparam("game_id"))
_SAVE = (
    update(_GAMES)
    .where(_GAMES.c.id == bindparam("game_id"), _GAMES.c.version == bindparam("read"))
    .values(
        document=bindparam("new_document", type_=_GAMES.c.document.type),
        version=bindparam("next", type_=_GAMES.c.version.type),
        over=bindparam("is_over", type_=_GAMES.c.over.type),
        updated_at=bindparam("now", type_=_GAMES.c.updated_at.type),
    )
)


class UnknownGameError(LookupError):
    """No game has this token (never dealt, expired, or a wrong key)."""


class PlayConflictError(RuntimeError):
    """The game moved on since it was read: nothing was stored."""

    def __init__(self, sent: int, current: int | None) -> None:
        self.sent = sent
        self.current = current
        super().__init__(f"game changed (version {sent} sent, {current} stored)")


@dataclass(frozen=True, slots=True)
class PlayLimits:
    """How long games are kept, and how many at most."""

    games: int = 5_000
    """Games kept at once; beyond, the ones left alone longest are deleted first."""
    finished_days: float = 2.0
    """A finished round stays this long after its last move (to save it into a match)."""
    idle_days: float = 30.0
    """A round nobody plays for this long is deleted, finished or not."""


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game as read: its public id, kind, document (hidden cards included) and version."""

    id: str
    game: str
    document: dict[str, Any]
    version: int


def split_token(token: str) -> tuple[str, str]:
    """A token's public id and secret key.

    >>> split_token("abcdefghijklSECRET")
    ('abcdefghijkl', 'SECRET')
    """
    return token[:ID_CHARS], token[ID_CHARS:]


class PlayStore:
    """Played games in the database of ``engine`` (see the module)."""

    def __init__(self, engine: Engine, limits: PlayLimits | None = None) -> None:
        self.engine = engine
        self.write_engine = write_engine(engine)
        self.limits = limits or PlayLimits()
        # SQLite has one writer: this process's threads queue here rather than in its busy
        # handler (as MatchStore does).
        self._write_lock: AbstractContextManager[Any] = (
            threading.Lock() if engine.dialect.name == "sqlite" else nullcontext()
        )

    def create(
        self, game: str, document: dict[str, Any], *, over: bool, now: datetime | None = None
    ) -> str:
        """Store a new game at version 1 and answer its token (expired games go first)."""
        game_id = secrets.token_urlsafe(9)
        key = secrets.token_urlsafe(24)
        now = now or utcnow()
        with self._write_lock, self.write_engine.begin() as connection:
            self._expire(connection, now)
            connection.execute(
                insert(_GAMES),
                {
                    "id": game_id,
                    "game": game,
                    "key_hash": key_hash(key),
                    "document": document,
                    "version": 1,
                    "over": over,
                    "created_at": now,
                    "updated_at": now,
                },
            )
            self._trim(connection)
        return game_id + key

    def _expire(self, connection: Any, now: datetime) -> None:
        finished = now - timedelta(days=self.limits.finished_days)
        idle = now - timedelta(days=self.limits.idle_days)
        connection.execute(
            delete(_GAMES).where(
                or_(
                    _GAMES.c.updated_at < idle,
                    and_(_GAMES.c.over.is_(True), _GAMES.c.updated_at < finished),
                )
            )
        )

    def _trim(self, connection: Any) -> None:
        beyond = (
            select(_GAMES.c.id)
            .order_by(_GAMES.c.updated_at.desc(), _GAMES.c.id)
            .offset(self.limits.games)
        )
        connection.execute(delete(_GAMES).where(_GAMES.c.id.in_(beyond)))

    def load(self, token: str) -> StoredGame:
        """The game ``token`` opens (:class:`UnknownGameError` if none: a wrong key is no game)."""
        game_id, key = split_token(token)
        with self.engine.connect() as connection:
            row = connection.execute(_SELECT, {"game_id": game_id}).one_or_none()
        # Compared in constant time; an empty key never matches a stored hash of one.
        if row is None or not key or not secrets.compare_digest(key_hash(key), row.key_hash):
            raise UnknownGameError(token)
        return StoredGame(row.id, row.game, row.document, row.version)

    def save(
        self,
        game: StoredGame,
        document: dict[str, Any],
        *,
        over: bool,
        now: datetime | None = None,
    ) -> StoredGame:
        """Store ``document`` as the game's next version, only if it is still at the version
        ``game`` was read at (:class:`PlayConflictError` otherwise, and nothing changes)."""
        with self._write_lock, self.write_engine.begin() as connection:
            saved = connection.execute(
                _SAVE,
                {
                    "game_id": game.id,
                    "read": game.version,
                    "next": game.version + 1,
                    "new_document": document,
                    "is_over": over,
                    "now": now or utcnow(),
                },
            )
            if saved.rowcount != 1:
                current = connection.scalar(_SELECT_VERSION, {"game_id": game.id})
                raise PlayConflictError(game.version, current)
        return StoredGame(game.id, game.game, document, game.version + 1)

    def count(self) -> int:
        """Games stored now."""
        with self.engine.connect() as connection:
            return int(connection.scalar(select(func.count()).select_from(_GAMES)) or 0)
