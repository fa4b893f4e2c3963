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

The protocols also bound what a connection may hold of the server (:class:`ConnectionLimits`):
a request head (request line and headers) of at most 16 KiB (431 beyond), sent whole within
a few seconds of the connection or of its first byte, and its body within a few more (408
otherwise, where a slow sender, "slowloris", kept a connection and its descriptor for
ever), and open connections per
client (:func:`~shutthebox.web.api.checks.client_key`) and in all (503 beyond: the process
must never run out of file descriptors, where every accept would fail). The answers they
write themselves carry the security headers of every other answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import resource
import time
from dataclasses import dataclass

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from shutthebox.web.api.checks import SECURITY_HEADERS, client_key


@dataclass
class ConnectionLimits:
    """What one connection, one client and all clients may hold of a server process."""

    per_client: int = 256
    """Open connections from one client (0: no limit): a browser opens six and a live feed
    per game; a household or an office shares one address."""
    total: int = 4096
    """Open connections in all (0: no limit), kept below the process's file descriptors."""
    max_head: int = 16 * 1024
    """Bytes of a request's line and headers."""
    head_seconds: float = 5.0
    """Seconds in which a request's head must arrive whole."""
    body_seconds: float = 10.0
    """Seconds in which a request's body must arrive whole, once its head has."""


LIMITS = ConnectionLimits()
"""The limits every connection of this process is held to (set by ``shutthebox serve``)."""
_open: dict[str, int] = {}
"""Open connections by client."""


def configure(per_client: int, total: int | None) -> ConnectionLimits:
    """Set this process's :data:`LIMITS`: ``total`` None takes three quarters of the file
    descriptors the process may open, after raising its own limit to the most the system
    lets it (the rest serve the database, the solver workers and the log); and quiet
    asyncio's failed accepts (:class:`AcceptFailures`)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
    if total is None:
        total = max(64, soft * 3 // 4) if soft != resource.RLIM_INFINITY else 65_536
    LIMITS.per_client, LIMITS.total = per_client, total
    asyncio_log = logging.getLogger("asyncio")
    if not any(isinstance(f, AcceptFailures) for f in asyncio_log.filters):
        asyncio_log.addFilter(AcceptFailures())
    return LIMITS


def open_connections(client: str | None = None) -> int:
    """Connections open now, from one client or in all."""
    return _open.get(client, 0) if client is not None else sum(_open.values())


def _count(client: str, change: int) -> None:
    left = _open.get(client, 0) + change
    if left > 0:
        _open[client] = left
    else:
        _open.pop(client, None)


_due: set[HttpProtocol] = set()
"""The connections whose request head or body is due: looked over once a second (a timer
for each request, made and cancelled at every request, was a measurable part of a busy
server's time)."""
_watching: asyncio.TimerHandle | None = None


def _watch(loop: asyncio.AbstractEventLoop) -> None:
    """Look over the connections due in a second, if no look is planned."""
    global _watching
    if _watching is None:
        _watching = loop.call_later(1.0, _cut_off_late, loop)


def _cut_off_late(loop: asyncio.AbstractEventLoop) -> None:
    global _watching
    _watching = None
    now = loop.time()
    for protocol in [p for p in _due if now - p._due_since > (
            LIMITS.head_seconds if p._due_part == "head" else LIMITS.body_seconds)]:
        protocol._late()
    if _due:
        _watch(loop)


def _response(status: int, reason: str, detail: str) -> bytes:
    """A whole HTTP answer with a JSON detail that closes the connection."""
    body = json.dumps({"detail": detail}).encode()
    head = [f"HTTP/1.1 {status} {reason}".encode(), b"content-type: application/json",
            b"content-length: " + str(len(body)).encode(), b"connection: close",
            *(name + b": " + value for name, value in SECURITY_HEADERS)]
    return b"\r\n".join(head) + b"\r\n\r\n" + body


def _let_go(transport: asyncio.BaseTransport | None) -> None:
    """Drop the transport's bound read callback (a reference to itself) once its
    connection is lost: nothing reads from it any more."""
    if transport is not None and hasattr(transport, "_read_ready_cb"):
        transport._read_ready_cb = None


class _Counted:
    """A connection counted among its client's open ones until it is lost."""

    _client = ""
    _counted = False

    def count_for(self, client: str) -> None:
        """Count this connection as the client's (already counted: an upgraded one)."""
        self._client, self._counted = client, True

    def _stop_counting(self) -> None:
        if self._counted:
            _count(self._client, -1)
            self._counted = False


CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"
"""What uvicorn writes before a request's body when the client expects it (before the
answer's head)."""


class HeadWithBody(asyncio.Transport):
    """The transport of one answer, as its request's cycle writes to it: the answer's head
    (status line and headers, the cycle's first write but a 100 Continue) is held back and
    written with the first part of its body, one write where uvicorn makes two, so that an
    answer is one send to the socket (and one TCP segment when it fits) rather than two.
    Not for a HEAD request, whose answer has no body to wait for. It keeps no reference to
    the cycle, which keeps it: a reference cycle would wait for the garbage collector."""

    def __init__(self, transport: asyncio.Transport) -> None:
        super().__init__()
        self.transport = transport
        self.head: bytes | None = None
        self.headed = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if self.head is not None:
            data, self.head = self.head + bytes(data), None
        elif not self.headed and data != CONTINUE:
            self.headed = True
            self.head = bytes(data)
            return
        self.transport.write(data)

    def close(self) -> None:
        if self.head is not None:
            self.transport.write(self.head)
            self.head = None
        self.transport.close()

    def is_closing(self) -> bool:
        return self.transport.is_closing()


class HttpProtocol(_Counted, HttpToolsProtocol):
    """uvicorn's ``httptools`` protocol (``uvicorn.run(..., http=HttpProtocol)``), held to
    :data:`LIMITS`."""

    _head_pending = False
    _head_seen = 0
    _due_part = "head"
    _due_since = 0.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.count_for(client_key({"client": self.client}))
        _count(self._client, 1)
        limits = LIMITS
        if limits.per_client and _open[self._client] > limits.per_client:
            self._refuse(429, "Too Many Requests", f"more than {limits.per_client} "
                         "connections from one address: close some and try again")
        elif limits.total and open_connections() > limits.total:
            self._refuse(503, "Service Unavailable", "the server has as many connections "
                         "as it takes: try again in a moment")
        else:
            self._expect_head()

    def _refuse(self, status: int, reason: str, detail: str) -> None:
        if not self.transport.is_closing():
            self.transport.write(_response(status, reason, detail))
            self.transport.close()

    def _expect_head(self) -> None:
        """A request's head is due: whole within the time and size allowed."""
        if not self._head_pending:
            self._head_pending = True
            self._head_seen = 0
            self._expect("head")

    def _expect(self, part: str) -> None:
        self._due_part = part
        self._due_since = self.loop.time()
        _due.add(self)
        _watch(self.loop)

    def _nothing_due(self) -> None:
        self._head_pending = False
        _due.discard(self)

    def _late(self) -> None:
        """The head or the body is later than allowed: cut the connection off."""
        part = self._due_part
        self._nothing_due()
        if self.transport.is_closing():
            return
        if part == "head" and self.cycle is None and not self._head_seen:
            self.transport.close()              # a connection that never said a word
        else:
            limit = LIMITS.head_seconds if part == "head" else LIMITS.body_seconds
            what = "headers" if part == "head" else "body"
            self._refuse(408, "Request Timeout", f"the request's {what} did not arrive "
                         f"within {limit:g} seconds")

    def data_received(self, data: bytes) -> None:
        if self._head_pending:
            room = LIMITS.max_head - self._head_seen
            if len(data) > room:
                super().data_received(data[:room])
                if self.parser is None or self.transport.is_closing():
                    return
                if self._head_pending:
                    self._refuse(431, "Request Header Fields Too Large", "the request's "
                                 f"line and headers are larger than {LIMITS.max_head // 1024} "
                                 "KiB")
                    return
                data = data[room:]
            else:
                self._head_seen += len(data)
        super().data_received(data)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._expect_head()

    def on_headers_complete(self) -> None:
        self._head_pending = False
        self._expect("body")                    # until the message is complete
        before = self.cycle
        super().on_headers_complete()
        cycle = self.cycle
        if cycle is not None and cycle is not before and self.scope["method"] != "HEAD":
            cycle.transport = HeadWithBody(self.transport)

    def on_message_complete(self) -> None:
        _due.discard(self)
        super().on_message_complete()

    def send_400_response(self, msg: str) -> None:
        """uvicorn's answer to a malformed request, with the security headers."""
        self._refuse(400, "Bad Request", "the request is not well-formed HTTP")

    def handle_websocket_upgrade(self) -> None:
        self._nothing_due()
        super().handle_websocket_upgrade()
        self.parser = None  # type: ignore[assignment]  # as connection_lost does
        socket = self.transport.get_protocol()
        if isinstance(socket, WebSocketProtocol) and self._counted:
            socket.count_for(self._client)      # the socket's to let go of now
            self._counted = False

    def connection_lost(self, exc: Exception | None) -> None:
        self._nothing_due()
        self._stop_counting()
        super().connection_lost(exc)
        _let_go(self.transport)


class WebSocketProtocol(_Counted, WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol (``uvicorn.run(..., ws=WebSocketProtocol)``):
    no tasks and timers of its own per connection (uvicorn's default one runs four tasks
    for every game's live feed)."""

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_counting()
        super().connection_lost(exc)
        _let_go(self.transport)


class AcceptFailures(logging.Filter):
    """Lets through one line, without its traceback, per :attr:`every` seconds of asyncio's
    "socket.accept() out of system resource" (written at every failed accept once the
    process has run out of file descriptors: 443,885 tracebacks in one flood)."""

    def __init__(self, every: float = 10.0) -> None:
        super().__init__()
        self.every = every
        self._last = -every
        self._dropped = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if not str(record.msg).startswith("socket.accept() out of system resource"):
            return True
        now = time.monotonic()
        if now - self._last < self.every:
            self._dropped += 1
            return False
        record.msg = (f"no more connections accepted for now: the process is out of file "
                      f"descriptors ({self._dropped} more such failures since the last line)")
        record.args = ()
        record.exc_info = None
        record.exc_text = None
        self._last, self._dropped = now, 0
        return True
