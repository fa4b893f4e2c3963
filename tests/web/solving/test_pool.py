"""The server's solver worker processes (:mod:`shutthebox.web.solving.pool`): a call answers
in a worker; a worker ended from outside is seen, replaced, and its call run again; a kill
drops the work at once; a close ends the workers; the pool says whether they run."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from shutthebox.language import speaking
from shutthebox.web.solving.pool import (
    SolverPool,
    WorkDroppedError,
    WorkerDiedError,
    WorkerTraceback,
)
from shutthebox.web.solving.tables import approximate_note


@pytest.fixture(scope="module")
def pool() -> Iterator[SolverPool]:
    shared = SolverPool()
    yield shared
    shared.close()


def until(condition: Callable[[], bool], seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"not so after {seconds} s"
        time.sleep(0.02)


def process_exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_call_answers_in_a_worker_process_in_the_callers_language(pool: SolverPool) -> None:
    assert asyncio.run(pool.run(os.getpid)) != os.getpid()
    with speaking("fr"):
        said = asyncio.run(pool.run(approximate_note, "race:100"))
        assert said == approximate_note("race:100")
    assert said != approximate_note("race:100")       # not the server's own English


def test_an_error_in_a_worker_reaches_the_caller_with_where_it_was_raised(
        pool: SolverPool) -> None:
    with pytest.raises(ValueError, match="invalid literal") as raised:
        asyncio.run(pool.run(int, "seven"))
    assert isinstance(raised.value.__cause__, WorkerTraceback)
    assert "ValueError" in str(raised.value.__cause__)
    assert asyncio.run(pool.run(int, "7")) == 7         # the worker goes on


def test_a_worker_killed_from_outside_is_reported_then_replaced() -> None:
    """What a readiness check reads (:meth:`SolverPool.alive`): a worker ended from outside
    is replaced without waiting for a call; one that dies again soon after its start is
    replaced after a pause (a worker that cannot start must not spin), and meanwhile the
    pool says it is not alive."""
    pool = SolverPool()
    try:
        first = asyncio.run(pool.run(os.getpid))
        assert pool.alive()
        os.kill(first, signal.SIGKILL)
        until(lambda: not process_exists(first))      # seen, let go of and replaced
        until(pool.alive)
        second = asyncio.run(pool.run(os.getpid))
        os.kill(second, signal.SIGKILL)
        until(lambda: not pool.alive(), 10)
        until(pool.alive)
        third = asyncio.run(pool.run(os.getpid))
        assert len({first, second, third, os.getpid()}) == 4
    finally:
        pool.close()


def slept(seconds: float) -> float:
    """(In a worker.)"""
    time.sleep(seconds)
    return seconds


def test_a_call_whose_worker_dies_under_it_runs_again_in_a_new_one(pool: SolverPool) -> None:
    first = asyncio.run(pool.run(os.getpid))

    async def sleep_and_kill() -> None:
        call = asyncio.ensure_future(pool.run(slept, 1.0))
        await asyncio.sleep(0.3)
        os.kill(first, signal.SIGKILL)
        assert await asyncio.wait_for(call, 30) == 1.0

    asyncio.run(sleep_and_kill())
    assert asyncio.run(pool.run(os.getpid)) != first


def test_a_call_that_kills_every_worker_it_runs_in_fails_after_one_retry(
        pool: SolverPool) -> None:
    first = asyncio.run(pool.run(os.getpid))
    with pytest.raises(WorkerDiedError, match="raise_signal"):
        asyncio.run(pool.run(signal.raise_signal, signal.SIGKILL))
    assert asyncio.run(pool.run(os.getpid)) not in (first, os.getpid())


def test_a_kill_drops_the_calls_under_way_and_waiting_at_once() -> None:
    pool = SolverPool()
    try:
        worker = asyncio.run(pool.run(os.getpid))

        async def drop() -> float:
            long = asyncio.ensure_future(pool.run(time.sleep, 60.0))
            waiting = asyncio.ensure_future(pool.run(time.sleep, 60.0))
            await asyncio.sleep(0.3)
            assert pool.busy == 2
            started = time.monotonic()
            pool.kill()
            for call in (long, waiting):
                with pytest.raises(WorkDroppedError):
                    await asyncio.wait_for(call, 30)
            return time.monotonic() - started

        assert asyncio.run(drop()) < 5
        assert pool.alive() and pool.busy == 0   # none runs until the next call: none missing
        until(lambda: not process_exists(worker))
        assert asyncio.run(pool.run(os.getpid)) != worker
    finally:
        pool.close()


def test_a_close_ends_idle_and_busy_workers_without_waiting_on_a_solve() -> None:
    pool = SolverPool(workers=2)
    workers = set()
    try:
        async def close_while_busy() -> float:
            nonlocal workers
            workers = set(await asyncio.gather(*(pool.run(os.getpid) for _ in range(8))))
            long = asyncio.ensure_future(pool.run(time.sleep, 60.0))
            await asyncio.sleep(0.3)
            started = time.monotonic()
            await asyncio.to_thread(pool.close)
            took = time.monotonic() - started
            with pytest.raises(WorkDroppedError):
                await asyncio.wait_for(long, 10)
            return took

        assert asyncio.run(close_while_busy()) < 5
        assert workers and os.getpid() not in workers
        until(lambda: not any(process_exists(pid) for pid in workers))
        assert asyncio.run(pool.run(os.getpid)) not in workers     # usable again
    finally:
        pool.close()


def test_a_pool_never_started_is_alive_and_starts_on_demand() -> None:
    pool = SolverPool(idle=True)
    try:
        assert pool.alive() and pool.busy == 0 and pool.fraction() == 0.0
        pool.start()
        assert pool.alive()
        assert asyncio.run(pool.run(os.getpid)) != os.getpid()
    finally:
        pool.close()


EXITS_WHILE_STARTING = """
import asyncio, os, sys, threading, time
from shutthebox.web.solving.pool import SolverPool

def restart_forever(pool):
    while True:
        pool.kill()                     # each call below must start a new process
        try:
            asyncio.run(pool.run(os.getpid))
        except Exception:               # (asyncio itself refuses as the interpreter exits)
            pass

if __name__ == "__main__":
    threading.Thread(target=restart_forever, args=(SolverPool(),), daemon=True).start()
    time.sleep(float(sys.argv[1]))
"""


def test_a_process_exiting_while_its_pool_starts_a_worker_leaves_no_traceback(
        tmp_path: Path) -> None:
    """A server that exits while a pool's thread starts a worker (as a game's step asks the
    solver while the server stops) must not leave that worker half-started: it would read
    an empty pipe and print a traceback into the server's log."""
    script = tmp_path / "exits.py"
    script.write_text(EXITS_WHILE_STARTING)
    for wait in (0.7, 0.9, 1.1, 1.3, 1.5, 1.7):
        done = subprocess.run([sys.executable, str(script), str(wait)], capture_output=True,
                              text=True, timeout=60, cwd=tmp_path)
        time.sleep(0.5)                 # (a worker started late writes after its parent)
        assert done.returncode == 0 and "spawn_main" not in done.stderr, done.stderr
