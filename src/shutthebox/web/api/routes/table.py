"""A table played online: the host's actions (pause and resume the turn clock, hand an
absent player's seat to the computer, end the game) and a player's coming back to the seat
the computer played (see :mod:`shutthebox.web.play.table`). Each is a table event in the game's
log; only the host's token may do the host's."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from shutthebox.web.api.deps import SeatTokens, ServiceDep
from shutthebox.web.bounds import MAX_SEAT
from shutthebox.web.logs import game_event

router = APIRouter()


class HandOver(BaseModel):
    seat: int = Field(ge=0, le=MAX_SEAT, description="the seat the computer plays from now "
                      "until its player comes back")


async def _act(service: ServiceDep, game_id: str, tokens: list[str], action: str,
               seat: int | None = None) -> JSONResponse:
    return JSONResponse(await service.run(game_id, service.table_action, game_id,
                                          tokens[0] if tokens else None, action, seat))


@router.post("/games/{game_id}/table/pause")
async def pause(game_id: str, service: ServiceDep,
                tokens: SeatTokens) -> JSONResponse:
    """The host stops the turn clock (409 if there is none, or it is stopped)."""
    return await _act(service, game_id, tokens, "pause")


@router.post("/games/{game_id}/table/resume")
async def resume(game_id: str, service: ServiceDep,
                 tokens: SeatTokens) -> JSONResponse:
    """The host starts the turn clock again: the decision waited for has a full clock."""
    return await _act(service, game_id, tokens, "resume")


@router.post("/games/{game_id}/table/hand")
async def hand(game_id: str, body: HandOver, service: ServiceDep,
               tokens: SeatTokens) -> JSONResponse:
    """The host hands a player's seat to the computer, which plays it until the player
    comes back."""
    answer = await _act(service, game_id, tokens, "hand", body.seat)
    game_event("seat handed to the computer", game=game_id, seat=body.seat, by="host")
    return answer


@router.post("/games/{game_id}/table/end")
async def end(game_id: str, service: ServiceDep,
              tokens: SeatTokens) -> JSONResponse:
    """The host ends the game: nothing more is played, and nobody wins it."""
    answer = await _act(service, game_id, tokens, "end")
    game_event("game ended by its host", game=game_id)
    return answer


@router.post("/games/{game_id}/table/back")
async def back(game_id: str, service: ServiceDep,
               tokens: SeatTokens) -> JSONResponse:
    """The token's player takes their seat back from the computer (nothing changes if the
    computer does not play it)."""
    return await _act(service, game_id, tokens, "back")
