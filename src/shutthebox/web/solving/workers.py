"""Solver work for the web app, run in a separate process so that no request waits on it.

Each function takes a game's stored log (JSON values, cheap to send between processes) and
answers JSON values. A worker keeps the matches it rebuilt and the computer players it made,
so a long match is not replayed from the start at every step.

:class:`SolverPool` runs these functions in worker processes, started once per server
process; ``await pool.run(function, *arguments)`` never blocks the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import random
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from shutthebox.language import N_, _, current_language, speaking
from shutthebox.match import GameFormat, Match, PendingKind, replay
from shutthebox.rules import Rules
from shutthebox.strategies import Strategy, make_strategy
from shutthebox.tiles import tiles_of
from shutthebox.turn import Phase

T = TypeVar("T")

_MATCHES: OrderedDict[str, Match] = OrderedDict()
_PLAYERS: OrderedDict[tuple[str, int], Strategy] = OrderedDict()
_KEEP = 256
"""How many matches and computer players a worker keeps."""

NOTHING_TO_HINT = N_("Roll the dice first: hints rank the moves after a roll.")


def _match(game_id: str, log: Mapping[str, Any]) -> Match:
    """The match of the log: the kept one moved on by the new events, or a replay."""
    events = log["events"]
    kept = _MATCHES.pop(game_id, None)
    match = kept if kept is not None and kept.events == events else replay(log)
    _MATCHES[game_id] = match
    while len(_MATCHES) > _KEEP:
        _MATCHES.popitem(last=False)
    return match


INLINE_SECONDS = 0.5
"""A match table estimated to take less than this is worked out where it is needed, even
by interactive work; a dearer one only in the background (see :mod:`shutthebox.web.solving.work`),
and until it is there the answers that need it say they are approximate."""


def table_ready(rules: Rules, fmt: GameFormat) -> bool:
    """Whether exact play may read the match table now: it is kept (in memory or on disk),
    or it is cheap enough to work out where it is needed (:data:`INLINE_SECONDS`)."""
    from shutthebox.solver.cost import table_seconds
    from shutthebox.solver.matchplay import is_cached

    return table_seconds(rules, fmt) <= INLINE_SECONDS or is_cached(rules, fmt)


def table_missing(log: Mapping[str, Any]) -> str | None:
    """The format of the two-player match table that exact play of the logged game needs,
    when it is not :func:`table_ready`; else None."""
    from shutthebox.solver.matchplay import table_needed

    fmt = table_needed(log["format"], len(log["players"]))
    if fmt is None or table_ready(Rules.from_dict(dict(log["rules"])), fmt):
        return None
    return str(fmt)


def approximate_note(fmt: str) -> str:
    """What an answer ranked by expected score for want of the match table says.

    >>> approximate_note("loser-at:500")[:58]
    'Ranked by expected score for now: the exact tables of lose'
    """
    return _("Ranked by expected score for now: the exact tables of {format} are not worked "
             "out on this server yet.").format(format=fmt)


def computer_action(game_id: str, log: Mapping[str, Any], seat: int, strategy: str) -> int:
    """The computer player's action at the pending decision of the logged game. A computer
    that plays the match exactly plays each turn for its best expected score instead while
    the match's table is missing (the server builds it first when it fits its budget)."""
    match = _match(game_id, log)
    pending = match.pending
    assert pending.turn is not None and pending.seat == seat
    if strategy in ("hard", "optimal") and table_missing(log) is not None:
        strategy = "optimal:round"
    key = (game_id, seat)
    player = _PLAYERS.pop(key, None) or make_strategy(strategy, match.rules, random.Random())
    _PLAYERS[key] = player
    while len(_PLAYERS) > _KEEP:
        _PLAYERS.popitem(last=False)
    return player.choose(pending.turn, match.situation())


def hint(game_id: str, log: Mapping[str, Any]) -> dict[str, Any]:
    """Every legal action now, ranked by the coach, with its chance to shut (by expected
    score, and saying so, while the match's table is missing).

    :raises LogError: the log does not replay.
    """
    from shutthebox.coach import hint as ranked_hint
    from shutthebox.coach.hints import describe_action

    match = _match(game_id, log)
    pending = match.pending
    if pending.turn is None or not pending.is_decision:
        message = (_(NOTHING_TO_HINT) if pending.kind is PendingKind.ROLL else
                   _("The game is over: the review shows every move against the best.")
                   if pending.kind is PendingKind.OVER else _("Nothing to decide yet."))
        return {"kind": pending.kind, "measure": None, "options": [], "message": message}
    missing = table_missing(log)
    ranked = ranked_hint(match, match_tables=missing is None)
    by_dice = ranked.phase is Phase.CHOOSE_DICE
    options = [{**({"dice": c.action} if by_dice else {"tiles": list(tiles_of(c.action))}),
                "text": describe_action(ranked.phase, c.action), "value": c.value,
                "loss": c.loss, "p_shut": c.p_shut} for c in ranked.choices]
    return {"kind": pending.kind, "measure": ranked.measure, "options": options,
            "message": approximate_note(missing) if missing is not None else None}


def coach(game_id: str, log: Mapping[str, Any]) -> dict[str, Any]:
    """The exact chance to shut and expected score from the current position.

    :raises LogError: the log does not replay.
    """
    from shutthebox.coach import chances
    from shutthebox.narration import chances_text

    now = chances(_match(game_id, log))
    if now is None:
        return {"p_shut": None, "expected_score": None, "text": None}
    return {"p_shut": now.p_shut, "expected_score": now.expected_score,
            "text": chances_text(now.p_shut, now.expected_score)}


def review(game_id: str, log: Mapping[str, Any]) -> dict[str, Any]:
    """Every decision of the game against the best, its cost in the unit of the objective it
    is judged by (points of expected score, or percentage points of chance to win), whether
    the coach counts it a mistake, and the coach's verdict (one sentence per player in
    ``verdicts``, all of them in ``verdict``); and the coach's analysis for a learner
    (:meth:`~shutthebox.coach.Analysis.to_dict`: ``players``, ``marks``, ``moments``,
    ``thresholds``) with its chart in words (``chart``, see
    :func:`~shutthebox.web.solving.review.chart_words`).

    :raises LogError: the log does not replay.
    """
    from shutthebox.coach import analyse
    from shutthebox.web.solving.review import chart_words

    missing = table_missing(log)
    analysis = analyse(log, match_tables=missing is None)
    reviewed = analysis.review
    decisions = [{**d.to_dict(), "unit": d.shown_unit, "cost": d.shown_cost,
                  "costly": d.costly} for d in reviewed]
    learned = analysis.to_dict()
    return {"decisions": decisions, "unit": reviewed.shown_unit,
            "total_cost": reviewed.shown_totals(), "mistakes": reviewed.mistakes(),
            "verdict": reviewed.verdict(), "verdicts": reviewed.verdicts(),
            "players": learned["players"], "marks": learned["marks"],
            "moments": learned["moments"], "thresholds": learned["thresholds"],
            "chart": chart_words(learned, decisions),
            "note": approximate_note(missing) if missing is not None else None}


def optimal_distribution(rules: Mapping[str, Any]) -> dict[str, float]:
    """The exact distribution of a turn's score under optimal play for expected score."""
    from shutthebox.rules import Rules
    from shutthebox.solver import solve

    return {str(s): p for s, p in solve(Rules.from_dict(dict(rules)), "score")
            .distribution.items()}


_PROGRESS: Any = None
"""In a worker: the shared number through which it tells the server how far a long solve
is (see :meth:`SolverPool.fraction`)."""


def prepare_match(rules: Mapping[str, Any], game_format: str) -> bool:
    """Work out (and keep on disk) the two-player match tables, telling the server how far
    it is."""
    from shutthebox.rules import Rules
    from shutthebox.solver.matchplay import solve_match

    def tell(fraction: float) -> None:
        if _PROGRESS is not None:
            _PROGRESS.value = fraction

    tell(0.0)
    solve_match(Rules.from_dict(dict(rules)), game_format, progress=tell)
    tell(1.0)
    return True


def warm_up() -> bool:
    """Load the game engine in the worker, so that the first request does not wait on it."""
    return True


def _start_worker(parent: int, progress: Any, idle: bool) -> None:
    """In a worker: keep the progress number, leave the server the processor (the worker runs
    at nice 10, its compiled loops on one core fewer than the machine has; an ``idle`` one,
    for long background work, only when the processor is otherwise idle, Linux's
    ``SCHED_IDLE``, so that interactive work in the other worker goes first), and exit when
    the server process that started it is gone (a server killed with -9 cannot stop its
    workers itself)."""
    global _PROGRESS
    _PROGRESS = progress
    with contextlib.suppress(OSError):
        os.nice(10)
    if idle:
        with contextlib.suppress(OSError, AttributeError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    os.environ.setdefault("NUMBA_NUM_THREADS", str(max(1, (os.cpu_count() or 2) - 1)))

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="parent-watch").start()


class WorkDroppedError(Exception):
    """The work was stopped before it ended (:meth:`SolverPool.kill`)."""


def _spoken(language: str, function: Callable[..., T], *arguments: Any) -> T:
    """``function(*arguments)`` in a worker, its sentences in ``language``."""
    with speaking(language):
        return function(*arguments)


class SolverPool:
    """Worker processes for solver work (one by default). ``idle``: the workers run only
    when the processor has nothing else to do (for long background work)."""

    def __init__(self, workers: int = 1, idle: bool = False) -> None:
        self.workers = workers
        self.idle = idle
        self._executor: ProcessPoolExecutor | None = None
        self._context = multiprocessing.get_context("spawn")
        self._progress: Any = self._context.Value("d", 0.0, lock=False)
        self._running = 0
        self._kills = 0

    @property
    def busy(self) -> int:
        """Calls under way or waiting."""
        return self._running

    def fraction(self) -> float:
        """How far the workers' current long solve is, 0 to 1."""
        return float(self._progress.value)

    def _started(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=self._context, initializer=_start_worker,
                initargs=(os.getpid(), self._progress, self.idle))
        return self._executor

    async def run(self, function: Callable[..., T], *arguments: Any) -> T:
        """``function(*arguments)`` in a worker; a worker that died is replaced once.

        :raises WorkDroppedError: the pool was killed meanwhile.
        """
        loop = asyncio.get_running_loop()
        language = current_language()   # the worker answers in the caller's language
        self._running += 1
        kills = self._kills
        try:
            try:
                return await loop.run_in_executor(self._started(), _spoken, language,
                                                  function, *arguments)
            except BrokenProcessPool:
                if self._kills != kills:
                    raise WorkDroppedError(function.__name__) from None
                self._executor = None
                return await loop.run_in_executor(self._started(), _spoken, language,
                                                  function, *arguments)
        finally:
            self._running -= 1

    def kill(self) -> None:
        """Stop every call under way or waiting, at once (their callers get
        :class:`WorkDroppedError`); the next call starts a new worker. A process pool
        cannot cancel a call that has started, so its workers are ended: Python 3.11's
        executor has no public way to do it (3.14's ``terminate_workers``)."""
        executor = self._executor
        if executor is None:
            return
        self._kills += 1
        self._executor = None
        processes: dict[int, Any] = getattr(executor, "_processes", None) or {}
        for process in list(processes.values()):
            with contextlib.suppress(Exception):
                process.terminate()
        executor.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the workers. Idle ones are waited for (milliseconds), so that the pool's
        queues are let go of now: a uvicorn worker process dies of the signal that stopped
        it, without Python's exit handlers, and their semaphores were then reported leaked
        at every stop. A worker in the middle of a solve is ended after half a second, not
        waited for: a server told to stop must not wait on a long solve (whose callers may
        have been cancelled already)."""
        executor, self._executor = self._executor, None
        if executor is None:
            return
        # Python 3.11's executor names neither its workers nor its manager thread and result
        # queue publicly; a shutdown that does not wait forgets them, so they are taken first.
        processes: list[Any] = list((getattr(executor, "_processes", None) or {}).values())
        manager: threading.Thread | None = getattr(executor, "_executor_manager_thread", None)
        results: Any = getattr(executor, "_result_queue", None)
        executor.shutdown(wait=False, cancel_futures=True)
        deadline = time.monotonic() + 0.5
        for process in processes:
            process.join(max(0.0, deadline - time.monotonic()))
        for process in processes:
            if process.is_alive():
                process.terminate()
                process.join(1.0)
        if manager is not None:     # its workers gone, it lets go of the queues as it ends
            manager.join(5.0)
        if results is not None:     # as shutdown(wait=True) does
            results.close()
