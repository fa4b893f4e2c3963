"""The turn clock: when it runs out for the decision a game waits for (null for the games
of earlier releases, which have no clock).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("deadline", sa.DateTime(), nullable=True))
        games.create_index("ix_games_deadline", ["deadline"])


def downgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.drop_index("ix_games_deadline")
        games.drop_column("deadline")
