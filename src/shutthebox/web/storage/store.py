"""The storage interface the game service writes through, and the adapter for each
database: :class:`Store` is what a server process needs of a database (write transactions
taken in a safe order, readings, a request's database work run without holding up the
others, closing); :func:`store_for` picks the adapter of an engine's database. The
statements themselves are the same on every database (:mod:`~shutthebox.web.storage.queries`).

- SQLite takes one writer at a time: :class:`~shutthebox.web.storage.sqlite.SqliteWriter`
  writes through one connection of the process's own, its transactions in turn, and
  checkpoints the file's log from a thread. A request's work runs on the event loop
  itself: SQLite answers sooner than a hand-over to a thread and back would take.
- PostgreSQL (or another database with row locks): :class:`PooledStore`. A request's work
  runs through SQLAlchemy's asyncio engine: the work, written as ordinary code, runs in
  :meth:`~sqlalchemy.ext.asyncio.AsyncConnection.run_sync`, where each statement's wait
  for the database lets the event loop serve the other requests. The unit of work locks
  the game's row, so processes changing one game take turns.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Protocol, TypeVar

from sqlalchemy.engine import Connection, Engine

from shutthebox.web.storage.pooled import PooledStore
from shutthebox.web.storage.queries import Move, NewGame
from shutthebox.web.storage.sqlite import SqliteWriter

T = TypeVar("T")


class Store(Protocol):
    """What the game service needs of a database."""

    engine: Engine
    interleaves: bool
    """Whether two requests' work may run at once on the event loop, each waiting for the
    database in turn (then the service keeps the changes to one game in turn itself)."""

    def connect(self) -> AbstractContextManager[Connection]:
        """A connection to read with."""

    def transaction(self) -> AbstractContextManager[Connection]:
        """One write transaction, committed at the end (rolled back on an error)."""

    def writing(self) -> AbstractContextManager[Connection]:
        """A connection to store a move of a game known to be up to date, or a new game,
        with: as few round trips as the database allows (see :meth:`store_move` and
        :meth:`store_new_game`). Anything else done on it comes after :meth:`begin`."""

    def begin(self, connection: Connection) -> None:
        """Make what is done next on a connection of :meth:`writing` one transaction, with
        the move stored at its end."""

    def store_move(self, connection: Connection, move: Move) -> bool:
        """Store the move (:func:`~shutthebox.web.storage.queries.store_move`) on a
        connection of :meth:`transaction` or :meth:`writing`."""

    def store_new_game(self, connection: Connection, game: NewGame) -> None:
        """Store a new game (:func:`~shutthebox.web.storage.queries.store_new_game`) on a
        connection of :meth:`transaction` or :meth:`writing`."""

    async def run(self, function: Callable[..., T], /, *arguments: Any) -> T:
        """``function(*arguments)``: a request's database work, run without holding up
        the other requests longer than its own work takes."""

    def close(self) -> None:
        """Give back what the store holds of the database (what can be given back
        outside the event loop)."""

    async def aclose(self) -> None:
        """Give back all the store holds of the database, as the server stops."""


def store_for(engine: Engine) -> Store:
    """The adapter of the engine's database."""
    if engine.dialect.name == "sqlite":
        return SqliteWriter(engine)
    return PooledStore(engine)
