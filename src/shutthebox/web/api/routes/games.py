"""Making a game and reading it: the rule presets, the computers' strengths, a new game (the
the games a client's tokens hold and a game's state."""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Query
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from shutthebox.errors import ShutTheBoxError
from shutthebox.formats import GameFormat
from shutthebox.language import _
from shutthebox.match import parse_stake
from shutthebox.narration import choices as choices_in_words
from shutthebox.narration import page_sentences, preset_text, status_text
from shutthebox.rules import PRESETS, Rules, preset
from shutthebox.strategies import STRENGTHS
from shutthebox.web.api.deps import (
    Authorization,
    ClientKey,
    PlayerTokenDep,
    SeatTokens,
    ServiceDep,
    WorkDep,
)
from shutthebox.web.bounds import MAX_EVENT, MAX_SEATS
from shutthebox.web.logs import game_event
from shutthebox.web.play.seats import SeatKind, bearer_tokens
from shutthebox.web.play.service import GameService, SeatSpec
from shutthebox.web.play.table import MAX_CLOCK
from shutthebox.web.records import seating
from shutthebox.web.solving.work import SolverWork

router = APIRouter()


class SeatIn(BaseModel):
    name: str = Field(min_length=1, max_length=40)
    kind: SeatKind | None = Field(
        default=None, description="here (a human at this device), computer, or open (for "
        "a friend to join); default: computer if `computer` is given, else here")
    computer: str | None = Field(default=None, max_length=40,
                                 description="easy, medium, hard or a strategy name")


class NewGame(BaseModel):
    players: list[SeatIn] = Field(min_length=1, max_length=MAX_SEATS)
    preset: str | None = Field(default=None, max_length=40)
    rules: dict[str, Any] = Field(default_factory=dict,
                                  description="rule fields changing the preset")
    format: str | None = Field(default=None, max_length=40,
                               description="single, solo, rounds:R, ...")
    stake: str | float | None = Field(default=None, description="each player's ante, e.g. "
                                      "\"0.50\"; a finite amount in whole cents")
    pace: str = Field(default="watch", pattern="^(watch|instant)$",
                      description="computer turns at a watchable pace, or at once")
    clock: int | None = Field(
        default=None, ge=0, le=MAX_CLOCK, description="a turn clock: seconds each decision "
        "of a person may take before the computer makes it for them (0 or null: none; only "
        "for a game with an open seat)")
    approximate: bool = Field(
        default=False, description="let hard computers play a match too large for this "
        "server to solve exactly (each turn for its best expected score); without it such a "
        "game is refused with a 400 that says what fits")


def _stake(value: str | float | None) -> int:
    if value is None or value == "":
        return 0
    return parse_stake(str(value))


async def start(service: GameService, work: SolverWork, body: NewGame, client: str,
                player_token: str | None = None) -> dict[str, Any]:
    """Store the new game of ``body`` for ``client``; answer its state (with the seats'
    tokens and invites). The player of ``player_token`` holds the first seat here (see
    :mod:`~shutthebox.web.records.seating`). A hard computer's match table is started if it
    fits the budget.

    :raises ShutTheBoxError: bad rules, format, stake, seats or computers.
    :raises NameClaimedError: a seat named with another player's claimed name (409).
    :raises PlayerTokenError: a player token the server does not know (401).
    """
    base = preset(body.preset) if body.preset else Rules()
    rules = base.replace(**body.rules) if body.rules else base
    seats = [SeatSpec(s.name, s.kind or (SeatKind.COMPUTER if s.computer else SeatKind.HERE),
                      s.computer if (s.kind or SeatKind.COMPUTER) is SeatKind.COMPUTER
                      else None) for s in body.players]
    for seat in seats:
        if seat.kind is SeatKind.COMPUTER and not seat.computer:
            raise ShutTheBoxError(_("the computer seat {name!r} needs a strength: one "
                                    "of {known}").format(
                                    name=seat.name, known=', '.join(STRENGTHS)))

    def seated() -> list[SeatSpec]:
        with service.reading() as db:
            return seating.new_seats(db, seats, player_token)

    seats = await service.run(None, seated)
    fmt = body.format or ("solo" if len(seats) == 1 else "single")
    computers: list[str | None] = [s.computer for s in seats]
    table: GameFormat | None = None
    if any(computers):      # (their table's status may be read from disk: not on the loop)
        computers, table = await run_in_threadpool(work.check_computers, rules, fmt,
                                                   computers, body.approximate)
    seats = [replace(s, computer=c) for s, c in zip(seats, computers, strict=True)]
    if table is not None:       # reserved first: a client's second table is refused uncreated
        work.reserve_table(rules, table, client)
    stake = _stake(body.stake)
    state = await service.run(None, service.create, rules, fmt, stake, seats, body.pace,
                              body.clock)
    if table is not None:
        work.request_table(rules, table, state["id"])
    return state


@router.get("/presets")
def presets() -> list[dict[str, Any]]:
    """The named rule sets (with their ``text`` and ``summary`` in words, the form's)."""
    return [{"name": p.name, "source": p.source, "rules": p.rules.to_dict(), **preset_text(p)}
            for p in PRESETS.values()]


@router.get("/choices")
def choices() -> dict[str, Any]:
    """Each rule's choices and each format, in words (the new-game form's), and under
    ``sentences`` the templates of the sentences the page completes itself
    (:func:`~shutthebox.narration.page_sentences`)."""
    return {**choices_in_words(), "sentences": page_sentences()}


@router.get("/strengths")
def strengths() -> dict[str, str]:
    """Computer players by strength."""
    return dict(STRENGTHS)


@router.post("/games", status_code=201)
async def new_game(body: NewGame, service: ServiceDep, work: WorkDep, client: ClientKey,
                   player: PlayerTokenDep) -> JSONResponse:
    """Start a game. The answer holds, once, a token for each seat at this device and an
    invite for each open seat. Computer seats play in the background. With the device's
    player token (``X-Player-Token``) its player holds the first seat here, under their
    claimed name; the other seats here are named at the table: 409 for a name another player
    claimed, 400 for "You"."""
    created = await start(service, work, body, client, player)
    game_event("game created", game=created.get("id"), seats=len(body.players),
               format=body.format or "-")
    return JSONResponse(created, status_code=201)


async def held_tokens(authorization: Authorization = None,
                      x_seat_tokens: Annotated[str | None, Header(
                          description="comma-separated seat tokens")] = None) -> list[str]:
    """The seat tokens of the ``Authorization`` header and the ``X-Seat-Tokens`` list."""
    return bearer_tokens(authorization, x_seat_tokens)


@router.get("/games")
async def games(service: ServiceDep, tokens: Annotated[list[str], Depends(held_tokens)]
                ) -> list[dict[str, Any]]:
    """The games the presented tokens hold seats in, newest first (never all games), each
    with its status in words (``status_text``)."""
    return [{**game, "status_text": status_text(game["status"])}
            for game in await service.run(None, service.list_games, tokens)]


@router.get("/games/{game_id}")
async def game(game_id: str, service: ServiceDep, tokens: SeatTokens,
               since: Annotated[int, Query(ge=0, le=MAX_EVENT)] = 0) -> JSONResponse:
    """A game's state, with its events from position ``since``; ``you`` lists the seats
    of the token sent, if any."""
    return JSONResponse(await service.run(game_id, service.state, game_id, since, tokens))
