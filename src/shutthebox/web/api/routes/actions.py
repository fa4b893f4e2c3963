"""A player's actions: roll, choose the dice, shut tiles (each stored by
:func:`shutthebox.web.play.moves.act` before it is answered)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header
from fastapi.responses import Response
from pydantic import BaseModel, Field

from shutthebox.web.api.deps import SeatTokens, ServiceDep
from shutthebox.web.bounds import MAX_EVENT, MAX_KEY, MAX_SEAT, MAX_TILES
from shutthebox.web.play import moves
from shutthebox.web.play.service import GameService

router = APIRouter()


class Action(BaseModel):
    event: int | None = Field(default=None, ge=0, le=MAX_EVENT, description="the game's event "
                              "number the action was made against (needed without an "
                              "Idempotency-Key)")
    seat: int | None = Field(default=None, ge=0, le=MAX_SEAT,
                             description="the seat acting (checked against the token)")


class DiceChoice(Action):
    dice: int = Field(ge=1, le=2)


class Shut(Action):
    tiles: list[int] = Field(min_length=1, max_length=MAX_TILES)


async def idempotency_key(idempotency_key: Annotated[str | None, Header(
        alias="Idempotency-Key", max_length=MAX_KEY,
        description="a fresh random id per action; the same key again answers the first "
        "answer")] = None) -> str | None:
    """The action's ``Idempotency-Key`` header. A dependency, like the seat token, not a
    parameter of the routes: FastAPI describes a route's own parameters before its
    dependencies', and the API's description lists this header after the token's."""
    return idempotency_key


IdempotencyKey = Annotated[str | None, Depends(idempotency_key)]


async def act(service: GameService, game_id: str, tokens: list[str], kind: str,
              argument: Any, body: Action, key: str | None) -> Response:
    answer = await service.run(game_id, moves.act, service.changes, game_id,
                               tokens[0] if tokens else None, kind, argument, body.event,
                               key, body.seat)
    return Response(answer, media_type="application/json")


@router.post("/games/{game_id}/roll")
async def roll(game_id: str, body: Action, service: ServiceDep,
               tokens: SeatTokens, key: IdempotencyKey) -> Response:
    """Roll the dice (the server rolls them)."""
    return await act(service, game_id, tokens, "roll", None, body, key)


@router.post("/games/{game_id}/dice")
async def dice(game_id: str, body: DiceChoice, service: ServiceDep,
               tokens: SeatTokens, key: IdempotencyKey) -> Response:
    """Choose one or two dice, and roll them."""
    return await act(service, game_id, tokens, "dice", body.dice, body, key)


@router.post("/games/{game_id}/shut")
async def shut(game_id: str, body: Shut, service: ServiceDep,
               tokens: SeatTokens, key: IdempotencyKey) -> Response:
    """Shut tiles for the current roll."""
    return await act(service, game_id, tokens, "shut", body.tiles, body, key)
