"""Seats with secret tokens and invites, who acts next, and the first answers to repeated
actions. Games of release 0.1 get their seats from their stored players: their human seats
have no token (they can be watched, not played: release 0.1 had no way to tell players
apart).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("waiting_for", sa.String(8), nullable=False,
                                   server_default="human"))
        games.create_index("ix_games_waiting_for", ["waiting_for"])
    seats = op.create_table(
        "seats",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("computer", sa.String(40), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True, unique=True),
        sa.Column("invite", sa.String(16), nullable=True, unique=True),
        sa.Column("joined", sa.DateTime(), nullable=True))
    op.create_table(
        "answers",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("key", sa.String(128), primary_key=True),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False))
    bind = op.get_bind()
    bind.execute(sa.text("UPDATE games SET waiting_for = 'nobody' WHERE status = 'over'"))
    rows: list[dict[str, Any]] = []
    for game_id, config, strategies, created in bind.execute(
            sa.text("SELECT id, config, seats, created FROM games")):
        config = json.loads(config) if isinstance(config, str) else config
        strategies = json.loads(strategies) if isinstance(strategies, str) else strategies
        created = datetime.fromisoformat(created) if isinstance(created, str) else created
        for seat, name in enumerate(config["players"]):
            computer = strategies[seat] if seat < len(strategies) else None
            rows.append({"game_id": game_id, "seat": seat, "name": name,
                         "kind": "computer" if computer else "here", "computer": computer,
                         "token_hash": None, "invite": None, "joined": created})
    if rows:
        op.bulk_insert(seats, rows)
