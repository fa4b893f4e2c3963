"""Garbage that connections leave: collected in one pass after many have ended.

uvicorn's connections (and asyncio's transports under them) leave reference cycles behind
when they close, which only the garbage collector frees; the server collects its oldest
generation rarely (its passes scan every object of the games in play: see
:func:`shutthebox.web.app.app_from_environment`), so after waves of connections that
garbage piled up (about 5 MB a wave of 2,000 live feeds, for as long as the server ran).
So once :data:`SWEEP_AFTER` requests and feeds have ended since the last look, a full
collection frees it, at most every :data:`SWEEP_SECONDS`: one short pause then, where the
benchmark measured none of a size to move the answers' p99.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

SWEEP_SECONDS = 10.0
SWEEP_AFTER = 1_000


class Sweeper:
    """Collects all generations when ``ended()`` (the requests and feeds ended so far) has
    grown by :data:`SWEEP_AFTER` since the last collection, looking every ``every``
    seconds."""

    def __init__(self, ended: Callable[[], int], every: float = SWEEP_SECONDS,
                 after: int = SWEEP_AFTER) -> None:
        self.ended = ended
        self.every = every
        self.after = after
        self.swept = 0
        """Full collections made."""
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        seen = self.ended()
        while True:
            await asyncio.sleep(self.every)
            now = self.ended()
            if now - seen >= self.after:
                seen = now
                started = time.perf_counter()
                freed = gc.collect()
                self.swept += 1
                log.debug("swept %d objects in %.1f ms", freed,
                          (time.perf_counter() - started) * 1000)
