"""The server's connections leave nothing for the garbage collector (a real uvicorn server
on 127.0.0.1, in a thread of the test process so that its objects can be inspected)."""

from __future__ import annotations

import asyncio
import gc
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import connect

from shutthebox.web.api.connections import CONTINUE, HeadWithBody, HttpProtocol, WebSocketProtocol
from tests.web.webserver import free_port

CONNECTION_TYPES = ("HttpToolsProtocol", "HttpProtocol", "WebSocketsSansIOProtocol",
                    "WebSocketProtocol", "_SelectorSocketTransport", "HttpRequestParser",
                    "RequestResponseCycle", "HeadWithBody")


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Answers ``ok``; a WebSocket gets one message and is closed, as a finished game's
    live feed is."""
    if scope["type"] == "http":
        if scope["method"] == "POST":
            await receive()                 # (a client expecting 100 Continue waits for it)
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-length", b"2")]})
        await send({"type": "http.response.body", "body": b"ok"})
    elif scope["type"] == "websocket":
        await receive()
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": "over"})
        await send({"type": "websocket.close", "code": 4000})


def serve(http: Any, ws: Any) -> Iterator[tuple[str, uvicorn.Server]]:
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, http=http,
                                           ws=ws, loop="asyncio", lifespan="off",
                                           log_level="warning"))
    thread = threading.Thread(target=lambda: asyncio.run(server.serve()), daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.01)
    try:
        yield f"127.0.0.1:{port}", server
    finally:
        server.should_exit = True
        thread.join(10)


def connection_garbage(http: Any, ws: Any) -> list[str]:
    """The connection objects that only the collector would free, after ten HTTP
    connections and ten WebSockets opened and closed."""
    gc.collect()
    gc.disable()
    try:
        for address, server in serve(http, ws):
            for _ in range(10):
                assert httpx.get(f"http://{address}/").text == "ok"
                with connect(f"ws://{address}/live") as feed:
                    assert feed.recv(timeout=5) == "over"
            deadline = time.monotonic() + 5      # the server has seen every connection end
            while server.server_state.connections and time.monotonic() < deadline:
                time.sleep(0.01)
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        found = [type(o).__name__ for o in gc.garbage
                 if type(o).__name__ in CONNECTION_TYPES]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    return found


def test_connections_leave_no_garbage_for_the_collector() -> None:
    assert connection_garbage(HttpProtocol, WebSocketProtocol) == []


def test_uvicorns_own_protocols_leave_garbage_per_connection() -> None:
    """What the test above guards against (should uvicorn or asyncio fix it, this test
    fails and the workaround can go)."""
    found = connection_garbage("httptools", "websockets-sansio")
    assert found.count("_SelectorSocketTransport") >= 10, found
    assert found.count("HttpToolsProtocol") >= 10, found


def test_an_answers_head_waits_for_its_body_and_goes_with_it() -> None:
    """One write for the head and the body: nothing reaches the client until the body is
    written, then both at once (a real transport over a real socket pair)."""
    async def scenario() -> tuple[bytes | None, bytes, bytes]:
        ours, theirs = socket.socketpair()
        theirs.setblocking(False)
        _reader, writer = await asyncio.open_connection(sock=ours)
        held = HeadWithBody(writer.transport)   # type: ignore[arg-type]
        held.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n")
        await asyncio.sleep(0.05)
        try:
            early: bytes | None = theirs.recv(4096)
        except BlockingIOError:
            early = None
        held.write(b"ok")
        await asyncio.sleep(0.05)
        both = theirs.recv(4096)
        held.write(b"more")             # after the head: written as it comes
        await asyncio.sleep(0.05)
        rest = theirs.recv(4096)
        held.close()
        theirs.close()
        return early, both, rest

    early, both, rest = asyncio.run(scenario())
    assert early is None
    assert both == b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok"
    assert rest == b"more"


def test_a_head_request_and_a_client_expecting_100_continue_are_answered() -> None:
    """The answers whose head is not held (HEAD) or comes after a 100 Continue."""
    for address, _server in serve(HttpProtocol, WebSocketProtocol):
        answer = httpx.head(f"http://{address}/")
        assert answer.status_code == 200 and answer.headers["content-length"] == "2"
        host, port = address.split(":")
        with socket.create_connection((host, int(port)), timeout=5) as client:
            client.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n"
                           b"Expect: 100-continue\r\n\r\n")
            assert client.recv(4096) == CONTINUE
            client.sendall(b"body")
            answer_bytes = b""
            while not answer_bytes.endswith(b"ok"):
                chunk = client.recv(4096)
                assert chunk, answer_bytes
                answer_bytes += chunk
        assert answer_bytes.startswith(b"HTTP/1.1 200 OK\r\n")
