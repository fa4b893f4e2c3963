"""PostgreSQL's path for a move (:mod:`shutthebox.web.storage.postgresql`): one statement,
committed as it ends, that stores all of a move or nothing, on a real PostgreSQL (skipped,
saying why, when none answers on 127.0.0.1:5432)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError

from shutthebox.web.codec import dumps
from shutthebox.web.storage import (
    ANSWERS,
    EVENTS,
    GAMES,
    RESULTS,
    SEATS,
    NewGame,
    create_game,
    make_engine,
    store_new_game,
)
from shutthebox.web.storage.postgresql import AsyncWriter
from shutthebox.web.storage.queries import Move, store_move
from tests.web.webserver import database


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    with database("postgresql", tmp_path) as url:
        made = make_engine(url)
        yield made
        made.dispose()


def new_game(engine: Engine, game_id: str = "a" * 32) -> str:
    with engine.begin() as connection:
        create_game(connection, game_id, {"players": ["Ann"]}, [None], "playing", "human",
                    [{"seat": 0, "kind": "here", "name": "Ann", "computer": None,
                      "token_hash": None, "invite": None, "joined": True}])
    return game_id


def stored(engine: Engine, game_id: str) -> dict[str, Any]:
    with engine.connect() as connection:
        return {
            "count": connection.scalar(select(GAMES.c.event_count)
                                       .where(GAMES.c.id == game_id)),
            "status": connection.scalar(select(GAMES.c.status).where(GAMES.c.id == game_id)),
            "events": connection.execute(select(EVENTS.c.position, EVENTS.c.data)
                                         .where(EVENTS.c.game_id == game_id)
                                         .order_by(EVENTS.c.position)).all(),
            "answers": connection.execute(select(ANSWERS.c.key, ANSWERS.c.body)).all(),
            "results": connection.execute(select(RESULTS.c.player, RESULTS.c.won,
                                                 RESULTS.c.scores)).all()}


RESULT = {"seat": 0, "player": "Ann", "rules": {"tiles": 9}, "format": "solo", "won": 1.0,
          "scores": [0], "shut_boxes": 1}


def test_a_move_is_one_statement_that_stores_its_events_answer_and_results(
        engine: Engine) -> None:
    game = new_game(engine)
    writer = AsyncWriter(engine)

    async def play() -> list[bool]:
        try:
            return [await writer.store(Move(game, 0, [{"type": "roll"}, {"type": "shut"}])),
                    await writer.store(Move(game, 2, [{"type": "end"}],
                                            {"status": "over", "waiting_for": "nobody"},
                                            (0, "key-1", '{"done": true}'), [RESULT]))]
        finally:
            await writer.close()

    assert asyncio.run(play()) == [True, True]
    found = stored(engine, game)
    assert found["count"] == 3 and found["status"] == "over"
    assert found["events"] == [(0, dumps({"type": "roll"})), (1, dumps({"type": "shut"})),
                               (2, dumps({"type": "end"}))]   # each as it reads alone
    assert found["answers"] == [("key-1", '{"done": true}')]
    assert found["results"] == [("Ann", 1.0, [0])]


def test_a_move_made_against_an_old_event_number_stores_nothing(engine: Engine) -> None:
    game = new_game(engine)
    writer = AsyncWriter(engine)

    async def play() -> list[bool]:
        try:
            first = await writer.store(Move(game, 0, [{"type": "roll"}]))
            again = await writer.store(Move(game, 0, [{"type": "other"}],
                                            answer=(0, "key-2", "{}"), results=[RESULT]))
            return [first, again]
        finally:
            await writer.close()

    assert asyncio.run(play()) == [True, False]
    found = stored(engine, game)
    assert found["count"] == 1 and len(found["events"]) == 1
    assert found["answers"] == [] and found["results"] == []


def test_a_key_answered_first_elsewhere_is_an_integrity_error_and_stores_nothing(
        engine: Engine) -> None:
    game = new_game(engine)
    with engine.begin() as connection:         # another process answered the key first
        assert store_move(connection, Move(game, 0, [{"type": "roll"}],
                                           answer=(0, "key-3", '{"first": 1}')))
    writer = AsyncWriter(engine)

    async def play() -> None:
        try:
            await writer.store(Move(game, 1, [{"type": "shut"}], answer=(0, "key-3", "{}")))
        finally:
            await writer.close()

    with pytest.raises(IntegrityError):
        asyncio.run(play())
    found = stored(engine, game)
    assert found["count"] == 1 and found["answers"] == [("key-3", '{"first": 1}')]


def test_the_writer_answers_a_database_error_then_connects_afresh(engine: Engine) -> None:
    """A connection that PostgreSQL ended (a restart) fails its statement with a database
    error (503), never a stored-looking answer; the next statement connects again."""
    game = new_game(engine)
    writer = AsyncWriter(engine)
    url = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)

    async def play() -> list[Any]:
        outcomes: list[Any] = [await writer.store(Move(game, 0, [{"type": "roll"}]))]
        backends = [c.info.backend_pid for c in writer._idle]
        with psycopg.connect(url, autocommit=True) as admin:
            for pid in backends:
                admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        try:
            await writer.store(Move(game, 1, [{"type": "shut"}]))
        except DBAPIError as error:
            outcomes.append(type(error))
        outcomes.append(await writer.store(Move(game, 1, [{"type": "shut"}])))
        await writer.close()
        return outcomes

    assert asyncio.run(play()) == [True, OperationalError, True]
    assert stored(engine, game)["count"] == 2


def test_a_restart_of_the_database_costs_one_failed_move_not_one_a_connection(
        engine: Engine) -> None:
    """Every connection of the writer ended at once (as a restart of PostgreSQL ends them):
    the first move fails with a database error (503), and the writer lets the other idle
    connections go with it, so the next moves are stored."""
    games = [new_game(engine, f"{n:032x}") for n in range(8)]
    writer = AsyncWriter(engine)
    url = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)

    async def play() -> list[Any]:
        assert await asyncio.gather(*[writer.store(Move(g, 0, [{"type": "roll"}]))
                                      for g in games]) == [True] * 8
        assert len(writer._idle) > 1
        with psycopg.connect(url, autocommit=True) as admin:
            for connection in writer._idle:
                admin.execute("SELECT pg_terminate_backend(%s)",
                              (connection.info.backend_pid,))
        outcomes: list[Any] = []
        for game in games:
            try:
                outcomes.append(await writer.store(Move(game, 1, [{"type": "shut"}])))
            except DBAPIError as error:
                outcomes.append(type(error))
        await writer.close()
        return outcomes

    assert asyncio.run(play()) == [OperationalError] + [True] * 7


def test_moves_in_flight_at_once_use_at_most_the_writers_connections(
        engine: Engine) -> None:
    games = [new_game(engine, f"{n:032x}") for n in range(20)]
    writer = AsyncWriter(engine, connections=3)

    async def play() -> list[bool]:
        try:
            return list(await asyncio.gather(*[
                writer.store(Move(game, 0, [{"type": "roll"}])) for game in games]))
        finally:
            assert len(writer._idle) <= 3
            await writer.close()

    assert asyncio.run(play()) == [True] * 20
    assert all(stored(engine, game)["count"] == 1 for game in games)


def test_a_new_game_is_one_statement_that_stores_the_game_its_seats_and_events(
        engine: Engine) -> None:
    """Through the event loop's writer and through a transaction of the thread pool's, a
    new game is stored alike: its row, its seats (a seat not yet taken without a time) and
    its first events."""
    seats = [{"seat": 0, "kind": "here", "name": "Ann", "computer": None,
              "token_hash": "f" * 64, "invite": None, "joined": True},
             {"seat": 1, "kind": "open", "name": "Friend", "computer": None,
              "token_hash": None, "invite": "ABCD-EFGH", "joined": False}]
    events = [{"type": "seats", "pace": "watch"}]
    writer = AsyncWriter(engine)

    async def create() -> None:
        try:
            await writer.create(NewGame("b" * 32, {"players": ["Ann", "Friend"]},
                                        [None, None], "waiting", "join", seats, events))
        finally:
            await writer.close()

    asyncio.run(create())
    with engine.begin() as connection:
        store_new_game(connection, NewGame("c" * 32, {"players": ["Ann", "Friend"]},
                                           [None, None], "waiting", "join",
                                           [{**seat, "token_hash": None, "invite": seat["invite"]
                                             and "WXYZ-EFGH"} for seat in seats],
                                           events))
    with engine.connect() as connection:
        for game in ("b" * 32, "c" * 32):
            row = connection.execute(select(GAMES.c.config, GAMES.c.status,
                                            GAMES.c.waiting_for, GAMES.c.event_count)
                                     .where(GAMES.c.id == game)).one()
            assert tuple(row) == ({"players": ["Ann", "Friend"]}, "waiting", "join", 1)
            taken = connection.execute(select(SEATS.c.seat, SEATS.c.kind, SEATS.c.invite,
                                              SEATS.c.joined.is_not(None))
                                       .where(SEATS.c.game_id == game)
                                       .order_by(SEATS.c.seat)).all()
            assert [tuple(t) for t in taken] == [
                (0, "here", None, True), (1, "open", f"{'ABCD' if game < 'c' else 'WXYZ'}-EFGH",
                                          False)]
        assert stored(engine, "b" * 32)["events"] == [(0, dumps(events[0]))]
        assert stored(engine, "c" * 32)["events"] == [(0, dumps(events[0]))]


def test_a_writer_the_database_refuses_more_connections_shares_those_it_has(
        engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """A database at its ``max_connections`` (here: one that refuses a third connection)
    slows the moves in flight, waiting for a connection of the writer's, and fails none."""
    games = [new_game(engine, f"{n:032x}") for n in range(20)]
    writer = AsyncWriter(engine, connections=8)
    connect = psycopg.AsyncConnection.connect
    made: list[int] = []

    async def two_at_most(*args: Any, **kwargs: Any) -> Any:
        if len(made) >= 2:
            raise psycopg.OperationalError("sorry, too many clients already")
        made.append(1)
        return await connect(*args, **kwargs)

    monkeypatch.setattr(psycopg.AsyncConnection, "connect", two_at_most)

    async def play() -> list[bool]:
        try:
            return list(await asyncio.gather(*[
                writer.store(Move(game, 0, [{"type": "roll"}])) for game in games]))
        finally:
            await writer.close()

    assert asyncio.run(play()) == [True] * 20
    assert len(made) == 2
