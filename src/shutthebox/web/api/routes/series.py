"""Play again: a finished game's rematch, its seats claimed by the finished game's players,
and the tally of a series (see :mod:`shutthebox.web.play.series`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from shutthebox.web.api.deps import ServiceDep
from shutthebox.web.api.routes.games import held_tokens
from shutthebox.web.play.series import Series

router = APIRouter()


@router.post("/games/{game_id}/rematch")
async def rematch(game_id: str, request: Request, service: ServiceDep,
                  tokens: Annotated[list[str], Depends(held_tokens)]) -> dict[str, Any]:
    """Play the finished game again: the same players, rules, format and stake, the order
    of play rotated by one seat. The first request makes the new game; every other one
    (players pressing at once, or each player's page once it hears of it) answers the same
    game. Send the seat tokens you hold in the finished game (`Authorization` and
    `X-Seat-Tokens`): the answer holds, for each, your seat's token in the new game
    (derived from yours: asked again, the same). 409 if the game is not over."""
    series: Series = request.app.state.series
    answer = await service.run(game_id, series.play_again, game_id, tokens)
    if answer["created"]:
        request.app.state.hub.tell(game_id, "rematch", {
            "game_id": answer["game_id"], "number": answer["number"], "name": answer["by"]})
    return answer


@router.get("/games/{game_id}/series")
async def series_tally(game_id: str, request: Request, service: ServiceDep
                       ) -> dict[str, Any]:
    """The game's series: its number, the games before and after it (`next`: the game it
    was played again as), each player's wins over the series' finished games and, with a
    stake, the money each has won or lost; also in words."""
    series: Series = request.app.state.series
    return await service.run(game_id, series.tally, game_id)
