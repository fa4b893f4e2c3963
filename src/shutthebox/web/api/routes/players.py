"""The players: a name claimed (:mod:`shutthebox.web.records.players`), brought to another
device with its recovery code, and who a device's token is; everyone with a finished game,
and a player's statistics (counted in :mod:`shutthebox.web.records.stats`) beside optimal
play's, with their rating (:mod:`shutthebox.web.records.ratings`): claimed players only."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from shutthebox.language import _
from shutthebox.names import MAX_NAME, clean_name
from shutthebox.web.api.deps import (
    ClaimsDep,
    ClientKey,
    PlayerTokenDep,
    ServiceDep,
    WorkDep,
)
from shutthebox.web.play.seats import TooManyGuessesError, UnauthorizedError
from shutthebox.web.play.service import GameService
from shutthebox.web.records import players as claims
from shutthebox.web.records.ratings import player_rating
from shutthebox.web.records.stats import (
    PlayerStats,
    claimed_player,
    finished_players,
    player_results,
    recent_logs,
)
from shutthebox.web.solving import workers as advice
from shutthebox.web.solving.review import accuracy_over
from shutthebox.web.solving.work import SolverWork

router = APIRouter()


async def player_stats(service: GameService, work: SolverWork, name: str,
                       client: str) -> dict[str, Any]:
    """The statistics of the claimed player ``name`` (cleaned first, in any look of it),
    under their current name, with optimal play's scores under the rules the player played
    most, their ``rating`` (None before a rated game) and their ``accuracy`` over their last
    games (None before a choice was made).

    :raises ShutTheBoxError: a bad name.
    :raises GameNotFoundError: no player claimed the name, or they have no finished game.
    """
    player = await run_in_threadpool(claimed_player, service.engine, clean_name(name))
    found = PlayerStats(player.name, await run_in_threadpool(player_results, service.engine,
                                                             player))
    answer = found.to_dict(await work.ask([client], advice.optimal_distribution,
                                          found.rules.to_dict()))
    answer["rating"] = await run_in_threadpool(player_rating, service.engine, player)
    logs, seats = await run_in_threadpool(recent_logs, service.engine, player)
    answer["accuracy"] = await work.ask([client], accuracy_over, logs, player.name, seats)
    return answer


class NewPlayer(BaseModel):
    name: str = Field(min_length=1, max_length=4 * MAX_NAME,
                      description="the name to claim on this server")


class Recovery(BaseModel):
    name: str = Field(min_length=1, max_length=4 * MAX_NAME)
    code: str = Field(min_length=1, max_length=64,
                      description="the recovery code shown when the name was claimed")


@router.post("/players", status_code=201)
async def claim(body: NewPlayer, service: ServiceDep, limit: ClaimsDep,
                client: ClientKey) -> dict[str, Any]:
    """Claim a name on this server: answers the device's player token (send it as
    ``X-Player-Token``) and a recovery code, shown this once, that brings the name to
    another device. 409 if the name, or one that looks the same, is claimed; 429 past a
    few names a day from one address."""
    if limit.wait(client):
        raise TooManyGuessesError(_("this address has claimed many names today: play under "
                                    "one of them, or try again tomorrow"))

    def claimed() -> dict[str, Any]:
        with service.engine.begin() as db:
            return claims.claim(db, body.name).to_dict()

    answer: dict[str, Any] = await run_in_threadpool(claimed)
    limit.count(client)
    return answer


@router.post("/players/recover")
async def recover(body: Recovery, service: ServiceDep) -> dict[str, Any]:
    """Bring a claimed name to this device with its recovery code: answers a new player
    token. 401 for a wrong code; 429 once the name took too many wrong codes."""

    def recovered() -> dict[str, Any]:
        with service.engine.connect() as db:
            try:
                found = claims.recover(db, body.name, body.code)
            finally:
                db.commit()   # a wrong code's miss is counted too
            return {"name": found.player.name, "token": found.token}

    answer: dict[str, Any] = await run_in_threadpool(recovered)
    return answer


@router.get("/players/me")
async def me(service: ServiceDep, token: PlayerTokenDep) -> dict[str, Any]:
    """The player whose token this device sends (401 without one, or an unknown one)."""
    player = await run_in_threadpool(claims.signed_in, service.engine, token, UnauthorizedError(
        _("send this device's player token (X-Player-Token)")))
    return player.to_dict()


@router.get("/players")
def players(service: ServiceDep) -> list[dict[str, Any]]:
    """Every claimed player with a finished game, with how many (``games``, and
    ``games_text`` in words); games of seats named at the table are not counted."""
    from shutthebox.language import ngettext

    return [{**p, "games_text": ngettext("{count} game", "{count} games", p["games"])
             .format(count=p["games"])} for p in finished_players(service.engine)]


@router.get("/stats")
async def stats(player: Annotated[str, Query(min_length=1, max_length=80)],
                service: ServiceDep, work: WorkDep, client: ClientKey) -> dict[str, Any]:
    """A claimed player's record, solo games, and turn scores beside optimal play's (404
    for a name no one claimed)."""
    return await player_stats(service, work, player, client)


@router.get("/players/{name:path}/stats", include_in_schema=False)
async def stats_by_path(name: str, service: ServiceDep, work: WorkDep,
                        client: ClientKey) -> dict[str, Any]:
    return await player_stats(service, work, name, client)
