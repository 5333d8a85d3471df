"""What checking a match found, stored beside its rounds.

``rounds.checked``: the round's scores and running totals; ``rounds.detail``: its breakdowns
(apart, so that a page decodes only those of the rounds it shows); ``matches.summary``: the
match's totals, winner and statistics, with the rules and the match version they belong to.
They start empty: the first read of a match stored before this revision checks it whole, as
before, and stores what it found (:mod:`cardscore.web.store`); the scoring rules live in the
code, not here.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as matches:
        matches.add_column(sa.Column("summary", sa.JSON(), nullable=True))
    with op.batch_alter_table("rounds") as rounds:
        rounds.add_column(sa.Column("checked", sa.JSON(), nullable=True))
        rounds.add_column(sa.Column("detail", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rounds") as rounds:
        rounds.drop_column("detail")
        rounds.drop_column("checked")
    with op.batch_alter_table("matches") as matches:
        matches.drop_column("summary")
