"""A match's deck: what its photos taught recognition about the table's cards.

One row per match that has been taught (a deck spread photo, or cards confirmed on a round's
photo): the profile recognition reads with (a ``.deck`` file's bytes, about 25 kB), the crops
it was fitted to (about 1.5 MB at most), and what the page shows (cards learnt, photos that
taught it). ``revision`` moves on with every change, so two photos teaching at once cannot
lose one another's crops. The row goes with its match.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "match_decks",
        sa.Column(
            "match_id",
            sa.String(32),
            sa.ForeignKey("matches.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("format", sa.Integer(), nullable=False),
        sa.Column("cards", sa.Integer(), nullable=False),
        sa.Column("photos", sa.Integer(), nullable=False),
        sa.Column("spread", sa.Boolean(), nullable=False),
        sa.Column("profile", sa.LargeBinary(), nullable=False),
        sa.Column("memory", sa.LargeBinary(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("match_decks")
