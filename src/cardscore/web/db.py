"""Database engines: SQLite in WAL mode with durable commits, or PostgreSQL.

SQLite write transactions start with ``BEGIN IMMEDIATE`` so that two writers queue on the lock
(busy timeout) instead of failing when a read turns into a write; reads are plain snapshots.
``synchronous=FULL`` makes a commit durable before the app acknowledges it.
"""

from __future__ import annotations

import sqlite3
import time
from typing import Any

from sqlalchemy import Engine, create_engine, event

__all__ = ["make_engine", "write_engine"]

_BUSY_TIMEOUT_S = 30
_WRITE = "cardscore_write"


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    # Let SQLAlchemy's "begin" event issue BEGIN itself (pysqlite's implicit BEGIN is deferred).
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout={_BUSY_TIMEOUT_S * 1000}")
    _turn_on_wal(cursor)
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _turn_on_wal(cursor: Any) -> None:
    # WAL is the file's mode: the first connection sets it for all. Setting it needs the file
    # to itself, and SQLite then answers "database is locked" at once, without the busy
    # timeout, while another connection holds a lock (workers starting at once): retry.
    deadline = time.monotonic() + _BUSY_TIMEOUT_S
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")  # a no-op where it is on already
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def _sqlite_begin(connection: Any) -> None:
    # Writers take the lock up front; readers get a WAL snapshot and never wait for writers.
    write = connection.get_execution_options().get(_WRITE, False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def write_engine(engine: Engine) -> Engine:
    """The same engine (and pool), marked so that its transactions are writes."""
    return engine.execution_options(**{_WRITE: True})


def make_engine(url: str) -> Engine:
    """An engine for ``url`` with the settings above."""
    if url.startswith("sqlite"):
        engine = create_engine(
            url, connect_args={"check_same_thread": False, "timeout": _BUSY_TIMEOUT_S}
        )
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    return create_engine(url, pool_pre_ping=True)
