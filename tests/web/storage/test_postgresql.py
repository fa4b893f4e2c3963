"""Storing on PostgreSQL: a move stores all of it or nothing, the unit of work serializes
the changes to one game across connections (as across server processes), and a process's
connections are one bounded pool; on a real PostgreSQL (skipped, saying why, when none
answers on 127.0.0.1:5432)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from shutthebox.web.play.changes import GameChanges
from shutthebox.web.storage import (
    ANSWERS,
    EVENTS,
    GAMES,
    RESULTS,
    create_game,
    make_engine,
)
from shutthebox.web.storage.queries import Move, event_count, store_move
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
