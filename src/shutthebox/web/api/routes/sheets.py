"""The score sheets of real tables (:mod:`shutthebox.web.records.sheets`): begin one, read it,
enter a round's scores, take the last round back. Anyone with a sheet's id may read it; only
the holder of its secret token (answered once, when it is begun) may change it."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path
from pydantic import BaseModel, Field

from shutthebox.match import MAX_PLAYERS, GameFormat, MatchConfig, ScoreSheet, parse_stake
from shutthebox.names import clean_name
from shutthebox.web.api.deps import SeatTokens, ServiceDep
from shutthebox.web.api.routes.advice import MAX_NUMBER, table_rules
from shutthebox.web.records import sheets

router = APIRouter(tags=["real table"])

SheetId = Annotated[str, Path(pattern="^[0-9a-f]{32}$", description="the sheet's id")]
Score = Annotated[int, Field(ge=0, le=MAX_NUMBER)] | None


class NewSheet(BaseModel):
    players: list[Annotated[str, Field(min_length=1, max_length=40)]] = Field(
        min_length=1, max_length=MAX_PLAYERS, description="the players at the table, in "
        "the order of the sheet's columns")
    preset: str | None = Field(default=None, max_length=40)
    rules: dict[str, Any] = Field(default_factory=dict, max_length=16,
                                  description="rule fields changing the preset")
    format: str | None = Field(default=None, max_length=40, description="single, solo, "
                               "rounds:R, elimination:L, loser-at:L, race:T (default: single, "
                               "solo for one player)")
    stake: str | None = Field(default=None, max_length=20, description="each player's ante "
                              "in each game, e.g. \"0.50\"")


class Round(BaseModel):
    scores: list[Score] = Field(min_length=1, max_length=MAX_PLAYERS, description="each "
                                "player's score, null for a player who is out (or who had no "
                                "turn after a shut box that won at once)")
    rounds: int | None = Field(default=None, ge=0, le=10**6, description="the rounds the "
                               "sheet had when this one was typed: a change made on an older "
                               "sheet is refused (409)")


def _new(body: NewSheet) -> ScoreSheet:
    names = tuple(clean_name(name) for name in body.players)
    fmt = GameFormat.parse(body.format or ("solo" if len(names) == 1 else "single"))
    stake = parse_stake(body.stake) if body.stake else 0
    return ScoreSheet(MatchConfig(table_rules(body.preset, body.rules), fmt, names, stake))


@router.post("/sheets", status_code=201)
async def begin(body: NewSheet, service: ServiceDep) -> dict[str, Any]:
    """Begin a score sheet; the answer holds its ``token`` (shown once: keep it to change
    the sheet) and the sheet as :func:`read` answers it."""
    sheet = _new(body)

    def stored() -> dict[str, Any]:
        with service.changes.transaction() as db:
            sheet_id, token = sheets.create_sheet(db, sheet)
        return {"token": token, "sheet": sheets.sheet_view(sheet_id, sheet)}

    return await service.run(None, stored)


@router.get("/sheets/{sheet_id}")
async def read(sheet_id: SheetId, service: ServiceDep) -> dict[str, Any]:
    """The sheet: its players, format and rules in words, each game's rounds with the totals
    and what each round decided, the pot and the ledger, and the next round's players."""
    def loaded() -> dict[str, Any]:
        with service.changes.store.connect() as db:
            sheet, row = sheets.load_sheet(db, sheet_id)
        return sheets.sheet_view(sheet_id, sheet, row)

    return await service.run(None, loaded)


@router.post("/sheets/{sheet_id}/rounds")
async def enter(sheet_id: SheetId, body: Round, service: ServiceDep,
                tokens: SeatTokens) -> dict[str, Any]:
    """Enter a round's scores (needs the sheet's token). The format decides the rest: the
    players out, the end of the game, its winners and losers and the pot; a round entered
    after a game ended begins the next game."""
    def entered() -> dict[str, Any]:
        with service.changes.transaction() as db:
            sheet, row = sheets.load_sheet(db, sheet_id)
            sheets.check_owner(row, tokens)
            was = row["rounds"] if body.rounds is None else body.rounds
            sheet.enter(body.scores)
            sheets.save_sheet(db, sheet_id, sheet, was)
        return sheets.sheet_view(sheet_id, sheet)

    return await service.run(None, entered)


@router.delete("/sheets/{sheet_id}/rounds/last")
async def take_back(sheet_id: SheetId, service: ServiceDep,
                    tokens: SeatTokens) -> dict[str, Any]:
    """Take the last round back, to correct a typing mistake (needs the sheet's token)."""
    def taken() -> dict[str, Any]:
        with service.changes.transaction() as db:
            sheet, row = sheets.load_sheet(db, sheet_id)
            sheets.check_owner(row, tokens)
            before = sheet.without_last_round()
            sheets.save_sheet(db, sheet_id, before, row["rounds"])
        return sheets.sheet_view(sheet_id, before)

    return await service.run(None, taken)
