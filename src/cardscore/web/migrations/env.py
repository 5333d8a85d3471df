"""Alembic environment: runs on the connection :func:`cardscore.web.migrate.upgrade` passes in."""

from __future__ import annotations

from alembic import context

from cardscore.web.models import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
