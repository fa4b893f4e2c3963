"""SQLite storage as several server processes share it: the one writing connection waits its
turn for the file's write lock (and gives up with a clear database error, not a hang), and
its write-ahead log is moved into the database file by the checkpoint thread."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, IntegrityError

from shutthebox.rules import Rules
from shutthebox.web.live.feeds import moved_on
from shutthebox.web.play.service import GameService, SeatSpec
from shutthebox.web.storage import SqliteWriter, make_engine, queries
from shutthebox.web.storage.queries import Move, NewGame


@dataclass
class Stored:
    """A game service on a fresh SQLite file."""

    path: Path
    engine: Engine
    service: GameService


@pytest.fixture
def stored(tmp_path: Path) -> Iterator[Stored]:
    path = tmp_path / "games.sqlite"
    engine = make_engine(f"sqlite:///{path}")
    service = GameService(engine)
    yield Stored(path, engine, service)
    service.close()
    engine.dispose()


class Writer(threading.Thread):
    """Another process's writer: it holds the file's write lock for ``seconds`` (from when it
    is started), and keeps when it began to give it back (``releasing``, monotonic time)."""

    def __init__(self, path: Path, seconds: float) -> None:
        super().__init__()
        self.path, self.seconds = path, seconds
        self.held = threading.Event()
        self.releasing = 0.0

    def run(self) -> None:
        other = sqlite3.connect(self.path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        self.held.set()
        time.sleep(self.seconds)
        self.releasing = time.monotonic()
        other.execute("ROLLBACK")
        other.close()


def another_writer(path: Path, seconds: float) -> Writer:
    """:class:`Writer`, started, once it holds the lock."""
    writer = Writer(path, seconds)
    writer.start()
    writer.held.wait()
    return writer


def test_a_move_waits_for_another_writer_then_is_stored(stored: Stored) -> None:
    game = stored.service.create(Rules(), "solo", 0, [SeatSpec("Ann")])
    other = another_writer(stored.path, 0.3)
    began = time.monotonic()
    stored.service.act(game["id"], game["tokens"]["0"], "roll", None, game["event_count"],
                       None)
    ended = time.monotonic()
    other.join()
    # it waited for the lock (measured from when the other writer let go of it: on a busy
    # machine this thread may see the lock taken well after the other took it) ...
    assert ended >= other.releasing >= began
    with sqlite3.connect(stored.path) as check:        # ... and then stored the roll
        count = check.execute("SELECT count(*) FROM events WHERE game_id = ?",
                              (game["id"],)).fetchone()[0]
    assert count > game["event_count"]


def stored_rows(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of the tables a new game and a move write, as SQLite holds them (dates as
    text)."""
    with sqlite3.connect(path) as check:
        return {table: check.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
                for table in ("games", "seats", "events", "answers", "results")}


def test_the_writers_compiled_moves_store_what_sqlalchemys_store(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The writer runs a new game's and a move's statements compiled once on the driver's
    connection: the rows it stores (a game's JSON config, its seats, dates, a deadline, a
    finished game's results, an answer) are those SQLAlchemy's execution of the same
    statements stores, a game that moved on is refused by both, and a key stored twice
    (an answer's, a game's) is SQLAlchemy's IntegrityError."""
    deadline = datetime(2026, 11, 29, 3, 4, 5, 678901)
    moves = [
        Move("g1", 1, [{"kind": "roll", "dice": [3, 5]}], {"status": "playing"}),
        Move("g1", 2, [{"kind": "shut", "tiles": [8]}, {"kind": "roll", "dice": [1, 1]}],
             {"waiting_for": "server", "deadline": deadline}, (0, "k1", '{"a": 1}')),
        Move("g1", 4, [{"kind": "over"}], {"status": "over"}, None,
             [{"seat": 0, "player": "Ann", "rules": {"tiles": 9}, "format": "solo",
               "won": 1.0, "scores": [3], "shut_boxes": 0}]),
    ]
    found = {}
    for how in ("writer", "sqlalchemy"):
        stamps = iter(datetime(2026, 11, 29, 3, 0, second) for second in range(60))
        monkeypatch.setattr(queries, "now", stamps.__next__)
        engine = make_engine(f"sqlite:///{tmp_path / how}.sqlite")
        writer = SqliteWriter(engine)
        create = writer.store_new_game if how == "writer" else queries.store_new_game
        game = NewGame("g1", {"tiles": 9, "name": "Ann's \"box\""}, [None, "hard"],
                       "waiting", "human",
                       [{"seat": 0, "kind": "human", "name": "Ann", "computer": None,
                         "token_hash": "h", "invite": None, "joined": True,
                         "player_id": 3},
                        {"seat": 1, "kind": "computer", "name": "Computer",
                         "computer": "hard", "token_hash": None, "invite": None,
                         "joined": False}],
                       [{"kind": "start"}])
        with writer.transaction() as db:
            create(db, game)
        with pytest.raises(IntegrityError), writer.transaction() as db:
            create(db, game)
        store = writer.store_move if how == "writer" else queries.store_move
        for move in moves:
            with writer.transaction() as db:
                assert store(db, move)
        with writer.transaction() as db:     # the game has moved on: nothing stored
            assert not store(db, moves[0])
        with pytest.raises(IntegrityError), writer.transaction() as db:
            store(db, Move("g1", 5, [{"kind": "x"}], {}, (0, "k1", "{}")))
        writer.close()
        engine.dispose()
        found[how] = stored_rows(tmp_path / f"{how}.sqlite")
    assert found["writer"] == found["sqlalchemy"]
    assert len(found["writer"]["events"]) == 5 and len(found["writer"]["answers"]) == 1
    assert len(found["writer"]["seats"]) == 2 and len(found["writer"]["results"]) == 1
    assert "2026-11-29 03:04:05.678901" in found["writer"]["games"][0]


def test_a_writer_that_cannot_get_the_lock_gives_up_with_a_database_error(
        stored: Stored) -> None:
    writer = SqliteWriter(stored.engine, wait=0.2)
    other = another_writer(stored.path, 1.0)
    began = time.monotonic()
    with pytest.raises(DBAPIError, match="locked"), writer.transaction() as connection:
        connection.exec_driver_sql("UPDATE games SET status = 'x'")
    assert 0.15 <= time.monotonic() - began < 0.9
    other.join()
    with writer.transaction() as connection:         # free again: it writes
        connection.exec_driver_sql("UPDATE games SET status = 'x'")
    writer.close()


def test_the_log_starts_over_under_a_steady_stream_of_commits(tmp_path: Path) -> None:
    """Under a steady stream of commits (one a millisecond, a checkpoint every 0.5 s) the
    log starts over once it passes its limit (here 200 pages, a fraction of a period's
    commits): it holds about a period's commits at most, not all of them. (Without the
    second checkpoint in the writers' turn this held here too, in three runs; a synthetic
    writer with more pages per commit grew its log without end.)"""
    path = tmp_path / "games.sqlite"
    engine = make_engine(f"sqlite:///{path}")          # one writer, as a server process
    writer = SqliteWriter(engine, restart_frames=200)   # a checkpoint every 0.5 s
    with writer.transaction() as connection:
        connection.exec_driver_sql("CREATE TABLE moves (game INTEGER, n INTEGER, body TEXT, "
                                   "PRIMARY KEY (game, n))")
        connection.exec_driver_sql("CREATE TABLE state (game INTEGER PRIMARY KEY, n INTEGER, "
                                   "body TEXT, at REAL)")
        connection.exec_driver_sql("CREATE INDEX state_at ON state (at)")
    commits, tick = 0, time.monotonic()
    ends = tick + 3.0                                    # six checkpoint periods
    while time.monotonic() < ends:                       # a move a millisecond, as a server
        game = commits % 100
        with writer.transaction() as connection:
            connection.exec_driver_sql("INSERT INTO moves VALUES (?, ?, ?)",
                                       (game, commits, "x" * 150))
            connection.exec_driver_sql("INSERT OR REPLACE INTO state VALUES (?, ?, ?, ?)",
                                       (game, commits, "y" * 300, time.time()))
        commits += 1
        tick += 0.001
        time.sleep(max(0.0, tick - time.monotonic()))
    writer.checkpoints.stop()           # (a checkpoint running beside answers -1 frames)
    with sqlite3.connect(path) as check:                 # the log's frames since it began
        _, frames, _ = check.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    size = path.with_name(path.name + "-wal").stat().st_size
    writer.close()
    engine.dispose()
    # Each commit wrote two pages or more to the log: one that never started over would
    # hold them all, one started over each period a period's worth (a sixth of them).
    assert commits > 1_500
    assert 0 <= frames < commits, (frames, commits, size)


def test_a_checkpoint_takes_the_writers_turn_only_once_the_log_passes_its_limit(
        tmp_path: Path) -> None:
    """The second checkpoint (in the writers' turn, while every writer waits) runs only
    when the log holds ``restart_frames`` pages or more."""
    engine = make_engine(f"sqlite:///{tmp_path / 'games.sqlite'}")
    writer = SqliteWriter(engine, restart_frames=50)
    writer.checkpoints.stop()                           # checkpoints called here alone

    def commits(count: int) -> None:
        for n in range(count):
            with writer.transaction() as connection:
                connection.exec_driver_sql("UPDATE games SET status = ?", (str(n),))

    def checkpoint_while_a_writer_holds_the_turn() -> bool:
        """Whether a checkpoint finished while the writers' turn was held (else it
        waited for the turn)."""
        done = threading.Event()

        def checkpoint() -> None:
            writer.checkpoints.checkpoint()
            done.set()

        with writer._turn:
            thread = threading.Thread(target=checkpoint)
            thread.start()
            finished = done.wait(2.0)
        thread.join()
        return finished

    commits(10)                                         # a log under its limit
    assert checkpoint_while_a_writer_holds_the_turn()
    commits(10)                                         # (the log goes on from its end)
    assert checkpoint_while_a_writer_holds_the_turn()
    with writer.transaction() as connection:            # a log past it: many pages
        connection.exec_driver_sql("CREATE TABLE filler (body TEXT)")
        connection.exec_driver_sql("INSERT INTO filler VALUES (?)",
                                   [("x" * 4000,)] * 100)
    assert not checkpoint_while_a_writer_holds_the_turn()
    writer.close()
    engine.dispose()


def test_the_log_is_moved_into_the_database_file_by_the_checkpoint_thread(
        stored: Stored) -> None:
    game = stored.service.create(Rules(), "solo", 0, [SeatSpec("Ann")])
    time.sleep(1.2)                                     # two checkpoint periods
    # Read the database file alone, as if the log were lost: the game is in it.
    with sqlite3.connect(f"file:{stored.path}?immutable=1", uri=True) as check:
        found = check.execute("SELECT id FROM games").fetchall()
    assert found == [(game["id"],)]


def test_a_finished_game_leaves_memory_and_reads_back_from_the_database(
        stored: Stored) -> None:
    service = stored.service
    state = service.create(Rules(), "solo", 0, [SeatSpec("Ann")])
    game, token = state["id"], state["tokens"]["0"]
    while state["status"] != "over":
        kind = state["pending"]["kind"]
        argument = {"roll": None, "choose-dice": 2}.get(kind, state["pending"]["legal"][0]
                                                          if kind == "shut" else None)
        action = {"roll": "roll", "choose-dice": "dice", "shut": "shut"}[kind]
        state = json.loads(service.act(game, token, action, argument, state["event_count"],
                                       None))
    assert game not in service.cache.games            # a server keeps only games in play
    again = service.state(game)
    assert again["status"] == "over" and again["event_count"] == state["event_count"]
    assert again["totals"] == state["totals"]


def test_a_closed_writer_closes_once_and_opens_again_when_used(stored: Stored) -> None:
    writer = SqliteWriter(stored.engine)
    writer.close()
    writer.close()                                      # an app shut down twice
    with writer.transaction() as connection:           # and started again
        connection.exec_driver_sql("UPDATE games SET status = 'x'")
    with stored.engine.connect() as other:             # the pool's connections are plain
        assert other.exec_driver_sql("PRAGMA busy_timeout").scalar() == 5000
    writer.close()


def test_the_live_poll_hears_only_of_games_moved_on_past_what_this_process_knows(
        stored: Stored) -> None:
    service = stored.service
    ann = service.create(Rules(), "solo", 0, [SeatSpec("Ann")])
    bob = service.create(Rules(), "solo", 0, [SeatSpec("Bob")])
    known = {ann["id"]: ann["event_count"], bob["id"]: bob["event_count"], "gone": -1}
    with stored.engine.connect() as connection:
        assert list(moved_on(connection, known)) == []        # it made them: nothing new
        # A move stored by another process (another connection, as another process's
        # writer) is heard of; an unknown count hears of the game as it is.
        other = GameService(stored.engine)
        answer = json.loads(other.act(bob["id"], bob["tokens"]["0"], "roll", None,
                                      bob["event_count"], None))
        other.close()
        connection.rollback()
        assert [tuple(row) for row in moved_on(connection, known)] == [
            (bob["id"], answer["event_count"])]
        assert [tuple(row) for row in moved_on(connection, {ann["id"]: -1})] == [
            (ann["id"], ann["event_count"])]


def rows(path: Path) -> list[int]:
    """What another connection reads of the test table: the committed rows only."""
    other = sqlite3.connect(path)
    try:
        return [r[0] for r in other.execute("SELECT x FROM t ORDER BY x")]
    finally:
        other.close()


def insert(value: int, keep: bool = True) -> Callable[[Connection], bool]:
    def write(connection: Connection) -> bool:
        connection.exec_driver_sql(f"INSERT INTO t VALUES ({value})")
        if value < 0:
            raise sqlite3.IntegrityError(f"refused {value}")
        return keep
    return write
