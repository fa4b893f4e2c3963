"""What every request passes before the app sees it: the Host check, the size of its body,
the type of an action's body, rate limits, and the security headers on every answer.

One plain ASGI middleware, so that a refused request costs almost nothing and every
refusal is a JSON ``{"detail": ...}`` with a 4xx status.
"""

from __future__ import annotations

import ipaddress
import json
import math
import re
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from shutthebox.language import _

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY = 64 * 1024
GAME_PATH = re.compile(r"/api/games/([^/]*)(/.*)?")
NO_GAME_CLOSE = 4404
"""The close code of a live feed of a game that does not exist."""
GAME_ID = re.compile(r"[0-9a-f]{32}")
"""A game's id (a UUID's 32 hex digits): a path with any other is answered 404 here, before
any database sees its text (a NUL in it was a database error on PostgreSQL)."""
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


@dataclass
class Bucket:
    """A token bucket: ``rate`` requests a second on average, ``burst`` at once."""

    rate: float
    burst: float
    tokens: float = -1.0
    stamp: float = field(default_factory=time.monotonic)

    def take(self, now: float, count: float = 1.0) -> float:
        """Take one request (``count`` 0: only look); 0 if allowed, else the seconds until
        one is allowed."""
        if self.tokens < 0:
            self.tokens = self.burst
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= count
            return 0.0
        return (1 - self.tokens) / self.rate


MANY_BUCKETS = 10_000
"""Past this many keys, the buckets that are full again (their clients have been quiet) are
forgotten before a new one is made."""


@dataclass
class Buckets:
    """A token bucket per key (a client, a seat token), all of one rate and burst."""

    rate: float
    burst: float
    _by_key: dict[str, Bucket] = field(default_factory=dict)

    def take(self, key: str, now: float, count: float = 1.0) -> float:
        """:meth:`Bucket.take` of the key's bucket (made full if it has none)."""
        bucket = self._by_key.get(key)
        if bucket is None:
            if len(self._by_key) > MANY_BUCKETS:
                self._forget(now)
            bucket = self._by_key[key] = Bucket(self.rate, self.burst)
        return bucket.take(now, count)

    def look(self, key: str, now: float) -> float:
        """0 if the key may take one now, else the seconds to wait; nothing is taken."""
        bucket = self._by_key.get(key)
        return bucket.take(now, 0.0) if bucket is not None else 0.0

    def _forget(self, now: float) -> None:
        full = now - self.burst / self.rate
        for key in [k for k, b in self._by_key.items() if b.stamp < full]:
            del self._by_key[key]


@dataclass
class RateLimits:
    """Requests a second per client address and per seat token (0: no limit)."""

    per_client: float = 50.0
    per_token: float = 20.0
    burst: float = 3.0
    """The burst allowed, in seconds' worth of requests."""

    def __post_init__(self) -> None:
        self._clients = Buckets(self.per_client, self.per_client * self.burst)
        self._tokens = Buckets(self.per_token, self.per_token * self.burst)

    def wait(self, client: str, token: str | None) -> float:
        """0 if the request may go on, else the seconds to wait."""
        now = time.monotonic()
        wait = self._clients.take(client, now) if self.per_client else 0.0
        if token and self.per_token and not wait:
            wait = self._tokens.take(token, now)
        return wait


INVITE_MISSES = 1.0
"""Unknown invites one client may ask about a second, on average (after a burst of ten):
typing errors, never enough to guess a code (see
:data:`shutthebox.web.play.seats.INVITE_LENGTH`)."""


@dataclass
class MissLimit:
    """Requests that missed (an unknown invite), counted per client: once a client has
    missed :data:`INVITE_MISSES` a second for a while, it waits before it may ask again."""

    rate: float = INVITE_MISSES
    burst: float = 10.0

    def __post_init__(self) -> None:
        self._clients = Buckets(self.rate, self.burst)

    def wait(self, client: str) -> float:
        """0 if the client may ask, else the seconds until it may."""
        return self._clients.look(client, time.monotonic())

    def missed(self, client: str) -> None:
        self._clients.take(client, time.monotonic())


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
    """The middleware. ``allowed_hosts`` are the names the Host header may carry."""

    def __init__(self, app: ASGIApp, allowed_hosts: tuple[str, ...] = LOOPBACK_HOSTS,
                 limits: RateLimits | None = None) -> None:
        self.app = app
        self.allowed_hosts = tuple(h.lower() for h in allowed_hosts)
        self.limits = limits if limits is not None else RateLimits()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
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
        if path.startswith("/api/"):
            token = headers.get(b"authorization")
            wait = self.limits.wait(client_key(scope),
                                    token.decode("latin-1") if token else None)
            if wait:
                await self._refuse(scope, send, 429, _("too many requests: wait a moment and "
                                                       "try again"),
                                   [(b"retry-after", str(math.ceil(wait)).encode())])
                return
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
            body = await _read_body(receive)    # within its time: see connections.py
            if body is None:
                await self._refuse(scope, send, 413, _(
                    "the request body is larger than {kib} KiB").format(kib=MAX_BODY // 1024))
                return
            receive = replay(body, receive)
        await self.app(scope, receive, _with_headers(send))

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
                        [*SECURITY_HEADERS, *(extra or [])])


async def send_json(send: Send, status: int, body: bytes,
                    extra: list[tuple[bytes, bytes]] | None = None) -> None:
    """Answer an HTTP request with a JSON body (and ``extra`` headers)."""
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()), *(extra or [])]})
    await send({"type": "http.response.body", "body": body})


async def _read_body(receive: Receive) -> bytes | None:
    """The whole request body, or None once it grows past :data:`MAX_BODY`."""
    chunks: list[bytes] = []
    seen = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks)
        chunk = message.get("body", b"")
        seen += len(chunk)
        if seen > MAX_BODY:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


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


def _with_headers(send: Send) -> Send:
    async def inner(message: Message) -> None:
        if message["type"] == "http.response.start":
            message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
        await send(message)

    return inner
