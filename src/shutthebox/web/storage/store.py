"""The storage interface the game service writes through, and the adapter for each
database: :class:`Store` is what a server process needs of a database (write transactions
taken in a safe order, readings, closing); :func:`store_for` picks the adapter of an
engine's database. The statements themselves are the same on every database
(:mod:`~shutthebox.web.storage.queries`).

- SQLite takes one writer at a time: :class:`~shutthebox.web.storage.sqlite.SqliteWriter`
  writes through one connection of the process's own, its transactions in turn, and
  checkpoints the file's log from a thread.
- PostgreSQL (or another database with row locks): :class:`PooledStore`, a transaction a
  connection of the engine's one bounded pool; the unit of work locks the game's row, so
  processes changing one game take turns.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Protocol

from sqlalchemy.engine import Connection, Engine

from shutthebox.web.storage.sqlite import SqliteWriter


class Store(Protocol):
    """What the game service needs of a database."""

    engine: Engine

    def transaction(self) -> AbstractContextManager[Connection]:
        """One write transaction, committed at the end (rolled back on an error)."""

    def close(self) -> None:
        """Give back what the store holds of the database."""


class PooledStore:
    """A database of many writers at once (PostgreSQL): each transaction on a connection
    of the engine's pool."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        with self.engine.begin() as connection:
            yield connection

    def close(self) -> None:
        """Nothing to give back: the pool is the engine's."""


def store_for(engine: Engine) -> Store:
    """The adapter of the engine's database."""
    if engine.dialect.name == "sqlite":
        return SqliteWriter(engine)
    return PooledStore(engine)
