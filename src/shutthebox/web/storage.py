"""Storage with SQLAlchemy 2: games, their event logs, seats and the answers to repeated
requests.

SQLite (a file in the data folder) by default; PostgreSQL (or any database SQLAlchemy
knows) by URL. The schema is built and changed by Alembic migrations
(``shutthebox/web/migrations``), applied when an engine is made. A game's events are appended
in the same transaction that moves its ``event_count`` on, so a request that acts on a game
either stores all it did or nothing, and two requests racing on one game cannot both append.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

from sqlalchemy import (
    JSON,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    create_engine,
    event,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from shutthebox.errors import ShutTheBoxError
from shutthebox.paths import data_dir
from shutthebox.web.codec import dumps, loads

log = logging.getLogger(__name__)

MIGRATIONS = Path(__file__).parent / "migrations"
NOTIFY_CHANNEL = "shutthebox_events"
"""The PostgreSQL channel on which a stored batch of events is announced (payload: the game
id and its new event count, ``id:count``)."""


class StorageError(ShutTheBoxError):
    """A database that cannot be used."""


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[list[Any]] = mapped_column(JSON)
    """Per seat: null for a human, or the computer strategy's name."""
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``waiting`` (for friends to take open seats), ``playing`` or ``over``."""
    waiting_for: Mapped[str] = mapped_column(String(8), index=True, default="human")
    """Who acts next: ``join``, ``human``, ``server`` (dice or a computer) or ``nobody``."""
    event_count: Mapped[int] = mapped_column(Integer, default=0)
    created: Mapped[datetime] = mapped_column(DateTime)
    updated: Mapped[datetime] = mapped_column(DateTime)


class EventRow(Base):
    __tablename__ = "events"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    data: Mapped[str] = mapped_column(Text)


class SeatRow(Base):
    """Who holds a seat: its kind, name, the hash of its secret token and its invite."""

    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    """``here`` (a human at the creator's device), ``computer`` or ``open`` (for a friend)."""
    name: Mapped[str] = mapped_column(String(80))
    computer: Mapped[str | None] = mapped_column(String(40), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    invite: Mapped[str | None] = mapped_column(String(16), nullable=True, unique=True)
    joined: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


class AnswerRow(Base):
    """The first answer to an action sent with an ``Idempotency-Key``."""

    __tablename__ = "answers"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(128), primary_key=True)
    status: Mapped[int] = mapped_column(Integer)
    body: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime)


class PlayerResultRow(Base):
    """One finished turn-based game's result for one human or computer player."""

    __tablename__ = "results"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player: Mapped[str] = mapped_column(String(80), index=True)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    format: Mapped[str] = mapped_column(String(32))
    won: Mapped[float] = mapped_column()
    scores: Mapped[list[int]] = mapped_column(JSON)
    """The player's turn scores in this game."""
    shut_boxes: Mapped[int] = mapped_column(Integer)
    finished: Mapped[datetime] = mapped_column(DateTime)


GAMES = cast(Table, GameRow.__table__)
EVENTS = cast(Table, EventRow.__table__)
SEATS = cast(Table, SeatRow.__table__)
ANSWERS = cast(Table, AnswerRow.__table__)
RESULTS = cast(Table, PlayerResultRow.__table__)
"""The tables themselves: the hot path of a move uses plain Core statements on them, which
costs a fraction of the ORM's bookkeeping."""


def default_url() -> str:
    return f"sqlite:///{data_dir() / 'shutthebox.sqlite'}"


def safe_url(url: str) -> str:
    """The URL as it may be shown: the password masked.

    >>> safe_url("postgresql+psycopg://ann:secret@db.example/games")
    'postgresql+psycopg://ann:***@db.example/games'
    """
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "<an unreadable database URL>"


def is_postgresql(engine: Engine) -> bool:
    return engine.dialect.name == "postgresql"


def make_engine(url: str | None = None, migrate: bool = True) -> Engine:
    """An engine for the URL (the default SQLite file if None), its schema migrated to the
    newest version."""
    url = url or default_url()
    try:
        parsed = make_url(url)
        if parsed.drivername in ("postgresql", "postgres"):
            parsed = parsed.set(drivername="postgresql+psycopg")
        sqlite = parsed.get_backend_name() == "sqlite"
        # As many connections kept as the thread pool has threads (40), and a few more for
        # the event loop and the live listener, so that nothing waits for a connection and
        # none is opened and closed again per request (a pool of 8 with 40 more "overflow"
        # connections, closed when given back, had PostgreSQL start a backend for most
        # moves under load). No ping before each use (a round trip of the five of a move):
        # a connection found dead fails its request (503) and has the pool drop every
        # connection made before it, so the next request connects afresh.
        engine = create_engine(
            parsed, connect_args={"check_same_thread": False} if sqlite else {},
            pool_size=44, max_overflow=20)
    except (ArgumentError, NoSuchModuleError, ImportError) as error:
        raise StorageError(f"cannot use the database URL {safe_url(url)!r}: "
                           f"{_scrub(str(error), url)}") from None
    if sqlite:
        @event.listens_for(engine, "connect")
        def _pragmas(connection: Any, _record: Any) -> None:
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA busy_timeout=5000")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()
    if migrate:
        try:
            upgrade(engine)
        except DBAPIError as error:
            engine.dispose()
            reason = _scrub(str(error.orig).strip().splitlines()[0] if str(error.orig).strip()
                            else type(error.orig).__name__, url)
            raise StorageError(f"cannot open the database {safe_url(url)!r}: {reason}") from None
    return engine


def _scrub(message: str, url: str) -> str:
    """A driver's message with the URL and its password taken out."""
    message = message.replace(url, safe_url(url))
    try:
        password = make_url(url).password
    except ArgumentError:
        return "the URL cannot be read"
    return message.replace(str(password), "***") if password else message


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Migrate the database to ``revision`` with Alembic. A database made by release 0.1
    (its tables, no version) is first marked as being at that release's schema."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import inspect

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        if is_postgresql(engine):   # one migration at a time across servers starting at once
            connection.execute(text("SELECT pg_advisory_xact_lock(7245102)"))
        config.attributes["connection"] = connection
        tables = set(inspect(connection).get_table_names())
        if "games" in tables and "alembic_version" not in tables:
            command.stamp(config, "0001")
        command.upgrade(config, revision)


def driver_error(connection: Connection, statement: str, params: Any,
                 error: Exception) -> DBAPIError:
    """A driver's error, from a statement run on the driver's own connection, as the
    SQLAlchemy error that statement would have raised through SQLAlchemy."""
    return cast(DBAPIError, DBAPIError.instance(  # a driver's error: a DBAPIError
        statement, params, error, connection.dialect.dbapi.Error))  # type: ignore[union-attr]


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

    def __init__(self, engine: Engine, wait: float = 5.0,
                 restart_frames: int = RESTART_FRAMES) -> None:
        self.engine = engine
        self.wait = wait
        self._errors: type[Exception] = engine.dialect.dbapi.Error  # type: ignore[union-attr]
        self._turn = threading.Lock()
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
        """A write transaction: committed at the end, rolled back on an error."""
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

    def close(self) -> None:
        """Close the connection (not given back to the pool: its settings are this writer's),
        after a last checkpoint."""
        with self._turn:
            if not self.connection.closed:
                self.connection.invalidate()
                self.connection.close()
        self.checkpoints.stop()


def now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def load_events(connection: Connection, game_id: str,
                since: int = 0) -> list[dict[str, Any]]:
    rows = connection.execute(select(EVENTS.c.data).where(EVENTS.c.game_id == game_id,
                                                          EVENTS.c.position >= since)
                              .order_by(EVENTS.c.position))
    return [loads(data) for (data,) in rows]


class HotSql:
    """The statements of a move as the driver's own SQL (one string per database kind),
    run with ``exec_driver_sql``: a move is the most frequent thing the server does, and
    building, caching and compiling Core statements costs more than the database itself."""

    def __init__(self, dialect: str) -> None:
        def p(name: str) -> str:
            return f":{name}" if dialect == "sqlite" else f"%({name})s"

        self.sqlite = dialect == "sqlite"
        self.postgresql = dialect == "postgresql"
        self.count = f"SELECT event_count FROM games WHERE id = {p('id')}"
        self.move = (f"UPDATE games SET event_count = {p('count')}, updated = {p('updated')}, "
                     f"status = {p('status')}, waiting_for = {p('waiting')} "
                     f"WHERE id = {p('id')} AND event_count = {p('start')}")
        self.step = (f"UPDATE games SET event_count = {p('count')}, updated = {p('updated')} "
                     f"WHERE id = {p('id')} AND event_count = {p('start')}")
        """A move that leaves the game's status and who it waits for as they were (most
        moves): their indexes are not touched."""
        self.append = (f"INSERT INTO events (game_id, position, data) "
                       f"VALUES ({p('game')}, {p('position')}, {p('data')})")
        self.notify = f"SELECT pg_notify('{NOTIFY_CHANNEL}', {p('payload')})"
        # On PostgreSQL a move's writes go in one statement, one round trip where they
        # took three (the game's row, the events, the announcement).
        appended = (f"added AS (INSERT INTO events (game_id, position, data) SELECT moved.id, "
                    f"{p('start')} + e.n - 1, e.data FROM moved, "
                    f"unnest(CAST({p('datas')} AS text[])) WITH ORDINALITY AS e(data, n) "
                    f"RETURNING 1) SELECT (SELECT count(*) FROM added), "
                    f"pg_notify('{NOTIFY_CHANNEL}', {p('payload')}) "
                    f"WHERE EXISTS (SELECT 1 FROM moved)")
        self.step_appending = (f"WITH moved AS ({self.step} RETURNING id), {appended}")
        self.move_appending = (f"WITH moved AS ({self.move} RETURNING id), {appended}")
        self.result = ("INSERT INTO results (game_id, seat, player, rules, format, won, "
                       f"scores, shut_boxes, finished) VALUES ({p('game_id')}, {p('seat')}, "
                       f"{p('player')}, {p('rules')}, {p('format')}, {p('won')}, "
                       f"{p('scores')}, {p('shut_boxes')}, {p('finished')})")
        self.game = ("INSERT INTO games (id, config, seats, status, waiting_for, event_count, "
                     f"created, updated) VALUES ({p('id')}, {p('config')}, {p('seats')}, "
                     f"{p('status')}, {p('waiting')}, 0, {p('now')}, {p('now')})")
        self.seat = ("INSERT INTO seats (game_id, seat, kind, name, computer, token_hash, "
                     f"invite, joined) VALUES ({p('game_id')}, {p('seat')}, {p('kind')}, "
                     f"{p('name')}, {p('computer')}, {p('token_hash')}, {p('invite')}, "
                     f"{p('joined')})")

    def run(self, connection: Connection, statement: str, params: Any) -> Any:
        """Run one of these statements (with a list of parameter sets: once for each);
        answer its cursor (``rowcount``, ``fetchone()``).

        On SQLite through the driver's own connection, SQLAlchemy's execution costing about
        as much as SQLite's own, its errors made SQLAlchemy's as everywhere else; on other
        databases through ``exec_driver_sql``."""
        if not self.sqlite:
            return connection.exec_driver_sql(statement, params)
        raw: Any = connection.connection.driver_connection
        try:
            if isinstance(params, list):
                return raw.executemany(statement, params)
            return raw.execute(statement, params)
        except connection.dialect.dbapi.Error as error:  # type: ignore[union-attr]
            raise driver_error(connection, statement, params, error) from None

    def stamp(self) -> Any:
        """Now, as the column stores it (SQLAlchemy's text form on SQLite)."""
        moment = now()
        return moment.isoformat(" ", "microseconds") if self.sqlite else moment


def hot_sql(connection: Connection) -> HotSql:
    dialect = connection.dialect.name
    found = _HOT.get(dialect)
    if found is None:
        found = _HOT[dialect] = HotSql(dialect)
    return found


_HOT: dict[str, HotSql] = {}


def event_count(connection: Connection, game_id: str) -> int | None:
    """The number of stored events of the game, or None if there is no such game."""
    sql = hot_sql(connection)
    found = sql.run(connection, sql.count, {"id": game_id}).fetchone()
    return None if found is None else int(found[0])


def create_game(connection: Connection, game_id: str, config: dict[str, Any],
                computers: list[str | None], status: str, waiting: str,
                seats: list[dict[str, Any]]) -> None:
    """Store a new game without events, and its seats (``joined``: a bool, stored as now
    or null)."""
    sql = hot_sql(connection)
    stamp = sql.stamp()
    sql.run(connection, sql.game, {
        "id": game_id, "config": dumps(config), "seats": dumps(computers),
        "status": status, "waiting": waiting, "now": stamp})
    sql.run(connection, sql.seat, [
        {**seat, "game_id": game_id, "joined": stamp if seat["joined"] else None}
        for seat in seats])


def record_results(connection: Connection, game_id: str, rows: list[dict[str, Any]]
                   ) -> None:
    """Store a finished game's result for each player (``seat``, ``player``, ``rules``,
    ``format``, ``won``, ``scores``, ``shut_boxes``), finished now."""
    sql = hot_sql(connection)
    stamp = sql.stamp()
    sql.run(connection, sql.result, [
        {**row, "game_id": game_id, "rules": dumps(row["rules"]),
         "scores": dumps(row["scores"]), "finished": stamp} for row in rows])


def append_events(connection: Connection, game_id: str, start: int,
                  events: list[dict[str, Any]], **fields: Any) -> bool:
    """Append events after the first ``start`` ones and set ``fields`` of the game; False
    (and nothing written) if the game no longer has ``start`` events, because another
    request got there first. On PostgreSQL the batch is announced on commit."""
    sql = hot_sql(connection)
    count = start + len(events)
    # The game's row moves on by a hot statement, unless other fields change with it.
    hot = not fields or set(fields) == {"status", "waiting_for"}
    params = {"count": count, "updated": sql.stamp(), "id": game_id, "start": start}
    if fields and hot:
        params |= {"status": fields["status"], "waiting": fields["waiting_for"]}
    if sql.postgresql and events and hot:
        found = sql.run(connection, sql.move_appending if fields else sql.step_appending, {
            **params, "datas": [dumps(item) for item in events],
            "payload": f"{game_id}:{count}"}).fetchone()
        return found is not None and found[0] == len(events)
    moved: Any
    if hot:
        moved = sql.run(connection, sql.move if fields else sql.step, params)
    else:
        moved = connection.execute(
            update(GAMES).where(GAMES.c.id == game_id, GAMES.c.event_count == start)
            .values(event_count=count, updated=now(), **fields))
    if moved.rowcount != 1:
        return False
    if events:
        sql.run(connection, sql.append, [
            {"game": game_id, "position": start + offset, "data": dumps(item)}
            for offset, item in enumerate(events)])
        if sql.postgresql:
            sql.run(connection, sql.notify, {"payload": f"{game_id}:{count}"})
    return True
