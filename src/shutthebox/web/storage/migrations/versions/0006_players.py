"""Players who own their names, and the daily box dealt by the server.

- ``players``: a claimed name (as shown, and its key: names that look the same share one),
  the SHA-256 of its recovery code, and the recovery attempts that missed (bounded);
- ``player_tokens``: the SHA-256 of each device's player token, and whose it is;
- ``seats.player_id`` and ``results.player_id``: the claimed player who held a seat (null:
  a name given at the table, unclaimed, never rated);
- ``server_secrets``: secrets made at the first start and shared by every process (the
  daily box's dice);
- ``daily_turns``: each claimed player's turn of a day's box, its decisions so far (the
  server deals the next roll only once a decision is stored).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("name_key", sa.String(160), nullable=False, unique=True),
        sa.Column("recovery_hash", sa.String(64), nullable=False),
        sa.Column("recovery_misses", sa.Integer(), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False))
    op.create_table(
        "player_tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False,
                  index=True),
        sa.Column("created", sa.DateTime(), nullable=False))
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("player_id", sa.Integer(), nullable=True))
    with op.batch_alter_table("results") as results:
        results.add_column(sa.Column("player_id", sa.Integer(), nullable=True))
        results.create_index("ix_results_player_id", ["player_id"])
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False))
    op.create_table(
        "daily_turns",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("moves", sa.JSON(), nullable=False),
        sa.Column("decisions", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.Column("updated", sa.DateTime(), nullable=False))


def downgrade() -> None:
    op.drop_table("daily_turns")
    op.drop_table("server_secrets")
    with op.batch_alter_table("results") as results:
        results.drop_index("ix_results_player_id")
        results.drop_column("player_id")
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("player_id")
    op.drop_table("player_tokens")
    op.drop_table("players")
