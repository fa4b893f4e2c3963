"""The score sheets of real tables on the server (:class:`~shutthebox.match.ScoreSheet`): kept
in the ``score_sheets`` table, read by anyone with the sheet's id, changed only by whoever
holds its secret token (made and kept as a seat's: the database keeps its SHA-256).

What is stored is what was typed in; every total, elimination, winner and payout is worked
out again by the format's rules whenever the sheet is read (:func:`sheet_view`).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.engine import Connection

from shutthebox.errors import ShutTheBoxError
from shutthebox.language import _
from shutthebox.match import ScoreSheet
from shutthebox.narration import format_text, rules_text, title_text
from shutthebox.table_talk import ledger_text, sheet_lines
from shutthebox.web.play.seats import ForbiddenError, UnauthorizedError, new_token, token_hash
from shutthebox.web.storage import now
from shutthebox.web.storage.schema import SCORE_SHEETS


class SheetNotFoundError(ShutTheBoxError):
    """No score sheet has this id (404)."""


class SheetChangedError(ShutTheBoxError):
    """The sheet changed since the round count the change was made on (409)."""


def new_sheet_id() -> str:
    """A fresh sheet id: 32 hexadecimal digits, as a game's."""
    return secrets.token_hex(16)


def create_sheet(db: Connection, sheet: ScoreSheet) -> tuple[str, str]:
    """Store a new sheet; its id and its owner's secret token (shown once)."""
    sheet_id, token, when = new_sheet_id(), new_token(), now()
    db.execute(SCORE_SHEETS.insert().values(
        id=sheet_id, token_hash=token_hash(token), sheet=sheet.to_dict(),
        rounds=sheet.round_count, created=when, updated=when))
    return sheet_id, token


def load_sheet(db: Connection, sheet_id: str) -> tuple[ScoreSheet, dict[str, Any]]:
    """The sheet of this id, and its row (``token_hash``, ``rounds``, ``created``,
    ``updated``).

    :raises SheetNotFoundError: no sheet has this id.
    """
    row = db.execute(select(SCORE_SHEETS).where(SCORE_SHEETS.c.id == sheet_id)).mappings().first()
    if row is None:
        raise SheetNotFoundError(_("no score sheet has the id {id!r}").format(id=sheet_id))
    return ScoreSheet.from_dict(row["sheet"]), dict(row)


def check_owner(row: dict[str, Any], tokens: Sequence[str]) -> None:
    """Refuse a change without the sheet's token.

    :raises UnauthorizedError: no token was sent.
    :raises ForbiddenError: the token is not this sheet's.
    """
    if not tokens:
        raise UnauthorizedError(_("send the sheet's token (Authorization: Bearer <token>): "
                                  "only the phone that began the sheet may change it"))
    if not secrets.compare_digest(token_hash(tokens[0]), row["token_hash"]):
        raise ForbiddenError(_("this token is not the sheet's: only the phone that began "
                               "the sheet may change it"))


def save_sheet(db: Connection, sheet_id: str, sheet: ScoreSheet, was: int) -> None:
    """Store the changed sheet, if it still has the ``was`` rounds the change was made on.

    :raises SheetChangedError: another change came first.
    """
    done = db.execute(update(SCORE_SHEETS).where(
        SCORE_SHEETS.c.id == sheet_id, SCORE_SHEETS.c.rounds == was).values(
        sheet=sheet.to_dict(), rounds=sheet.round_count, updated=now()))
    if done.rowcount != 1:
        raise SheetChangedError(_("the sheet changed meanwhile: load it again and "
                                  "retry"))


def sheet_view(sheet_id: str, sheet: ScoreSheet, row: dict[str, Any] | None = None
               ) -> dict[str, Any]:
    """The sheet as the page shows it, every sentence in the reader's language: its players,
    format and rules in words, each game's rounds with their totals and what each decided,
    the pot, the ledger over the games, and which players the next round takes."""
    config = sheet.config
    names = list(config.players)
    games = []
    for game in sheet.games:
        games.append({
            "number": game.number, "over": game.is_over,
            "rounds": [{"number": r.number, "scores": list(r.scores), "totals": list(r.totals),
                        "lines": sheet_lines(game, r)} for r in game.rounds],
            "totals": list(game.totals), "playing": list(game.active),
            "winners": list(game.winners), "losers": list(game.losers),
            "payouts": [game.payouts.get(s, 0) for s in range(len(names))]})
    current = sheet.games[-1] if sheet.games and not sheet.games[-1].is_over else None
    next_game = len(sheet.games) + (0 if current else 1)
    next_round = len(current.rounds) + 1 if current else 1
    ledger = sheet.ledger
    return {
        "id": sheet_id, "players": names, "format": str(config.format),
        "title": title_text(config.format, next_round if current else None, config.stake,
                            config.stake * len(names)),
        "format_text": format_text(config.format, None), "goal": config.format.goal,
        "rules": config.rules.to_dict(), "rules_text": rules_text(config.rules),
        "stake": config.stake, "pot": config.stake * len(names), "games": games,
        "next": {"game": next_game, "round": next_round,
                 "playing": list(current.active) if current else [True] * len(names),
                 "heading": _("Game {game}, round {round}").format(game=next_game,
                                                                   round=next_round)},
        "ledger": {"games": ledger.games, "net": [ledger.net.get(n, 0) for n in names],
                   "text": ledger_text(names, [ledger.net.get(n, 0) for n in names])
                   if config.stake and ledger.games else None},
        "rounds": sheet.round_count,
        **({"created": row["created"].isoformat(), "updated": row["updated"].isoformat()}
           if row else {})}
