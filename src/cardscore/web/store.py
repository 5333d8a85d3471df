"""Matches and rounds in the database: every change is one transaction with a version check.

A write names the version the client last saw. The whole match is re-checked with the change on
a snapshot at that version; then one transaction moves the version on (``UPDATE … WHERE
version = sent``: atomic on both SQLite and PostgreSQL) and stores the round rows. So a round is
saved whole or not at all, and of two phones saving at once one gets a 409.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, delete, insert, select, update
from sqlalchemy.orm import Session

from cardscore.web.db import make_sessionmaker, write_engine
from cardscore.web.games import GameAdapter, Summary, get_adapter
from cardscore.web.models import MatchRow, RoundRow, utcnow
from cardscore.web.problems import ProblemError
from cardscore.web.security import (
    Access,
    access_for,
    key_hash,
    new_key,
    new_match_id,
    share_key_for,
)

__all__ = ["Created", "MatchStore", "Snapshot"]


@dataclass(frozen=True, slots=True)
class Created:
    id: str
    game: str
    version: int
    edit_key: str
    share_key: str


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A match as stored: its settings, round documents in order, version and the caller's access."""

    id: str
    game: str
    config: dict[str, Any]
    documents: list[dict[str, Any]]
    version: int
    access: Access
    summary: Summary | None = None
    """Set when a change already worked it out (it is the same for the same rounds)."""


def _conflict(match_id: str, sent: int, current: int | None) -> ProblemError:
    return ProblemError(
        409,
        f"match {match_id!r} changed since you loaded it (you sent version {sent}, it is now "
        f"{current}): reload it and enter the round again",
        "version-conflict",
        current_version=current,
    )


def _adapter(game: str) -> GameAdapter:
    adapter = get_adapter(game)
    if adapter is None:
        raise ProblemError(422, f"unknown game {game!r}")
    return adapter


class MatchStore:
    def __init__(self, engine: Engine) -> None:
        self.sessions = make_sessionmaker(engine)
        self.write_sessions = make_sessionmaker(write_engine(engine))
        # SQLite has one writer at a time: threads of this process queue here, in order, rather
        # than in SQLite's busy handler, which polls with growing sleeps.
        self._write_lock: AbstractContextManager[Any] = (
            threading.Lock() if engine.dialect.name == "sqlite" else nullcontext()
        )

    def create(self, game: str, request: Mapping[str, Any]) -> Created:
        config = _adapter(game).new_config(request)
        edit_key = new_key()
        share_key = share_key_for(edit_key)
        now = utcnow()
        row = MatchRow(
            id=new_match_id(),
            game=game,
            config=config,
            edit_key_hash=key_hash(edit_key),
            share_key_hash=key_hash(share_key),
            version=1,
            created_at=now,
            updated_at=now,
        )
        with self._write_lock, self.write_sessions.begin() as session:
            session.add(row)
        return Created(row.id, game, 1, edit_key, share_key)

    def _locked(self, session: Session, match_id: str, key: str | None, *, write: bool) -> MatchRow:
        row = session.scalars(select(MatchRow).where(MatchRow.id == match_id)).one_or_none()
        if row is None:
            raise ProblemError(404, f"there is no match {match_id!r}", "not-found")
        access = access_for(key, row.edit_key_hash, row.share_key_hash)
        if access is None:
            status = 401 if not key else 403
            raise ProblemError(status, f"this key does not open match {match_id!r}", "bad-key")
        if write and access != "edit":
            raise ProblemError(
                403,
                "the share link only reads this match; use the edit link to change it",
                "read-only",
            )
        return row

    @staticmethod
    def _documents(session: Session, match_id: str) -> list[dict[str, Any]]:
        return list(
            session.scalars(
                select(RoundRow.document)
                .where(RoundRow.match_id == match_id)
                .order_by(RoundRow.number)
            )
        )

    def read(self, match_id: str, key: str | None) -> Snapshot:
        with self.sessions.begin() as session:
            row = self._locked(session, match_id, key, write=False)
            access = access_for(key, row.edit_key_hash, row.share_key_hash)
            assert access is not None
            documents = self._documents(session, match_id)
            return Snapshot(row.id, row.game, row.config, documents, row.version, access)

    def _change(
        self,
        match_id: str,
        key: str | None,
        version: int,
        change: Callable[[GameAdapter, dict[str, Any], list[dict[str, Any]]], list[dict[str, Any]]],
    ) -> Snapshot:
        """Apply ``change`` to the round documents and store the result, all or nothing.

        The rounds are checked outside the write transaction, on the snapshot at ``version``;
        the write then succeeds only if the match is still at that version (the version moves on
        every change), so what was checked is what is stored. The write lock is held only for
        the few statements and the commit.
        """
        with self.sessions.begin() as session:
            row = self._locked(session, match_id, key, write=True)
            if row.version != version:
                raise _conflict(match_id, version, row.version)
            old = self._documents(session, match_id)
        game = _adapter(row.game)
        new, summary = game.check_rounds(row.config, change(game, row.config, old))
        now = utcnow()
        with self._write_lock, self.write_sessions.begin() as session:
            bumped = session.execute(
                update(MatchRow)
                .where(MatchRow.id == match_id, MatchRow.version == version)
                .values(version=version + 1, updated_at=now)
            )
            if bumped.rowcount != 1:  # type: ignore[attr-defined]
                current = session.scalar(select(MatchRow.version).where(MatchRow.id == match_id))
                raise _conflict(match_id, version, current)
            # Rewrite only the rounds that differ: a save adds one row, an edit replaces one.
            if len(new) < len(old):
                session.execute(
                    delete(RoundRow).where(
                        RoundRow.match_id == match_id, RoundRow.number > len(new)
                    )
                )
            added = [
                {"match_id": match_id, "number": n + 1, "document": d, "created_at": now}
                for n, d in enumerate(new[len(old) :], start=len(old))
            ]
            if added:
                session.execute(insert(RoundRow), added)
            for index, document in enumerate(new[: len(old)]):
                if old[index] != document:
                    session.execute(
                        update(RoundRow)
                        .where(RoundRow.match_id == match_id, RoundRow.number == index + 1)
                        .values(document=document, created_at=now)
                    )
        return Snapshot(row.id, row.game, row.config, new, version + 1, "edit", summary)

    def add_round(
        self, match_id: str, key: str | None, version: int, document: dict[str, Any]
    ) -> Snapshot:
        return self._change(
            match_id, key, version, lambda game, config, old: game.reply(config, [*old, document])
        )

    def edit_round(
        self, match_id: str, key: str | None, version: int, number: int, document: dict[str, Any]
    ) -> Snapshot:
        def replace(
            _game: GameAdapter, _config: dict[str, Any], old: list[dict[str, Any]]
        ) -> list[dict[str, Any]]:
            if not 1 <= number <= len(old):
                raise ProblemError(404, f"match {match_id!r} has no round {number}", "not-found")
            return [*old[: number - 1], document, *old[number:]]

        return self._change(match_id, key, version, replace)

    def undo(self, match_id: str, key: str | None, version: int) -> Snapshot:
        def drop_last(
            game: GameAdapter, _config: dict[str, Any], old: list[dict[str, Any]]
        ) -> list[dict[str, Any]]:
            if not old:
                raise ProblemError(422, "there is no round to undo", "nothing-to-undo")
            return game.undo(old)

        return self._change(match_id, key, version, drop_last)
