"""The daily box (:mod:`shutthebox.web.records.daily`): today's turn replayed from the decisions the
page sends, its result against perfect play (the solver worker's work), a token's one result
a day, and the day's table."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from shutthebox.coach.daily import daily_box, parse_day
from shutthebox.language import _
from shutthebox.names import clean_name
from shutthebox.web.api.deps import ClientKey, SeatTokens, ServiceDep, WorkDep
from shutthebox.web.bounds import MAX_TILES
from shutthebox.web.play.seats import UnauthorizedError
from shutthebox.web.records import daily

router = APIRouter()

Tile = Annotated[int, Field(ge=0, le=MAX_TILES)]
Decision = Annotated[list[Tile], Field(max_length=MAX_TILES)] | Tile
Day = Annotated[str | None, Field(default=None, max_length=10,
                                  description="YYYY-MM-DD: today (UTC, the default) or "
                                  "yesterday")]


class Turn(BaseModel):
    day: Day = None
    moves: list[Decision] = Field(default_factory=list, max_length=daily.MAX_MOVES,
                                  description="each decision so far: a dice count (1 or 2), "
                                  "or the tiles shut")
    name: str = Field(default="You", min_length=1, max_length=40)


async def _turn(body: Turn) -> tuple[Any, Any, str]:
    name = clean_name(body.name)
    box = daily.box_of(body.day)
    match = await run_in_threadpool(daily.replayed, box, body.moves, name)
    return box, match, name


@router.get("/daily")
async def today(day: Annotated[str | None, Query(max_length=10)] = None) -> dict[str, Any]:
    """The day's box at its start: its rules, its first roll, what it waits for."""
    box = daily.box_of(day)
    return daily.turn_state(box, await run_in_threadpool(daily.replayed, box, []))


@router.post("/daily/turn")
async def turn(body: Turn, work: WorkDep, client: ClientKey) -> dict[str, Any]:
    """The day's turn after these decisions; once it is over, with the ``result`` against
    perfect play on the same dice."""
    box, match, name = await _turn(body)
    state = daily.turn_state(box, match)
    if match.is_over:
        state["result"] = await work.ask([client], daily.result, box.day.isoformat(),
                                         list(body.moves), name)
    return state


@router.post("/daily/results", status_code=201)
async def store(body: Turn, service: ServiceDep, tokens: SeatTokens) -> dict[str, Any]:
    """Keep the finished turn's result in the day's table, once a day for the token (any
    secret of 16 to 128 characters the page keeps). Answers the stored game's id (its
    review) and the day's table."""
    if not tokens or not 16 <= len(tokens[0]) <= 128:
        raise UnauthorizedError(_("send your daily token (Authorization: Bearer <16 to "
                                  "128 characters>)"))
    box, match, _rest = await _turn(body)
    if not match.is_over:
        raise daily.DailyMoveError(_("the daily turn is not finished: send every "
                                     "decision"))

    def stored() -> dict[str, Any]:
        with service.engine.begin() as db:
            game_id = daily.store_result(db, box, match, tokens[0])
        with service.engine.connect() as db:
            table = daily.day_table(db, box)
        return {"game": game_id, "review": f"/review/{game_id}", "table": table}

    answer: dict[str, Any] = await run_in_threadpool(stored)
    return answer


@router.get("/daily/results")
async def results(service: ServiceDep,
                  day: Annotated[str | None, Query(max_length=10)] = None) -> dict[str, Any]:
    """The day's results (today's by default, any day's by date), best first."""
    box = daily.box_of(None) if day is None else daily_box(parse_day(day))

    def table() -> dict[str, Any]:
        with service.engine.connect() as db:
            return daily.day_table(db, box)

    answer: dict[str, Any] = await run_in_threadpool(table)
    return answer
