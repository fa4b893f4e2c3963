"""What the host sees of each request: a line in the access log (method, masked path,
status, duration, the client's address as the trusted proxy gives it) and the request's
figures in the metrics (:mod:`shutthebox.web.metrics`). The outermost ASGI layer, so that
it sees every answer, the refusals of the front (:class:`~shutthebox.web.api.checks.Guard`)
too. A live feed is one line and one request, when it ends."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from shutthebox.web import metrics
from shutthebox.web.asgi import ASGIApp, Message, Receive, Scope, Send
from shutthebox.web.logs import ACCESS, masked_path

REASONS = {400: "bad-request", 401: "no-token", 403: "forbidden", 404: "not-found",
           408: "too-slow", 409: "conflict", 413: "too-large", 415: "not-json",
           422: "malformed", 429: "too-many", 431: "head-too-large", 503: "busy"}
"""The refusals by reason, as the metrics count them: by status."""
QUIET = frozenset({"/healthz", "/readyz", "/metrics"})
"""Paths a monitor asks every few seconds: not in the access log below the debug level."""


class Watcher:
    """The layer: ``app`` answers; ``access_log`` says whether requests are logged;
    ``queue()`` is the solver's queue now (the metrics' gauge, set as each request ends)."""

    def __init__(self, app: ASGIApp, access_log: bool = True,
                 queue: Callable[[], int] = lambda: 0) -> None:
        self.app = app
        self.access_log = access_log
        self.queue = queue

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 0
        live = scope["type"] == "websocket"

        async def watched(message: Message) -> None:
            nonlocal status
            kind = message["type"]
            if kind == "http.response.start":
                status = message["status"]
            elif kind == "websocket.accept":
                status = 101
                metrics.feed_opened(1)
            elif kind == "websocket.close" and status == 0:
                status = 403            # (closed before it was accepted: refused)
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except BaseException:
            status = status or 500
            raise
        finally:
            if status == 101:
                metrics.feed_opened(-1)
            self._record(scope, status, time.perf_counter() - start, live)

    def _record(self, scope: Scope, status: int, seconds: float, live: bool) -> None:
        route = scope.get("route")
        path = scope.get("path", "")
        template = getattr(route, "path", None) or "other"
        if path.startswith("/api/") and template.startswith("/") and \
                not template.startswith("/api/"):
            template = "/api" + template        # (the API router's routes are its own)
        method = "WS" if live else scope.get("method", "?")
        if metrics.enabled():
            metrics.answered(template, method, status, seconds)
            if status >= 400:
                metrics.refused(REASONS.get(status, str(status)))
            metrics.solver_queue(self.queue())
        if not self.access_log or not ACCESS.isEnabledFor(logging.INFO) or \
                (path in QUIET and not ACCESS.isEnabledFor(logging.DEBUG)):
            return                      # (nothing made for a line not written)
        client = scope.get("client")
        fields = {"method": method, "path": masked_path(path, scope.get("query_string", b"")),
                  "status": status, "ms": round(seconds * 1000, 1),
                  "client": client[0] if client else "-"}
        ACCESS.info("request", extra={"fields": fields})
