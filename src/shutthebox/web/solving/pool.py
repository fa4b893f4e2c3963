"""Worker processes for the server's solver work, on the standard library's public API.

A :class:`SolverPool` runs functions in worker processes of its own (``multiprocessing``'s
spawn context), so that no request waits on a solve: ``await pool.run(function,
*arguments)`` never blocks the event loop. Each worker is one process, a pipe to it, and a
thread of the server's process that hands it one call at a time and waits for its answer or
its end (:func:`multiprocessing.connection.wait` on the pipe and the process's sentinel). So
the pool knows its processes, which a process pool of :mod:`concurrent.futures` does not let
its caller do publicly before Python 3.14: it ends them at once (:meth:`SolverPool.kill`),
says whether they run (:meth:`SolverPool.alive`), and replaces one that died.

A worker keeps what its calls leave in module globals (the matches it rebuilt, see
:mod:`shutthebox.web.solving.workers`) for as long as it lives, and tells the server how far
a long solve is through :func:`report_progress`.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import logging
import os
import queue
import signal
import threading
import time
import traceback
import weakref
from collections.abc import Callable
from concurrent.futures import Future, InvalidStateError
from dataclasses import dataclass, field
from multiprocessing import get_context
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from shutthebox.language import current_language, speaking
from shutthebox.paths import NO_WRITING

T = TypeVar("T")
log = logging.getLogger(__name__)

CLOSE_GRACE = 0.5
"""Seconds :meth:`SolverPool.close` lets a call under way end before its worker is ended."""
WATCH_EVERY = 0.5
"""Seconds between two looks of an idle worker's thread at its process."""
STEADY = 60.0
"""A worker that dies sooner than this after its start is replaced after a pause that
doubles each time (1 s up to this), so that a worker that cannot start does not spin."""


_pools: weakref.WeakSet[SolverPool] = weakref.WeakSet()
"""Every pool of this process, so that none starts a process while the interpreter exits."""


@atexit.register
def _stop_starting() -> None:
    """As the interpreter exits, no pool may start a worker any more: a process started by a
    thread that exit then freezes would read half its start-up data and write a traceback to
    the server's log. (Exit handlers run before daemon threads are frozen, and each pool's
    lock, held while a process starts, lets one under way finish.)"""
    for pool in list(_pools):
        with pool._lock:
            pool._exiting = True


class WorkDroppedError(Exception):
    """The work was stopped before it ended (:meth:`SolverPool.kill`, or the pool closed)."""


class WorkerDiedError(Exception):
    """The worker process died twice under one call (ended from outside, or out of
    memory)."""


class WorkerTraceback(Exception):
    """Where in the worker an error was raised: the cause of the error its caller gets."""


_progress: Any = None
"""In a worker: the shared number through which it tells the server how far a long solve
is (:meth:`SolverPool.fraction`)."""


def report_progress(fraction: float) -> None:
    """In a worker: tell the server how far the current long solve is, 0 to 1 (nothing
    outside a worker)."""
    if _progress is not None:
        _progress.value = fraction


def _start_worker(parent: int, progress: Any, idle: bool) -> None:
    """In a worker: keep the progress number, leave the server the processor (the worker runs
    at nice 10, its compiled loops on one core fewer than the machine has; an ``idle`` one,
    for long background work, only when the processor is otherwise idle, Linux's
    ``SCHED_IDLE``, so that interactive work in the other worker goes first; any other
    writes no solver table into the data folder), leave Ctrl+C to the server (which ends its
    workers as it stops), and exit when the server process that started it is gone (a
    server killed with -9 cannot stop its workers itself)."""
    global _progress
    _progress = progress
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError):
        os.nice(10)
    if idle:
        with contextlib.suppress(OSError, AttributeError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    else:
        # What the interactive worker works out where it is needed is cheap to make again
        # (a match table under web.solving.tables.INLINE_SECONDS, a round's tables): it keeps
        # it in memory only, so that clients naming one rule set or format after another
        # cannot fill the disk. The background worker's dear tables are kept on disk.
        os.environ[NO_WRITING] = "1"
    os.environ.setdefault("NUMBA_NUM_THREADS", str(max(1, (os.cpu_count() or 2) - 1)))

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="parent-watch").start()


def _serve(calls: Connection, parent: int, progress: Any, idle: bool) -> None:
    """A worker process: answer the calls that come through the pipe, one at a time, each in
    its caller's language, until told to stop (``None``) or the server closes the pipe."""
    _start_worker(parent, progress, idle)
    while True:
        try:
            call = calls.recv()
        except (EOFError, OSError):
            return
        if call is None:
            return
        language, function, arguments = call
        try:
            with speaking(language):
                answer: tuple[bool, Any, str] = (True, function(*arguments), "")
        except Exception as exc:
            answer = (False, exc, traceback.format_exc())
        try:
            calls.send(answer)
        except Exception as exc:    # an answer or error that does not pickle: said in words
            calls.send((False, RuntimeError(f"{function.__name__} answered what cannot be "
                                            f"sent to the server: {exc!r}"), answer[2]))


@dataclass
class _Call:
    """A call waiting for a worker or under way in one."""

    future: Future[Any]
    language: str
    function: Callable[..., Any]
    arguments: tuple[Any, ...]
    kills: int
    """The pool's count of kills when it was asked: a kill since drops it."""
    tries: int = 0


@dataclass
class _Worker:
    """One worker process, started and replaced by its thread in the server's process."""

    process: BaseProcess | None = None
    calls: Connection | None = None
    wanted: bool = False
    """Whether a process should be running: after a start; not after a kill or a close."""
    started: float = 0.0
    pause: float = 0.0
    """Seconds to wait before replacing a process that died soon after it started."""
    died: float = 0.0
    thread: threading.Thread | None = field(default=None, repr=False)

    def dead(self) -> bool:
        """Whether its process has ended (not yet replaced)."""
        return self.process is not None and bool(wait([self.process.sentinel], 0))


class SolverPool:
    """Worker processes for solver work (one by default). ``idle``: the workers run only
    when the processor has nothing else to do (for long background work).

    The workers start at the first call (or :meth:`start`); one that dies is replaced at
    once, and a call under way in it is run again once in the new one.
    """

    def __init__(self, workers: int = 1, idle: bool = False) -> None:
        self.workers = workers
        self.idle = idle
        self._context = get_context("spawn")
        self._progress: Any = self._context.Value("d", 0.0, lock=False)
        self._lock = threading.Lock()
        self._calls: queue.SimpleQueue[_Call | None] = queue.SimpleQueue()
        self._workers: list[_Worker] = []
        self._running = 0
        self._kills = 0
        self._closing = False
        self._exiting = False
        _pools.add(self)

    @property
    def busy(self) -> int:
        """Calls under way or waiting."""
        return self._running

    def fraction(self) -> float:
        """How far the workers' current long solve is, 0 to 1."""
        return float(self._progress.value)

    def alive(self) -> bool:
        """Whether the pool can take work now: none of its worker processes has died without
        being replaced yet (a pool not started, or whose workers were killed, starts them at
        its next call)."""
        with self._lock:
            if self._closing:
                return False
            return all(not w.wanted or (w.process is not None and not w.dead())
                       for w in self._workers)

    def start(self) -> None:
        """Start the worker processes now rather than at the first call."""
        with self._lock:
            self._start_threads()
            for worker in self._workers:
                if worker.process is None:
                    self._replace(worker)

    async def run(self, function: Callable[..., T], *arguments: Any) -> T:
        """``function(*arguments)`` in a worker, its sentences in the caller's language.

        :raises WorkDroppedError: the pool was killed or closed meanwhile.
        :raises WorkerDiedError: the worker died under the call, and its replacement too.
        """
        future: Future[T] = Future()
        with self._lock:
            if self._closing or self._exiting:
                raise WorkDroppedError(function.__name__)
            self._start_threads()
            self._calls.put(_Call(future, current_language(), function, arguments,
                                  self._kills))
        self._running += 1
        try:
            return await asyncio.wrap_future(future)
        finally:
            self._running -= 1

    def kill(self) -> None:
        """Stop every call under way or waiting, at once (their callers get
        :class:`WorkDroppedError`): a call that has started cannot be cancelled, so the
        workers are ended. The next call starts new ones."""
        with self._lock:
            self._kills += 1
            dropped = self._take_waiting()
            for worker in self._workers:
                worker.wanted = False
                if worker.process is not None:
                    worker.process.terminate()
        for call in dropped:
            _drop(call)

    def close(self) -> None:
        """Stop the workers. Idle ones are told to stop and waited for (milliseconds), so
        that nothing is left to Python's exit handlers (a uvicorn worker process dies of the
        signal that stopped it, without them). A worker in the middle of a solve is
        ended after :data:`CLOSE_GRACE`, not waited for: a server told to stop must not wait
        on a long solve (whose callers may have been cancelled already). The pool can be
        used again: its next call starts new workers."""
        with self._lock:
            if self._closing or not self._workers:
                return
            self._closing = True
            dropped = self._take_waiting()
            workers = self._workers
            for worker in workers:
                worker.wanted = False
                self._calls.put(None)
        for call in dropped:
            _drop(call)
        deadline = time.monotonic() + CLOSE_GRACE
        for worker in workers:
            assert worker.thread is not None
            worker.thread.join(max(0.0, deadline - time.monotonic()))
        with self._lock:
            for worker in workers:
                if worker.process is not None:
                    worker.process.terminate()
        for worker in workers:
            assert worker.thread is not None
            worker.thread.join(5.0)
        with self._lock:
            self._workers = []
            self._calls = queue.SimpleQueue()
            self._closing = False

    # --- in the pool's threads ----------------------------------------------------------

    def _start_threads(self) -> None:
        """(Under the lock.) The workers' threads, started once."""
        if self._workers:
            return
        self._workers = [_Worker() for _ in range(self.workers)]
        for number, worker in enumerate(self._workers):
            worker.thread = threading.Thread(target=self._feed, args=(worker, self._calls),
                                             daemon=True, name=f"solver-worker-{number}")
            worker.thread.start()

    def _take_waiting(self) -> list[_Call]:
        """(Under the lock.) The calls no worker has taken yet, taken off the queue."""
        taken: list[_Call] = []
        while True:
            try:
                call = self._calls.get_nowait()
            except queue.Empty:
                return taken
            if call is None:            # a close's: kept for the thread it is meant for
                self._calls.put(None)
                return taken
            taken.append(call)

    def _feed(self, worker: _Worker, calls: queue.SimpleQueue[_Call | None]) -> None:
        """A worker's thread: hand its process the calls one at a time, replace it when it
        dies, and stop it when the pool closes."""
        while True:
            try:
                call = calls.get(timeout=WATCH_EVERY)
            except queue.Empty:
                with self._lock:
                    self._watch(worker)
                continue
            if call is None:
                break
            if call.future.set_running_or_notify_cancel():   # else its caller gave up
                self._answer(worker, call)
        self._stop(worker)

    def _watch(self, worker: _Worker) -> None:
        """(Under the lock.) Replace a process that died while it was idle, after its
        pause; let go of one that was killed."""
        if worker.process is not None and not worker.dead():
            return
        if not worker.wanted:
            if worker.process is not None:
                self._forget(worker)
            return
        worker.died = worker.died or time.monotonic()
        if time.monotonic() - worker.died >= worker.pause and not self._exiting:
            try:
                self._replace(worker)
            except Exception as exc:    # tried again after a longer pause
                worker.pause = min(max(1.0, 2 * worker.pause), STEADY)
                worker.died = time.monotonic()
                log.warning("a solver worker could not be started: %s", exc)

    def _answer(self, worker: _Worker, call: _Call) -> None:
        """Run the call in the worker's process (started if needed) and settle its future;
        run it once more in a new process if the process dies under it."""
        while True:
            with self._lock:
                if call.kills != self._kills or self._closing:
                    _drop(call)
                    return
                try:
                    if worker.process is None or worker.dead():
                        self._replace(worker)
                except Exception as exc:    # no process could be started
                    call.future.set_exception(exc)
                    return
                process, calls = worker.process, worker.calls
            assert process is not None and calls is not None
            try:            # (not under the lock: a long log may fill the pipe a while)
                calls.send((call.language, call.function, call.arguments))
            except OSError:
                pass        # the process ended meanwhile: seen below
            except Exception as exc:          # arguments that do not pickle
                call.future.set_exception(exc)
                return
            if calls in wait([calls, process.sentinel]):
                try:
                    answer = calls.recv()
                except (EOFError, OSError):
                    pass    # the process ended as it answered
                except Exception as exc:      # an answer that does not unpickle here
                    call.future.set_exception(exc)
                    return
                else:
                    _settle(call, answer)
                    return
            call.tries += 1
            if call.tries > 1 and call.kills == self._kills and not self._closing:
                call.future.set_exception(WorkerDiedError(call.function.__name__))
                return

    def _replace(self, worker: _Worker) -> None:
        """(Under the lock.) A new process for the worker, the old one let go of (none as
        the interpreter exits)."""
        if self._exiting:
            raise WorkDroppedError("the server is stopping")
        if worker.process is not None:
            quick = time.monotonic() - worker.started < STEADY
            worker.pause = min(max(1.0, 2 * worker.pause), STEADY) if quick else 0.0
            self._forget(worker)
        theirs, ours = self._context.Pipe(duplex=True)
        process = self._context.Process(
            target=_serve, args=(theirs, os.getpid(), self._progress, self.idle),
            daemon=True, name="shutthebox-solver")
        process.start()
        theirs.close()
        worker.process, worker.calls = process, ours
        worker.wanted, worker.started, worker.died = True, time.monotonic(), 0.0

    def _forget(self, worker: _Worker) -> None:
        """(Under the lock.) Let go of the worker's process, which has ended."""
        process, calls = worker.process, worker.calls
        worker.process = worker.calls = None
        if calls is not None:
            calls.close()
        if process is not None:
            process.join(1.0)
            if process.exitcode is not None:
                process.close()

    def _stop(self, worker: _Worker) -> None:
        """The pool closes: tell the process to stop, and wait for it a moment."""
        with self._lock:
            process, calls = worker.process, worker.calls
            if calls is not None:
                with contextlib.suppress(OSError):
                    calls.send(None)
        if process is not None:
            process.join(1.0)
            if process.exitcode is None:
                process.terminate()
                process.join(1.0)
        with self._lock:
            self._forget(worker)


def _settle(call: _Call, answer: tuple[bool, Any, str]) -> None:
    succeeded, value, where = answer
    if succeeded:
        call.future.set_result(value)
    else:
        value.__cause__ = WorkerTraceback(where)
        call.future.set_exception(value)


def _drop(call: _Call) -> None:
    """The call's caller gets :class:`WorkDroppedError` (unless it gave up waiting)."""
    with contextlib.suppress(InvalidStateError):
        call.future.set_exception(WorkDroppedError(call.function.__name__))
