"""The statements the game service runs, the same on SQLite and PostgreSQL (SQLAlchemy Core
on the tables of :mod:`~shutthebox.web.storage.schema`, the schema's one description): a
game's event count, its events, a new game and its seats, a finished game's results, and a
move's events appended. A game's events are appended in the same transaction that moves its
``event_count`` on, so a request that acts on a game either stores all it did or nothing,
and two requests racing on one game cannot both append.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache, partial
from typing import Any

from sqlalchemy import Insert, Select, Table, Update, bindparam, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.sql.expression import UpdateBase

from shutthebox.web.codec import dumps, loads
from shutthebox.web.storage.schema import ANSWERS, EVENTS, GAMES, RESULTS, SEATS


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


def event_count(connection: Connection, game_id: str, for_update: bool = False
                ) -> int | None:
    """The number of stored events of the game, or None if there is no such game. With
    ``for_update``, the game's row is locked until the transaction ends (on PostgreSQL:
    another server process changing the game waits; SQLite's write transaction holds the
    whole file already)."""
    found = connection.execute(_counting(for_update), {"game_id": game_id}).first()
    return None if found is None else int(found[0])


# A move is what the server does most: its statements are built once, with their values as
# parameters, rather than a new statement (and its cache key) at every move.

@cache
def _counting(for_update: bool) -> Select[Any]:
    query = select(GAMES.c.event_count).where(GAMES.c.id == bindparam("game_id"))
    return query.with_for_update() if for_update else query


@cache
def _moving(fields: frozenset[str]) -> Update:
    """The game's row moved on from ``start`` events to ``count``, with ``fields`` set."""
    return update(GAMES).where(
        GAMES.c.id == bindparam("game_id"), GAMES.c.event_count == bindparam("start")
    ).values(event_count=bindparam("count"), updated=bindparam("stamp"),
             **{name: bindparam(f"new_{name}") for name in sorted(fields)})


def _inserting(table: Table) -> Insert:
    """A row of ``table``, every column a parameter named as it."""
    return insert(table).values({column.name: bindparam(column.name) for column in table.c})


_NULLS = {table: {column.name: None for column in table.c if column.nullable}
          for table in (GAMES, SEATS, RESULTS)}
"""The columns of a row not given are stored null."""
_CREATING = _inserting(GAMES)
_SEATING = _inserting(SEATS)
_RECORDING = _inserting(RESULTS)
_APPENDING = _inserting(EVENTS)
_HELD = select(SEATS.c.seat, SEATS.c.player_id).where(SEATS.c.game_id == bindparam("game_id"))
_ANSWERING = insert(ANSWERS)
_ANSWER = select(ANSWERS.c.body).where(
    ANSWERS.c.game_id == bindparam("game_id"), ANSWERS.c.seat == bindparam("seat"),
    ANSWERS.c.key == bindparam("key"))


Run = Callable[[UpdateBase, list[dict[str, Any]]], int]
"""Runs a statement once for each row of parameters in the connection's transaction and
answers how many rows the (last) run changed: how :func:`store_move`,
:func:`store_new_game` and :func:`record_results` write their rows, through SQLAlchemy
unless a store gives its own (SQLite's writer: the same statements compiled once)."""


def _executed(connection: Connection, statement: UpdateBase,
              rows: list[dict[str, Any]]) -> int:
    """:data:`Run` through SQLAlchemy."""
    return connection.execute(statement, rows[0] if len(rows) == 1 else rows).rowcount


def create_game(connection: Connection, game_id: str, config: dict[str, Any],
                computers: list[str | None], status: str, waiting: str,
                seats: list[dict[str, Any]], run: Run | None = None) -> None:
    """Store a new game without events, and its seats (``joined``: a bool, stored as now
    or null), their rows written by ``run`` (see :func:`store_move`)."""
    if run is None:
        run = partial(_executed, connection)
    stamp = now()
    run(_CREATING, [{**_NULLS[GAMES], "id": game_id, "config": config, "seats": computers,
                     "status": status, "waiting_for": waiting, "event_count": 0,
                     "created": stamp, "updated": stamp}])
    run(_SEATING, [{**_NULLS[SEATS], **seat, "game_id": game_id,
                    "joined": stamp if seat["joined"] else None} for seat in seats])


def store_new_game(connection: Connection, game: NewGame, run: Run | None = None) -> None:
    """Store a new game (see :class:`NewGame`) in the connection's transaction, its rows
    written by ``run`` (see :func:`store_move`).

    :raises sqlalchemy.exc.IntegrityError: a game of that id, or a seat's token or invite,
        is stored already.
    """
    create_game(connection, game.game_id, game.config, game.computers, game.status,
                game.waiting, game.seats, run)
    store_move(connection, Move(game.game_id, 0, game.events), run)


def record_results(connection: Connection, game_id: str, rows: list[dict[str, Any]],
                   run: Run | None = None) -> None:
    """Store a finished game's result for each player (``seat``, ``player``, ``rules``,
    ``format``, ``won``, ``scores``, ``shut_boxes``), finished now, each under the claimed
    player who held its seat (``player_id``: the seat's, unless the row names one); the
    rows written by ``run`` (see :func:`store_move`)."""
    if run is None:
        run = partial(_executed, connection)
    stamp = now()
    held = {seat: player for seat, player in connection.execute(_HELD, {"game_id": game_id})}
    run(_RECORDING, [{**_NULLS[RESULTS], "player_id": held.get(row["seat"]), **row,
                      "game_id": game_id, "finished": stamp} for row in rows])


def append_events(connection: Connection, game_id: str, start: int,
                  events: list[dict[str, Any]], **fields: Any) -> bool:
    """Append events after the first ``start`` ones and set ``fields`` of the game; False
    (and nothing written) if the game no longer has ``start`` events, because another
    request got there first."""
    return store_move(connection, Move(game_id, start, events, fields))


def store_move(connection: Connection, move: Move, run: Run | None = None) -> bool:
    """Store the move (see :class:`Move`) in the connection's transaction, its rows
    written by ``run`` (by default through SQLAlchemy on ``connection``); False (and
    nothing written) if the game no longer has ``move.start`` events.

    :raises sqlalchemy.exc.IntegrityError: the answer's key was stored first by another
        request (nothing written).
    """
    if run is None:
        run = partial(_executed, connection)
    game_id, start, events = move.game_id, move.start, move.events
    stamp = now()
    moved = {"game_id": game_id, "start": start, "count": start + len(events),
             "stamp": stamp, **{f"new_{name}": value for name, value in move.fields.items()}}
    if run(_moving(frozenset(move.fields)), [moved]) != 1:
        return False
    if events:
        run(_APPENDING, [{"game_id": game_id, "position": start + offset, "data": dumps(item)}
                         for offset, item in enumerate(events)])
    if move.answer is not None:
        seat, key, body = move.answer
        run(_ANSWERING, [{"game_id": game_id, "seat": seat, "key": key, "status": 200,
                          "body": body, "created": stamp}])
    if move.results:
        record_results(connection, game_id, move.results, run)
    return True


def stored_answer(connection: Connection, game_id: str, seat: int, key: str) -> str | None:
    """The answer stored for a seat's Idempotency-Key in the game, if any."""
    return connection.scalar(_ANSWER, {"game_id": game_id, "seat": seat, "key": key})
