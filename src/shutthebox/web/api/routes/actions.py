"""A player's actions: roll, choose the dice, shut tiles (each stored by
:func:`shutthebox.web.play.moves.act` before it is answered)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from shutthebox.web.api.deps import Authorization
from shutthebox.web.bounds import MAX_EVENT, MAX_KEY, MAX_SEAT, MAX_TILES
from shutthebox.web.play import moves
from shutthebox.web.play.seats import bearer_tokens
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


@dataclass
class Actor:
    """Who acts, as a move's request says it: the game service, the seat tokens of its
    ``Authorization`` header and its ``Idempotency-Key``."""

    service: GameService
    tokens: list[str]
    key: str | None


async def actor(request: Request, authorization: Authorization = None,
                idempotency_key: Annotated[str | None, Header(
                    alias="Idempotency-Key", max_length=MAX_KEY,
                    description="a fresh random id per action; the same key again answers "
                    "the first answer")] = None) -> Actor:
    """One dependency for the three a move needs: a move is what the server answers
    most, and each dependency FastAPI solves costs it a little at every move."""
    return Actor(request.app.state.service, bearer_tokens(authorization), idempotency_key)


ActorDep = Annotated[Actor, Depends(actor)]


async def act(game_id: str, who: Actor, kind: str, argument: Any, body: Action
              ) -> Response:
    service, tokens = who.service, who.tokens
    answer = await service.run(game_id, moves.act, service.changes, game_id,
                               tokens[0] if tokens else None, kind, argument, body.event,
                               who.key, body.seat)
    return Response(answer, media_type="application/json")


@router.post("/games/{game_id}/roll")
async def roll(game_id: str, body: Action, who: ActorDep) -> Response:
    """Roll the dice (the server rolls them)."""
    return await act(game_id, who, "roll", None, body)


@router.post("/games/{game_id}/dice")
async def dice(game_id: str, body: DiceChoice, who: ActorDep) -> Response:
    """Choose one or two dice, and roll them."""
    return await act(game_id, who, "dice", body.dice, body)


@router.post("/games/{game_id}/shut")
async def shut(game_id: str, body: Shut, who: ActorDep) -> Response:
    """Shut tiles for the current roll."""
    return await act(game_id, who, "shut", body.tiles, body)
