"""The daily box (:mod:`shutthebox.web.records.daily`): the day's box (its rules, no roll), a
claimed player's turn of the day dealt one roll at a time (the device sends its player token
in ``X-Player-Token``), its result against perfect play (the solver worker's work) once it is
over, and the day's table."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from shutthebox.coach.daily import DailyBox, daily_box, parse_day
from shutthebox.web.api.deps import ClientKey, DailySecretDep, PlayerTokenDep, ServiceDep, WorkDep
from shutthebox.web.bounds import MAX_TILES
from shutthebox.web.play.service import GameService
from shutthebox.web.records import daily
from shutthebox.web.records.players import Player, signed_in
from shutthebox.web.solving.work import SolverWork

router = APIRouter()

Tile = Annotated[int, Field(ge=0, le=MAX_TILES)]
Decision = Annotated[list[Tile], Field(max_length=MAX_TILES)] | Tile
Day = Annotated[str | None, Field(default=None, max_length=10,
                                  description="YYYY-MM-DD: today (UTC, the default) or "
                                  "yesterday")]


class TurnDay(BaseModel):
    # No other field: a client's moves, score or name are never a result (422, not ignored).
    model_config = ConfigDict(extra="forbid")

    day: Day = None


class TurnDecision(BaseModel):
    model_config = ConfigDict(extra="forbid")

    day: Day = None
    at: int = Field(ge=0, le=daily.MAX_MOVES,
                    description="the count of decisions made before this one (the turn's "
                    "``at``)")
    decision: Decision = Field(description="a dice count (1 or 2), or the tiles to shut")


async def _player(service: GameService, token: str | None) -> Player:
    """The claimed player whose token the device sent.

    :raises UnauthorizedError: no token (claim a name first), or an unknown one.
    """
    return await run_in_threadpool(signed_in, service.engine, token, daily.unclaimed())


async def _answer(box: DailyBox, turn: daily.DailyTurn, work: SolverWork,
                  client: str) -> dict[str, Any]:
    """Where the turn stands (only the rolls dealt), and once it is over, its ``result``
    against perfect play on the same dice, its ``game`` and ``review``."""
    match = await run_in_threadpool(daily.replayed, box, turn.moves)
    state = daily.turn_state(box, match, turn.decisions)
    if match.is_over:
        state["result"] = await work.ask([client], daily.result, box.day.isoformat(),
                                         turn.moves, box.secret)
        if turn.game_id is not None:
            state["game"] = turn.game_id
            state["review"] = f"/review/{turn.game_id}"
    return state


@router.get("/daily")
async def today(day: Annotated[str | None, Query(max_length=10)] = None) -> dict[str, Any]:
    """The day's box: its day, rules and words, and no roll (each is dealt to a claimed
    player's turn, once the decision before it is made). ``unclaimed``: what a device
    without a player token is told."""
    return daily.box_view(daily.box_of(day))


@router.post("/daily/turn")
async def turn(body: TurnDay, service: ServiceDep, work: WorkDep, client: ClientKey,
               token: PlayerTokenDep, secret: DailySecretDep) -> dict[str, Any]:
    """The player's turn of the day (``X-Player-Token``; 401 without one): started, or the
    one stored (one a day, resumed where it stands), with ``at``, the count of its
    decisions; once it is over, with its ``result`` against perfect play on the same dice
    and the stored game's ``review``."""
    box = daily.box_of(body.day, secret)
    player = await _player(service, token)

    def started() -> daily.DailyTurn:
        with service.engine.begin() as db:
            return daily.started_turn(db, box, player)

    return await _answer(box, await run_in_threadpool(started), work, client)


@router.post("/daily/turn/decisions")
async def decide(body: TurnDecision, service: ServiceDep, work: WorkDep, client: ClientKey,
                 token: PlayerTokenDep, secret: DailySecretDep) -> dict[str, Any]:
    """Make decision number ``at`` (counted from 0) of the player's turn: answers the turn
    with the roll it dealt next. The same decision sent again changes nothing; another one
    at an old ``at``, or an ``at`` ahead of the turn, is refused (409)."""
    box = daily.box_of(body.day, secret)
    player = await _player(service, token)

    def decided() -> daily.DailyTurn:
        with service.engine.begin() as db:
            return daily.decide(db, box, player, body.at, body.decision)

    return await _answer(box, await run_in_threadpool(decided), work, client)


@router.get("/daily/results")
async def results(service: ServiceDep,
                  day: Annotated[str | None, Query(max_length=10)] = None) -> dict[str, Any]:
    """The day's results (today's by default, any day's by date), best first: the turns
    the server dealt to claimed players, under their names."""
    box = daily.box_of(None) if day is None else daily_box(parse_day(day))

    def table() -> dict[str, Any]:
        with service.engine.connect() as db:
            return daily.day_table(db, box)

    answer: dict[str, Any] = await run_in_threadpool(table)
    return answer
