"""The server's connections: uvicorn's protocols (httptools for HTTP, the sans-I/O one for
WebSockets), leaving no reference cycles behind when a connection ends.

A cycle is freed only by the garbage collector, and every game opens and closes a
WebSocket for its live feed. Two cycles were left per game:

- uvicorn breaks the cycle between an HTTP protocol and its request parser (which holds
  the protocol's callbacks) when the connection is lost, but not when the connection is
  handed over to a WebSocket protocol; the old protocol then kept the transport and socket;
- asyncio's socket transport (Python 3.11) keeps a bound method of itself, its read
  callback, after its connection is lost.

Under the benchmark's load that was 2,600 objects a second for the collector (counted with
its ``DEBUG_SAVEALL``). Broken here, they are freed at once, by reference counting, and the
collector finds no garbage per game at all; its young-generation passes can then be short
and frequent (see :func:`shutthebox.web.app.app_from_environment`).
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


def _let_go(transport: asyncio.BaseTransport | None) -> None:
    """Drop the transport's bound read callback (a reference to itself) once its
    connection is lost: nothing reads from it any more."""
    if transport is not None and hasattr(transport, "_read_ready_cb"):
        transport._read_ready_cb = None


class HttpProtocol(HttpToolsProtocol):
    """uvicorn's ``httptools`` protocol (``uvicorn.run(..., http=HttpProtocol)``)."""

    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        self.parser = None  # type: ignore[assignment]  # as connection_lost does

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        _let_go(self.transport)


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol (``uvicorn.run(..., ws=WebSocketProtocol)``):
    no tasks and timers of its own per connection (uvicorn's default one runs four tasks
    for every game's live feed)."""

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        _let_go(self.transport)
