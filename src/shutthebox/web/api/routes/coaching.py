"""The coach: a hint, the chances from here, a game's review (each the solver worker's work,
see :mod:`shutthebox.web.solving.workers`), and the game's rules and format in words."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter
from starlette.concurrency import run_in_threadpool

from shutthebox.narration import computer_move_text
from shutthebox.rules import Rules
from shutthebox.web.api.deps import ClientKey, SeatTokens, ServiceDep, WorkDep
from shutthebox.web.bounds import MAX_EVENT
from shutthebox.web.play.service import GameService
from shutthebox.web.solving import workers as advice
from shutthebox.web.solving.shared import approximate
from shutthebox.web.solving.work import (
    ServerBusyError,
    SolverWork,
    TooMuchWorkError,
    rules_of,
)

router = APIRouter()


async def solver_work(service: GameService, work: SolverWork, client: str, game_id: str,
                      tokens: list[str] | None, function: Callable[..., Any]) -> Any:
    """``function(game_id, log)`` in the solver worker, for the client and its seat token.
    With ``tokens`` (a list, maybe empty) one of them must hold a seat of the game.

    :raises UnauthorizedError: no seat token, where one is needed.
    :raises TooMuchWorkError: the client has as many calls under way as it may.
    :raises ServerBusyError: the solver's queue is full.
    """
    if tokens is not None:
        tokens = tokens[:1]
        await service.run(game_id, service.seat_of, game_id, tokens)
    log = await service.run(game_id, service.match_log, game_id)
    work.asked(game_id)
    answer = await work.ask([client, *(tokens or [])], function, game_id, log)
    if approximate(answer):
        await build_if_it_fits(work, game_id, log, client)
    return answer


async def build_if_it_fits(work: SolverWork, game_id: str, log: dict[str, Any],
                           client: str) -> None:
    """Start the table an approximate answer lacked, if it fits the budget (and the
    client may ask for one), so that the next answer is exact."""
    from shutthebox.solver.matchplay import table_needed

    rules = rules_of(log)
    table = table_needed(log["format"], len(log["players"]))
    if table is None or await run_in_threadpool(work.table_status, rules, table) != "fits":
        return
    with contextlib.suppress(TooMuchWorkError, ServerBusyError):
        work.request_table(rules, table, game_id, client)


@router.get("/games/{game_id}/hint")
async def hint(game_id: str, service: ServiceDep, work: WorkDep, client: ClientKey,
               tokens: SeatTokens) -> dict[str, Any]:
    """Every legal action now, ranked by the exact solver (needs a seat token)."""
    answer: dict[str, Any] = await solver_work(service, work, client, game_id, tokens,
                                               advice.hint)
    return answer


@router.get("/games/{game_id}/coach")
async def coach(game_id: str, service: ServiceDep, work: WorkDep, client: ClientKey,
                tokens: SeatTokens) -> dict[str, Any]:
    """The exact chance to shut the box and expected score from here (needs a seat
    token)."""
    answer: dict[str, Any] = await solver_work(service, work, client, game_id, tokens,
                                               advice.coach)
    return answer


@router.get("/how-to-play")
def how_to_play_usual() -> dict[str, Any]:
    """The usual game's rules (the server's rules when none are chosen, one round) in words,
    section by section: the first screen's "How to play", before any game is made."""
    from shutthebox.guide import how_to_play as guide

    return {"format": "single", "sections": [s.to_dict() for s in guide(Rules(), "single")]}


@router.get("/games/{game_id}/how-to-play")
async def how_to_play(game_id: str, service: ServiceDep) -> dict[str, Any]:
    """The game's rules and format in words, section by section (the page's "How to
    play" screen)."""
    from shutthebox.guide import how_to_play as guide

    state = await service.run(game_id, service.state, game_id, MAX_EVENT)
    sections = guide(Rules.from_dict(state["rules"]), state["format"])
    return {"format": state["format"], "sections": [s.to_dict() for s in sections]}


@router.get("/games/{game_id}/review")
async def review(game_id: str, service: ServiceDep, work: WorkDep,
                 client: ClientKey) -> dict[str, Any]:
    """Every decision of the game against the best, with what it cost; a decision the
    computer made for a person (out of time, or away) says so (``by_computer``). A finished
    game's review is worked out once and shared (:mod:`shutthebox.web.solving.shared`)."""
    events = await service.run(game_id, service.finished, game_id)
    return await work.shared.answer(
        game_id, events, lambda: reviewed(service, work, client, game_id))


async def reviewed(service: GameService, work: SolverWork, client: str,
                   game_id: str) -> dict[str, Any]:
    """The game's review, from the solver worker, with the computer's moves for a person."""
    answer: dict[str, Any] = await solver_work(service, work, client, game_id, None,
                                               advice.review)
    made = await service.run(game_id, service.computer_moves, game_id)
    if made and isinstance(answer.get("decisions"), list):
        answer = {**answer, "decisions": [
            {**d, "by_computer": computer_move_text(made[d["index"]], d["player"])}
            if d.get("index") in made else d for d in answer["decisions"]]}
    return answer
