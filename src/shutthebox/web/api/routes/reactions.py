"""Reactions: the fixed set a player may send, and sending one to every board of the game
(see :mod:`shutthebox.web.social.reactions`)."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from shutthebox.table_talk import REACTIONS, reactions_in_words
from shutthebox.web.api.deps import SeatTokens
from shutthebox.web.social.reactions import RATE, Reactions

router = APIRouter()

ReactionId = Literal["cheer", "laugh", "wow", "groan", "cool", "wink"]
assert set(ReactionId.__args__) == set(REACTIONS)       # type: ignore[attr-defined]


class Reaction(BaseModel):
    model_config = ConfigDict(extra="forbid")      # no free text travels with a reaction

    reaction: ReactionId = Field(description="one of the ids of `GET /api/reactions`")


@router.get("/reactions")
def reactions() -> list[dict[str, str]]:
    """The reactions a player may send: id, emoji and what it says."""
    return reactions_in_words()


@router.post("/games/{game_id}/react", status_code=202)
async def react(game_id: str, body: Reaction, request: Request, tokens: SeatTokens
                ) -> dict[str, Any]:
    """Send a reaction to every board of the game (its live feeds), shown briefly. Only a
    seat's token may (401 without one, 403 with another game's); a seat may send one a
    second on average, three at once (429 past that). Reactions are not stored."""
    sender: Reactions = request.app.state.reactions
    said = sender.check(game_id, tokens[0] if tokens else None, body.reaction)
    request.app.state.hub.tell(game_id, "reaction", said)
    return {"reaction": body.reaction, "rate": RATE}
