"""The players: everyone with a finished game, and a player's statistics (counted in
:mod:`shutthebox.web.records.stats`) beside optimal play's, with their rating
(:mod:`shutthebox.web.records.ratings`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from starlette.concurrency import run_in_threadpool

from shutthebox.names import clean_name
from shutthebox.web.api.deps import ClientKey, ServiceDep, WorkDep
from shutthebox.web.play.service import GameService
from shutthebox.web.records.ratings import player_rating
from shutthebox.web.records.stats import PlayerStats, finished_players, player_results, recent_logs
from shutthebox.web.solving import workers as advice
from shutthebox.web.solving.review import accuracy_over
from shutthebox.web.solving.work import SolverWork

router = APIRouter()


async def player_stats(service: GameService, work: SolverWork, name: str,
                       client: str) -> dict[str, Any]:
    """The statistics of the player ``name`` (cleaned first), with optimal play's scores
    under the rules the player played most, their ``rating`` (None before a rated
    game) and their ``accuracy`` over their last games (None before a choice was made).

    :raises ShutTheBoxError: a bad name.
    :raises GameNotFoundError: the player has no finished game.
    """
    name = clean_name(name)
    found = PlayerStats(name, await run_in_threadpool(player_results, service.engine, name))
    answer = found.to_dict(await work.ask([client], advice.optimal_distribution,
                                          found.rules.to_dict()))
    answer["rating"] = await run_in_threadpool(player_rating, service.engine, name)
    logs = await run_in_threadpool(recent_logs, service.engine, name)
    answer["accuracy"] = await work.ask([client], accuracy_over, logs, name)
    return answer


@router.get("/players")
def players(service: ServiceDep) -> list[dict[str, Any]]:
    """Everyone with a finished game, with how many (``games``, and ``games_text`` in
    words)."""
    from shutthebox.language import ngettext

    return [{**p, "games_text": ngettext("{count} game", "{count} games", p["games"])
             .format(count=p["games"])} for p in finished_players(service.engine)]


@router.get("/stats")
async def stats(player: Annotated[str, Query(min_length=1, max_length=80)],
                service: ServiceDep, work: WorkDep, client: ClientKey) -> dict[str, Any]:
    """A player's record, solo games, and turn scores beside optimal play's."""
    return await player_stats(service, work, player, client)


@router.get("/players/{name:path}/stats", include_in_schema=False)
async def stats_by_path(name: str, service: ServiceDep, work: WorkDep,
                        client: ClientKey) -> dict[str, Any]:
    return await player_stats(service, work, name, client)
