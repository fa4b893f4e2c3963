"""The admin view for the server's host (who runs it, not a game's host): the games open
and who is connected to them, the last errors, and the host's actions (end a game, rename
or free a player's name). Off (403, saying so) unless an admin token is set (its hash, in
``--admin-token``); then only for the addresses of ``--admin-from`` that bring the token
(``Authorization: Bearer``), 403 to anyone else. The token is never logged (no header is)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from shutthebox.language import _
from shutthebox.narration import status_text
from shutthebox.web.api.checks import GAME_ID
from shutthebox.web.api.deps import ServiceDep
from shutthebox.web.api.hosting import Hosting
from shutthebox.web.logs import game_event
from shutthebox.web.play import admin
from shutthebox.web.play.memory import GameNotFoundError
from shutthebox.web.play.seats import ForbiddenError
from shutthebox.web.records import names

MAX_NAME = names.MAX_NAME


def administer(request: Request) -> None:
    """Let the request through only from an admin address, with the admin token."""
    hosting: Hosting = request.app.state.hosting
    if not hosting.admin_token:
        raise ForbiddenError(_("the admin view is off: set an admin token (--admin-token)"))
    if not hosting.may_administer(request):
        raise ForbiddenError(_("the admin view needs the admin token, from an address of "
                               "--admin-from"))


router = APIRouter(prefix="/admin", dependencies=[Depends(administer)],
                   include_in_schema=False)


class Rename(BaseModel):
    old: str = Field(min_length=1, max_length=MAX_NAME)
    new: str = Field(min_length=1, max_length=MAX_NAME)


class Free(BaseModel):
    name: str = Field(min_length=1, max_length=MAX_NAME)


@router.get("/games")
async def games(request: Request, service: ServiceDep) -> list[dict[str, Any]]:
    """The games waiting or being played, with the seats present (this process's live
    feeds) and the watchers of each."""
    hub = request.app.state.hub
    found = await run_in_threadpool(admin.open_games, service.engine)
    return [{**game, "status_text": status_text(game["status"]),
             "online": hub.presence.online(game["id"]),
             "watching": hub.watching(game["id"])} for game in found]


@router.get("/errors")
def errors(request: Request) -> list[dict[str, Any]]:
    """The last warnings and errors this server process logged, newest last."""
    return list(request.app.state.errors.lines)


@router.post("/games/{game_id}/end")
async def end(game_id: str, service: ServiceDep) -> dict[str, Any]:
    """End a game being played: nothing more is played, nobody wins it."""
    if not GAME_ID.fullmatch(game_id):     # (no database sees an id that cannot be one)
        raise GameNotFoundError(_("no game has the id {game!r}").format(game=game_id[:40]))
    await service.run(game_id, admin.end_game, service.changes, game_id)
    game_event("game ended by the server's admin", game=game_id)
    return {"ended": game_id}


@router.post("/players/rename")
async def rename(body: Rename, service: ServiceDep) -> dict[str, Any]:
    """Rename a claimed player (their statistics and rating follow), or give an unclaimed
    name's finished games to another name."""
    count = await run_in_threadpool(names.rename, service.engine, body.old, body.new)
    return {"renamed": count}


@router.post("/players/free")
async def free(body: Free, service: ServiceDep) -> dict[str, Any]:
    """Free a name: a claimed name's player is renamed aside and signed out on every device
    (anyone may claim the name again); an unclaimed name's games are set aside."""
    return {"aside": await run_in_threadpool(names.free, service.engine, body.name)}
