"""The web app's game service: what the routes, the live feeds and the server's own steps
ask of stored games, no HTTP here. Each method is a few lines over the modules that do the
work: every change to a game is one unit of work
(:meth:`GameChanges.changing <shutthebox.web.play.changes.GameChanges.changing>`), every
read of one :meth:`~shutthebox.web.play.changes.GameChanges.read`.

A game's stored log is its seat events (``seats``, then a ``join`` per friend who took an
open seat) followed by the match's own events, with the table's between them. Nothing is
rolled until every seat is taken. Dice are rolled here, never by the client. Computer seats
and roll-offs are played by :mod:`shutthebox.web.play.computers`, one stored step at a time,
never inside a request.

The methods are blocking (database work): the app runs them where its database work runs
(see :mod:`shutthebox.web.api.deps`).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, TypeVar

from sqlalchemy import select
from sqlalchemy.engine import Connection, Engine

from shutthebox.language import _
from shutthebox.match import GameFormat
from shutthebox.narration import format_text
from shutthebox.rules import Rules
from shutthebox.web.play import creating, moves, server_steps, table_actions
from shutthebox.web.play.changes import GameChanges, Publish
from shutthebox.web.play.creating import SeatSpec
from shutthebox.web.play.memory import GameCache, LoadedGame
from shutthebox.web.play.moves import NotYourTurnError, StaleError
from shutthebox.web.play.seats import token_hash
from shutthebox.web.play.server_steps import ServerStep
from shutthebox.web.play.table import computer_moves
from shutthebox.web.play.view import game_view
from shutthebox.web.storage import GAMES

T = TypeVar("T")

__all__ = ["GameService", "NotYourTurnError", "SeatSpec", "ServerStep", "StaleError"]


class GameService:
    """Creates, stores, plays and reports games."""

    def __init__(self, engine: Engine, notify: Publish | None = None) -> None:
        self.engine = engine
        self.changes = GameChanges(engine)
        if notify is not None:
            self.changes.news.subscribe(notify)

    @property
    def cache(self) -> GameCache:
        """The games and tokens this process keeps in memory."""
        return self.changes.memory

    def reading(self) -> AbstractContextManager[Connection]:
        """A connection to read the server's records with, in a request's database work
        (see :meth:`run`)."""
        return self.changes.store.connect()

    def close(self) -> None:
        """Give back the writing connection (after a last checkpoint)."""
        self.changes.close()

    async def aclose(self) -> None:
        """Give back all the service holds of the database, as the server stops."""
        await self.changes.aclose()

    async def run(self, game_id: str | None, function: Callable[..., T], /,
                  *arguments: Any) -> T:
        """``function(*arguments)``, a request's database work on the game (see
        :meth:`~shutthebox.web.play.changes.GameChanges.run`)."""
        return await self.changes.run(game_id, function, *arguments)

    # --- creating and joining ----------------------------------------------------------

    def create(self, rules: Rules, game_format: str, stake: int, seats: list[SeatSpec],
               pace: str = "watch", clock: int | None = None) -> dict[str, Any]:
        """Store a new game; answer its state, a token per seat here, an invite per open
        seat. The match starts at once unless a seat is open.

        :raises ShutTheBoxError: bad names, computers, clock or format for these rules.
        """
        made = creating.new_game(rules, game_format, stake, seats, pace, clock)
        self.changes.create(made.game, made.loaded, made.tokens)
        state = self.view(made.game.game_id, made.loaded, 0, list(made.tokens.values()))
        state["tokens"] = {str(seat): token for seat, token in made.tokens.items()}
        state["invites"] = [{"seat": seat, "code": code, "link": f"/join/{code}",
                             "qr": f"/api/invites/{code}/qr.svg"}
                            for seat, code in made.invites.items()]
        return state

    def invite(self, code: str) -> dict[str, Any]:
        """What an invite is for: the game, the seat, the table and the rules."""
        return creating.invite(self.changes, code)

    def join(self, game_id: str, code: str, name: str, player_id: int | None = None
             ) -> dict[str, Any]:
        """Take the open seat of the invite under ``name`` (for the claimed player
        ``player_id``, if given); answer the seat's token."""
        seat, token = creating.join(self.changes, game_id, code, name, player_id)
        return {"game_id": game_id, "seat": seat, "token": token,
                "state": self.state(game_id, 0, [token])}

    # --- reading -----------------------------------------------------------------------

    def state(self, game_id: str, since: int = 0, tokens: list[str] | None = None
              ) -> dict[str, Any]:
        """The game's view from event ``since`` on, as the holder of ``tokens`` sees it.

        :raises GameNotFoundError: no game has this id.
        """
        for token in tokens or []:
            self.changes.holder(token)          # known to the view's "you" from here on
        with self.cache.lock(game_id):
            loaded = self.changes.read(game_id)
            return self.view(game_id, loaded, since, tokens or [])

    def view(self, game_id: str, loaded: LoadedGame, since: int, tokens: list[str]
             ) -> dict[str, Any]:
        """The view of a game at hand, as the holder of ``tokens`` sees it."""
        you = sorted({h[1] for h in map(self.cache.holder, map(token_hash, tokens))
                      if h is not None and h[0] == game_id})
        return game_view(game_id, loaded, since, you)

    def names(self, game_id: str, state: dict[str, Any]) -> list[str]:
        """The names at the game's seats: as the game in memory has them, else as
        ``state`` (a state of the game read earlier) had them."""
        loaded = self.cache.games.get(game_id)
        return [s.name for s in loaded.seats] if loaded is not None \
            else [s["name"] for s in state["seats"]]

    def list_games(self, tokens: list[str]) -> list[dict[str, Any]]:
        """The games these tokens hold seats in, newest first."""
        held: dict[str, list[int]] = {}
        for token in tokens:
            holder = self.changes.holder(token)
            if holder is not None:
                held.setdefault(holder[0], []).append(holder[1])
        if not held:
            return []
        with self.reading() as db:
            rows = db.execute(select(GAMES).where(GAMES.c.id.in_(list(held)))
                              .order_by(GAMES.c.updated.desc())).all()
        return [{"id": r.id, "status": r.status, "players": r.config["players"],
                 "format": r.config["format"],
                 "format_text": format_text(GameFormat.parse(r.config["format"]), None),
                 "updated": r.updated.isoformat() + "Z", "events": r.event_count,
                 "seats": sorted(held[r.id])} for r in rows]

    def seat_of(self, game_id: str, tokens: list[str]) -> int:
        """The seat of this game that one of the tokens holds (see
        :meth:`~shutthebox.web.play.changes.GameChanges.seat_of`)."""
        return self.changes.seat_of(game_id, tokens)

    def match_log(self, game_id: str) -> dict[str, Any]:
        """The match's log (for the solver worker); refused while seats are open."""
        loaded = self.changes.read(game_id)
        if loaded.match is None:
            raise NotYourTurnError(_("the game has not started: it waits for players to "
                                     "join"))
        return loaded.match_log()

    def finished(self, game_id: str) -> int | None:
        """The length of the log of a game that is over (no move changes it any more): the
        key of its shared review (:mod:`shutthebox.web.solving.shared`); None while it is
        played or waits for players."""
        loaded = self.changes.read(game_id)
        return loaded.count if loaded.over else None

    def computer_moves(self, game_id: str) -> dict[int, str]:
        """The decisions the computer made for a person in the game (see
        :func:`shutthebox.web.play.table.computer_moves`)."""
        loaded = self.changes.read(game_id)
        return computer_moves(loaded.prefix, loaded.log(len(loaded.prefix)))

    # --- acting ------------------------------------------------------------------------

    def act(self, game_id: str, token: str | None, kind: str, argument: Any,
            event: int | None, key: str | None, seat: int | None = None) -> str:
        """Apply a player's action (see :func:`shutthebox.web.play.moves.act`) by the
        holder of ``token``; answer the new state as JSON."""
        return moves.act(self.changes, game_id, token, kind, argument, event, key, seat)

    def table_action(self, game_id: str, token: str | None, action: str,
                     seat: int | None = None) -> dict[str, Any]:
        """A table action by a seat's token (see
        :func:`shutthebox.web.play.table_actions.table_action`); answers the game's state.
        """
        tokens = [token] if token else []
        mine = self.seat_of(game_id, tokens)
        table_actions.table_action(self.changes, game_id, mine, action, seat)
        return self.state(game_id, 0, tokens)

    # --- the server's own steps (see computers.py and clock.py) ------------------------

    def next_step(self, game_id: str) -> ServerStep | None:
        return server_steps.next_step(self.changes, game_id)

    def play_step(self, step: ServerStep, action: int | None) -> bool:
        return server_steps.play_step(self.changes, step, action)

    def games_waiting_for_server(self, quiet_for: float) -> list[str]:
        return server_steps.games_waiting_for_server(self.changes, quiet_for)

    def games_out_of_time(self) -> list[tuple[str, int]]:
        return server_steps.games_out_of_time(self.changes)

    def time_out(self, game_id: str, count: int) -> bool:
        return server_steps.time_out(self.changes, game_id, count)
