"""The ASGI types the server's own ASGI code is written in, the close code of a live feed
for a game that does not exist (the edge's and the feed's), and how a thread of the server
calls into its event loop."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

NO_GAME_CLOSE = 4404
"""The close code of a live feed asked for a game that does not exist."""


def call_in_loop(loop: asyncio.AbstractEventLoop, callback: Callable[..., object],
                 *arguments: Any) -> None:
    """Run ``callback(*arguments)`` in ``loop``: at once from the loop's own thread, else
    handed over to it (from a thread-pool thread); nothing once the loop is closed."""
    if loop.is_closed():
        return
    try:
        running: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is loop:
        callback(*arguments)
    else:
        loop.call_soon_threadsafe(callback, *arguments)
