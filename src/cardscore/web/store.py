"""Matches and rounds in the database: every change is one transaction with a version check.

A write names the version the client last saw. The change is checked outside the write
transaction on the match at that version; then one transaction moves the version on (``UPDATE …
WHERE version = sent``: atomic on both SQLite and PostgreSQL) and stores the round rows. So a
round is saved whole or not at all, and of two phones saving at once one gets a 409.

Each process keeps the matches it last worked on, checked and scored, at their version
(:class:`Recent`): a match at a given version never changes (every change moves the version on),
so a save that names a version kept here checks and scores only its new round, and reads nothing
before its write; the ``UPDATE … WHERE version`` still decides, in the database, whether the match
is really at that version. A match kept at an older version whose rounds begin the stored ones
(another process added rounds) is brought up to date by checking only the rounds it lacks;
anything else (a restart, an edit elsewhere, a failed change) is read back.

What checking found is stored with the rounds, in the transaction that moves the version on: each
round's scores, running totals and breakdowns, and the match's totals, winner and statistics,
marked with the rules that worked them out and the version they belong to. A server that never
read the match shows it from those (a 1,000-round match is read, not re-checked); it re-checks
the match whole, and stores what it found, when they are missing (a match saved before they
were stored), were worked out by other rules (another release, a game's new ``rules``) or belong
to another version. A change to a match read that way checks it whole first (its new round needs
the match's state), once per process.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, replace
from typing import Any, cast

from sqlalchemy import (
    Connection,
    Engine,
    Table,
    Text,
    bindparam,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy import cast as sql_cast
from sqlalchemy.exc import DBAPIError

from cardscore._version import __version__
from cardscore.errors import CardscoreError
from cardscore.web.db import write_engine
from cardscore.web.games import GameAdapter, Summary, get_adapter
from cardscore.web.games.base import Played, RoundSummary
from cardscore.web.live import NOTIFY
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

__all__ = ["Created", "MatchStore", "Recent", "Snapshot"]

_MATCHES = cast(Table, MatchRow.__table__)
_ROUNDS = cast(Table, RoundRow.__table__)
_NOW = bindparam("now", type_=_MATCHES.c.updated_at.type)
# Built once: executing a ready statement skips building it and most of its cache-key work.
_SELECT_MATCH = select(
    _MATCHES.c.game,
    _MATCHES.c.config,
    _MATCHES.c.edit_key_hash,
    _MATCHES.c.share_key_hash,
    _MATCHES.c.version,
).where(_MATCHES.c.id == bindparam("match_id"))
_SELECT_STORED = _SELECT_MATCH.add_columns(_MATCHES.c.summary)
_SELECT_VERSION = select(_MATCHES.c.version).where(_MATCHES.c.id == bindparam("match_id"))
_SELECT_ROUNDS = (
    # The breakdowns as the text stored (decoded only for the rounds a page shows).
    select(_ROUNDS.c.document, _ROUNDS.c.checked, sql_cast(_ROUNDS.c.detail, Text).label("detail"))
    .where(_ROUNDS.c.match_id == bindparam("match_id"))
    .order_by(_ROUNDS.c.number)
)
_SUMMARY = bindparam("new_summary", type_=_MATCHES.c.summary.type)
_CHECKED = bindparam("new_checked", type_=_ROUNDS.c.checked.type)
_DETAIL = bindparam("new_detail", type_=_ROUNDS.c.detail.type)
_BUMP = (
    update(_MATCHES)
    .where(_MATCHES.c.id == bindparam("match_id"), _MATCHES.c.version == bindparam("sent"))
    .values(
        version=bindparam("next", type_=_MATCHES.c.version.type), updated_at=_NOW, summary=_SUMMARY
    )
)
_STORE_SUMMARY = (
    update(_MATCHES)
    .where(_MATCHES.c.id == bindparam("match_id"), _MATCHES.c.version == bindparam("at"))
    .values(summary=_SUMMARY)
)
_STORE_CHECKED = (
    update(_ROUNDS)
    .where(_ROUNDS.c.match_id == bindparam("in_match"), _ROUNDS.c.number == bindparam("n"))
    .values(checked=_CHECKED, detail=_DETAIL)
)
_INSERT_ROUNDS = insert(_ROUNDS)
_DELETE_AFTER = delete(_ROUNDS).where(
    _ROUNDS.c.match_id == bindparam("match_id"), _ROUNDS.c.number > bindparam("last")
)
_REPLACE_ROUND = (
    update(_ROUNDS)
    .where(_ROUNDS.c.match_id == bindparam("in_match"), _ROUNDS.c.number == bindparam("n"))
    .values(
        document=bindparam("new_document", type_=_ROUNDS.c.document.type),
        checked=_CHECKED,
        detail=_DETAIL,
        created_at=bindparam("now", type_=_ROUNDS.c.created_at.type),
    )
)


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
    """Set when the store already worked it out (it is the same for the same rounds)."""
    changed: int | None = None
    """After a change: the index of the first round it added or replaced (rounds from there on
    are new or have new totals); the number of rounds when it only took rounds away."""


@dataclass(frozen=True, slots=True)
class _Kept:
    """A match at one version: what a change needs (the keys' hashes never change)."""

    game: str
    config: dict[str, Any]
    edit_key_hash: str
    share_key_hash: str
    version: int
    played: Played
    stored: bool
    """Whether the database holds what checking found for every round at ``version``, by the
    rules of this process (else a change stores it for every round)."""

    @classmethod
    def of(cls, row: Any, played: Played, stored: bool) -> _Kept:
        """The match's row (from ``_SELECT_MATCH``) with its rounds, opened."""
        return cls(
            row.game, row.config, row.edit_key_hash, row.share_key_hash, row.version, played, stored
        )


def _rules(adapter: GameAdapter) -> str:
    """What stored results must have been worked out by to be shown as they are."""
    return f"{adapter.name} {adapter.rules} cardscore {__version__}"


def _record(adapter: GameAdapter, version: int, summary: Summary) -> dict[str, Any]:
    """What ``matches.summary`` holds: the summary less its rounds (each round's row has its
    own), the rules that worked it out and the version it belongs to."""
    match = {k: v for k, v in summary.items() if k != "rounds"}
    return {"rules": _rules(adapter), "version": version, "match": match}


def _checked(round_: RoundSummary) -> dict[str, Any]:
    """A round's columns ``checked`` and ``detail`` (as statement parameters)."""
    checked = {k: v for k, v in round_.items() if k != "detail"}
    return {"new_checked": checked, "new_detail": round_["detail"]}


class _Detail(Mapping[str, Any]):
    """A round's breakdowns as stored, decoded when first looked at (a page shows the last
    rounds of a match; its chart needs only every round's totals)."""

    __slots__ = ("_text", "_value")

    def __init__(self, text: str) -> None:
        self._text = text
        self._value: dict[str, Any] | None = None

    def _decoded(self) -> dict[str, Any]:
        if self._value is None:
            self._value = json.loads(self._text)
        return self._value

    def __getitem__(self, key: str) -> Any:
        return self._decoded()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._decoded())

    def __len__(self) -> int:
        return len(self._decoded())


def _stored_summary(adapter: GameAdapter, row: Any, rounds_rows: list[Any]) -> Summary | None:
    """The summary stored with the match (``row`` from ``_SELECT_STORED``, ``rounds_rows`` its
    rounds' from ``_SELECT_ROUNDS``), or None unless this process's rules worked it out at the
    match's version, for every round."""
    record = row.summary
    if (
        not isinstance(record, dict)
        or record.get("rules") != _rules(adapter)
        or record.get("version") != row.version
        or not isinstance(record.get("match"), dict)
    ):
        return None
    rounds: list[RoundSummary] = []
    for number, stored in enumerate(rounds_rows, start=1):
        round_, detail = stored.checked, stored.detail
        if not isinstance(round_, dict) or round_.get("number") != number or detail is None:
            return None
        rounds.append(cast(RoundSummary, {**round_, "detail": _Detail(detail)}))
    return cast(Summary, {**record["match"], "rounds": rounds})


class _Stored:
    """:class:`Played` for a match read from its stored results: shown as stored, and checked
    whole (which a new round needs: the match's state) only when something is added."""

    def __init__(
        self,
        adapter: GameAdapter,
        config: Mapping[str, Any],
        documents: list[dict[str, Any]],
        summary: Summary,
    ) -> None:
        self._adapter = adapter
        self._config = config
        self._documents = documents
        self._summary = summary
        self._played: Played | None = None

    @property
    def opened(self) -> bool:
        """Whether the match was checked whole (something was added)."""
        return self._played is not None

    @property
    def documents(self) -> list[dict[str, Any]]:
        return self._documents if self._played is None else self._played.documents

    def add(self, document: Mapping[str, Any]) -> None:
        if self._played is None:
            self._played = self._adapter.open(self._config, self._documents)
        self._played.add(document)

    def summary(self) -> Summary:
        if self._played is not None:
            return self._played.summary()
        return cast(Summary, {**self._summary, "rounds": list(self._summary["rounds"])})


class Recent:
    """The matches this process worked on last, each at the version it was at then (an LRU;
    a 20-round Tranca match takes about 200 kB).

    A change ``take``\\s its match out (it will change the :class:`Played` in place) and puts it
    back at the new version once stored; a failed change simply leaves it out. Readers look
    under the lock, while nobody can be changing what they see.
    """

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._kept: OrderedDict[str, _Kept] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, match_id: str, version: int) -> _Kept | None:
        with self._lock:
            kept = self._kept.get(match_id)
            if kept is None or kept.version != version:
                return None
            del self._kept[match_id]
            return kept

    def put(self, match_id: str, kept: _Kept) -> None:
        with self._lock:
            known = self._kept.get(match_id)
            if known is not None and known.version > kept.version:
                return  # a reader that started earlier: keep the newer one
            self._kept[match_id] = kept
            self._kept.move_to_end(match_id)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)

    def take_older(self, match_id: str, version: int) -> _Kept | None:
        """Take out the match if it is kept at a version before ``version``."""
        with self._lock:
            kept = self._kept.get(match_id)
            if kept is None or kept.version >= version:
                return None
            del self._kept[match_id]
            return kept

    def look(self, match_id: str, version: int) -> tuple[list[dict[str, Any]], Summary] | None:
        """The documents and summary of a match kept at ``version``, if it is."""
        with self._lock:
            kept = self._kept.get(match_id)
            if kept is None or kept.version != version:
                return None
            return list(kept.played.documents), kept.played.summary()


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


def _access(match_id: str, key: str | None, row: Any, *, write: bool) -> Access:
    """The key's access to the match (``row`` has the keys' hashes), or the problem why not."""
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
    return access


Change = Callable[[GameAdapter, Mapping[str, Any], Played], Played]


def _differ(before: dict[str, Any], after: dict[str, Any]) -> bool:
    return before is not after and before != after


def _first_change(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> int:
    """The index of the first round a change added or replaced (the number of rounds left
    when it only took rounds away)."""
    for index, (before, after) in enumerate(zip(old, new, strict=False)):
        if _differ(before, after):
            return index
    return min(len(old), len(new))


class MatchStore:
    def __init__(self, engine: Engine, recent: int = 64) -> None:
        self.engine = engine
        self.write_engine = write_engine(engine)
        # A read (the match's row, then its rounds) is one snapshot: SQLite's transactions are;
        # PostgreSQL's default (read committed) would let a save land between the two.
        self.read_engine = (
            engine.execution_options(isolation_level="REPEATABLE READ")
            if engine.dialect.name == "postgresql"
            else engine
        )
        self.recent = Recent(recent)
        self.listeners: list[Callable[[str, int], None]] = []
        """Called with (match id, new version) after each change is committed."""
        self._notify = engine.dialect.name == "postgresql"
        # SQLite has one writer at a time: threads of this process queue here, in order, rather
        # than in SQLite's busy handler, which polls with growing sleeps.
        self._write_lock: AbstractContextManager[Any] = (
            threading.Lock() if engine.dialect.name == "sqlite" else nullcontext()
        )

    @property
    def write_lock(self) -> AbstractContextManager[Any]:
        """Held around every write transaction (SQLite's writers queue here, in order)."""
        return self._write_lock

    def create(self, game: str, request: Mapping[str, Any]) -> Created:
        config = _adapter(game).new_config(request)
        edit_key = new_key()
        share_key = share_key_for(edit_key)
        now = utcnow()
        match_id = new_match_id()
        with self._write_lock, self.write_engine.begin() as connection:
            connection.execute(
                insert(_MATCHES),
                {
                    "id": match_id,
                    "game": game,
                    "config": config,
                    "edit_key_hash": key_hash(edit_key),
                    "share_key_hash": key_hash(share_key),
                    "version": 1,
                    "created_at": now,
                    "updated_at": now,
                },
            )
        return Created(match_id, game, 1, edit_key, share_key)

    @staticmethod
    def _row(connection: Connection, match_id: str, statement: Any = _SELECT_MATCH) -> Any:
        row = connection.execute(statement, {"match_id": match_id}).one_or_none()
        if row is None:
            raise ProblemError(404, f"there is no match {match_id!r}", "not-found")
        return row

    @staticmethod
    def _rounds(connection: Connection, match_id: str) -> tuple[list[dict[str, Any]], list[Any]]:
        """The match's round documents, and its rounds' rows (with what checking found)."""
        rows = connection.execute(_SELECT_ROUNDS, {"match_id": match_id}).all()
        return [r.document for r in rows], list(rows)

    def peek(self, match_id: str, key: str | None) -> tuple[Access, int]:
        """The key's access to the match and the match's version now (reads one row)."""
        with self.engine.connect() as connection:
            row = self._row(connection, match_id)
        return _access(match_id, key, row, write=False), int(row.version)

    def read(self, match_id: str, key: str | None, *, keep: bool = True) -> Snapshot:
        """The match for ``key``; ``keep=False`` for a one-off read (it evicts no kept match)."""
        with self.read_engine.begin() as connection:
            row = self._row(connection, match_id)
            access = _access(match_id, key, row, write=False)
            seen = self.recent.look(match_id, row.version)
            if seen is None:  # the same snapshot: the version cannot have moved on
                row = self._row(connection, match_id, _SELECT_STORED)
                documents, checked = self._rounds(connection, match_id)
        if seen is not None:
            documents, summary = seen
            return Snapshot(match_id, row.game, row.config, documents, row.version, access, summary)
        kept = self._opened(match_id, row, documents, checked, catch_up=keep)
        summary = kept.played.summary()
        if not kept.stored:
            kept = replace(kept, stored=self._store_checked(match_id, kept, summary))
        snapshot = Snapshot(
            match_id,
            row.game,
            row.config,
            list(kept.played.documents),
            row.version,
            access,
            summary,
        )
        if keep:
            self.recent.put(match_id, kept)
        return snapshot

    def _opened(
        self,
        match_id: str,
        row: Any,
        documents: list[dict[str, Any]],
        checked: list[Any],
        catch_up: bool = True,
    ) -> _Kept:
        """The match (``row`` from ``_SELECT_STORED``) at its version: as stored when what was
        stored can be trusted; else checked whole."""
        adapter = _adapter(row.game)
        summary = _stored_summary(adapter, row, checked)
        caught = self._caught_up(match_id, row, documents) if catch_up else None
        if caught is not None:
            return _Kept.of(row, caught, summary is not None)
        if summary is not None:
            return _Kept.of(row, _Stored(adapter, row.config, documents, summary), True)
        return _Kept.of(row, adapter.open(row.config, documents), False)

    def _caught_up(self, match_id: str, row: Any, documents: list[dict[str, Any]]) -> Played | None:
        """The match kept here at an older version, with the rounds it lacks checked, when the
        rounds kept are the first of ``documents`` (another worker added rounds)."""
        kept = self.recent.take_older(match_id, row.version)
        if kept is None or (isinstance(kept.played, _Stored) and not kept.played.opened):
            return None  # what is stored now costs nothing more to show
        old = kept.played.documents
        if len(old) > len(documents) or documents[: len(old)] != old:
            return None
        try:
            for document in documents[len(old) :]:
                kept.played.add(document)  # checked as a save checks it
        except CardscoreError:
            return None
        if kept.played.documents != documents:  # a reply was added on the way
            return None
        return kept.played

    def _store_checked(self, match_id: str, kept: _Kept, summary: Summary) -> bool:
        """Store what checking the match found, for every round, if it is still at the version
        that was checked; whether it was stored."""
        rounds = [
            {"in_match": match_id, "n": number, **_checked(round_)}
            for number, round_ in enumerate(summary["rounds"], start=1)
        ]
        record = _record(_adapter(kept.game), kept.version, summary)
        try:
            with self._write_lock, self.write_engine.begin() as connection:
                stored = connection.execute(
                    _STORE_SUMMARY,
                    {"match_id": match_id, "at": kept.version, "new_summary": record},
                )
                if stored.rowcount != 1:
                    return False  # changed meanwhile: whoever changed it stored its own
                if rounds:
                    connection.execute(_STORE_CHECKED, rounds)
        except DBAPIError:
            return False  # the read stands without it (the next read tries again)
        return True

    def _load(self, match_id: str, key: str | None, version: int) -> _Kept:
        """The match at ``version`` from the database (not kept here)."""
        with self.read_engine.begin() as connection:
            row = self._row(connection, match_id, _SELECT_STORED)
            _access(match_id, key, row, write=True)
            if row.version != version:
                raise _conflict(match_id, version, row.version)
            documents, checked = self._rounds(connection, match_id)
        return self._opened(match_id, row, documents, checked)

    def _change(self, match_id: str, key: str | None, version: int, change: Change) -> Snapshot:
        """Apply ``change`` to the match at ``version`` and store the result, all or nothing.

        The rounds are checked outside the write transaction, on the match at ``version``; the
        write then succeeds only if the match is still at that version (the version moves on
        every change), so what was checked is what is stored, with what checking found. The
        write lock is held only for the few statements and the commit.
        """
        kept = self.recent.take(match_id, version)
        if kept is None:
            kept = self._load(match_id, key, version)
        else:
            _access(match_id, key, kept, write=True)
        adapter = _adapter(kept.game)
        old = list(kept.played.documents)
        played = change(adapter, kept.config, kept.played)
        new = played.documents
        summary = played.summary()
        changed = _first_change(old, new)
        # Rounds after the first changed one have new running totals; all of them when what
        # was stored before is missing or by other rules.
        rechecked = changed if kept.stored else 0
        now = utcnow()
        with self._write_lock, self.write_engine.begin() as connection:
            bumped = connection.execute(
                _BUMP,
                {
                    "match_id": match_id,
                    "sent": version,
                    "next": version + 1,
                    "now": now,
                    "new_summary": _record(adapter, version + 1, summary),
                },
            )
            if bumped.rowcount != 1:
                current = connection.scalar(_SELECT_VERSION, {"match_id": match_id})
                raise _conflict(match_id, version, current)
            # Rewrite only the rounds that differ: a save adds one row, an edit replaces one.
            if len(new) < len(old):
                connection.execute(_DELETE_AFTER, {"match_id": match_id, "last": len(new)})
            if len(new) > len(old):
                connection.execute(
                    _INSERT_ROUNDS,
                    [
                        {
                            "match_id": match_id,
                            "number": n,
                            "document": d,
                            "checked": _checked(summary["rounds"][n - 1])["new_checked"],
                            "detail": summary["rounds"][n - 1]["detail"],
                            "created_at": now,
                        }
                        for n, d in enumerate(new[len(old) :], start=len(old) + 1)
                    ],
                )
            replaced, rescored = [], []
            for index in range(rechecked, min(len(old), len(new))):
                values = {
                    "in_match": match_id,
                    "n": index + 1,
                    **_checked(summary["rounds"][index]),
                }
                if _differ(old[index], new[index]):
                    replaced.append({**values, "new_document": new[index], "now": now})
                else:
                    rescored.append(values)
            if replaced:
                connection.execute(_REPLACE_ROUND, replaced)
            if rescored:
                connection.execute(_STORE_CHECKED, rescored)
            if self._notify:  # other servers' pages hear of it once this commits
                connection.execute(NOTIFY, {"payload": f"{match_id} {version + 1}"})
        # Worked out before the match goes back where another change may take it.
        snapshot = Snapshot(
            match_id,
            kept.game,
            kept.config,
            list(new),
            version + 1,
            "edit",
            summary,
            changed,
        )
        self.recent.put(match_id, replace(kept, version=version + 1, played=played, stored=True))
        for listener in self.listeners:
            listener(match_id, version + 1)
        return snapshot

    def add_round(
        self, match_id: str, key: str | None, version: int, document: dict[str, Any]
    ) -> Snapshot:
        def add(_game: GameAdapter, _config: Mapping[str, Any], played: Played) -> Played:
            played.add(document)  # only the new round is checked and scored
            return played

        try:
            return self._change(match_id, key, version, add)
        except ProblemError as error:
            again = self._saved_already(match_id, key, version, document, error)
            if again is None:
                raise
            return again

    def _saved_already(
        self,
        match_id: str,
        key: str | None,
        version: int,
        document: dict[str, Any],
        error: ProblemError,
        number: int | None = None,
    ) -> Snapshot | None:
        """The match, when a refused change is the one its last save made: sent again because
        its answer was lost (a phone's connection dropped, or the page was left while saving).
        The match is then one version on, with this very round last (a round added) or at
        ``number`` (a round replaced); that save is acknowledged again rather than refused as a
        conflict; any other change since is still a conflict."""
        if error.kind != "version-conflict" or error.extra.get("current_version") != version + 1:
            return None
        snapshot = self.read(match_id, key, keep=False)
        where = len(snapshot.documents) if number is None else number
        if snapshot.version != version + 1 or not _same_round(snapshot, where, document):
            return None
        return replace(snapshot, changed=where - 1)

    def edit_round(
        self, match_id: str, key: str | None, version: int, number: int, document: dict[str, Any]
    ) -> Snapshot:
        def edit(game: GameAdapter, config: Mapping[str, Any], played: Played) -> Played:
            if not game.replaceable:
                raise ProblemError(
                    422,
                    f"a {game.name} move cannot be replaced (the computer answered it); "
                    "undo takes back your last move and its answer",
                    "not-replaceable",
                )
            old = played.documents
            if not 1 <= number <= len(old):
                raise ProblemError(404, f"match {match_id!r} has no round {number}", "not-found")
            return game.open(config, [*old[: number - 1], document, *old[number:]])

        try:
            return self._change(match_id, key, version, edit)
        except ProblemError as error:
            again = self._saved_already(match_id, key, version, document, error, number)
            if again is None:
                raise
            return again

    def undo(self, match_id: str, key: str | None, version: int) -> Snapshot:
        def drop_last(game: GameAdapter, config: Mapping[str, Any], played: Played) -> Played:
            if not played.documents:
                raise ProblemError(422, "there is no round to undo", "nothing-to-undo")
            return game.open(config, game.undo(played.documents))

        return self._change(match_id, key, version, drop_last)


def _same_round(snapshot: Snapshot, number: int, document: dict[str, Any]) -> bool:
    """Whether ``document`` is the match's round ``number``: as stored, or as the game writes it
    (a game may store a round's canonical form, not the spelling the phone sent)."""
    if not 1 <= number <= len(snapshot.documents):
        return False
    stored = snapshot.documents[number - 1]
    if stored == document:
        return True
    try:
        played = _adapter(snapshot.game).open(snapshot.config, snapshot.documents[: number - 1])
        played.add(document)
    except CardscoreError:
        return False
    return bool(played.documents[number - 1] == stored)
