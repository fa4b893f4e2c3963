"""The server's own moves: roll-offs and computer seats, played one stored step at a time
in the background, never inside a request.

After every stored step the service says who acts next; when it is the server, the game is
handed to :class:`ComputerDriver`, which plays its steps at a watchable pace (``watch``) or
at once (``instant``, a bounded number of steps before it lets other games go on). A
computer's decision is computed in the solver worker process, so the event loop never waits
on it. Several server processes may share a database: a step is stored only if the game is
still where it was planned, so only one of them moves a game on, and each process also looks
now and then for games that nobody moved (after a restart, say).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from starlette.concurrency import run_in_threadpool

from shutthebox.web.asgi import call_in_loop
from shutthebox.web.play.service import GameService
from shutthebox.web.solving import workers as advice
from shutthebox.web.solving.work import (
    APPROXIMATE,
    EXACT_COMPUTERS,
    SolverWork,
    TableDroppedError,
    rules_of,
)
from shutthebox.web.solving.workers import WorkDroppedError

log = logging.getLogger(__name__)

INSTANT_BUDGET = 400
"""Steps an ``instant`` game plays before it lets the other games go on."""


class ComputerDriver:
    """Plays the server's steps of every game handed to it."""

    def __init__(self, service: GameService, work: SolverWork, delay: float = 0.5,
                 scan_every: float = 2.0,
                 progress: Callable[[str, float], None] | None = None) -> None:
        self.service = service
        self.progress = progress
        """Told (game id, fraction) while a long solve for the game runs."""
        self.work = work
        self.delay = delay
        self.scan_every = scan_every
        self._running: dict[str, asyncio.Task[None]] = {}
        self._failed: dict[str, int] = {}
        """Games whose server step failed, and at which event: each is logged once."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._scanner: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._scanner = asyncio.create_task(self._scan())

    async def stop(self) -> None:
        tasks = [*self._running.values(), *([self._scanner] if self._scanner else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task

    def wake(self, game_id: str) -> None:
        """Hand a game over (from any thread)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        call_in_loop(loop, self._drive_soon, game_id)

    def _drive_soon(self, game_id: str) -> None:
        if game_id not in self._running:
            self._running[game_id] = asyncio.create_task(self._drive(game_id))

    async def _drive(self, game_id: str) -> None:
        steps, where = 0, -1
        try:
            while True:
                step = await run_in_threadpool(self.service.next_step, game_id)
                if step is None:
                    return
                where = step.count
                if step.pace == "watch" and self.delay:
                    await asyncio.sleep(self.delay)
                elif steps % INSTANT_BUDGET == INSTANT_BUDGET - 1:
                    await asyncio.sleep(0.01)
                action = None
                if not step.is_roll:
                    assert step.log is not None and step.seat is not None
                    strategy = await self._prepare(game_id, step.log, step.strategy)
                    if strategy is None:
                        return      # nobody follows the game: it waits for the next scan
                    pool = self.work.interactive if step.human else self.work.background
                    action = await pool.run(advice.computer_action, game_id, step.log,
                                            step.seat, strategy)
                if not await run_in_threadpool(self.service.play_step, step, action):
                    return          # another server process moved it on
                self._failed.pop(game_id, None)
                steps += 1
        except asyncio.CancelledError:
            raise
        except (WorkDroppedError, TableDroppedError):
            pass                    # the game waits for the next scan
        except Exception:           # the game waits for the next scan; the server goes on
            if self._failed.get(game_id) != where:   # once per game and step, not per scan
                self._failed[game_id] = where
                log.exception("the server's step in game %s failed", game_id)
        finally:
            self._running.pop(game_id, None)

    async def _prepare(self, game_id: str, log: dict[str, object],
                       strategy: str | None) -> str | None:
        """The strategy the computer about to play plays by, once the match table it needs
        is worked out (telling the game's watchers how far it is); an exact player of a
        match whose table is beyond the budget plays by :data:`APPROXIMATE`. None: the table
        is missing and nobody follows the game, so it is not worked out now."""
        assert strategy is not None
        from shutthebox.solver.matchplay import table_needed

        rules = rules_of(log)
        fmt = table_needed(str(log["format"]), len(log["players"]))  # type: ignore[arg-type]
        if fmt is None or strategy not in EXACT_COMPUTERS:
            return strategy
        status = await run_in_threadpool(self.work.table_status, rules, fmt)
        if status == "ready":
            return strategy
        if status == "beyond":
            return APPROXIMATE
        if not self.work.wanted(game_id):
            return None
        work = self.work.request_table(rules, fmt, game_id)
        while not work.done():
            if self.progress is not None:
                self.progress(game_id, self.work.fraction())
            await asyncio.wait([work], timeout=0.5)
        await work
        if self.progress is not None:
            self.progress(game_id, 1.0)
        return strategy

    async def _scan(self) -> None:
        """Every few seconds, pick up games waiting on the server that nobody moves."""
        while True:
            with contextlib.suppress(Exception):
                for game_id in await run_in_threadpool(
                        self.service.games_waiting_for_server, self.scan_every + self.delay):
                    self._drive_soon(game_id)
            await asyncio.sleep(self.scan_every)
