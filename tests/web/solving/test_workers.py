"""The solver workers of a server: the first match tables are worked out in the background
with progress for the watchers, and the workers run below the server's priority.

A test with a database runs twice: on SQLite and on a fresh PostgreSQL schema (skipped,
saying so, when PostgreSQL does not answer on 127.0.0.1:5432).
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from shutthebox.match import GameFormat
from shutthebox.rules import Rules
from shutthebox.web import create_app
from shutthebox.web.api.checks import RateLimits
from shutthebox.web.solving.workers import SolverPool
from tests.web.client import HOSTS, new_game


def test_the_first_match_tables_are_worked_out_with_progress_for_the_watchers(
        database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from shutthebox.solver.matchplay import cache_path

    monkeypatch.setenv("SHUTTHEBOX_HOME", str(tmp_path / "home"))  # no tables on disk yet
    rules = Rules()      # a table of about half a second: the background worker's
    table = cache_path(rules, GameFormat.parse("loser-at:60"))
    assert not table.exists()
    own_pool = SolverPool()
    app = create_app(database_url, allowed_hosts=HOSTS, computer_delay=0.3,
                     limits=RateLimits(0, 0), pool=own_pool)
    try:
        with TestClient(app) as client:
            state = new_game(client, players=[{"name": "Bot", "computer": "hard"},
                                              {"name": "Ann"}],
                             format="loser-at:60")
            kinds = []
            with client.websocket_connect(f"/api/games/{state['id']}/live?since=0") as live:
                while True:
                    message = live.receive_json()
                    kinds.append(message["type"])
                    if message["type"] == "state" and any(
                            e["type"] == "shut" for e in message["events"]):
                        break
            assert "progress" in kinds and kinds.index("progress") < len(kinds) - 1
            assert table.exists()
    finally:
        own_pool.close()


def test_solver_workers_run_below_the_server_priority(pool: SolverPool) -> None:
    """A solve of seconds in a worker must not slow the server's answers: the workers run at
    nice 10 above the process that started them, their compiled loops on a core fewer, and
    the background worker (match tables) only when the processor is idle (Linux), so that
    the interactive one (hints) goes first."""
    background = SolverPool(idle=True)
    try:
        for worker in (pool, background):
            assert asyncio.run(worker.run(os.nice, 0)) == min(os.nice(0) + 10, 19)
            threads = asyncio.run(worker.run(os.getenv, "NUMBA_NUM_THREADS"))
            assert threads == os.environ.get("NUMBA_NUM_THREADS",
                                             str(max(1, (os.cpu_count() or 2) - 1)))
        if hasattr(os, "SCHED_IDLE"):
            assert asyncio.run(background.run(os.sched_getscheduler, 0)) == os.SCHED_IDLE
            assert asyncio.run(pool.run(os.sched_getscheduler, 0)) == os.SCHED_OTHER
    finally:
        background.close()


def test_advice_in_formats_one_after_another_writes_no_table_to_disk(
        database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The interactive worker keeps the cheap tables it works out in memory only: a client
    naming format after format cannot fill the server's disk; the background worker still
    keeps its dear tables there."""
    home = tmp_path / "home"
    monkeypatch.setenv("SHUTTHEBOX_HOME", str(home))
    own_pool, background = SolverPool(), SolverPool(idle=True)
    app = create_app(database_url, allowed_hosts=HOSTS, computer_delay=0,
                     limits=RateLimits(0, 0), pool=own_pool)
    try:
        assert asyncio.run(own_pool.run(os.getenv, "SHUTTHEBOX_NO_WRITING")) == "1"
        assert asyncio.run(background.run(os.getenv, "SHUTTHEBOX_NO_WRITING")) is None
        with TestClient(app) as client:
            for rounds in range(2, 7):
                answer = client.post("/api/advice", json={
                    "rules": {"tiles": 5}, "open": [1, 2, 3, 4, 5], "roll": [2, 3],
                    "format": f"rounds:{rounds}", "totals": [0, 0]})
                assert answer.status_code == 200, answer.text
                assert answer.json()["measure"] == "chance to win"
        assert not list(home.rglob("*.npz"))
    finally:
        own_pool.close()
        background.close()
