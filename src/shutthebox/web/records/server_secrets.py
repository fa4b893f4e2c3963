"""The server's own secrets, made at its first start and kept with its data (the table
``server_secrets``), so that every process of the server, and the server after a restart,
reads the same one. Today there is one: :data:`DAILY`, which keys the daily box's dice
(:mod:`shutthebox.web.records.daily`).

Several processes start at once (``--workers``, or servers on one PostgreSQL database): each
inserts a fresh secret unless one is there, and then every process reads the one stored, so
whichever insert came first wins and the others' are never used.
"""

from __future__ import annotations

import secrets

from sqlalchemy import insert, select
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from shutthebox.web.storage.schema import SERVER_SECRETS

DAILY = "daily"
"""The secret that keys the dice of the server's daily box."""

SECRET_BYTES = 32
"""A secret's length: 256 random bits, HMAC-SHA256's own key size."""


def stored_secret(db: Connection, name: str) -> bytes:
    """The secret ``name`` of the server, made (in ``db``'s transaction) if it has none."""
    found = db.execute(select(SERVER_SECRETS.c.value).where(
        SERVER_SECRETS.c.name == name)).scalar_one_or_none()
    if found is None:
        try:
            with db.begin_nested():
                db.execute(insert(SERVER_SECRETS).values(
                    name=name, value=secrets.token_hex(SECRET_BYTES)))
        except IntegrityError:
            pass     # another process made it first: its secret is the one
        found = db.execute(select(SERVER_SECRETS.c.value).where(
            SERVER_SECRETS.c.name == name)).scalar_one()
    return bytes.fromhex(found)


def server_secret(engine: Engine, name: str = DAILY) -> bytes:
    """The secret ``name`` of the server whose data ``engine`` holds (made at the first
    start)."""
    with engine.begin() as db:
        return stored_secret(db, name)
