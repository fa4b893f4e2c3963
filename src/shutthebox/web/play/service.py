"""The web app's game service: stored games driven by the match engine, no HTTP here.

A game's stored log is its seat events (``seats``, then a ``join`` per friend who took an
open seat) followed by the match's own events. Nothing is rolled until every seat is taken.
Every action is checked (the seat's token, the turn, the event number it was made against),
applied to the game's :class:`Match`, and stored with its answer in one transaction before it
is acknowledged. Dice are rolled here, never by the client. Computer seats and roll-offs are
played by :mod:`shutthebox.web.play.computers`, one stored step at a time, never inside a request.

The methods are blocking (database work); the app runs them in its thread pool. On
PostgreSQL a move, a new game and a watcher's read also come as coroutines
(:meth:`GameService.act_async`, :meth:`~GameService.create_async`,
:meth:`~GameService.state_async`) that the event loop runs when what they need is in memory,
their database work one statement through psycopg's asyncio driver
(:mod:`shutthebox.web.storage.postgresql`).
"""

from __future__ import annotations

import asyncio
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from shutthebox.errors import LogError, ShutTheBoxError
from shutthebox.language import N_, _
from shutthebox.match import GameFormat, Match, MatchConfig, PendingKind, TableKind
from shutthebox.narration import format_text, rules_text
from shutthebox.rules import Rules
from shutthebox.strategies import check_strategy
from shutthebox.tiles import mask_of
from shutthebox.web.play.dice import SecureRandom
from shutthebox.web.play.memory import GameCache, LoadedGame, waiting_for
from shutthebox.web.play.seats import (
    ForbiddenError,
    InviteNotFoundError,
    Seat,
    SeatKind,
    SeatTakenError,
    UnauthorizedError,
    check_name,
    new_invite,
    new_token,
    normal_invite,
    token_hash,
)
from shutthebox.web.play.table import (
    TABLE_COMPUTER,
    NotTheHostError,
    TableState,
    TableStateError,
    check_clock,
    computer_moves,
    timeout_events,
)
from shutthebox.web.play.view import Batch, game_view, view_members
from shutthebox.web.records.stats import game_results
from shutthebox.web.storage import (
    ANSWERS,
    GAMES,
    SEATS,
    Move,
    NewGame,
    SqliteWriter,
    now,
    store_move,
    store_new_game,
)
from shutthebox.web.storage.postgresql import AsyncWriter


class NotYourTurnError(ShutTheBoxError):
    """The action is not the one the game waits for, not from the seat to act, or made
    against an event number that is no longer the newest (409)."""


@dataclass(frozen=True)
class SeatSpec:
    """A seat at a new game: a name, its kind, and the computer strategy of a computer."""

    name: str
    kind: SeatKind = SeatKind.HERE
    computer: str | None = None


@dataclass(frozen=True)
class ServerStep:
    """A step the server plays: a roll (roll-off or a computer's), or a computer's decision
    (``log`` is the match's log for the solver worker)."""

    game_id: str
    count: int
    seat: int | None
    strategy: str | None = None
    log: dict[str, Any] | None = None
    pace: str = "watch"
    human: bool = False
    """Whether a person plays at the table (and waits for this step)."""

    @property
    def is_roll(self) -> bool:
        return self.strategy is None


class GameService:
    """Creates, stores, plays and reports games."""

    def __init__(self, engine: Engine,
                 notify: Callable[[str, str, Batch | None], None] | None = None
                 ) -> None:
        self.engine = engine
        self.notify = notify or (lambda game_id, waiting, update: None)
        """Called after a commit that stored events: (game id, who acts next, and the batch
        stored, when it is at hand)."""
        self.cache = GameCache()
        self._writer = SqliteWriter(engine) if engine.dialect.name == "sqlite" else None
        """On SQLite, which takes one writer at a time, this process writes through one
        connection of its own, its writers queueing in order."""
        self._moves = AsyncWriter(engine) if engine.dialect.name == "postgresql" else None
        """On PostgreSQL, the writer of :meth:`act_async`."""
        self._dice = SecureRandom()

    def close(self) -> None:
        """Give back the writing connection (after a last checkpoint)."""
        if self._writer is not None:
            self._writer.close()

    async def close_moves(self) -> None:
        """Close the connections of :meth:`act_async` (on the event loop that used them)."""
        if self._moves is not None:
            await self._moves.close()

    @contextmanager
    def _transaction(self) -> Iterator[Connection]:
        """One write transaction, committed at the end (rolled back on an error)."""
        if self._writer is None:
            with self.engine.begin() as connection:
                yield connection
            return
        with self._writer.transaction() as connection:
            yield connection

    # --- creating and joining ----------------------------------------------------------

    def create(self, rules: Rules, game_format: str, stake: int, seats: list[SeatSpec],
               pace: str = "watch", clock: int | None = None) -> dict[str, Any]:
        """Store a new game; answer its state, a token per seat here, an invite per open
        seat. The match starts at once unless a seat is open. ``clock``: seconds a decision
        (a game with an open seat only; None: no clock).

        :raises ShutTheBoxError: bad names, computers, clock or format for these rules.
        """
        game, loaded, tokens, invites = self._new_game(rules, game_format, stake, seats, pace,
                                                       clock)
        with self._transaction() as db:
            store_new_game(db, game)
        return self._created(game, loaded, tokens, invites)

    async def create_async(self, rules: Rules, game_format: str, stake: int,
                           seats: list[SeatSpec], pace: str = "watch",
                           clock: int | None = None) -> dict[str, Any] | None:
        """:meth:`create` on the event loop, on PostgreSQL (its one statement through the
        writer of :meth:`act_async`); None elsewhere (:meth:`create` then answers).

        :raises ShutTheBoxError: bad names, computers or format for these rules.
        :raises sqlalchemy.exc.DBAPIError: the database is not answering (503).
        """
        if self._moves is None:
            return None
        game, loaded, tokens, invites = self._new_game(rules, game_format, stake, seats, pace,
                                                       clock)
        await self._moves.create(game)
        return self._created(game, loaded, tokens, invites)

    def _new_game(self, rules: Rules, game_format: str, stake: int, seats: list[SeatSpec],
                  pace: str, clock: int | None = None
                  ) -> tuple[NewGame, LoadedGame, dict[int, str], dict[int, str]]:
        """A new game as it is stored and kept in memory, the tokens of its seats here and
        the invites of its open seats."""
        clock = check_clock(clock, any(s.kind is SeatKind.OPEN for s in seats))
        fmt = GameFormat.parse(game_format)
        names = [check_name(s.name, []) for s in seats]
        for index, name in enumerate(names):
            check_name(name, names[:index])
        for spec in seats:
            if spec.kind is SeatKind.COMPUTER:
                check_strategy(spec.computer or "")     # made (and solved) by the worker
        config = MatchConfig(rules, fmt, tuple(names), stake)   # refuses what cannot be
        game_id = uuid.uuid4().hex
        tokens = {i: new_token() for i, s in enumerate(seats) if s.kind is SeatKind.HERE}
        invites = {i: new_invite() for i, s in enumerate(seats) if s.kind is SeatKind.OPEN}
        table = [Seat(i, s.kind, names[i], s.computer, s.kind is not SeatKind.OPEN)
                 for i, s in enumerate(seats)]
        host = next((s.seat for s in table if s.kind is SeatKind.HERE), None)
        head: dict[str, Any] = {"type": "seats", "pace": pace,
                                "seats": [s.to_dict() for s in table], "host": host}
        if clock is not None:
            head["clock"] = clock
        loaded = LoadedGame(config.to_dict(), table, [head], None, pace,
                            table=TableState(clock=clock, host=host))
        if not invites:
            loaded.match = Match(config)
        game = NewGame(
            game_id, loaded.config,
            [s.computer if s.kind is SeatKind.COMPUTER else None for s in table],
            "playing" if loaded.match else "waiting", waiting_for(loaded), [
                {"seat": s.seat, "kind": s.kind.value, "name": s.name, "computer": s.computer,
                 "token_hash": token_hash(tokens[s.seat]) if s.seat in tokens else None,
                 "invite": invites.get(s.seat), "joined": s.joined}
                for s in table], loaded.log(0))
        return game, loaded, tokens, invites

    def _created(self, game: NewGame, loaded: LoadedGame, tokens: dict[int, str],
                 invites: dict[int, str]) -> dict[str, Any]:
        """The new game is stored: kept in memory, its tokens known; its state."""
        game_id = game.game_id
        loaded.stored = (game.status, game.waiting)
        self.cache.remember(game_id, loaded)
        for seat, token in tokens.items():
            self.cache.know(token_hash(token), (game_id, seat))
        self.notify(game_id, waiting_for(loaded), None)
        state = self._state(game_id, loaded, 0, list(tokens.values()))
        state["tokens"] = {str(seat): token for seat, token in tokens.items()}
        state["invites"] = [{"seat": seat, "code": code, "link": f"/join/{code}",
                             "qr": f"/api/invites/{code}/qr.svg"}
                            for seat, code in invites.items()]
        return state

    def invite(self, code: str) -> dict[str, Any]:
        """What an invite is for: the game, the seat, the table and the rules."""
        code = normal_invite(code)
        with self.engine.connect() as db:
            row = db.execute(select(SEATS.c.game_id, SEATS.c.seat, SEATS.c.joined)
                                  .where(SEATS.c.invite == code)).first()
            if row is None:
                raise InviteNotFoundError(_("no game has the invite {code!r}: check the "
                                            "code with the friend who sent it").format(code=code))
            loaded = self.cache.load(db, row.game_id)
        fmt = GameFormat.parse(loaded.config["format"])
        return {"code": code, "game_id": row.game_id, "seat": row.seat,
                "taken": row.joined is not None, "players": [s.name for s in loaded.seats],
                "format": str(fmt), "format_text": format_text(fmt, None),
                "rules": loaded.config["rules"],
                "rules_text": rules_text(Rules.from_dict(loaded.config["rules"]))}

    def join(self, game_id: str, code: str, name: str) -> dict[str, Any]:
        """Take the open seat of the invite under ``name``; answer the seat's token."""
        code = normal_invite(code)
        with self.cache.lock(game_id), self._transaction() as db:
            loaded = self.cache.load(db, game_id)
            row = db.execute(select(SEATS.c.seat, SEATS.c.joined).where(
                SEATS.c.game_id == game_id, SEATS.c.invite == code)).first()
            if row is None:
                raise InviteNotFoundError(_("the invite {code!r} is not for this game").format(
                                            code=code))
            seat = loaded.seats[row.seat]
            if row.joined is not None or seat.joined:
                raise SeatTakenError(_("the seat of invite {code!r} has been taken: ask "
                                       "for another invite").format(code=code))
            name = check_name(name, [s.name for s in loaded.seats if s.joined])
            token = new_token()
            before = loaded.count
            try:
                taken = db.execute(update(SEATS).where(
                    SEATS.c.game_id == game_id, SEATS.c.seat == seat.seat,
                    SEATS.c.joined.is_(None)).values(
                    name=name, token_hash=token_hash(token), joined=now()))
                if taken.rowcount != 1:
                    raise SeatTakenError(_("the seat of invite {code!r} has been taken").format(
                                           code=code))
                loaded.seats[seat.seat] = Seat(seat.seat, SeatKind.HERE, name, None, True)
                loaded.prefix.append({"type": "join", "seat": seat.seat, "name": name})
                if all(s.joined for s in loaded.seats):
                    loaded.table.deadline = None
                    names = tuple(s.name for s in loaded.seats)
                    config = MatchConfig.from_dict({**loaded.config, "players": names})
                    loaded.config = config.to_dict()
                    loaded.match = Match(config)
                self._store(db, game_id, loaded, before, config=loaded.config)
            except Exception:
                self.cache.forget(game_id)
                raise
        self.cache.know(token_hash(token), (game_id, seat.seat))
        self.notify(game_id, waiting_for(loaded), None)
        return {"game_id": game_id, "seat": seat.seat, "token": token,
                "state": self._state(game_id, loaded, 0, [token])}

    # --- reading -----------------------------------------------------------------------

    def state(self, game_id: str, since: int = 0, tokens: list[str] | None = None
              ) -> dict[str, Any]:
        for token in tokens or []:
            self._holder(token)        # known to the state's "you" from here on
        # Not while a computer's step changes the game, nor while a move is stored from
        # the event loop (the game in memory is ahead of the database until it is).
        with self.cache.lock(game_id):
            with self.engine.connect() as db:
                loaded = self.cache.load(db, game_id)
            return self._state(game_id, loaded, since, tokens or [])

    async def state_async(self, game_id: str, since: int = 0) -> dict[str, Any] | None:
        """:meth:`state` (as a watcher without a seat reads it) on the event loop, on
        PostgreSQL: from the game in memory, once one small query (through the writer of
        :meth:`act_async`) has found it as far on as the database, or brought it there
        with the events another process stored. None when that is not at hand:
        :meth:`state` then answers, in the thread pool.

        :raises sqlalchemy.exc.DBAPIError: the database is not answering.
        """
        cache = self.cache
        loaded = cache.games.get(game_id)
        if self._moves is None or loaded is None or game_id in self.cache.storing:
            return None
        before = loaded.count
        found = await self._moves.events_since(game_id, before)
        if found is None or loaded.count != before or game_id in self.cache.storing \
                or cache.games.get(game_id) is not loaded:
            return None
        count, news = found
        lock = cache.lock(game_id)
        if not lock.acquire(blocking=False):    # a computer's step, in a thread
            return None
        try:
            if count != before:                 # moved on by another process
                if loaded.match is None or len(news) != count - before:
                    return None
                try:
                    loaded.extend(news)
                except LogError:
                    cache.forget(game_id)
                    return None
                loaded.stored = None
                if loaded.table.clock is not None:
                    _start_clock(loaded)        # (as this process heard of it)
            return self._state(game_id, loaded, since, [])
        finally:
            lock.release()

    def state_in_memory(self, game_id: str, since: int, count: int | None
                        ) -> dict[str, Any] | None:
        """The state (for a watcher) from the game in memory, if it has at least ``count``
        events (a count heard of, from this process or another); None if it has not."""
        loaded = self.cache.games.get(game_id)
        if loaded is None or count is None or loaded.count < count \
                or game_id in self.cache.storing:     # (a move not yet stored)
            return None
        lock = self.cache.lock(game_id)
        if not lock.acquire(blocking=False):    # a thread has it, perhaps for a query
            return None
        try:
            return self._state(game_id, loaded, since, [])
        finally:
            lock.release()

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
            holder = self._holder(token)
            if holder is not None:
                held.setdefault(holder[0], []).append(holder[1])
        if not held:
            return []
        with self.engine.connect() as db:
            rows = db.execute(select(GAMES).where(GAMES.c.id.in_(list(held)))
                                   .order_by(GAMES.c.updated.desc())).all()
        return [{"id": r.id, "status": r.status, "players": r.config["players"],
                 "format": r.config["format"],
                 "format_text": format_text(GameFormat.parse(r.config["format"]), None),
                 "updated": r.updated.isoformat() + "Z", "events": r.event_count,
                 "seats": sorted(held[r.id])} for r in rows]

    def seat_of(self, game_id: str, tokens: list[str]) -> int:
        """The seat of this game that one of the tokens holds (for hints and coaching)."""
        if not tokens:
            raise UnauthorizedError(_("send a seat token of this game (Authorization: "
                                      "Bearer <token>)"))
        holders = [self._holder(t) for t in tokens]
        for holder in holders:
            if holder is not None and holder[0] == game_id:
                return holder[1]
        if any(holders):
            raise ForbiddenError(_("this token holds a seat in another game, not this "
                                   "one"))
        raise UnauthorizedError(_("unknown seat token: it holds no seat"))

    def match_log(self, game_id: str) -> dict[str, Any]:
        """The match's log (for the solver worker); refused while seats are open."""
        with self.engine.connect() as db:
            loaded = self.cache.load(db, game_id)
        if loaded.match is None:
            raise NotYourTurnError(_("the game has not started: it waits for players to "
                                     "join"))
        return loaded.match_log()

    # --- acting ------------------------------------------------------------------------

    def act(self, game_id: str, token: str | None, kind: str, argument: Any,
            event: int | None, key: str | None, seat: int | None = None) -> str:
        """Apply a player's action (``roll``, ``dice`` with a count, ``shut`` with tiles);
        answer the new state as JSON. With an ``Idempotency-Key`` a repeated request answers
        the first answer; without one, ``event`` must be the game's newest event number."""
        if not token:
            raise UnauthorizedError(_("send your seat's token (Authorization: Bearer "
                                      "<token>)"))
        mine = self.seat_of(game_id, [token])
        if seat is not None and seat != mine:
            raise ForbiddenError(_("this token holds seat {mine}, not seat {seat}").format(
                                   mine=mine, seat=seat))
        if key is None and event is None:
            raise StaleError(_("send the event number the action was made against "
                               "(\"event\") or an Idempotency-Key header"))
        for trusted in (True, False):
            try:
                loaded, body, batch = self._act_once(game_id, token, mine, kind, argument,
                                                      event, key, trusted)
                break
            except _CacheStaleError:
                continue            # another server process moved the game: read it again
            except (NotYourTurnError, IntegrityError):
                if key is not None:     # another server process answered this key first
                    with self.engine.connect() as db:
                        first = self._answer(db, game_id, mine, key)
                    if first is not None:
                        return first
                raise
        if batch is not None:       # (stored with the move: who the game waits for)
            self.notify(game_id, loaded.stored[1] if loaded.stored else waiting_for(loaded),
                        batch)
        return body

    @property
    def acts_on_event_loop(self) -> bool:
        """Whether :meth:`act_async` can answer (on PostgreSQL, and on SQLite)."""
        return self._moves is not None or self._writer is not None

    async def act_async(self, game_id: str, token: str | None, kind: str, argument: Any,
                        event: int | None, key: str | None, seat: int | None = None
                        ) -> str | None:
        """:meth:`act` on the event loop, the answer given once the move is committed. On
        PostgreSQL its one statement is sent through psycopg's asyncio driver
        (:mod:`shutthebox.web.storage.postgresql`); on SQLite it is written into the batch
        of moves of the event loop's turn (:meth:`SqliteWriter.in_batch`), committed
        together. Only when all it needs is at hand: the seat's token and the game in
        memory, the event number the action was made against (a repeated request's key is
        looked up by :meth:`act`), and the game's lock free (a thread may hold it for a
        computer's step). None when they are not, when the action is refused or another
        request stored first: :meth:`act` then answers (from the database, saying why a
        refusal is one).

        :raises sqlalchemy.exc.DBAPIError: the database is not answering (503).
        :raises ShutTheBoxError: an action the match refuses, such as tiles that cannot be
            shut (400).
        """
        writer, moves, cache = self._writer, self._moves, self.cache
        found = self._at_hand(game_id, token, event, seat) \
            if writer is not None or moves is not None else None
        if found is None:
            return None
        loaded, mine, lock = found
        cache.storing.add(game_id)          # (from before the move: readers in threads)
        committed: asyncio.Future[None] | None = None
        try:
            made = self._made(game_id, loaded, mine, kind, argument, event, key)
            if made is None:
                return None
            body, batch, move, stored = made
            try:
                if writer is not None:
                    committed = writer.in_batch(
                        lambda db: store_move(db, move),
                        lambda: self._committed(game_id, stored[1], batch))
                    written = committed is not None
                else:
                    assert moves is not None
                    written = await moves.store(move)
            except IntegrityError:          # the key answered first: act finds the answer
                cache.forget(game_id)
                return None
            except BaseException:
                cache.forget(game_id)       # ahead of the database, perhaps
                raise
            if not written:                 # another process stored first
                cache.forget(game_id)
                return None
            self._stored(game_id, loaded, stored)   # (a failed commit forgets the game)
        finally:
            if committed is None:
                cache.storing.discard(game_id)
            lock.release()
        if committed is None:               # (PostgreSQL: committed by the statement)
            self.notify(game_id, stored[1], batch)
            return body
        # SQLite: the game's lock is not held while the batch waits for its commit (a
        # request the event loop answers itself must never wait for a lock only the loop
        # can let go of); the game stays marked as being stored, and a transaction of the
        # loop's own commits the batch first.
        try:
            await committed
        except BaseException:
            cache.forget(game_id)
            raise
        finally:
            cache.storing.discard(game_id)
        return body

    def _at_hand(self, game_id: str, token: str | None, event: int | None,
                 seat: int | None) -> tuple[LoadedGame, int, threading.RLock] | None:
        """For a move on the event loop: the game in memory, the token's seat and the
        game's lock, taken; None unless all are at hand (the token and the game known here,
        the event number sent, the game not being stored, its lock free)."""
        cache = self.cache
        if not token or event is None:
            return None
        holder = cache.holders.get(token_hash(token))
        loaded = cache.games.get(game_id)
        if holder is None or holder[0] != game_id or loaded is None or \
                (seat is not None and seat != holder[1]) or game_id in cache.storing:
            return None
        lock = cache.lock(game_id)
        if not lock.acquire(blocking=False):
            return None
        return loaded, holder[1], lock

    def _made(self, game_id: str, loaded: LoadedGame, seat: int, kind: str, argument: Any,
              event: int | None, key: str | None
              ) -> tuple[str, Batch, Move, tuple[str, str]] | None:
        """The move applied to the game in memory (under its lock): its answer, its live
        batch, what storing it writes and the game's status then; None if the game has
        moved on or refuses it (forgotten then: :meth:`act` reads it again and says why).

        :raises Exception: the view or the move could not be made (the game forgotten).
        """
        before = loaded.count
        try:
            if event != before:
                raise NotYourTurnError(_("the game has moved on"))
            self._apply(loaded, seat, kind, argument)
        except NotYourTurnError:
            self.cache.forget(game_id)      # perhaps moved on elsewhere
            return None
        try:
            members, state = view_members(game_id, loaded, before)
            body = f'{{{members}, "you": [{seat}]}}'
            move, stored = self._move(game_id, loaded, before,
                                      None if key is None else (seat, key, body))
        except BaseException:
            self.cache.forget(game_id)      # ahead of the database
            raise
        return body, Batch.of(state, members), move, stored

    def _committed(self, game_id: str, waiting: str, batch: Batch) -> None:
        """A move of a batch is committed: the game is no longer ahead of the database, and
        its watchers are told."""
        self.cache.storing.discard(game_id)
        self.notify(game_id, waiting, batch)

    def _act_once(self, game_id: str, token: str, seat: int, kind: str, argument: Any,
                  event: int | None, key: str | None, trusted: bool
                  ) -> tuple[LoadedGame, str, Batch | None]:
        """One try of :meth:`act`. ``trusted``: use the game in memory without asking the
        database first (true unless another server process moved it on); a refusal or a
        failed store then raises :class:`_CacheStaleError` to try again from the database."""
        with self.cache.lock(game_id), self._transaction() as db:
            if key is not None:
                first = self._answer(db, game_id, seat, key)
                if first is not None:
                    loaded = self.cache.games.get(game_id) or self.cache.load(db, game_id)
                    return loaded, first, None
            cached = self.cache.games.get(game_id) if trusted else None
            loaded = cached or self.cache.load(db, game_id)
            before = loaded.count
            try:
                if event is not None and event != before:
                    raise NotYourTurnError(_("the game has moved on: it is at event "
                                             "{before}, the action was made at event "
                                             "{event}; load it again").format(
                                             before=before, event=event))
                self._apply(loaded, seat, kind, argument)
                members, state = view_members(game_id, loaded, before)
                body = f'{{{members}, "you": [{seat}]}}'
                batch = Batch.of(state, members)
                self._store(db, game_id, loaded, before,
                            answer=None if key is None else (seat, key, body))
            except NotYourTurnError:
                if cached is not None:
                    self.cache.forget(game_id)
                    raise _CacheStaleError from None
                raise
            except BaseException:
                self.cache.forget(game_id)      # (its move is not stored)
                raise
        return loaded, body, batch

    def _apply(self, loaded: LoadedGame, seat: int, kind: str, argument: Any) -> None:
        match = loaded.match
        if match is None:
            raise NotYourTurnError(_("the game has not started: it waits for players to "
                                     "join"))
        pending = match.pending
        if match.is_over:
            raise NotYourTurnError(_("the game is over"))
        if pending.seat != seat:
            whose = loaded.seats[pending.seat].name if pending.seat is not None else _("the dice")
            raise NotYourTurnError(_("it is {whose}'s turn, not yours (seat {seat})").format(
                                     whose=whose, seat=seat))
        if loaded.table.plays(seat) or loaded.table.ended:
            raise NotYourTurnError(
                _("the game is ended") if loaded.table.ended else
                _("the computer plays seat {seat} now: take it back first "
                  "(POST /api/games/<id>/table/back)").format(seat=seat)
                if seat in loaded.table.away else
                _("seat {seat}'s time ran out: the computer makes this move").format(
                    seat=seat))
        wanted = {"roll": PendingKind.ROLL, "dice": PendingKind.CHOOSE_DICE,
                  "shut": PendingKind.SHUT}[kind]
        if pending.kind is not wanted:
            raise NotYourTurnError(_("the game waits for {awaited}, not {sent}").format(
                                     awaited=_(_ACTION_WORDS[pending.kind]),
                                     sent=_(_ACTION_WORDS[wanted])))
        try:
            if kind == "roll":
                match.roll(self._dice)
            elif kind == "dice":
                match.decide(argument)
                match.roll(self._dice)
            else:
                match.decide(mask_of(argument))
        except Exception:
            self.cache.forget_game(loaded)
            raise
        if loaded.table.clock is not None:
            _start_clock(loaded)            # (the answer says the clock of the next decision)

    # --- the server's own steps (see computers.py) -------------------------------------

    def next_step(self, game_id: str) -> ServerStep | None:
        """The step the server plays next in this game, or None if a person acts next."""
        with self.engine.connect() as db:
            loaded = self.cache.load(db, game_id)
        if waiting_for(loaded) != "server":
            return None
        match = loaded.match
        assert match is not None
        pending = match.pending
        if pending.is_chance:
            return ServerStep(game_id, loaded.count, pending.seat, pace=loaded.pace)
        assert pending.seat is not None
        return ServerStep(game_id, loaded.count, pending.seat,
                          loaded.seats[pending.seat].computer or TABLE_COMPUTER,
                          loaded.match_log(),
                          loaded.pace,
                          any(s.kind is not SeatKind.COMPUTER for s in loaded.seats))

    def play_step(self, step: ServerStep, action: int | None) -> bool:
        """Play the step (roll, or the computer's action) if the game is still where it was
        planned; False if another server process got there first."""
        with self.cache.lock(step.game_id), self._transaction() as db:
            loaded = self.cache.load(db, step.game_id)
            if loaded.count != step.count or waiting_for(loaded) != "server":
                return False
            match = loaded.match
            assert match is not None
            try:
                made = len(match.events)
                if step.is_roll:
                    match.roll(self._dice)
                else:
                    assert action is not None
                    match.decide(action)
                for event in match.events[made:]:
                    loaded.table.apply(event)       # (a timeout's move, made)
                if not self._store(db, step.game_id, loaded, step.count, strict=False):
                    return False            # (and the game is out of memory)
            except Exception:
                self.cache.forget(step.game_id)
                raise
        self.notify(step.game_id, waiting_for(loaded),
                    Batch.of(self._state(step.game_id, loaded, step.count, [])))
        return True

    def games_waiting_for_server(self, quiet_for: float) -> list[str]:
        """Games the server should move on that nobody has touched for ``quiet_for``
        seconds (after a restart, or when the process driving them stopped)."""
        with self.engine.connect() as db:
            rows = db.execute(select(GAMES.c.id).where(
                GAMES.c.waiting_for == "server",
                GAMES.c.updated <= now() - timedelta(seconds=quiet_for)).limit(500))
            return [game_id for (game_id,) in rows]

    # --- the table: its clock, its host, players who leave and come back -------------

    def computer_moves(self, game_id: str) -> dict[int, str]:
        """The decisions the computer made for a person in the game (see
        :func:`shutthebox.web.play.table.computer_moves`).

        :raises GameNotFoundError: no game has this id.
        """
        with self.engine.connect() as db:
            loaded = self.cache.load(db, game_id)
        return computer_moves(loaded.prefix, loaded.log(len(loaded.prefix)))

    def games_out_of_time(self) -> list[tuple[str, int]]:
        """(id, event count) of the games whose turn clock has run out (the longest out
        first, a bounded number)."""
        with self.engine.connect() as db:
            rows = db.execute(select(GAMES.c.id, GAMES.c.event_count).where(
                GAMES.c.deadline <= now()).order_by(GAMES.c.deadline).limit(100))
            return [(game_id, count) for game_id, count in rows]

    def time_out(self, game_id: str, count: int) -> bool:
        """The clock ran out for the decision the game waits for at event ``count``: store
        the seat's ``timeout`` (and ``away`` after too many in a row), and hand the move to
        the computer. False if the game moved on meanwhile, or the clock did not run out
        (another process, or the player, got there first)."""
        with self.cache.lock(game_id), self._transaction() as db:
            loaded = self.cache.load(db, game_id)
            deadline = db.scalar(select(GAMES.c.deadline).where(GAMES.c.id == game_id))
            if loaded.count != count or deadline is None or deadline > now():
                return False
            match = loaded.match
            if match is None or not loaded.table.clock_runs(waiting_for(loaded)):
                self._store(db, game_id, loaded, count, strict=False)  # (its deadline goes)
                return False
            seat = match.pending.seat
            assert seat is not None
            try:
                for event in timeout_events(match, seat, loaded.log(len(loaded.prefix))):
                    loaded.add_table_event(event)
                if not self._store(db, game_id, loaded, count, strict=False):
                    return False
            except Exception:
                self.cache.forget(game_id)
                raise
        self.notify(game_id, waiting_for(loaded), Batch.of(self._state(game_id, loaded, count,
                                                                       [])))
        return True

    def table_action(self, game_id: str, token: str | None, action: str,
                     seat: int | None = None) -> dict[str, Any]:
        """A table action by a seat's token: the host's ``pause``, ``resume``, ``end`` and
        ``hand`` (``seat`` to the computer), or any player's ``back`` (the computer gives
        the token's seat back; nothing if it does not play it). Answers the game's state.

        :raises UnauthorizedError: no token, or an unknown one (401).
        :raises ForbiddenError: a token of another game (403).
        :raises NotTheHostError: a host's action by another seat (403).
        :raises TableStateError: an action that does not fit the game as it is (409).
        """
        tokens = [token] if token else []
        mine = self.seat_of(game_id, tokens)
        with self.cache.lock(game_id), self._transaction() as db:
            loaded = self.cache.load(db, game_id)
            before = loaded.count
            event = self._table_event(loaded, mine, action, seat)
            if event is not None:
                try:
                    loaded.add_table_event(event)
                    self._store(db, game_id, loaded, before)
                except BaseException:
                    self.cache.forget(game_id)
                    raise
        if event is not None:
            self.notify(game_id, waiting_for(loaded),
                        Batch.of(self._state(game_id, loaded, before, [])))
        return self._state(game_id, loaded, 0, tokens)

    def _table_event(self, loaded: LoadedGame, mine: int, action: str, seat: int | None
                     ) -> dict[str, Any] | None:
        """The table event of ``action`` by seat ``mine`` (None: nothing to change)."""
        table, match = loaded.table, loaded.match
        if match is None:
            raise TableStateError(_("the game has not started: it waits for players to "
                                    "join"))
        if match.is_over or table.ended:
            raise TableStateError(_("the game is over"))
        if action == "back":
            return {"type": TableKind.BACK.value, "seat": mine} if mine in table.away \
                else None
        if mine != table.host:
            raise NotTheHostError(_("only the host (the seat that created the game) may do "
                                    "this; this token holds seat {seat}").format(seat=mine))
        if action == "end":
            return {"type": TableKind.END.value}
        if action in ("pause", "resume"):
            if table.clock is None:
                raise TableStateError(_("this game has no turn clock"))
            if table.paused == (action == "pause"):
                raise TableStateError(_("the clock is paused already") if table.paused
                                      else _("the clock is running already"))
            return {"type": action}
        if seat is None or not 0 <= seat < len(loaded.seats):
            raise TableStateError(_("no seat {seat} at this table: seats are 0 to {last}")
                                  .format(seat=seat, last=len(loaded.seats) - 1))
        if loaded.seats[seat].kind is SeatKind.COMPUTER or seat in table.away:
            raise TableStateError(_("the computer plays seat {seat} already").format(
                seat=seat))
        if seat == mine:
            raise TableStateError(_("the host plays their own seat: hand over another one"))
        return {"type": TableKind.AWAY.value, "seat": seat, "reason": "host"}

    # --- plumbing ----------------------------------------------------------------------

    def _holder(self, token: str) -> tuple[str, int] | None:
        """The (game, seat) a token holds, or None."""
        hashed = token_hash(token)
        holder = self.cache.holders.get(hashed)
        if holder is None:
            with self.engine.connect() as db:
                row = db.execute(select(SEATS.c.game_id, SEATS.c.seat)
                                      .where(SEATS.c.token_hash == hashed)).first()
            if row is None:
                return None
            holder = (row.game_id, row.seat)
            self.cache.know(hashed, holder)
        return holder

    def _answer(self, db: Connection, game_id: str, seat: int, key: str) -> str | None:
        return db.scalar(select(ANSWERS.c.body).where(
            ANSWERS.c.game_id == game_id, ANSWERS.c.seat == seat, ANSWERS.c.key == key))

    def _store(self, db: Connection, game_id: str, loaded: LoadedGame, before: int,
               strict: bool = True, answer: tuple[int, str, str] | None = None,
               **fields: Any) -> bool:
        """Store the game's events from ``before`` on (with ``answer``, an Idempotency-Key's,
        and ``fields`` of the game) in the transaction; False, or with ``strict``
        :class:`NotYourTurnError`, if another request stored events first."""
        move, stored = self._move(game_id, loaded, before, answer, **fields)
        if not store_move(db, move):
            self.cache.forget(game_id)
            if not strict:
                return False
            raise NotYourTurnError(_("the game changed while this request was made: "
                                     "load it again and retry"))
        self._stored(game_id, loaded, stored)
        return True

    def _move(self, game_id: str, loaded: LoadedGame, before: int,
              answer: tuple[int, str, str] | None = None, **fields: Any
              ) -> tuple[Move, tuple[str, str]]:
        """What storing the game's events from ``before`` on writes (the game's status and
        who it waits for only when they change, its results when it is over), and its
        status and who it waits for then."""
        match = loaded.match
        over = match is not None and (match.is_over or loaded.table.ended)
        status = "waiting" if match is None else "over" if over else "playing"
        stored = (status, waiting_for(loaded))
        if loaded.table.clock is not None:
            fields["deadline"] = _start_clock(loaded)
        if stored != loaded.stored or fields:
            fields = {"status": status, "waiting_for": stored[1], **fields}
        results = game_results(match) if match is not None and match.is_over else []
        return Move(game_id, before, loaded.log(before), fields, answer, results), stored

    def _stored(self, game_id: str, loaded: LoadedGame, stored: tuple[str, str]) -> None:
        """The game's move is stored: a finished game leaves memory (and is read from the
        database if asked for again)."""
        loaded.stored = stored
        if stored[0] == "over":
            self.cache.forget(game_id, lock=True)

    def _state(self, game_id: str, loaded: LoadedGame, since: int,
               tokens: list[str]) -> dict[str, Any]:
        you = sorted({h[1] for h in map(self._holder_cached, tokens)
                      if h is not None and h[0] == game_id})
        return game_view(game_id, loaded, since, you)

    def _holder_cached(self, token: str) -> tuple[str, int] | None:
        return self.cache.holders.get(token_hash(token))


def _start_clock(loaded: LoadedGame) -> datetime | None:
    """Start the turn clock of the decision the game waits for now (None: no clock runs);
    answer its deadline."""
    table = loaded.table
    assert table.clock is not None
    table.deadline = now() + timedelta(seconds=table.clock) \
        if table.clock_runs(waiting_for(loaded)) else None
    return table.deadline


class _CacheStaleError(Exception):
    """The game in memory was behind the database: try again from the database."""


class StaleError(ShutTheBoxError):
    """An action with neither an event number nor an Idempotency-Key (400)."""


_ACTION_WORDS = {PendingKind.ROLL: N_("a roll"), PendingKind.CHOOSE_DICE: N_("a dice choice"),
                 PendingKind.SHUT: N_("tiles to shut"), PendingKind.ROLL_OFF: N_("the roll-off"),
                 PendingKind.OVER: N_("nothing (it is over)")}

