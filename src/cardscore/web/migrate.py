"""Bring a database's schema up to date with the migrations shipped in the package.

Runs at start-up (``cardscore serve`` and :func:`cardscore.web.app.create_app`); applying it
twice does nothing the second time.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, text

from cardscore.web.db import write_engine

__all__ = ["current_revision", "head_revision", "upgrade"]

_SCRIPTS = Path(__file__).with_name("migrations")


def _config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(_SCRIPTS))
    return config


_LOCK = 0x63617264  # "card": the PostgreSQL advisory lock that serialises migrations


def upgrade(engine: Engine) -> None:
    """Apply every migration the database lacks, in one transaction.

    Several workers may start at once: the transaction takes the database's write lock first
    (``BEGIN IMMEDIATE`` on SQLite, an advisory lock on PostgreSQL), so one migrates and the
    others then find the schema up to date.
    """
    config = _config()
    with write_engine(engine).begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def head_revision() -> str | None:
    return ScriptDirectory.from_config(_config()).get_current_head()
