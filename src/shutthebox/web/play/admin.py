"""What the server's host (who runs it, not a game's host) does to games: list the games
open, and end one (an abandoned game: its table ends as its own host would end it, nobody
winning). The admin view (:mod:`shutthebox.web.api.routes.admin`) and ``shutthebox admin``
both come here."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine

from shutthebox.language import _
from shutthebox.match import TableKind
from shutthebox.web.play.changes import GameChanges
from shutthebox.web.play.table import TableStateError
from shutthebox.web.storage.schema import GAMES, SEATS

OPEN = ("waiting", "playing")
LISTED = 500
"""Games listed at most, the latest changed first."""


def open_games(engine: Engine) -> list[dict[str, Any]]:
    """The games waiting for players or being played, the latest changed first, each with
    its seats (name, kind, whether taken)."""
    with engine.connect() as connection:
        games = connection.execute(
            select(GAMES.c.id, GAMES.c.status, GAMES.c.waiting_for, GAMES.c.event_count,
                   GAMES.c.created, GAMES.c.updated)
            .where(GAMES.c.status.in_(OPEN)).order_by(GAMES.c.updated.desc()).limit(LISTED)
        ).mappings().all()
        ids = [game["id"] for game in games]
        seats: dict[str, list[dict[str, Any]]] = {game_id: [] for game_id in ids}
        if ids:
            for row in connection.execute(
                    select(SEATS.c.game_id, SEATS.c.seat, SEATS.c.kind, SEATS.c.name,
                           SEATS.c.joined).where(SEATS.c.game_id.in_(ids))
                    .order_by(SEATS.c.game_id, SEATS.c.seat)).mappings():
                seats[row["game_id"]].append({
                    "seat": row["seat"], "kind": row["kind"], "name": row["name"],
                    "taken": row["kind"] != "open" or row["joined"] is not None})
    return [{**game, "created": game["created"].isoformat(),
             "updated": game["updated"].isoformat(), "seats": seats[game["id"]]}
            for game in games]


def end_game(changes: GameChanges, game_id: str) -> None:
    """End a game being played, as its own host would: nothing more is played, nobody
    wins it.

    :raises GameNotFoundError: no game has this id.
    :raises TableStateError: it has not started (it waits for players) or is over.
    """
    with changes.changing(game_id) as change:
        loaded = change.loaded
        if loaded.match is None:
            raise TableStateError(_("the game has not started: it waits for players to "
                                    "join"))
        if loaded.over:
            raise TableStateError(_("the game is over"))
        loaded.add_table_event({"type": TableKind.END.value})
