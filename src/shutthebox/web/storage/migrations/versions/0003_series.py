"""The series of games played again ("Play again"): each game's series, its number in it,
the game it was played again from (one rematch a game), the series player at each seat
and who asked for it.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "series",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("series_id", sa.String(32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("previous", sa.String(32), sa.ForeignKey("games.id"), nullable=True,
                  unique=True),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("started_by", sa.String(80), nullable=True))
    op.create_index("ix_series_series_id", "series", ["series_id"])
