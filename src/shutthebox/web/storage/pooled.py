"""PostgreSQL's adapter of the storage interface (:class:`~shutthebox.web.storage.Store`):
a request's work runs on the event loop through SQLAlchemy's asyncio engine, and a move
of a game known to be up to date, or a new game, is stored in one statement.

A request's work (:meth:`PooledStore.run`), written as ordinary code, runs in
:meth:`~sqlalchemy.ext.asyncio.AsyncConnection.run_sync` on a connection of the asyncio
engine's bounded pool: each statement's wait for the database lets the event loop serve
the other requests, where a statement run on the loop itself would hold them all up for
its round trip. Work outside a request (the server's background tasks, in threads, and
scripts) uses the synchronous engine and its own pool.

A request's connection reads in autocommit: a reading is one statement, which PostgreSQL
runs in a transaction of its own, so a ``BEGIN`` and a ``ROLLBACK`` around it would be two
more round trips for nothing; and psycopg forgets every prepared statement of a connection
at each ``ROLLBACK``, to prepare them again at their next uses. A write transaction
(:meth:`PooledStore.transaction`, :meth:`PooledStore.writing`) leaves autocommit for its
time.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import (
    JSON,
    DateTime,
    Insert,
    Integer,
    String,
    Table,
    Text,
    and_,
    bindparam,
    cast,
    column,
    func,
    insert,
    select,
    true,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.sql import FromClause

from shutthebox.web.codec import dumps
from shutthebox.web.storage.queries import Move, NewGame, now, store_move, store_new_game
from shutthebox.web.storage.schema import ANSWERS, EVENTS, GAMES, RESULTS, SEATS

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncEngine

T = TypeVar("T")

TRANSACTIONS = "READ COMMITTED"
"""The isolation of a request's write transactions (PostgreSQL's default; the unit of work
locks a game's row for what it needs more)."""


class _Work:
    """The work :meth:`PooledStore.run` is running: its connection (None once it is
    over), whether it is inside :meth:`PooledStore.transaction` or
    :meth:`PooledStore.writing` (whose end commits what it did), and whether its connection
    has left autocommit for a write transaction. A task started by the work copies the
    context, this object with it: emptied at the work's end, it tells the task it runs
    outside the work."""

    def __init__(self, connection: Connection) -> None:
        self.connection: Connection | None = connection
        self.writing = False
        self.transaction = False


_WORK: ContextVar[_Work | None] = ContextVar("work", default=None)


def _running_work() -> tuple[_Work, Connection] | None:
    work = _WORK.get()
    if work is None or work.connection is None:
        return None
    return work, work.connection


class PooledStore:
    """A database of many writers at once (PostgreSQL): see the module's description."""

    interleaves = True

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._requests: AsyncEngine | None = None

    @property
    def requests(self) -> AsyncEngine:
        """The asyncio engine requests' work runs on (made at first use, on the event
        loop), its pool bounded as the synchronous engine's is."""
        if self._requests is None:
            from sqlalchemy.ext.asyncio import create_async_engine

            from shutthebox.web.storage.engine import POOL_WAIT, REQUEST_POOL
            self._requests = create_async_engine(
                self.engine.url, pool_size=REQUEST_POOL, max_overflow=0,
                pool_timeout=POOL_WAIT, isolation_level="AUTOCOMMIT")
        return self._requests

    async def run(self, function: Callable[..., T], /, *arguments: Any) -> T:
        async with self.requests.connect() as connection:
            return await connection.run_sync(_running, function, arguments)

    @contextmanager
    def connect(self) -> Iterator[Connection]:
        found = _running_work()
        if found is None:
            with self.engine.connect() as connection:
                yield connection
            return
        yield found[1]      # (in autocommit, or inside the work's write transaction)

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        found = _running_work()
        if found is None:
            with self.engine.begin() as connection:
                yield connection
            return
        work, running = found
        if work.writing:                # (within the work's writing: its transaction)
            self.begin(running)
            yield running
            return
        with self._writing(work, running):
            self.begin(running)
            yield running

    def writing(self) -> AbstractContextManager[Connection]:
        """The work's connection in autocommit: a move or a new game stored on it alone is
        one statement, committed as it runs (:meth:`store_move`, :meth:`store_new_game`);
        after :meth:`begin`, what is done on it is one transaction, committed at the end."""
        found = _running_work()
        if found is None or found[0].writing:
            return self.transaction()
        return self._writing(*found)

    @contextmanager
    def _writing(self, work: _Work, running: Connection) -> Iterator[Connection]:
        if running.in_transaction():
            running.rollback()      # (what the work read before, in autocommit: nothing sent)
        work.writing = True
        try:
            yield running
            if running.in_transaction():
                running.commit()
        except BaseException:
            if running.in_transaction():
                running.rollback()
            raise
        finally:
            work.writing = False
            if work.transaction:
                work.transaction = False
                running.execution_options(isolation_level="AUTOCOMMIT")

    def begin(self, connection: Connection) -> None:
        """Make what is done next on a connection of :meth:`writing` one transaction (its
        statements until then were each committed as they ran)."""
        work = _autocommitting(connection)
        if work is None:
            return          # (a transaction already, or not the work's connection)
        if connection.in_transaction():
            connection.commit()     # (autocommit: nothing to send)
        connection.execution_options(isolation_level=TRANSACTIONS)
        work.transaction = True

    def store_move(self, connection: Connection, move: Move) -> bool:
        """Store the move: in one statement, committed as it runs, on a connection of
        :meth:`writing` before :meth:`begin` (its events, its answer and a finished
        game's results); else in the connection's transaction."""
        if _autocommitting(connection) is None or not move.events:
            return store_move(connection, move)
        params = {"game_id": move.game_id, "start": move.start,
                  "count": move.start + len(move.events), "stamp": now(),
                  "datas": _texts(move.events),
                  **{f"new_{name}": value for name, value in move.fields.items()}}
        if move.answer is not None:
            # (named apart from every column: a parameter named as a column of the game's
            # row would be set in its UPDATE too)
            params.update(zip(("answer_seat", "answer_key", "answer_body"), move.answer,
                              strict=True), answer_status=200)
        if move.results:
            params["results"] = json.dumps(move.results)
        statement = _moving_at_once(frozenset(move.fields), move.answer is not None,
                                    bool(move.results))
        return len(connection.execute(statement, params).all()) == len(move.events)

    def store_new_game(self, connection: Connection, game: NewGame) -> None:
        """Store a new game: in one statement, committed as it runs, on a connection of
        :meth:`writing` before :meth:`begin`; else in the connection's transaction."""
        if _autocommitting(connection) is None:
            store_new_game(connection, game)
            return
        stamp = now()
        seats = [{**seat, "joined": stamp.isoformat() if seat["joined"] else None}
                 for seat in game.seats]
        connection.execute(_creating_at_once(), {
            "game_id": game.game_id, "config": game.config, "computers": game.computers,
            "status": game.status, "waiting": game.waiting, "count": len(game.events),
            "stamp": stamp, "seat_rows": json.dumps(seats), "datas": _texts(game.events)})

    def close(self) -> None:
        """Nothing to give back here: the asyncio engine's pool is closed as the server
        stops (:meth:`aclose`), the synchronous engine's by its owner."""

    async def aclose(self) -> None:
        if self._requests is not None:
            await self._requests.dispose()


def _autocommitting(connection: Connection) -> _Work | None:
    """The request's work whose connection ``connection`` is, while it is in autocommit
    (not in a write transaction); else None."""
    found = _running_work()
    if found is None or found[1] is not connection or found[0].transaction:
        return None
    return found[0]


def _texts(events: list[dict[str, Any]]) -> str:
    """Events as one JSON array of their texts (a text[] parameter would have the driver
    escape every quote of every event with a regular expression)."""
    return json.dumps([dumps(event) for event in events])


def _running(connection: Connection, function: Callable[..., T], arguments: Any) -> T:
    """Run ``function(*arguments)`` with ``connection`` as the store's, then end whatever
    transaction it left open."""
    work = _Work(connection)
    running = _WORK.set(work)
    try:
        return function(*arguments)
    finally:
        work.connection = None
        _WORK.reset(running)
        if connection.in_transaction():
            connection.rollback()


def _listed(name: str) -> FromClause:
    """The texts of parameter ``name`` (see :func:`_texts`) as rows (``value``, ``number``
    from 1)."""
    return func.json_array_elements_text(cast(bindparam(name, type_=Text), JSON)) \
        .table_valued("value", with_ordinality="number").render_derived(name=f"{name}_listed")


def _recordset(table: Table, columns: list[str], name: str) -> FromClause:
    """The rows of parameter ``name``, a JSON array of objects, with the types of
    ``table``'s ``columns``."""
    return func.json_to_recordset(cast(bindparam(name, type_=Text), JSON)).table_valued(
        *(column(c, table.c[c].type) for c in columns)
    ).render_derived(name=f"{name}_rows", with_types=True)


@cache
def _moving_at_once(fields: frozenset[str], answer: bool, results: bool) -> Insert:
    """A move as one statement: the game's row moved on from ``start`` events (with
    ``fields`` set), its events appended and, with ``answer``, the answer to its
    Idempotency-Key stored, with ``results`` a finished game's results (each under its
    seat's claimed player), all only if the row moved (its events' positions are
    answered: none if the game no longer had ``start`` events)."""
    moved = update(GAMES).where(
        GAMES.c.id == bindparam("game_id"), GAMES.c.event_count == bindparam("start")
    ).values(event_count=bindparam("count"), updated=bindparam("stamp"),
             **{name: bindparam(f"new_{name}") for name in sorted(fields)}
             ).returning(GAMES.c.id).cte("moved")
    listed = _listed("datas")
    events = select(moved.c.id, bindparam("start", type_=Integer) + listed.c.number - 1,
                    listed.c.value).select_from(moved.join(listed, true()))
    statement = insert(EVENTS).from_select(["game_id", "position", "data"], events) \
        .returning(EVENTS.c.position)
    if answer:
        answered = insert(ANSWERS).from_select(
            ["game_id", "seat", "key", "status", "body", "created"],
            select(moved.c.id, bindparam("answer_seat", type_=Integer),
                   bindparam("answer_key", type_=String),
                   bindparam("answer_status", type_=Integer),
                   bindparam("answer_body", type_=Text),
                   bindparam("stamp", type_=DateTime))).cte("answered")
        statement = statement.add_cte(answered)
    if results:
        given = ["seat", "player", "rules", "format", "won", "scores", "shut_boxes",
                 "player_id"]
        rows = _recordset(RESULTS, given, "results")
        held = SEATS.alias("held")
        recorded = insert(RESULTS).from_select(
            [*given, "game_id", "finished"],
            select(*(rows.c[c] for c in given[:-1]),
                   func.coalesce(rows.c.player_id, held.c.player_id), moved.c.id,
                   bindparam("stamp", type_=DateTime))
            .select_from(moved.join(rows, true()).outerjoin(
                held, and_(held.c.game_id == moved.c.id, held.c.seat == rows.c.seat)))
        ).cte("recorded")
        statement = statement.add_cte(recorded)
    return statement


@cache
def _creating_at_once() -> Insert:
    """A new game as one statement: its row, its seats and its first events."""
    game = insert(GAMES).values(
        id=bindparam("game_id"), config=bindparam("config"), seats=bindparam("computers"),
        status=bindparam("status"), waiting_for=bindparam("waiting"),
        event_count=bindparam("count"), created=bindparam("stamp"),
        updated=bindparam("stamp")).returning(GAMES.c.id).cte("game")
    given = ["seat", "kind", "name", "computer", "token_hash", "invite", "joined",
             "player_id"]
    rows = _recordset(SEATS, given, "seat_rows")
    seated = insert(SEATS).from_select(
        ["game_id", *given],
        select(game.c.id, *(rows.c[c] for c in given)).select_from(game.join(rows, true()))
    ).cte("seated")
    listed = _listed("datas")
    return insert(EVENTS).from_select(
        ["game_id", "position", "data"],
        select(game.c.id, listed.c.number - 1, listed.c.value)
        .select_from(game.join(listed, true()))).add_cte(seated)
