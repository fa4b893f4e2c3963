"""SQLite's writer: this process's one writing connection, its transactions taken in turn,
and the thread that checkpoints its write-ahead log."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy.engine import Connection, Dialect, Engine
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.expression import UpdateBase

from shutthebox.web.storage.engine import driver_error
from shutthebox.web.storage.queries import Move, NewGame, store_move, store_new_game

T = TypeVar("T")

log = logging.getLogger(__name__)


RESTART_FRAMES = 16_384
"""Pages (4 KiB) a SQLite log holds before a checkpoint takes the writers' turn to start it
over (64 MiB; see :class:`Checkpointer`)."""


class Checkpointer:
    """Moves a SQLite file's write-ahead log into the database from a thread of its own.

    SQLite checkpoints by itself in the commit that takes the log past 1,000 pages, and
    that commit also waits for two file syncs: one answer in a few hundred then waits
    milliseconds more, and on average a move's commit costs half as much again. The
    :class:`SqliteWriter` checkpoints no more by itself; this thread does, every
    ``seconds``, without holding up writers or readers (a ``PASSIVE`` checkpoint), while
    the thread's file syncs let the server's own thread run.

    SQLite starts the log over from its beginning only when a writer finds all of it
    copied, which a checkpoint beside a steady stream of commits may never leave: the moves
    made while it copies are still to copy when it ends. A synthetic writer at 1,000
    commits a second grew its log by 18 MiB a second that way, without end (530 MiB after
    30 s). So once the log holds ``restart_frames`` pages or more (64 MiB of 4 KiB pages,
    by default), a second checkpoint copies, in the writers' ``turn`` (no commit in
    between), what arrived during the first, and the next commit starts the log over.

    Not after every checkpoint: the second one waits for two file syncs while every writer
    waits for it, and a server's writer is its event loop, so every answer would queue
    behind it each time (the manual's architecture page gives the figures measured).
    """

    def __init__(self, engine: Engine, seconds: float = 0.5,
                 turn: threading.Lock | None = None,
                 restart_frames: int = RESTART_FRAMES) -> None:
        self.engine = engine
        self.seconds = seconds
        self.turn = turn
        self.restart_frames = restart_frames
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, daemon=True,
                                            name="sqlite-checkpoints")
            self._thread.start()

    def checkpoint(self) -> None:
        with self.engine.connect() as connection:
            frames = connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)").one()[1]
            # (what it reports copied is all it set out to copy: the log as it began)
            if self.turn is not None and frames >= max(self.restart_frames, 1):
                with self.turn:
                    connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)").all()

    def _run(self) -> None:
        while not self._stop.wait(self.seconds):
            try:
                self.checkpoint()
            except Exception:       # a busy or closed file: try again next time
                log.debug("checkpoint failed", exc_info=True)

    def stop(self) -> None:
        """Stop the thread after one last checkpoint."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
            try:
                self.checkpoint()
            except Exception:
                log.debug("last checkpoint failed", exc_info=True)


@dataclass(frozen=True)
class Compiled:
    """A statement compiled for the driver: its SQL, and for each of its parameters in
    order, the name it is given by and how its value is made ready (the bind processor of
    its type: a date as SQLite stores it), as SQLAlchemy would."""

    sql: str
    names: tuple[str, ...]
    ready: tuple[Callable[[Any], Any] | None, ...]

    @classmethod
    def of(cls, statement: UpdateBase, dialect: Dialect) -> Compiled:
        compiled = statement.compile(dialect=dialect)
        assert isinstance(compiled, SQLCompiler)    # (an INSERT or an UPDATE)
        names = tuple(compiled.positiontup or ())
        return cls(str(compiled), names, tuple(
            compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect)
            for name in names))

    def values(self, row: dict[str, Any]) -> list[Any]:
        return [row[name] if ready is None else ready(row[name])
                for name, ready in zip(self.names, self.ready, strict=True)]


class SqliteWriter:
    """This process's one connection that writes to a SQLite file, its transactions taken
    in turn.

    SQLite lets one connection write at a time. A transaction here first takes the file's
    write lock (``BEGIN IMMEDIATE``). When another process holds it, it asks again after
    0.2 ms, then 0.4, up to 2 ms between tries, for at most ``wait`` seconds, where
    SQLite's own busy handler would sleep 1, 2, 5, 10 ms and more while a transaction holds
    the lock for a tenth of a millisecond. Holding one connection also spares each move
    the pool's check-out and reset. Checkpoints are left to a :class:`Checkpointer`.
    """

    interleaves = False
    """A request's work runs whole on the event loop (:meth:`run`)."""

    def __init__(self, engine: Engine, wait: float = 5.0,
                 restart_frames: int = RESTART_FRAMES) -> None:
        self.engine = engine
        self.wait = wait
        self._errors: type[Exception] = engine.dialect.dbapi.Error  # type: ignore[union-attr]
        self._turn = threading.Lock()
        self._compiled: dict[UpdateBase, Compiled] = {}
        self.checkpoints = Checkpointer(engine, turn=self._turn,
                                        restart_frames=restart_frames)
        self._open()

    def _open(self) -> None:
        self.connection = self.engine.connect()
        raw = self.connection.connection.dbapi_connection
        assert raw is not None
        raw.isolation_level = None  # BEGIN is sent here
        self.connection.exec_driver_sql("PRAGMA busy_timeout=0")
        self.connection.exec_driver_sql("PRAGMA wal_autocheckpoint=0")
        self.connection.commit()
        self._raw: Any = raw
        self.checkpoints.start()

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """A write transaction: committed at the end, rolled back on an error. The
        transactions of this process's threads take their turns here, so that only
        another process is ever waited for in ``BEGIN IMMEDIATE``."""
        with self._turn:
            if self.connection.closed:      # closed, and used again (an app started twice)
                self._open()
            self._begin()
            try:
                yield self.connection
            except BaseException:
                if self._raw.in_transaction:
                    self._raw.execute("ROLLBACK")
                self.connection.rollback()
                raise
            try:
                self._raw.execute("COMMIT")
            except self._errors as error:
                if self._raw.in_transaction:
                    self._raw.execute("ROLLBACK")
                raise driver_error(self.connection, "COMMIT", None, error) from None
            finally:
                self.connection.commit()

    def _begin(self) -> None:
        delay, deadline = 0.0002, time.monotonic() + self.wait
        while True:
            try:
                self._raw.execute("BEGIN IMMEDIATE")
                return
            except self._errors as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise driver_error(self.connection, "BEGIN IMMEDIATE", None,
                                       error) from None
            time.sleep(delay)
            delay = min(delay * 2, 0.002)

    def writing(self) -> AbstractContextManager[Connection]:
        """A write transaction (SQLite's move is its statements in one)."""
        return self.transaction()

    def begin(self, connection: Connection) -> None:
        """Nothing to do: :meth:`writing` is a transaction from its start."""

    def store_move(self, connection: Connection, move: Move) -> bool:
        """Store the move in the writer's transaction: its statements (those of
        :func:`~shutthebox.web.storage.queries.store_move`) compiled once and run on
        the driver's connection, sparing each the cost of SQLAlchemy's execution, the
        larger part of a SQLite move's storing (the performance page has the figures);
        on another connection, through SQLAlchemy.

        :raises sqlalchemy.exc.IntegrityError: the answer's key was stored first by
            another request (nothing written).
        """
        return store_move(connection, move,
                          self._run if connection is self.connection else None)

    def _run(self, statement: UpdateBase, rows: list[dict[str, Any]]) -> int:
        """Run the statement once for each row of parameters on the driver's connection
        (see :data:`~shutthebox.web.storage.queries.Run`), its errors raised as
        SQLAlchemy's would be."""
        found = self._compiled.get(statement)
        if found is None:
            found = self._compiled[statement] = Compiled.of(statement, self.engine.dialect)
        values = [found.values(row) for row in rows]
        try:
            if len(values) == 1:
                return int(self._raw.execute(found.sql, values[0]).rowcount)
            return int(self._raw.executemany(found.sql, values).rowcount)
        except self._errors as error:
            raise driver_error(self.connection, found.sql, values, error) from None

    def store_new_game(self, connection: Connection, game: NewGame) -> None:
        """Store the new game in the writer's transaction, its statements compiled once as
        a move's are (:meth:`store_move`); on another connection, through SQLAlchemy."""
        store_new_game(connection, game,
                       self._run if connection is self.connection else None)

    def connect(self) -> AbstractContextManager[Connection]:
        """A connection of the engine's pool to read with."""
        return self.engine.connect()

    async def run(self, function: Callable[..., T], /, *arguments: Any) -> T:
        """``function(*arguments)`` on the event loop itself: SQLite's work for a request
        is shorter than a hand-over to a thread and back."""
        return function(*arguments)

    async def aclose(self) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection (not given back to the pool: its settings are this writer's),
        after a last checkpoint."""
        with self._turn:
            if not self.connection.closed:
                self.connection.invalidate()
                self.connection.close()
        self.checkpoints.stop()
