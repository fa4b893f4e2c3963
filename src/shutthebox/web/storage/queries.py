"""The statements the game service runs, shared by SQLite and PostgreSQL: a game's event
count, its events, a new game and its seats, a finished game's results, and a batch of
events appended. A game's events are appended in the same transaction that moves its
``event_count`` on, so a request that acts on a game either stores all it did or nothing,
and two requests racing on one game cannot both append.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.engine import Connection

from shutthebox.web.codec import dumps, loads
from shutthebox.web.storage.engine import driver_error
from shutthebox.web.storage.schema import EVENTS, GAMES

NOTIFY_CHANNEL = "shutthebox_events"
"""The PostgreSQL channel on which a stored batch of events is announced (payload: the game
id and its new event count, ``id:count``)."""


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
