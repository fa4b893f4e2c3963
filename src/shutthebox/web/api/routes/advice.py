"""The advisor of a real table: the moves of a position on a wooden box, ranked by the coach
(the solver worker's work, :func:`shutthebox.web.solving.advisor.advise`), by the expected
score alone or, given a format with the totals and the scores posted, by the chance to win."""

from __future__ import annotations

import contextlib
import hashlib
from typing import Annotated, Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from shutthebox.coach.situations import table_position, table_situation
from shutthebox.match import MAX_PLAYERS, GameFormat
from shutthebox.players.base import Role
from shutthebox.rules import Rules, preset
from shutthebox.web.api.deps import ClientKey, WorkDep
from shutthebox.web.bounds import MAX_TILES
from shutthebox.web.solving.advisor import advise
from shutthebox.web.solving.work import ServerBusyError, SolverWork, TooMuchWorkError

router = APIRouter(tags=["real table"])

MAX_NUMBER = 10**15
"""More than any total or score (a 12-tile box scored by digits ends near 1.2e14)."""
Tile = Annotated[int, Field(ge=1, le=MAX_TILES)]
Face = Annotated[int, Field(ge=1, le=6)]
Number = Annotated[int, Field(ge=0, le=MAX_NUMBER)]


class Position(BaseModel):
    """A position on a real table's box, and the match around it if there is one."""

    preset: str | None = Field(default=None, max_length=40)
    rules: dict[str, Any] = Field(default_factory=dict, max_length=16,
                                  description="rule fields changing the preset")
    open: list[Tile] = Field(min_length=1, max_length=MAX_TILES,
                             description="the open tiles, like [1, 2, 4, 7, 8]")
    roll: list[Face] | None = Field(default=None, min_length=1, max_length=2,
                                    description="the dice rolled (none: rank the dice "
                                    "choice before the roll)")
    format: str | None = Field(default=None, max_length=40, description="rank by the chance "
                               "to win this match: single, rounds:R, elimination:L, "
                               "loser-at:L, race:T, battle:rolls, battle:turns (none: by "
                               "the expected score)")
    totals: list[Number] = Field(default_factory=list, max_length=MAX_PLAYERS,
                                 description="with a format: your total, then each other "
                                 "player's, before this round (default: two players at 0)")
    posted: list[Number] = Field(default_factory=list, max_length=MAX_PLAYERS - 1,
                                 description="with a format: the scores the first of the "
                                 "others posted this round, in the order of `totals`")
    round: int = Field(default=1, ge=1, le=1000, description="with rounds:R, this round")
    role: Literal["knock", "stand"] | None = Field(default=None,
                                                   description="in a battle: your role")


def table_rules(preset_name: str | None, changes: dict[str, Any]) -> Rules:
    """The rules of a named preset (default: the classic box) with these fields changed.

    :raises RulesError: an unknown preset, field or value.
    """
    base = preset(preset_name) if preset_name else Rules()
    return base.replace(**changes) if changes else base


def _check(body: Position) -> Rules:
    """The rules of the position, the position and the match checked (cheap: no solving).

    :raises ShutTheBoxError: bad rules, tiles, roll, format, totals or scores.
    """
    rules = table_rules(body.preset, body.rules)
    table_position(rules, body.open, body.roll)
    if body.format is not None:
        table_situation(rules, GameFormat.parse(body.format), body.totals or [0, 0],
                        body.posted, body.round, Role(body.role) if body.role else None)
    return rules


@router.post("/advice")
async def advice(body: Position, work: WorkDep, client: ClientKey) -> dict[str, Any]:
    """Every move of a position on a real box, best first, with what each costs against the
    best: a ``shut`` decision after a roll, the ``choose-dice`` decision before one where
    the rules allow one die. Needs no token; a client has two such requests under way at
    most (429 beyond)."""
    rules = await run_in_threadpool(_check, body)
    totals = body.totals or [0, 0]
    answer: dict[str, Any] = await work.ask(
        [client], advise, rules.to_dict(), body.open, body.roll, body.format, totals,
        body.posted, body.round, body.role)
    if answer.get("note") and body.format is not None:
        await _build_if_it_fits(work, rules, body.format, len(totals), client)
    return answer


async def _build_if_it_fits(work: SolverWork, rules: Rules, game_format: str, players: int,
                            client: str) -> None:
    """Start the match table the approximate answer lacked, if it fits the server's budget,
    so that the next advice in this format is exact. The advice counts as a game wanting the
    table while it is asked for (:data:`~shutthebox.web.solving.work.WANTED_FOR`)."""
    from shutthebox.solver.matchplay import table_needed

    table = table_needed(game_format, max(players, 2))
    if table is None or await run_in_threadpool(work.table_status, rules, table) != "fits":
        return
    wanting = "advice-" + hashlib.sha256(f"{rules!r} {table}".encode()).hexdigest()[:26]
    with contextlib.suppress(TooMuchWorkError, ServerBusyError):
        work.request_table(rules, table, wanting, client)
