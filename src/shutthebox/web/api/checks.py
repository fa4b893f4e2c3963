"""What every request passes before the app sees it: the Host check, the size of its body
and the time it may take to arrive, the type of an action's body, rate limits
(:mod:`shutthebox.web.limits`), the requests and live feeds one client may hold open,
and the security headers on every answer.

One plain ASGI middleware, so that a refused request costs almost nothing and every
refusal is a JSON ``{"detail": ...}`` with a 4xx status. What happens before a request's
head is whole (its size, the time it takes, idle connections) is the HTTP server's and the
reverse proxy's to bound: see the manual's deploying page.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import math
import random
import re
from collections.abc import Sequence
from urllib.parse import urlsplit

from shutthebox.language import _
from shutthebox.web.asgi import NO_GAME_CLOSE, ASGIApp, Message, Receive, Scope, Send
from shutthebox.web.limits import RateLimits as RateLimits  # (the Guard's, named here too)

MAX_BODY = 64 * 1024
BODY_SECONDS = 10.0
"""Seconds in which a request's body must arrive whole, once its head has (408 after): a
slow sender ("slowloris") would otherwise hold its connection for ever."""
BODY_SPREAD = 0.5
"""Each late body is given up on at a time drawn between :data:`BODY_SECONDS` and this much
more of it, so that thousands sent at once do not expire at once (8,000 expiring in one
pass of the event loop held every other answer for 3.7 s)."""
OPEN_PER_CLIENT = 256
"""Requests and live feeds one client may hold open in a process (0: no limit): a browser
holds a few and a live feed per game; a household or an office shares one address."""
GAME_PATH = re.compile(r"/api/games/([^/]*)(/.*)?")
GAME_ID = re.compile(r"[0-9a-f]{32}")
"""A game's id (a UUID's 32 hex digits): a path with any other is answered 404 here, before
any database sees its text (a NUL in it was a database error on PostgreSQL)."""
HEALTH_PATHS = frozenset({"/healthz", "/readyz"})
"""The health checks (:mod:`shutthebox.web.api.routes.health`): a monitor asks them by
address, every few seconds, so neither the Host check nor a limit applies."""
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; "
       "object-src 'none'")
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


HEADERS_KEY = "shutthebox.headers"
"""Where the guard leaves a request's headers as :func:`header_map` made them."""


def header_map(scope: Scope) -> dict[bytes, bytes]:
    """The request's headers by (lower-case) name, the first of a repeated one; made once
    per request and kept in the scope.

    >>> header_map({"headers": [(b"host", b"a"), (b"x-n", b"1"), (b"x-n", b"2")]})
    {b'x-n': b'1', b'host': b'a'}
    """
    found: dict[bytes, bytes] | None = scope.get(HEADERS_KEY)
    if found is None:
        found = scope[HEADERS_KEY] = dict(reversed(scope.get("headers", ())))
    return found


def client_key(scope: Scope) -> str:
    """The client a request comes from, as limits count it: its IPv4 address, or the /64
    network of an IPv6 one (a single home or host is given a whole /64, so counting single
    IPv6 addresses would give it endless fresh limits).

    >>> client_key({"client": ("203.0.113.9", 5000)})
    '203.0.113.9'
    >>> client_key({"client": ("2001:db8:1:2:aaaa::1", 5000)})
    '2001:db8:1:2::/64'
    """
    client = scope.get("client")
    if not client:
        return "?"
    address: str = client[0]
    if ":" not in address:
        return address
    try:
        full = ipaddress.IPv6Address(address.split("%")[0])
    except ValueError:
        return address
    if full.ipv4_mapped is not None:
        return str(full.ipv4_mapped)
    return str(ipaddress.IPv6Network((full, 64), strict=False))


def host_name(host: str) -> str:
    """The name in a Host header, without its port.

    >>> host_name("localhost:8000"), host_name("[::1]:8000"), host_name("Example.org")
    ('localhost', '[::1]', 'example.org')
    """
    host = host.strip().lower()
    if host.startswith("["):
        return host[:host.find("]") + 1] if "]" in host else host
    return host.split(":")[0] if host.count(":") == 1 else host


class Guard:
    """The middleware. ``allowed_hosts`` are the names the Host header may carry;
    ``headers`` those added to every answer (none when the HTTP server adds them itself,
    as ``shutthebox serve`` has uvicorn do, to its own answers too); ``open_per_client``
    the requests and live feeds a client may hold open at once (429 beyond)."""

    def __init__(self, app: ASGIApp, allowed_hosts: tuple[str, ...] = LOOPBACK_HOSTS,
                 limits: RateLimits | None = None,
                 headers: Sequence[tuple[bytes, bytes]] = SECURITY_HEADERS,
                 open_per_client: int = OPEN_PER_CLIENT,
                 body_seconds: float = BODY_SECONDS) -> None:
        self.app = app
        self.allowed_hosts = tuple(h.lower() for h in allowed_hosts)
        self.limits = limits if limits is not None else RateLimits()
        self.headers = list(headers)
        self.open_per_client = open_per_client
        self.body_seconds = body_seconds
        self._open: dict[str, int] = {}
        """Requests and live feeds open, by client."""
        self.ended = 0
        """Requests and live feeds ended so far (:mod:`shutthebox.web.api.sweeping`)."""

    def open_now(self, client: str) -> int:
        """The requests and live feeds the client holds open now."""
        return self._open.get(client, 0)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if scope.get("path") in HEALTH_PATHS:     # a monitor's: any host, never limited
            await self.app(scope, receive, send)
            return
        headers = header_map(scope)
        host = headers.get(b"host", b"").decode("latin-1")
        if "*" not in self.allowed_hosts and host_name(host) not in self.allowed_hosts:
            await self._refuse(scope, send, 400, _(
                "this server does not answer for the host {host!r}: start it with "
                "--allowed-hosts to add it").format(host=host[:80]))
            return
        path: str = scope.get("path", "")
        game = GAME_PATH.fullmatch(path)
        if game is not None and not GAME_ID.fullmatch(game[1]):
            detail = _("no game has the id {game!r}").format(game=game[1][:40])
            if scope["type"] == "websocket":    # as the live feed refuses an unknown game
                await send({"type": "websocket.accept"})
                await send({"type": "websocket.close", "code": NO_GAME_CLOSE, "reason": detail})
            else:
                await self._refuse(scope, send, 404, detail)
            return
        if scope["type"] == "websocket" and not self._origin_allowed(headers, host):
            origin = headers.get(b"origin", b"").decode("latin-1")
            await self._refuse(scope, send, 403, _(
                "this server does not take live feeds for pages of {origin!r}").format(
                    origin=origin[:80]))
            return
        client = client_key(scope)
        if path.startswith("/api/"):
            token = headers.get(b"authorization")
            wait = self.limits.wait(client, token.decode("latin-1") if token else None)
            if wait:
                await self._refuse(scope, send, 429, _("too many requests: wait a moment and "
                                                       "try again"),
                                   [(b"retry-after", str(math.ceil(wait)).encode())])
                return
        held = self._open.get(client, 0)
        if self.open_per_client and held >= self.open_per_client:
            await self._refuse(scope, send, 429, _(
                "more than {count} requests and live feeds open from one address: close "
                "some and try again").format(count=self.open_per_client))
            return
        self._open[client] = held + 1
        try:
            await self._pass(scope, receive, send, headers, path)
        finally:
            self.ended += 1
            left = self._open[client] - 1
            if left:
                self._open[client] = left
            else:
                del self._open[client]

    async def _pass(self, scope: Scope, receive: Receive, send: Send,
                    headers: dict[bytes, bytes], path: str) -> None:
        """The request, once allowed in: its body checked and read whole in time."""
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        if scope["method"] in ("POST", "PUT", "PATCH", "DELETE"):
            length = headers.get(b"content-length")
            if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
                await self._refuse(scope, send, 413, _(
                    "the request body is larger than {kib} KiB").format(kib=MAX_BODY // 1024))
                return
            kind = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
            if path.startswith("/api/") and kind != b"application/json" and \
                    (length not in (None, b"0") or b"transfer-encoding" in headers):
                await self._refuse(scope, send, 415, _("send the request body as JSON "
                                                       "(Content-Type: application/json)"))
                return
            seconds = self.body_seconds * (1 + BODY_SPREAD * random.random())
            try:
                body = await read_body(receive, seconds)
            except TimeoutError:
                await self._refuse(scope, send, 408, _(
                    "the request's body did not arrive within {seconds:g} seconds").format(
                        seconds=self.body_seconds), [(b"connection", b"close")])
                return
            if body is None:
                await self._refuse(scope, send, 413, _(
                    "the request body is larger than {kib} KiB").format(kib=MAX_BODY // 1024))
                return
            receive = replay(body, receive)
        await self.app(scope, receive, _with_headers(send, self.headers) if self.headers
                       else send)

    def _origin_allowed(self, headers: dict[bytes, bytes], host: str) -> bool:
        """Whether a WebSocket's page may read this server's feeds: no ``Origin`` (not a
        browser), or a page of this server (its host is the Host asked for, or one of the
        allowed hosts)."""
        origin = headers.get(b"origin")
        if origin is None:
            return True
        try:
            origin_host = host_name(urlsplit(origin.decode("latin-1")).netloc)
        except ValueError:
            return False
        return origin_host == host_name(host) or origin_host in self.allowed_hosts

    async def _refuse(self, scope: Scope, send: Send, status: int, detail: str,
                      extra: list[tuple[bytes, bytes]] | None = None) -> None:
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": detail[:120]})
            return
        await send_json(send, status, json.dumps({"detail": detail}).encode(),
                        [*self.headers, *(extra or [])])


async def send_json(send: Send, status: int, body: bytes,
                    extra: list[tuple[bytes, bytes]] | None = None) -> None:
    """Answer an HTTP request with a JSON body (and ``extra`` headers)."""
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()), *(extra or [])]})
    await send({"type": "http.response.body", "body": body})


async def read_body(receive: Receive, seconds: float) -> bytes | None:
    """The whole request body, or None once it grows past :data:`MAX_BODY`.

    :raises TimeoutError: the body is not whole within ``seconds`` (a body that comes with
        its head, as nearly all do, is read without a timer).
    """
    message = await receive()
    if message["type"] != "http.request":
        return b""
    chunk: bytes = message.get("body", b"")
    if not message.get("more_body", False):
        return chunk if len(chunk) <= MAX_BODY else None
    async with asyncio.timeout(seconds):
        return await _rest_of_body(receive, [chunk], len(chunk))


async def _rest_of_body(receive: Receive, chunks: list[bytes], seen: int) -> bytes | None:
    while seen <= MAX_BODY:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunk = message.get("body", b"")
        seen += len(chunk)
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks) if seen <= MAX_BODY else None


def replay(body: bytes, receive: Receive) -> Receive:
    """``receive`` that hands the app the body already read, then waits as before."""
    sent = False

    async def inner() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return inner


def _with_headers(send: Send, headers: list[tuple[bytes, bytes]]) -> Send:
    async def inner(message: Message) -> None:
        if message["type"] == "http.response.start":
            message["headers"] = [*message.get("headers", []), *headers]
        await send(message)

    return inner
