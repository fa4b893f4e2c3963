"""Answers about finished games, worked out once and shared.

The review of a game that is over is the same for everyone who asks in one language: every
friend's page asks for it as the game ends (its result shows the score against perfect play),
often from one address. So the first request's solver call is kept, by the game, the length of
its log and the language (the answer holds sentences in the caller's language), the last
:data:`KEPT` of them (the least recently asked going first); requests that come while it is
under way wait for it, and do not count against their client's solver calls
(:data:`~shutthebox.web.solving.work.PER_CLIENT`). An answer that is approximate (it has a
``message`` or a ``note``: a table it needs was not ready) is given to those waiting for it but
not kept, so that the next request asks again; nor is an answer about a game not over.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from cachetools import LRUCache

from shutthebox.language import current_language

KEPT = 256
"""Answers kept, at most (each a finished game's review in one language: tens of kB)."""

Answer = dict[str, Any]
Key = tuple[str, int, str]


def approximate(answer: Any) -> bool:
    """Whether a solver answer is approximate: it says why (``message``) or what it lacked
    (``note``).

    >>> approximate({"decisions": [], "note": None}), approximate({"note": "table missing"})
    (False, True)
    """
    return isinstance(answer, dict) and bool(answer.get("message") or answer.get("note"))


class SharedAnswers:
    """The answers about finished games kept, and those under way."""

    def __init__(self, kept: int = KEPT) -> None:
        self._answers: LRUCache[Key, Answer] = LRUCache(kept)
        self._under_way: dict[Key, asyncio.Task[Answer]] = {}

    def __len__(self) -> int:
        return len(self._answers)

    async def answer(self, game_id: str, events: int | None,
                     make: Callable[[], Awaitable[Answer]]) -> Answer:
        """``make()``'s answer about the game. With ``events`` (the length of the log of a
        game that is over; None while it is played), the one kept, or the one under way, for
        the game in the current language; else worked out and, unless approximate, kept.
        ``make``'s errors go to every request that waits for it (none is kept)."""
        if events is None:
            return await make()
        key = (game_id, events, current_language())
        kept = self._answers.get(key)
        if kept is not None:
            return kept
        task = self._under_way.get(key)
        if task is None:
            # a task of its own (in this request's context, so its language): a request
            # that goes away does not end it for the others
            task = self._under_way[key] = asyncio.ensure_future(self._make(key, make))
            task.add_done_callback(_retrieved)
        return await asyncio.shield(task)

    async def _make(self, key: Key, make: Callable[[], Awaitable[Answer]]) -> Answer:
        try:
            answer = await make()
        finally:
            self._under_way.pop(key, None)
        if not approximate(answer):
            self._answers[key] = answer
        return answer


def _retrieved(task: asyncio.Task[Answer]) -> None:
    """Its error is taken (every request that waited for it may have gone)."""
    if not task.cancelled():
        task.exception()
