"""PostgreSQL's path for a move: its one statement (:meth:`HotSql.moving
<shutthebox.web.storage.queries.HotSql.moving>`) run on the event loop through psycopg's
asyncio driver, on connections that commit each statement as it ends.

A move through the thread pool handed each request to a thread and back, and its threads
took turns at the interpreter while each waited for its three round trips (``BEGIN``, the
statement, ``COMMIT``). Here the event loop sends the statement and serves other requests
until PostgreSQL answers; the answer comes once the transaction is committed (and, with
``synchronous_commit`` on, written to disk), so nothing is acknowledged before it is
stored. Moves in flight at once each have a connection of their own, so that PostgreSQL
writes their commits to disk together.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, cast

from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError

from shutthebox.web.storage.queries import Move, hot_sql_for

CONNECTIONS = 8
"""Connections of a process's asyncio writer: moves in flight at once beyond this wait
for one."""


class AsyncWriter:
    """Runs statements on PostgreSQL from the event loop, each committed as it ends.

    Connections are opened when first needed (at most ``connections``) and kept; one that
    fails is closed, and the next statement opens another, so that a database that went
    away and came back is used again without a restart. Errors are SQLAlchemy's, as the
    rest of the server knows them (:class:`~sqlalchemy.exc.DBAPIError`: 503, its
    :class:`~sqlalchemy.exc.IntegrityError`: an answer's key stored first).
    """

    def __init__(self, engine: Engine, connections: int = CONNECTIONS) -> None:
        self.url = engine.url.set(drivername="postgresql").render_as_string(
            hide_password=False)
        self.sql = hot_sql_for(engine.dialect.name)
        self._idle: list[Any] = []
        self._room: asyncio.Semaphore | None = None
        self._connections = connections

    async def store(self, move: Move) -> bool:
        """Store the move in a transaction of its own; False (nothing written) if the game
        no longer has ``move.start`` events.

        :raises ValueError: a move that is not one statement (see :meth:`HotSql.moving`).
        :raises sqlalchemy.exc.IntegrityError: the answer's key was stored first.
        :raises sqlalchemy.exc.DBAPIError: the database is not answering.
        """
        one = self.sql.moving(move)
        if one is None:
            raise ValueError(f"the move of game {move.game_id!r} at event {move.start} is "
                             "not one statement")
        found = await self.fetch_one(*one)
        return found is not None and found[0] == len(move.events)

    async def fetch_one(self, statement: str, params: dict[str, Any]) -> tuple[Any, ...] | None:
        """The first row the statement answers (None: no row), committed.

        :raises sqlalchemy.exc.DBAPIError: the driver's error, as SQLAlchemy's.
        """
        import psycopg

        if self._room is None:
            self._room = asyncio.Semaphore(self._connections)
        async with self._room:
            connection = self._idle.pop() if self._idle else None
            try:
                if connection is None:
                    connection = await psycopg.AsyncConnection.connect(
                        self.url, autocommit=True, prepare_threshold=0)
                cursor = await connection.execute(statement, params)
                row = await cursor.fetchone()
            except BaseException as error:
                if connection is not None:
                    await _discard(connection)
                if isinstance(error, psycopg.Error):
                    raise cast(DBAPIError, DBAPIError.instance(
                        statement, params, error, psycopg.Error)) from None
                raise
            self._idle.append(connection)
            return cast(tuple[Any, ...] | None, row)

    async def close(self) -> None:
        """Close the idle connections."""
        idle, self._idle = self._idle, []
        for connection in idle:
            await _discard(connection)


async def _discard(connection: Any) -> None:
    """Close a connection that failed, or whose statement was cancelled (its state is not
    known)."""
    with contextlib.suppress(Exception):
        await connection.close()

