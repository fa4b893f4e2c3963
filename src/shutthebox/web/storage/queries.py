"""The statements the game service runs, shared by SQLite and PostgreSQL: a game's event
count, its events, a new game and its seats, a finished game's results, and a batch of
events appended. A game's events are appended in the same transaction that moves its
``event_count`` on, so a request that acts on a game either stores all it did or nothing,
and two requests racing on one game cannot both append.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.engine import Connection

from shutthebox.web.codec import dumps, loads
from shutthebox.web.storage.engine import driver_error
from shutthebox.web.storage.schema import EVENTS, GAMES


def now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def load_events(connection: Connection, game_id: str,
                since: int = 0) -> list[dict[str, Any]]:
    rows = connection.execute(select(EVENTS.c.data).where(EVENTS.c.game_id == game_id,
                                                          EVENTS.c.position >= since)
                              .order_by(EVENTS.c.position))
    return [loads(data) for (data,) in rows]


@dataclass
class Move:
    """What a move stores: ``events`` appended to the game after its first ``start``, the
    game's ``fields`` set with them (its ``status`` and who it is ``waiting_for``, or more),
    and, in the same transaction, the ``answer`` to an Idempotency-Key (seat, key, body) and
    a finished game's ``results`` (as :func:`record_results` takes them)."""

    game_id: str
    start: int
    events: list[dict[str, Any]]
    fields: dict[str, Any] = field(default_factory=dict)
    answer: tuple[int, str, str] | None = None
    results: list[dict[str, Any]] = field(default_factory=list)

    @property
    def hot(self) -> bool:
        """Whether the game's row moves on by a hot statement (no fields of the game
        change but its status, who it waits for and, in a game with a turn clock, its
        deadline)."""
        return not self.fields or set(self.fields) in _HOT_FIELDS


_HOT_FIELDS = ({"status", "waiting_for"}, {"status", "waiting_for", "deadline"})


@dataclass
class NewGame:
    """A new game as it is stored: its row (``config``, the strategy of each computer seat
    or None, its ``status`` and who it is ``waiting`` for), its ``seats`` (as
    :func:`create_game` takes them) and its first ``events``."""

    game_id: str
    config: dict[str, Any]
    computers: list[str | None]
    status: str
    waiting: str
    seats: list[dict[str, Any]]
    events: list[dict[str, Any]]


CREATING = (
    "WITH game AS (INSERT INTO games (id, config, seats, status, waiting_for, event_count, "
    "created, updated) VALUES (%(id)s, CAST(%(config)s AS json), CAST(%(computers)s AS json), "
    "%(status)s, %(waiting)s, %(count)s, %(now)s, %(now)s) RETURNING id), "
    "seated AS (INSERT INTO seats (game_id, seat, kind, name, computer, token_hash, invite, "
    "joined) SELECT game.id, s.seat, s.kind, s.name, s.computer, s.token_hash, s.invite, "
    "CASE WHEN s.joined THEN %(now)s END FROM game, json_to_recordset(CAST(%(seats)s AS json)) "
    "AS s(seat integer, kind text, name text, computer text, token_hash text, invite text, "
    "joined boolean) RETURNING 1), "
    "added AS (INSERT INTO events (game_id, position, data) SELECT game.id, e.n - 1, "
    "CAST(e.data AS text) FROM game, json_array_elements(CAST(%(events)s AS json)) "
    "WITH ORDINALITY AS e(data, n) RETURNING 1) "
    "SELECT (SELECT count(*) FROM seated), (SELECT count(*) FROM added)")
"""PostgreSQL's one statement of a new game (see :meth:`HotSql.creating`)."""


def _moving_statement(fields: bool, answer: bool, results: bool, deadline: bool) -> str:
    """PostgreSQL's one statement of a move (see :meth:`HotSql.moving`): the game's row
    moved on if it still has ``start`` events, the events appended after it, the answer and
    the results stored, each only if the row moved."""
    status = ", status = %(status)s, waiting_for = %(waiting)s" if fields else ""
    if deadline:
        status += ", deadline = %(deadline)s"
    parts = [
        f"moved AS (UPDATE games SET event_count = %(count)s, updated = %(updated)s{status} "
        "WHERE id = %(id)s AND event_count = %(start)s RETURNING id)",
        # The events as one JSON array, each stored as its text in it (which is what
        # dumps makes of it alone): an array of texts costs the driver an escape of each.
        "added AS (INSERT INTO events (game_id, position, data) SELECT moved.id, "
        "%(start)s + e.n - 1, CAST(e.data AS text) FROM moved, "
        "json_array_elements(CAST(%(events)s AS json)) WITH ORDINALITY AS e(data, n) "
        "RETURNING 1)"]
    if answer:
        parts.append("answered AS (INSERT INTO answers (game_id, seat, key, status, body, "
                     "created) SELECT moved.id, %(seat)s, %(key)s, 200, %(body)s, "
                     "%(updated)s FROM moved RETURNING 1)")
    if results:
        parts.append("finished AS (INSERT INTO results (game_id, seat, player, rules, format, "
                     "won, scores, shut_boxes, finished) SELECT moved.id, r.seat, r.player, "
                     "r.rules, r.format, r.won, r.scores, r.shut_boxes, %(updated)s "
                     "FROM moved, json_to_recordset(CAST(%(results)s AS json)) AS r(seat "
                     "integer, player text, rules json, format text, won double precision, "
                     "scores json, shut_boxes integer) RETURNING 1)")
    return (f"WITH {', '.join(parts)} SELECT (SELECT count(*) FROM added) "
            "WHERE EXISTS (SELECT 1 FROM moved)")


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
        self.timed = (f"UPDATE games SET event_count = {p('count')}, updated = {p('updated')}, "
                      f"status = {p('status')}, waiting_for = {p('waiting')}, "
                      f"deadline = {p('deadline')} "
                      f"WHERE id = {p('id')} AND event_count = {p('start')}")
        """A move of a game with a turn clock: its deadline too."""
        self.step = (f"UPDATE games SET event_count = {p('count')}, updated = {p('updated')} "
                     f"WHERE id = {p('id')} AND event_count = {p('start')}")
        """A move that leaves the game's status and who it waits for as they were (most
        moves): their indexes are not touched."""
        self.append = (f"INSERT INTO events (game_id, position, data) "
                       f"VALUES ({p('game')}, {p('position')}, {p('data')})")
        self._moving: dict[tuple[bool, bool, bool, bool], str] = {}
        self.result = ("INSERT INTO results (game_id, seat, player, rules, format, won, "
                       f"scores, shut_boxes, finished) VALUES ({p('game_id')}, {p('seat')}, "
                       f"{p('player')}, {p('rules')}, {p('format')}, {p('won')}, "
                       f"{p('scores')}, {p('shut_boxes')}, {p('finished')})")
        self.answer = ("INSERT INTO answers (game_id, seat, key, status, body, created) "
                       f"VALUES ({p('game_id')}, {p('seat')}, {p('key')}, 200, {p('body')}, "
                       f"{p('created')})")
        self.game = ("INSERT INTO games (id, config, seats, status, waiting_for, event_count, "
                     f"created, updated) VALUES ({p('id')}, {p('config')}, {p('seats')}, "
                     f"{p('status')}, {p('waiting')}, 0, {p('now')}, {p('now')})")
        self.seat = ("INSERT INTO seats (game_id, seat, kind, name, computer, token_hash, "
                     f"invite, joined) VALUES ({p('game_id')}, {p('seat')}, {p('kind')}, "
                     f"{p('name')}, {p('computer')}, {p('token_hash')}, {p('invite')}, "
                     f"{p('joined')})")

    def moving(self, move: Move) -> tuple[str, dict[str, Any]] | None:
        """On PostgreSQL, all of a move's writes as one statement and its parameters (None
        elsewhere, or when the move sets fields of the game other than its status and who
        it waits for, or stores no events): one round trip, and on a connection that
        commits each statement, one transaction. The statement answers one row, (the
        events appended,), if the game still had ``move.start`` events, else none."""
        if not self.postgresql or not move.events or not move.hot:
            return None
        parts = (bool(move.fields), move.answer is not None, bool(move.results),
                 "deadline" in move.fields)
        statement = self._moving.get(parts)
        if statement is None:
            statement = self._moving[parts] = _moving_statement(*parts)
        count = move.start + len(move.events)
        params: dict[str, Any] = {
            "count": count, "updated": self.stamp(), "id": move.game_id, "start": move.start,
            "events": dumps(move.events)}
        if move.fields:
            params |= {"status": move.fields["status"], "waiting": move.fields["waiting_for"]}
            if "deadline" in move.fields:
                params["deadline"] = move.fields["deadline"]
        if move.answer is not None:
            params |= {"seat": move.answer[0], "key": move.answer[1], "body": move.answer[2]}
        if move.results:
            params["results"] = dumps([{**row, "game_id": move.game_id}
                                       for row in move.results])
        return statement, params

    def creating(self, game: NewGame) -> tuple[str, dict[str, Any]] | None:
        """On PostgreSQL, a new game's writes as one statement and its parameters (None
        elsewhere)."""
        if not self.postgresql:
            return None
        return CREATING, {
            "id": game.game_id, "config": dumps(game.config),
            "computers": dumps(game.computers), "status": game.status,
            "waiting": game.waiting, "count": len(game.events), "now": self.stamp(),
            "seats": dumps(game.seats), "events": dumps(game.events)}

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
        return self.when(now())

    def when(self, moment: datetime | None) -> Any:
        """A moment as the column stores it (SQLAlchemy's text form on SQLite)."""
        if moment is None or not self.sqlite:
            return moment
        return moment.isoformat(" ", "microseconds")


def hot_sql(connection: Connection) -> HotSql:
    return hot_sql_for(connection.dialect.name)


def hot_sql_for(dialect: str) -> HotSql:
    """The statements of a move on a database of this kind (SQLAlchemy's dialect name)."""
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


def store_new_game(connection: Connection, game: NewGame) -> None:
    """Store a new game (see :class:`NewGame`) in the connection's transaction.

    :raises sqlalchemy.exc.IntegrityError: a game of that id, or a seat's token or invite,
        is stored already.
    """
    sql = hot_sql(connection)
    one = sql.creating(game)
    if one is not None:
        sql.run(connection, *one)
        return
    create_game(connection, game.game_id, game.config, game.computers, game.status,
                game.waiting, game.seats)
    store_move(connection, Move(game.game_id, 0, game.events))


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
    request got there first."""
    return store_move(connection, Move(game_id, start, events, fields))


def store_move(connection: Connection, move: Move) -> bool:
    """Store the move (see :class:`Move`) in the connection's transaction; False (and
    nothing written) if the game no longer has ``move.start`` events.

    :raises sqlalchemy.exc.IntegrityError: the answer's key was stored first by another
        request (nothing written).
    """
    sql = hot_sql(connection)
    one = sql.moving(move)
    if one is not None:
        found = sql.run(connection, *one).fetchone()
        return found is not None and found[0] == len(move.events)
    game_id, start, events, fields = move.game_id, move.start, move.events, move.fields
    count = start + len(events)
    params = {"count": count, "updated": sql.stamp(), "id": game_id, "start": start}
    moved: Any
    if move.hot:
        statement = sql.step
        if fields:
            params |= {"status": fields["status"], "waiting": fields["waiting_for"]}
            statement = sql.move
            if "deadline" in fields:
                params["deadline"] = sql.when(fields["deadline"])
                statement = sql.timed
        moved = sql.run(connection, statement, params)
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
    if move.answer is not None:
        seat, key, body = move.answer
        sql.run(connection, sql.answer, {"game_id": game_id, "seat": seat, "key": key,
                                         "body": body, "created": params["updated"]})
    if move.results:
        record_results(connection, game_id, move.results)
    return True
