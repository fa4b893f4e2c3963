"""The one way to change a stored game: :meth:`GameChanges.changing`, a unit of work.

Every change to a game (a player's move, a friend's joining, the computer's step, a clock
running out, the host's table actions, a rematch's seats) is made inside it::

    with changes.changing(game_id) as change:
        ...                     # change.loaded, the game as stored, is changed here
    # stored and committed here; the game's watchers are told after the commit

It takes the game's lock in this process (one change at a time per game), opens a
transaction, reads the game (from memory when it is as far on as the database; on
PostgreSQL its row is locked too, so another server process changing the same game
waits), lets the caller change it, stores the new events and what changed of the game's
row, commits, and only then publishes the batch to the live feeds and the other processes.
An error anywhere leaves nothing stored and the game out of memory (it is read again from
the database next time), so the game in memory is never ahead of what is stored.

One way to read a game (:meth:`GameChanges.read`) and one way to create one
(:meth:`GameChanges.create`) sit beside it.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import select
from sqlalchemy.engine import Connection, Engine

from shutthebox.errors import ShutTheBoxError
from shutthebox.language import _
from shutthebox.web.play.memory import GameCache, LoadedGame, waiting_for
from shutthebox.web.play.results import game_results
from shutthebox.web.play.seats import ForbiddenError, UnauthorizedError, token_hash
from shutthebox.web.play.view import Batch, game_view
from shutthebox.web.storage import SEATS, Move, NewGame, Store, event_count, now, store_for

T = TypeVar("T")

Publish = Callable[[str, str, Batch | None], None]
"""A listener of :class:`News`, told after a commit that stored events: (game id, who acts
next, the batch stored, when it is at hand)."""


class News:
    """The stored changes of games, told after their commits to whoever listens (the live
    feeds, the computer driver): they listen here, so that nothing in this layer calls up
    into theirs."""

    def __init__(self) -> None:
        self._listeners: list[Publish] = []

    def subscribe(self, listener: Publish) -> None:
        self._listeners.append(listener)

    def publish(self, game_id: str, waiting: str, batch: Batch | None) -> None:
        for listener in self._listeners:
            listener(game_id, waiting, batch)


class GameChangedError(ShutTheBoxError):
    """Another server process stored events of the game first (409: load it again)."""


class StaleGameError(GameChangedError):
    """The game in memory was behind the database (another server process changed it):
    :meth:`GameChanges.run` makes the change again on the game read afresh, so that no
    one reads this error (its message is not translated)."""


_AT_HAND: ContextVar[list[bool] | None] = ContextVar("at_hand", default=None)
"""Whether a change may trust the game in memory without asking the database first (in
:meth:`GameChanges.run`, which makes the change again if it was wrong); a list, emptied
at the work's end, so that a task the work starts (copying the context) does not."""


def _trusted() -> bool:
    return bool(_AT_HAND.get())


@dataclass
class Change:
    """A change to one game in the making (see :meth:`GameChanges.changing`): the game as
    read, its event count before, and what storing it writes besides its new events."""

    game_id: str
    connection: Connection
    """The change's connection, as the store's :meth:`~shutthebox.web.storage.Store.writing`
    or :meth:`~shutthebox.web.storage.Store.transaction` gave it."""
    loaded: LoadedGame
    before: int
    store: Store
    fields: dict[str, Any] = field(default_factory=dict)
    """Columns of the game's row to set with the change (its config, say)."""
    answer: tuple[int, str, str] | None = None
    """The answer to an Idempotency-Key (seat, key, body), stored with the change."""
    batch: Batch | None = None
    """What the live feeds are sent (made from the game if the change does not say)."""
    touch: bool = False
    """Store the game's row even if no event was added (its clock's deadline, say)."""

    @property
    def db(self) -> Connection:
        """The connection for what the change reads and writes itself, all in one
        transaction with its events (a change that only adds events leaves it alone, and
        on PostgreSQL is stored in one statement)."""
        self.store.begin(self.connection)
        return self.connection

    @property
    def changed(self) -> bool:
        return self.loaded.count != self.before or bool(self.fields) or self.touch


class GameChanges:
    """Reads, creates and changes a server process's stored games, each change one unit
    of work (:meth:`changing`), each published on :attr:`news` after its commit."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.news = News()
        self.memory = GameCache()
        self.dice = random.SystemRandom()
        """The server's dice: the operating system's secure source."""
        self.store = store_for(engine)
        self._turns: dict[str, tuple[asyncio.Lock, list[int]]] = {}

    async def run(self, game_id: str | None, function: Callable[..., T], /,
                  *arguments: Any) -> T:
        """``function(*arguments)``, a request's work on the game ``game_id`` (None: on
        no game yet), run by the store (:meth:`~shutthebox.web.storage.Store.run`). Where
        the store lets requests' work interleave on the event loop, the work on one game
        takes its turn here, so that the game in memory is changed or read by one at a
        time (the lock of :meth:`changing` keeps threads apart, not work on one thread)."""
        if game_id is None:
            return await self.store.run(function, *arguments)
        if not self.store.interleaves:
            return await self._run_at_hand(game_id, function, arguments)
        lock, users = self._turns.setdefault(game_id, (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            async with lock:
                return await self._run_at_hand(game_id, function, arguments)
        finally:
            users[0] -= 1
            if not users[0]:
                del self._turns[game_id]

    async def _run_at_hand(self, game_id: str, function: Callable[..., T],
                           arguments: tuple[Any, ...]) -> T:
        """Run the work trusting the game in memory; if it was behind the database, again
        on the game as stored."""
        try:
            return await self.store.run(_at_hand, function, arguments)
        except StaleGameError:
            self.memory.forget(game_id)
            return await self.store.run(function, *arguments)

    async def aclose(self) -> None:
        """Give back all the store holds of the database."""
        await self.store.aclose()

    def close(self) -> None:
        """Give back what the store holds of the database (SQLite's writing connection,
        after a last checkpoint)."""
        self.store.close()

    def transaction(self) -> AbstractContextManager[Connection]:
        """One write transaction, committed at the end (rolled back on an error)."""
        return self.store.transaction()

    @contextmanager
    def changing(self, game_id: str) -> Iterator[Change]:
        """The unit of work of a change to the game (see the module's description).

        :raises GameNotFoundError: no game has this id.
        :raises GameChangedError: another server process stored events of the game first.
        :raises sqlalchemy.exc.DBAPIError: the database is not answering.
        """
        with self.memory.lock(game_id):
            change: Change | None = None
            # In memory and trusted (see run): no question to the database before the
            # change, whose storing checks the game's event count anyway.
            at_hand = self.memory.at_hand(game_id) if _trusted() else None
            try:
                with self.store.writing() if at_hand else self.transaction() as db:
                    loaded = at_hand or self.memory.load(db, game_id, for_update=True)
                    change = Change(game_id, db, loaded, loaded.count, self.store)
                    yield change
                    if change.changed:
                        self._store(change)
            except ShutTheBoxError as error:
                if change is not None and change.loaded.count != change.before:
                    self.memory.forget(game_id)     # ahead of the database
                if at_hand is not None and not isinstance(error, StaleGameError) \
                        and change is not None and self._behind(game_id, change.before):
                    self.memory.forget(game_id)     # refused on a game behind the stored
                    raise StaleGameError("the game in memory was behind") from error
                raise                               # (a refusal leaves the game as it was)
            except BaseException:
                self.memory.forget(game_id)         # perhaps ahead of the database
                raise
            if not change.changed:
                return
            waiting = loaded.stored[1] if loaded.stored else waiting_for(loaded)
            if loaded.stored and loaded.stored[0] == "over":
                self.memory.forget(game_id)
        batch = change.batch or Batch.of(game_view(game_id, loaded, change.before, []))
        self.news.publish(game_id, waiting, batch)

    def _behind(self, game_id: str, count: int) -> bool:
        """Whether the database holds other than ``count`` events of the game."""
        with self.store.connect() as db:
            return event_count(db, game_id) != count

    def read(self, game_id: str) -> LoadedGame:
        """The game as stored (from memory when it is up to date): the one way to read a
        game. Not while a change to it is being made in this process.

        :raises GameNotFoundError: no game has this id.
        """
        with self.memory.lock(game_id), self.store.connect() as db:
            return self.memory.load(db, game_id)

    def create(self, game: NewGame, loaded: LoadedGame, tokens: dict[int, str]) -> None:
        """Store a new game, keep it in memory and its seats' tokens at hand, and tell.

        :raises sqlalchemy.exc.IntegrityError: a game of that id, or a token or invite, is
            stored already.
        """
        with self.store.writing() as db:
            self.store.store_new_game(db, game)
        self.created(game, loaded, tokens)

    def created(self, game: NewGame, loaded: LoadedGame, tokens: dict[int, str]) -> None:
        """A new game is stored (by :meth:`create`, or with a rematch's series): keep it in
        memory and its seats' tokens at hand, and tell."""
        loaded.stored = (game.status, game.waiting)
        self.memory.remember(game.game_id, loaded)
        for seat, token in tokens.items():
            self.memory.know(token_hash(token), (game.game_id, seat))
        self.news.publish(game.game_id, waiting_for(loaded), None)

    def holder(self, token: str) -> tuple[str, int] | None:
        """The (game, seat) a token holds, or None."""
        hashed = token_hash(token)
        holder = self.memory.holder(hashed)
        if holder is None:
            with self.store.connect() as db:
                row = db.execute(select(SEATS.c.game_id, SEATS.c.seat)
                                 .where(SEATS.c.token_hash == hashed)).first()
            if row is None:
                return None
            holder = (row.game_id, row.seat)
            self.memory.know(hashed, holder)
        return holder

    def seat_of(self, game_id: str, tokens: list[str]) -> int:
        """The seat of this game that one of the tokens holds.

        :raises UnauthorizedError: no token, or one that holds no seat (401).
        :raises ForbiddenError: a token of another game's seat (403).
        """
        if not tokens:
            raise UnauthorizedError(_("send a seat token of this game (Authorization: "
                                      "Bearer <token>)"))
        holders = [self.holder(t) for t in tokens]
        for holder in holders:
            if holder is not None and holder[0] == game_id:
                return holder[1]
        if any(holders):
            raise ForbiddenError(_("this token holds a seat in another game, not this "
                                   "one"))
        raise UnauthorizedError(_("unknown seat token: it holds no seat"))

    def _store(self, change: Change) -> None:
        """Store the change's new events and what changed of the game's row (its status
        and who it waits for only when they change; its results when it is over).

        :raises GameChangedError: another process stored events of the game first.
        """
        loaded = change.loaded
        match = loaded.match
        status = "waiting" if match is None else "over" if loaded.over else "playing"
        stored = (status, waiting_for(loaded))
        fields = dict(change.fields)
        if loaded.table.clock is not None:
            fields["deadline"] = start_clock(loaded)
        if stored != loaded.stored or fields:
            fields = {"status": status, "waiting_for": stored[1], **fields}
        results = game_results(match) if match is not None and match.is_over else []
        move = Move(change.game_id, change.before, loaded.log(change.before), fields,
                    change.answer, results)
        if not self.store.store_move(change.connection, move):
            if _trusted():
                raise StaleGameError("the game in memory was behind")
            raise GameChangedError(_("the game changed while this request was made: load "
                                     "it again and retry"))
        loaded.stored = stored


def start_clock(loaded: LoadedGame) -> datetime | None:
    """Start the turn clock of the decision the game waits for now (None: no clock runs);
    answer its deadline."""
    table = loaded.table
    assert table.clock is not None
    table.deadline = now() + timedelta(seconds=table.clock) \
        if table.clock_runs(waiting_for(loaded)) else None
    return table.deadline


def _at_hand(function: Callable[..., T], arguments: tuple[Any, ...]) -> T:
    """``function(*arguments)``, its changes trusting the games in memory."""
    flag = [True]
    trusted = _AT_HAND.set(flag)
    try:
        return function(*arguments)
    finally:
        flag.clear()
        _AT_HAND.reset(trusted)
