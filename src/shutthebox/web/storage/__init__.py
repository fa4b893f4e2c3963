"""Storage with SQLAlchemy 2: games, their event logs, seats and the answers to repeated
requests, on SQLite (a file in the data folder) by default or PostgreSQL by URL.

One concept a module: :mod:`~shutthebox.web.storage.schema` (the tables),
:mod:`~shutthebox.web.storage.engine` (a database by URL, its migrations and errors),
:mod:`~shutthebox.web.storage.queries` (the statements, the same on both databases),
and the interface the game service writes through (:mod:`~shutthebox.web.storage.store`)
with an adapter per database for what differs: :mod:`~shutthebox.web.storage.sqlite`
(SQLite's one writing connection and its checkpoints) and
:mod:`~shutthebox.web.storage.postgresql` (the announcements to the other server
processes). The names the rest of the server uses are here.
"""

from shutthebox.web.storage.engine import (
    StorageError,
    default_url,
    driver_error,
    is_postgresql,
    make_engine,
    safe_url,
    upgrade,
)
from shutthebox.web.storage.pooled import PooledStore
from shutthebox.web.storage.postgresql import (
    NOTIFY_CHANNEL,
    Announcer,
    News,
    heard,
    heard_table,
)
from shutthebox.web.storage.queries import (
    Move,
    NewGame,
    append_events,
    create_game,
    event_count,
    load_events,
    now,
    record_results,
    store_move,
    store_new_game,
    stored_answer,
)
from shutthebox.web.storage.schema import ANSWERS, EVENTS, GAMES, RESULTS, SEATS, SERIES
from shutthebox.web.storage.sqlite import Checkpointer, SqliteWriter
from shutthebox.web.storage.store import Store, store_for

__all__ = [
    "ANSWERS",
    "EVENTS",
    "GAMES",
    "NOTIFY_CHANNEL",
    "RESULTS",
    "SEATS",
    "SERIES",
    "Announcer",
    "Checkpointer",
    "Move",
    "NewGame",
    "News",
    "PooledStore",
    "SqliteWriter",
    "StorageError",
    "Store",
    "append_events",
    "create_game",
    "default_url",
    "driver_error",
    "event_count",
    "heard",
    "heard_table",
    "is_postgresql",
    "load_events",
    "make_engine",
    "now",
    "record_results",
    "safe_url",
    "store_for",
    "store_move",
    "store_new_game",
    "stored_answer",
    "upgrade",
]
