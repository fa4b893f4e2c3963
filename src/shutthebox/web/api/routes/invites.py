"""Friends at the table: taking an open seat with its invite, what an invite is for, and its
join link as a QR code. A client that asks about too many unknown invites waits (see
:func:`~shutthebox.web.limits.miss_limit`)."""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from shutthebox.language import _
from shutthebox.web.api.deps import ClientKey, MissesDep, PlayerTokenDep, ServiceDep
from shutthebox.web.limits import CountLimit
from shutthebox.web.logs import game_event
from shutthebox.web.play.seats import InviteNotFoundError, TooManyGuessesError
from shutthebox.web.play.service import GameService
from shutthebox.web.records import seating

T = TypeVar("T")

router = APIRouter()


class Join(BaseModel):
    invite: str = Field(min_length=1, max_length=32)
    name: str | None = Field(default=None, min_length=1, max_length=40,
                             description="the name to play under, without a player token "
                             "(with one: the player's claimed name)")


async def with_invite(misses: CountLimit, client: str, function: Callable[..., T],
                      *arguments: Any) -> T:
    """``function(*arguments)``, an invite's lookup, for a client that has not asked
    about too many unknown invites (each unknown one counts: see
    :data:`~shutthebox.web.api.checks.INVITE_MISSES`).

    :raises TooManyGuessesError: the client must wait before it asks again.
    :raises InviteNotFoundError: no such invite (counted against the client).
    """
    wait = misses.wait(client)
    if wait:
        raise TooManyGuessesError(_("too many unknown invites from here: wait {seconds} "
                                    "s and check the code").format(seconds=math.ceil(wait)))
    try:
        return await run_in_threadpool(function, *arguments)
    except InviteNotFoundError:
        misses.count(client)
        raise


@router.post("/games/{game_id}/join")
async def join(game_id: str, body: Join, service: ServiceDep, misses: MissesDep,
               client: ClientKey, player: PlayerTokenDep) -> dict[str, Any]:
    """Take an open seat with its invite; the answer holds the seat's token, once. With
    the device's player token (``X-Player-Token``) its player holds the seat, under their
    claimed name (409 if they hold another seat of the game); without it, ``name`` is the
    seat's: 409 for a name another player claimed, 400 for "You"."""

    def named() -> tuple[str, int | None]:
        with service.reading() as db:
            return seating.joiner(db, body.name, player)

    name, player_id = await service.run(None, named)
    joined: dict[str, Any] = await with_invite(misses, client, service.join, game_id,
                                               body.invite, name, player_id)
    game_event("seat joined", game=game_id, seat=joined.get("seat"))
    return joined


@router.get("/invites/{code}")
async def invite(code: str, service: ServiceDep, misses: MissesDep,
                 client: ClientKey) -> dict[str, Any]:
    """What an invite is for, with who invites: ``host``, the name at the host's seat (the
    first seat played on the creator's screen; None when no seat is), and
    ``invitation_text``, the join page's first sentence, naming them."""
    found: dict[str, Any] = await with_invite(misses, client, service.invite, code[:32])
    host = await run_in_threadpool(_host_of, service, found["game_id"])
    name = None if host is None else found["players"][host]
    return {**found, "host": name, "invitation_text": invitation_text(name)}


def _host_of(service: GameService, game_id: str) -> int | None:
    return service.changes.read(game_id).table.host


def invitation_text(host: str | None) -> str:
    """Who invites, in a sentence: the host by name, else a friend.

    >>> invitation_text("Ann")
    'Ann invites you to a game of Shut the Box.'
    """
    if host is None:
        return _("A friend invites you to a game of Shut the Box.")
    return _("{name} invites you to a game of Shut the Box.").format(name=host)


@router.get("/invites/{code}/qr.svg", response_class=Response)
async def invite_qr(code: str, request: Request, service: ServiceDep, misses: MissesDep,
                    client: ClientKey) -> Response:
    """The invite's join link as a QR code (SVG)."""
    import segno

    found = await with_invite(misses, client, service.invite, code[:32])
    link = f"{str(request.base_url).rstrip('/')}/join/{found['code']}"
    out = io.BytesIO()
    segno.make(link, error="m").save(out, kind="svg", scale=6, border=2, xmldecl=False,
                                     title=_("Join link {link}").format(link=link))
    return Response(out.getvalue(), media_type="image/svg+xml",
                    headers={"Cache-Control": "private, max-age=3600",
                             "Vary": "Cookie, Accept-Language"})
