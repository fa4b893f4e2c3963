"""The turn clock, enforced: a background task that finds the games whose clock has run
out and stores their ``timeout`` (:meth:`GameService.time_out
<shutthebox.web.play.service.GameService.time_out>`), after which the computer driver
(:mod:`shutthebox.web.play.computers`) makes the move.

It reads the deadlines the database holds (stored with the events that began each wait),
not timers of its own, so a clock runs on across a restart and whichever server process
looks first times a game out; the others find it moved on. Each look is one query on an
indexed column, whatever the number of games, and times out a bounded number of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from starlette.concurrency import run_in_threadpool

from shutthebox.web.logs import game_event
from shutthebox.web.play.service import GameService

log = logging.getLogger(__name__)

LOOK_EVERY = 0.25
"""Seconds between two looks for games out of time (how late a timeout may come)."""


class ClockKeeper:
    """Times out the games whose clock has run out, every :data:`LOOK_EVERY` seconds."""

    def __init__(self, service: GameService, every: float = LOOK_EVERY) -> None:
        self.service = service
        self.every = every
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._keep())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task

    async def _keep(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            try:
                for game_id, count in await run_in_threadpool(self.service.games_out_of_time):
                    if await run_in_threadpool(self.service.time_out, game_id, count):
                        game_event("a decision timed out: the computer makes it",
                                   game=game_id)
            except asyncio.CancelledError:
                raise
            except Exception:           # the database away, say: look again next time
                log.debug("the turn clock's look failed", exc_info=True)
