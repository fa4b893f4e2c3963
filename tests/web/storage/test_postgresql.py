"""Storing on PostgreSQL: a move stores all of it or nothing, the unit of work serializes
the changes to one game across connections (as across server processes), and a process's
connections are one bounded pool; on a real PostgreSQL (skipped, saying why, when none
answers on 127.0.0.1:5432)."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from psycopg.pq import TransactionStatus
from sqlalchemy import event, select, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from shutthebox.rules import Rules
from shutthebox.web.play import moves
from shutthebox.web.play.changes import GameChanges
from shutthebox.web.play.service import GameService, SeatSpec
from shutthebox.web.storage import (
    ANSWERS,
    EVENTS,
    GAMES,
    RESULTS,
    SEATS,
    PooledStore,
    create_game,
    make_engine,
)
from shutthebox.web.storage.engine import REQUEST_POOL
from shutthebox.web.storage.queries import Move, NewGame, event_count, store_move
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


def test_a_move_stores_its_events_answer_and_results_together(engine: Engine) -> None:
    game_id = new_game(engine)
    with engine.begin() as db:
        assert store_move(db, Move(game_id, 0, [{"type": "roll"}, {"type": "turn-end"}],
                                   {"status": "over"}, (0, "key-1", '{"ok": 1}'), [RESULT]))
    found = stored(engine, game_id)
    assert found["count"] == 2 and found["status"] == "over"
    assert [position for position, _data in found["events"]] == [0, 1]
    assert found["answers"] == [("key-1", '{"ok": 1}')]
    assert found["results"] == [("Ann", 1.0, [0])]


def test_a_move_made_against_an_old_event_number_stores_nothing(engine: Engine) -> None:
    game_id = new_game(engine)
    with engine.begin() as db:
        assert store_move(db, Move(game_id, 0, [{"type": "roll"}]))
    with engine.begin() as db:
        assert not store_move(db, Move(game_id, 0, [{"type": "other"}], {"status": "over"}))
    found = stored(engine, game_id)
    assert found["count"] == 1 and found["status"] == "playing"


def test_a_key_answered_first_elsewhere_is_an_integrity_error_and_stores_nothing(
        engine: Engine) -> None:
    game_id = new_game(engine)
    with engine.begin() as db:
        assert store_move(db, Move(game_id, 0, [{"type": "roll"}], answer=(0, "k", "{}")))
    with pytest.raises(IntegrityError), engine.begin() as db:
        store_move(db, Move(game_id, 1, [{"type": "roll"}], answer=(0, "k", "{}")))
    assert stored(engine, game_id)["count"] == 1


def test_a_change_waits_for_another_connections_change_to_the_same_game(
        engine: Engine) -> None:
    """The unit of work locks the game's row: a second server process (here a second
    connection) changing the same game waits for the first's commit, then reads its
    events, instead of both storing from the same event number."""
    game_id = new_game(engine)
    holding, released = threading.Event(), threading.Event()

    def hold() -> None:
        with engine.begin() as db:
            event_count(db, game_id, for_update=True)
            holding.set()
            released.wait(5)
            store_move(db, Move(game_id, 0, [{"type": "roll"}]))

    other = threading.Thread(target=hold)
    other.start()
    holding.wait(5)
    started = time.monotonic()
    threading.Timer(0.3, released.set).start()
    with engine.begin() as db:
        count = event_count(db, game_id, for_update=True)
        waited = time.monotonic() - started
    other.join()
    assert count == 1                   # the first change's event, read after its commit
    assert waited >= 0.25


def test_a_process_holds_one_bounded_pool_and_a_busy_pool_waits(engine: Engine) -> None:
    """More requests at once than the pool's connections wait for one (no 503 while the
    database answers), and no more connections are ever open than the pool holds."""
    pool_size = engine.pool.size()      # type: ignore[attr-defined]
    game_id = new_game(engine)
    changes = GameChanges(engine)
    errors: list[BaseException] = []
    peak: list[int] = []

    def read() -> None:
        try:
            with engine.connect() as db:
                peak.append(engine.pool.checkedout())    # type: ignore[attr-defined]
                time.sleep(0.05)
                event_count(db, game_id)
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=read) for _ in range(pool_size * 3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    changes.close()
    assert errors == []
    assert max(peak) <= pool_size


def test_a_move_of_a_game_in_memory_is_one_statement_storing_all_or_nothing(
        engine: Engine) -> None:
    """PostgreSQL's adapter stores a move of a game known to be up to date as one
    statement: its events and its answer, or nothing when the game has moved on."""
    store = PooledStore(engine)
    game_id = new_game(engine)

    def move(start: int, key: str) -> bool:
        with store.writing() as db:
            return store.store_move(db, Move(game_id, start, [{"type": "roll"}],
                                             {"status": "playing"}, (0, key, "{}")))

    async def both() -> tuple[bool, bool]:
        try:
            return await store.run(move, 0, "k1"), await store.run(move, 0, "k2")
        finally:
            await store.aclose()

    assert asyncio.run(both()) == (True, False)
    found = stored(engine, game_id)
    assert found["count"] == 1 and len(found["events"]) == 1
    assert found["answers"] == [("k1", "{}")]


def _statements(store: PooledStore) -> list[str]:
    """The statements the store's requests' work sends from now on, as a list that grows."""
    sent: list[str] = []

    def count(_connection: Connection, _cursor: Any, statement: str, *_: Any) -> None:
        sent.append(statement)

    event.listen(store.requests.sync_engine, "before_cursor_execute", count)
    return sent


def test_a_new_game_and_a_finished_games_move_are_one_statement_each(engine: Engine) -> None:
    """PostgreSQL's adapter stores a new game (its row, seats and first events) as one
    statement, and the move that ends it with its results, each result under the claimed
    player of its seat, as one more."""
    store = PooledStore(engine)
    sent = _statements(store)
    game_id = "b" * 32
    game = NewGame(game_id, {"players": ["Ann", "Computer"]}, [None, "hard"], "playing",
                   "human", [{"seat": 0, "kind": "here", "name": "Ann", "computer": None,
                              "token_hash": "t" * 64, "invite": None, "joined": True,
                              "player_id": 7},
                             {"seat": 1, "kind": "computer", "name": "Computer",
                              "computer": "hard", "token_hash": None, "invite": None,
                              "joined": False, "player_id": None}],
                   [{"type": "seats"}, {"type": "roll"}])
    computer = {**RESULT, "seat": 1, "player": "Computer", "won": 0.0, "scores": [9]}

    def create() -> None:
        with store.writing() as db:
            store.store_new_game(db, game)

    def finish() -> bool:
        with store.writing() as db:
            return store.store_move(db, Move(game_id, 2, [{"type": "turn-end"}],
                                             {"status": "over"}, None, [RESULT, computer]))

    async def both() -> bool:
        try:
            await store.run(create)
            return await store.run(finish)
        finally:
            await store.aclose()

    assert asyncio.run(both())
    assert len(sent) == 2
    found = stored(engine, game_id)
    assert found["count"] == 3 and found["status"] == "over"
    assert [position for position, _data in found["events"]] == [0, 1, 2]
    with engine.connect() as db:
        seats = db.execute(select(SEATS.c.seat, SEATS.c.kind, SEATS.c.joined.is_not(None),
                                  SEATS.c.player_id).order_by(SEATS.c.seat)).all()
        results = db.execute(select(RESULTS.c.seat, RESULTS.c.player, RESULTS.c.won,
                                    RESULTS.c.scores, RESULTS.c.player_id)
                             .order_by(RESULTS.c.seat)).all()
    assert seats == [(0, "here", True, 7), (1, "computer", False, None)]
    assert results == [(0, "Ann", 1.0, [0], 7), (1, "Computer", 0.0, [9], None)]


def test_a_requests_reading_holds_no_transaction_open(engine: Engine) -> None:
    """A request's reading runs in autocommit: no BEGIN and ROLLBACK round trips around
    it, and psycopg keeps its prepared statements (a ROLLBACK makes it forget them all);
    a write transaction of the same work is one all the same."""
    store = PooledStore(engine)
    game_id = new_game(engine)
    seen: list[TransactionStatus] = []

    def status(db: Connection) -> TransactionStatus:
        driver = db.connection.driver_connection
        assert driver is not None
        return TransactionStatus(driver.info.transaction_status)

    def work() -> None:
        with store.connect() as db:
            event_count(db, game_id)
            seen.append(status(db))
        with store.transaction() as db:
            event_count(db, game_id, for_update=True)
            seen.append(status(db))
        with store.connect() as db:
            event_count(db, game_id)
            seen.append(status(db))

    async def run() -> None:
        try:
            await store.run(work)
        finally:
            await store.aclose()

    asyncio.run(run())
    assert seen == [TransactionStatus.IDLE, TransactionStatus.INTRANS, TransactionStatus.IDLE]


def test_a_process_whose_memory_is_behind_makes_the_move_again_on_the_stored_game(
        engine: Engine) -> None:
    """Two server processes' memories of one game: the one behind finds out as it
    stores, reads the game again and makes the move on it, never a refusal."""
    one, two = GameService(engine), GameService(engine)
    state = one.create(Rules(), "solo", 0, [SeatSpec("Ann")])
    game_id, token = state["id"], state["tokens"]["0"]
    two.state(game_id)                                  # (both now hold it in memory)

    async def play() -> list[dict[str, Any]]:
        answers = [state]
        for service in (one, two, one, two):
            pending = answers[-1]["pending"]
            if answers[-1]["status"] == "over":
                break
            kind, argument = ("roll", None) if pending["kind"] == "roll" else \
                ("dice", 2) if pending["kind"] == "choose-dice" else \
                ("shut", pending["legal"][0])
            answers.append(json.loads(await service.run(
                game_id, moves.act, service.changes, game_id, token, kind, argument,
                answers[-1]["event_count"], None)))
        await one.aclose()
        await two.aclose()
        return answers

    answers = asyncio.run(play())
    counts = [answer["event_count"] for answer in answers]
    assert len(answers) >= 3 and counts == sorted(set(counts))
    assert stored(engine, game_id)["count"] == counts[-1]


def test_the_requests_work_waits_for_a_connection_of_its_own_bounded_pool(
        engine: Engine) -> None:
    """Requests' work at once beyond the requests' pool waits for a connection (never a
    refusal), and never more connections are open than that pool holds."""
    store = PooledStore(engine)
    peak: list[int] = []

    def read() -> int:
        with store.connect() as db:
            peak.append(store.requests.pool.checkedout())    # type: ignore[attr-defined]
            return int(db.scalar(text("SELECT 1 FROM pg_sleep(0.05)")) or 0)

    async def many() -> list[int]:
        try:
            return await asyncio.gather(*[store.run(read) for _ in range(REQUEST_POOL * 3)])
        finally:
            await store.aclose()

    assert asyncio.run(many()) == [1] * REQUEST_POOL * 3
    assert max(peak) == REQUEST_POOL
