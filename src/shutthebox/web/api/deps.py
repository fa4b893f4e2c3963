"""What the routes share, as FastAPI dependencies: the game service, the solver work, the
invite misses, the way to run database work, the client's key and the seat tokens sent.
:func:`shutthebox.web.app.create_app` builds them once and keeps them in ``app.state``; each
dependency reads its own from there.

The dependencies are coroutines: FastAPI runs a plain function's dependency in the thread
pool, a hand-over these reads do not need.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Protocol, TypeVar

from fastapi import Depends, Header, Request
from sqlalchemy.engine import URL, Engine

from shutthebox.web.api.checks import client_key
from shutthebox.web.limits import MissLimit
from shutthebox.web.play.seats import bearer_tokens
from shutthebox.web.play.service import GameService
from shutthebox.web.solving.work import SolverWork

T = TypeVar("T")


class Blocking(Protocol):
    """Runs a call of the service's database work: ``await blocking(function, *arguments)``
    answers ``function(*arguments)``."""

    async def __call__(self, function: Callable[..., T], /, *arguments: Any) -> T: ...


async def inline(function: Callable[..., T], /, *arguments: Any) -> T:
    """``function(*arguments)`` on the event loop itself: on SQLite a request's database
    work is shorter than the hand-over to a thread and back."""
    return function(*arguments)


def in_threads(limit: int) -> Blocking:
    """``function(*arguments)`` in at most ``limit`` threads at once: on a database over a
    network the event loop must not wait for the answer, and more threads than the pool
    has connections would only wait for one, each taking its turn at the interpreter."""
    import anyio
    import anyio.to_thread

    limiters: list[anyio.CapacityLimiter] = []     # (made on the event loop, at first use)

    async def in_thread(function: Callable[..., T], /, *arguments: Any) -> T:
        if not limiters:
            limiters.append(anyio.CapacityLimiter(limit))
        return await anyio.to_thread.run_sync(function, *arguments, limiter=limiters[0])

    return in_thread


def blocking_for(engine: Engine) -> Blocking:
    """How to run database work on ``engine``: :func:`inline` on a database on this machine
    (SQLite, or PostgreSQL at a loopback address or a local socket), whose answers come
    back sooner than a hand-over to a thread and back; else in as many threads as the
    engine's pool has connections (:func:`in_threads`).

    >>> from sqlalchemy import make_url
    >>> on_this_machine(make_url("postgresql://u@127.0.0.1/db")), \\
    ...     on_this_machine(make_url("postgresql://u@db.example/db"))
    (True, False)
    """
    if engine.dialect.name == "sqlite" or on_this_machine(engine.url):
        return inline
    return in_threads(engine.pool.size())       # type: ignore[attr-defined]


def on_this_machine(url: URL) -> bool:
    """Whether the database of ``url`` answers on this machine (a file, a loopback
    address, or a Unix socket)."""
    host = url.host or url.query.get("host")
    if isinstance(host, tuple):
        host = host[0] if host else None
    return not host or host.startswith("/") or host in ("localhost", "::1") \
        or host.startswith("127.")


def _state(name: str) -> Any:
    """The dependency on ``app.state.<name>``."""

    async def read(request: Request) -> Any:
        return getattr(request.app.state, name)

    return Depends(read)


async def get_client(request: Request) -> str:
    """The client as limits count it (:func:`~shutthebox.web.api.checks.client_key`)."""
    return client_key(request.scope)


Authorization = Annotated[str | None, Header(description="Bearer <seat token>")]


async def seat_tokens(authorization: Authorization = None) -> list[str]:
    """The seat token of the ``Authorization: Bearer`` header, if any, as a list."""
    return bearer_tokens(authorization)


ServiceDep = Annotated[GameService, _state("service")]
WorkDep = Annotated[SolverWork, _state("work")]
MissesDep = Annotated[MissLimit, _state("misses")]
BlockingDep = Annotated[Blocking, _state("blocking")]
ClientKey = Annotated[str, Depends(get_client)]
SeatTokens = Annotated[list[str], Depends(seat_tokens)]
