"""The API's refusals: the answer to each error the service raises (:data:`REFUSALS`), the
body of every refusal (:class:`Refusal`, :class:`Malformed` for a 422) and their description
on every route (:data:`REFUSED`). The routes and the fast lane
(:mod:`shutthebox.web.api.lane`) answer from the same table."""

from __future__ import annotations

import json
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from sqlalchemy.exc import DBAPIError, IntegrityError

from shutthebox.errors import ShutTheBoxError
from shutthebox.language import N_, _
from shutthebox.web import metrics
from shutthebox.web.play.memory import GameNotFoundError
from shutthebox.web.play.seats import (
    ForbiddenError,
    InviteNotFoundError,
    SeatTakenError,
    TooManyGuessesError,
    UnauthorizedError,
)
from shutthebox.web.play.series import RematchError
from shutthebox.web.play.service import NotYourTurnError
from shutthebox.web.play.table import NotTheHostError, TableStateError
from shutthebox.web.play.table_actions import TooManyTableActionsError
from shutthebox.web.records.daily import DailyTurnChangedError
from shutthebox.web.records.sheets import SheetChangedError, SheetNotFoundError
from shutthebox.web.social.reactions import TooManyReactionsError
from shutthebox.web.solving.work import ServerBusyError, TooMuchWorkError


class Refusal(BaseModel):
    """Every refusal's body: a sentence saying what was wrong."""

    detail: str = Field(description="what was wrong, in a sentence")


class Malformed(Refusal):
    """A body or parameter of the wrong shape (422): the sentence, and the problems found."""

    errors: list[dict[str, Any]] = Field(default_factory=list,
                                         description="the first five problems, one each")


REFUSED: dict[int | str, dict[str, Any]] = {
    status: {"model": Malformed if status == 422 else Refusal, "description": description}
    for status, description in [
        (400, "bad input: a bad value, an unknown host (the Host header), a bad name"),
        (401, "no seat token, or an unknown one"),
        (403, "another seat's token, a host's action by another seat, or a live feed asked "
              "for by a page of another site"),
        (404, "no such game, invite or score sheet"),
        (408, "the request's headers or body did not arrive in time"),
        (409, "out of turn, against an old event number (or an old count of daily "
              "decisions), a seat already taken, a game played again before it is over, or "
              "a table action that does not fit the game as it is"),
        (413, "a body over 64 KiB"),
        (415, "a body that is not JSON"),
        (422, "a body or parameter of the wrong shape"),
        (429, "too many requests, connections, unknown invites, reactions, solver "
              "requests from this client, or the host's table actions this turn: wait for "
              "Retry-After seconds"),
        (431, "request headers over 16 KiB"),
        (503, "the database is briefly away, or the server's solver or connections are "
              "full: try again after Retry-After seconds"),
    ]}
"""Every refusal the API (and the front that every request passes) answers, as the API's
description documents it on each route."""

REFUSALS: dict[type[Exception], tuple[int, str | None, dict[str, str] | None]] = {
    GameNotFoundError: (404, None, None),
    InviteNotFoundError: (404, None, None),
    SheetNotFoundError: (404, None, None),
    SheetChangedError: (409, None, None),
    DailyTurnChangedError: (409, None, None),
    NotYourTurnError: (409, None, None),
    SeatTakenError: (409, None, None),
    UnauthorizedError: (401, None, {"WWW-Authenticate": "Bearer"}),
    ForbiddenError: (403, None, None),
    NotTheHostError: (403, None, None),
    TableStateError: (409, None, None),
    IntegrityError: (409, N_("the game changed while this request was made: load it again "
                             "and retry"), None),
    DBAPIError: (503, N_("the database is not answering: try again in a moment"),
                 {"Retry-After": "1"}),
    TooMuchWorkError: (429, None, {"Retry-After": "1"}),
    TooManyGuessesError: (429, None, {"Retry-After": "1"}),
    TooManyReactionsError: (429, None, {"Retry-After": "1"}),
    TooManyTableActionsError: (429, None, {"Retry-After": "10"}),
    RematchError: (409, None, None),
    ServerBusyError: (503, None, {"Retry-After": "5"}),
    ShutTheBoxError: (400, None, None),
}
"""The answer to each refusal the service raises: status, detail (None: the error's own
message) and extra headers. The most specific class of an error decides."""


def refusal(exc: Exception) -> tuple[int, str, dict[str, str] | None]:
    """The status, detail and headers of the answer to ``exc`` (which must be in
    :data:`REFUSALS`, or a subclass of one).

    :raises Exception: ``exc`` itself, if it is not a refusal.
    """
    for kind in type(exc).__mro__:
        if kind in REFUSALS:
            status, detail, headers = REFUSALS[kind]
            return status, _(detail) if detail else str(exc), headers
    raise exc


async def refused(_request: Request, exc: Exception) -> JSONResponse:
    """The routes' answer to a refusal (the handler of each class in :data:`REFUSALS`)."""
    status, detail, headers = refusal(exc)
    if isinstance(exc, DBAPIError) and not isinstance(exc, IntegrityError):
        metrics.database_error()
    return JSONResponse({"detail": detail}, status_code=status, headers=headers)


async def malformed(_request: Request, exc: RequestValidationError) -> JSONResponse:
    """The answer to a body or parameter of the wrong shape: 422, a :class:`Malformed`."""
    problems = []
    for item in exc.errors()[:5]:
        where = ".".join(str(p) for p in item.get("loc", ()) if p != "body")
        problems.append(_("{where}: {problem}").format(
            where=where or _("the body"), problem=item.get("msg", _("is not valid"))))
    return JSONResponse({"detail": _("the request is not well formed: {problems}").format(
                             problems="; ".join(problems)),
                         "errors": json.loads(json.dumps(exc.errors()[:5], default=str))},
                        status_code=422)
