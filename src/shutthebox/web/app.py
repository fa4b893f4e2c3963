"""The FastAPI app: a JSON API (described at ``/openapi.json``) and the page that uses it.

Errors: bad input is 400 (422 for a body of the wrong shape), an unknown game 404, an action
out of turn 409; each answer has a ``detail`` message. Never a 500 for bad input.
"""

from __future__ import annotations

import gc
import os
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from shutthebox.errors import ShutTheBoxError
from shutthebox.match import GameFormat, MatchConfig, parse_stake
from shutthebox.rules import PRESETS, Rules, preset
from shutthebox.strategies import STRENGTHS
from shutthebox.web.service import GameNotFoundError, GameService, NotYourTurnError, SeatSpec
from shutthebox.web.storage import make_engine

STATIC = Path(__file__).parent / "static"


class SeatIn(BaseModel):
    name: str = Field(min_length=1, max_length=40)
    computer: str | None = Field(
        default=None, description="null for a human; easy, medium, hard or a strategy name")


class NewGame(BaseModel):
    players: list[SeatIn] = Field(min_length=1, max_length=12)
    preset: str | None = None
    rules: dict[str, Any] = Field(default_factory=dict,
                                  description="rule fields changing the preset")
    format: str | None = Field(default=None, description="single, solo, rounds:R, ...")
    stake: str | None = Field(default=None, description="each player's ante, e.g. 0.50")


class SeatAction(BaseModel):
    seat: int | None = Field(default=None, description="the seat acting (checked if given)")


class DiceChoice(SeatAction):
    dice: int = Field(ge=1, le=2)


class Shut(SeatAction):
    tiles: list[int] = Field(min_length=1, max_length=12)


class Pending(BaseModel):
    kind: str = Field(description="roll, choose-dice, shut, roll-off or over")
    seat: int | None
    role: str = Field(description="turn, or knock / stand in a battle")
    human: bool = Field(description="whether a human must act now")
    roll: list[int] | None
    dice: int | None
    legal: list[list[int]] = Field(description="the tiles of every legal move, for a shut")
    dice_choices: list[int]


class GameState(BaseModel):
    """A game as the page sees it (the answer of every action)."""

    id: str
    status: str
    rules: dict[str, Any]
    format: str
    players: list[dict[str, Any]]
    stake: int = Field(description="each player's ante, in cents")
    pot: int
    pending: Pending
    board: list[int] = Field(description="the open tiles")
    round: int
    round_scores: dict[str, int]
    totals: list[int]
    active: list[bool]
    winners: list[int]
    losers: list[int]
    payouts: dict[str, int]
    event_count: int
    since: int
    events: list[dict[str, Any]] = Field(description="the log from position since")


def create_app(database_url: str | None = None, engine: Engine | None = None) -> FastAPI:
    """The app, storing games at ``database_url`` (the default SQLite file if None)."""
    service = GameService(engine or make_engine(database_url))
    app = FastAPI(title="Shut the Box", version="0.1.0",
                  description="Play Shut the Box with every rule variant and exact hints.")
    app.state.service = service

    @app.exception_handler(GameNotFoundError)
    async def not_found(_: Request, error: GameNotFoundError) -> JSONResponse:
        return JSONResponse({"detail": str(error)}, status_code=404)

    @app.exception_handler(NotYourTurnError)
    async def out_of_turn(_: Request, error: NotYourTurnError) -> JSONResponse:
        return JSONResponse({"detail": str(error)}, status_code=409)

    @app.exception_handler(IntegrityError)
    async def raced(_: Request, error: IntegrityError) -> JSONResponse:
        return JSONResponse({"detail": "the game changed while this request was made: "
                                       "load it again and retry"}, status_code=409)

    @app.exception_handler(ShutTheBoxError)
    async def bad_input(_: Request, error: ShutTheBoxError) -> JSONResponse:
        return JSONResponse({"detail": str(error)}, status_code=400)

    @app.get("/api/presets")
    def presets() -> list[dict[str, Any]]:
        """The named rule sets."""
        return [{"name": p.name, "summary": p.summary, "source": p.source,
                 "rules": p.rules.to_dict()} for p in PRESETS.values()]

    @app.get("/api/strengths")
    def strengths() -> dict[str, str]:
        """Computer players by strength."""
        return dict(STRENGTHS)

    @app.post("/api/games", status_code=201, response_model=GameState)
    async def new_game(body: NewGame) -> JSONResponse:
        """Start a game; computer seats play at once until a human must act."""
        base = preset(body.preset) if body.preset else Rules()
        rules = base.replace(**body.rules) if body.rules else base
        names = tuple(seat.name for seat in body.players)
        fmt = GameFormat.parse(body.format or ("solo" if len(names) == 1 else "single"))
        config = MatchConfig(rules, fmt, names, parse_stake(body.stake) if body.stake else 0)
        return JSONResponse(service.create(config, [SeatSpec(s.name, s.computer)
                                                    for s in body.players]), status_code=201)

    @app.get("/api/games")
    def games() -> list[dict[str, Any]]:
        """Recent games, finished and unfinished, newest first."""
        return service.list_games()

    @app.get("/api/games/{game_id}", response_model=GameState)
    async def game(game_id: str, since: int = 0) -> JSONResponse:
        """A game's state, with its events from position ``since``."""
        return JSONResponse(service.state(game_id, max(since, 0)))

    @app.post("/api/games/{game_id}/roll", response_model=GameState)
    async def roll(game_id: str, body: SeatAction | None = None) -> JSONResponse:
        """Roll the dice for the human to act (the server rolls them)."""
        return JSONResponse(service.roll(game_id, body.seat if body else None))

    @app.post("/api/games/{game_id}/dice", response_model=GameState)
    async def dice(game_id: str, body: DiceChoice) -> JSONResponse:
        """Choose one or two dice, and roll them."""
        return JSONResponse(service.choose_dice(game_id, body.seat, body.dice))

    @app.post("/api/games/{game_id}/shut", response_model=GameState)
    async def shut(game_id: str, body: Shut) -> JSONResponse:
        """Shut tiles for the current roll."""
        return JSONResponse(service.shut(game_id, body.seat, body.tiles))

    @app.get("/api/games/{game_id}/hint")
    def hint(game_id: str) -> dict[str, Any]:
        """Every legal action now, ranked by the exact solver."""
        return service.hint(game_id)

    @app.get("/api/games/{game_id}/coach")
    def coach(game_id: str) -> dict[str, Any]:
        """The exact chance to shut the box and expected score from here."""
        return service.coach(game_id)

    @app.get("/api/games/{game_id}/review")
    def review(game_id: str) -> dict[str, Any]:
        """Every decision of the game against the best, with what it cost."""
        return service.review(game_id)

    @app.get("/api/players/{name}/stats")
    def stats(name: str) -> dict[str, Any]:
        """A player's record and scores beside the exact distribution of optimal play."""
        return service.stats(name)

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def app_from_environment() -> FastAPI:
    """The app for ``$SHUTTHEBOX_DATABASE_URL`` (how ``shutthebox serve`` starts workers).

    A server keeps many small objects (games in memory): the start-up objects are frozen out
    of the garbage collector and young objects are collected less often, so that no answer
    waits on a long collection.
    """
    app = create_app(os.environ.get("SHUTTHEBOX_DATABASE_URL"))
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
    return app
