"""What the routes share, as FastAPI dependencies: the game service, the solver work, the
invite misses, the names claimed, the daily box's secret, the client's key, the seat tokens
and the player token sent.
:func:`shutthebox.web.app.create_app` builds them once and keeps them in ``app.state``; each
dependency reads its own from there.

The dependencies are coroutines: FastAPI runs a plain function's dependency in the thread
pool, a hand-over these reads do not need.
"""

from __future__ import annotations

from typing import Annotated, Any, TypeVar

from fastapi import Depends, Header, Request

from shutthebox.web.api.checks import client_key
from shutthebox.web.limits import CountLimit
from shutthebox.web.play.seats import bearer_tokens
from shutthebox.web.play.service import GameService
from shutthebox.web.solving.work import SolverWork

T = TypeVar("T")


def _state(name: str) -> Any:
    """The dependency on ``app.state.<name>``."""

    async def read(request: Request) -> Any:
        return getattr(request.app.state, name)

    return Depends(read)


async def get_client(request: Request) -> str:
    """The client as limits count it (:func:`~shutthebox.web.api.checks.client_key`)."""
    return client_key(request.scope)


Authorization = Annotated[str | None, Header(description="Bearer <seat token>")]


PlayerToken = Annotated[str | None, Header(max_length=128,
                                           description="the device's player token")]


async def player_token(x_player_token: PlayerToken = None) -> str | None:
    """The player token of the ``X-Player-Token`` header, if any (FastAPI reads the header
    of the parameter's name, its underscores as dashes)."""
    return x_player_token or None


async def seat_tokens(authorization: Authorization = None) -> list[str]:
    """The seat token of the ``Authorization: Bearer`` header, if any, as a list."""
    return bearer_tokens(authorization)


ServiceDep = Annotated[GameService, _state("service")]
DailySecretDep = Annotated[bytes, _state("daily_secret")]
"""The secret keying the server's daily dice (read, or made, at the app's start)."""
WorkDep = Annotated[SolverWork, _state("work")]
MissesDep = Annotated[CountLimit, _state("misses")]
ClaimsDep = Annotated[CountLimit, _state("claims")]
PlayerTokenDep = Annotated[str | None, Depends(player_token)]
ClientKey = Annotated[str, Depends(get_client)]
SeatTokens = Annotated[list[str], Depends(seat_tokens)]
