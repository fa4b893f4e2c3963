"""The games a server process holds in memory, with a lock each, and the seat tokens it knows.

A game is read from its stored log once and kept while it is played: a request checks the
game's event number in the database (one small query) and uses the game in memory if it is
up to date, takes the new events if another process moved it on, or reads it all again.
Both the games and the tokens are bounded: a server that kept every game it ever served
would grow without end, and so would the garbage collector's pauses.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from shutthebox.errors import LogError, ShutTheBoxError
from shutthebox.language import _
from shutthebox.match import (
    LOG_VERSION,
    TABLE_EVENTS,
    Event,
    Match,
    PendingKind,
    advance,
    replay,
)
from shutthebox.web.play.seats import Seat, SeatKind
from shutthebox.web.play.table import TableState, merge, table_of
from shutthebox.web.storage import GAMES, SEATS, event_count, load_events

GAMES_IN_MEMORY = 20_000
"""Games a process keeps in memory: the least recently played go first (a game being played
stays; one let go is read from the database again if asked for)."""
GAME_IDLE = 15 * 60
"""Seconds a game may go untouched (no move, no look) before the process lets it go: a game
started and left would otherwise stay until :data:`GAMES_IN_MEMORY` others pushed it out,
and every full pass of the garbage collector scans the objects of every game kept (the
manual's deploying page gives the figures). A game let go is read again when asked for."""
HOLDERS_IN_MEMORY = 100_000
"""Seat tokens whose game and seat a process keeps at hand (the oldest go first; a token
not at hand is looked up in the database)."""
SEAT_EVENTS = ("seats", "join")
"""Event types of the web layer's seats; the match's own events follow them, with the
table's (:mod:`shutthebox.web.play.table`) between them."""


class GameNotFoundError(ShutTheBoxError):
    """No game has this id."""


@dataclass
class LoadedGame:
    """A game in memory: its seats, its seat events, once started its match, and its
    table (its events, each with its number in the log, and what they make of it)."""

    config: dict[str, Any]
    seats: list[Seat]
    prefix: list[dict[str, Any]]
    match: Match | None
    pace: str = "watch"
    stored: tuple[str, str] | None = None
    """The status and who the game waits for as stored (None: not known here)."""
    table: TableState = field(default_factory=TableState)
    table_events: list[tuple[int, Event]] = field(default_factory=list)
    words: dict[str, Any] = field(default_factory=dict, repr=False)
    """The view's words of the game that its moves leave as they are, by language
    (:mod:`shutthebox.web.play.view`): every answer to a move carries them."""

    @property
    def over(self) -> bool:
        """Whether the game is over: its match ended, or its host ended it."""
        return self.match is not None and (self.match.is_over or self.table.ended)

    @property
    def count(self) -> int:
        return len(self.prefix) + len(self.table_events) + (
            len(self.match.events) if self.match else 0)

    def log(self, since: int = 0) -> list[dict[str, Any]]:
        return merge(self.prefix, self.match.events if self.match else [],
                     self.table_events, since)

    def add_table_event(self, event: Event) -> None:
        """Append a table event to the game's log, and take it."""
        self.table_events.append((self.count, event))
        self.table.apply(event)

    def extend(self, news: list[Event]) -> None:
        """Take the events another process stored after the game's (the match must have
        started).

        :raises LogError: events the match cannot take.
        """
        assert self.match is not None
        moves = [e for e in news if e["type"] not in TABLE_EVENTS]
        if len(moves) != len(news):
            start = self.count
            for offset, event in enumerate(news):
                if event["type"] in TABLE_EVENTS:
                    self.table_events.append((start + offset, event))
        advance(self.match, self.match.events + moves)
        for event in news:
            self.table.apply(event)

    def match_log(self) -> dict[str, Any]:
        assert self.match is not None
        return {"version": LOG_VERSION, **self.match.config.to_dict(),
                "events": self.match.events}


def waiting_for(loaded: LoadedGame) -> str:
    """Who acts next: ``join``, ``human``, ``server`` or ``nobody``."""
    match = loaded.match
    if match is None:
        return "join"
    if match.is_over:
        return "nobody"
    if loaded.table.ended:
        return "nobody"
    pending = match.pending
    if pending.kind is PendingKind.ROLL_OFF:
        return "server"
    assert pending.seat is not None
    return "server" if loaded.seats[pending.seat].kind is SeatKind.COMPUTER \
        or loaded.table.plays(pending.seat) else "human"


def read_game(db: Connection, game_id: str) -> LoadedGame:
    """The game as stored, rebuilt from its log (which must exist)."""
    row = db.execute(select(GAMES.c.config, GAMES.c.deadline)
                     .where(GAMES.c.id == game_id)).one()
    events = load_events(db, game_id)
    seats = [Seat(r.seat, SeatKind(r.kind), r.name, r.computer, r.joined is not None)
             for r in db.execute(select(SEATS).where(SEATS.c.game_id == game_id)
                                      .order_by(SEATS.c.seat))]
    start = next((i for i, e in enumerate(events) if e["type"] not in SEAT_EVENTS),
                 len(events))
    prefix, rest = events[:start], events[start:]
    pace = prefix[0].get("pace", "watch") if prefix else "watch"
    moves = [e for e in rest if e["type"] not in TABLE_EVENTS]
    match = replay({"version": LOG_VERSION, **row.config, "events": moves}) if moves else None
    table = table_of(prefix, rest)
    table.deadline = row.deadline
    return LoadedGame(dict(row.config), seats, prefix, match, pace, table=table,
                      table_events=[(start + i, e) for i, e in enumerate(rest)
                                    if e["type"] in TABLE_EVENTS])


class HeldLock:
    """A game's lock and how many threads hold it or wait for it."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.users = 0


class GameCache:
    """Games in memory by id (at most :data:`GAMES_IN_MEMORY`, the least recently used go
    first, and none untouched for :data:`GAME_IDLE`), a lock per game in use, and the (game,
    seat) of seat tokens by their hash (at most :data:`HOLDERS_IN_MEMORY`, the least
    recently used go first). ``clock`` gives the seconds the idle time is counted in."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.games: OrderedDict[str, LoadedGame] = OrderedDict()
        self.used_at: dict[str, float] = {}
        """When each game in memory was last used (by :attr:`clock`)."""
        self.holders: OrderedDict[str, tuple[str, int]] = OrderedDict()
        self.locks: dict[str, HeldLock] = {}
        """The locks of the games some thread holds or waits for (no more: a lock kept
        for every id asked about would grow with every unknown id a stranger sends)."""
        self._guard = threading.Lock()

    @contextmanager
    def lock(self, game_id: str) -> Iterator[None]:
        """Hold the game's lock: one thread at a time changes or reads a game in memory
        (a thread may take it again inside)."""
        with self._guard:
            held = self.locks.get(game_id)
            if held is None:
                held = self.locks[game_id] = HeldLock()
            held.users += 1
        try:
            with held.lock:
                yield
        finally:
            with self._guard:
                held.users -= 1
                if not held.users:
                    del self.locks[game_id]

    def load(self, db: Connection, game_id: str, for_update: bool = False) -> LoadedGame:
        """The game: from memory if it is up to date with the database (one small query),
        else rebuilt from the stored log. ``for_update``: its row locked until the
        transaction ends (see :func:`~shutthebox.web.storage.event_count`).

        :raises GameNotFoundError: no game has this id.
        """
        count = event_count(db, game_id, for_update)
        if count is None:
            raise GameNotFoundError(_("no game {game_id!r}: check the link").format(
                                      game_id=game_id))
        cached = self.games.get(game_id)
        if cached is not None and cached.count == count:
            self._used_game(game_id)
            return cached
        if cached is not None and cached.match is not None and cached.count < count:
            with self.lock(game_id):        # another process moved it on: the new events
                try:
                    start = cached.count
                    if start == count:      # moved on here meanwhile
                        return cached
                    new = load_events(db, game_id, start)
                    if len(new) == count - start:
                        cached.extend(new)
                        cached.stored = None
                        if cached.over:     # (finished by the other process: let go)
                            self.forget(game_id)
                        if cached.table.clock is not None:
                            cached.table.deadline = db.scalar(select(GAMES.c.deadline).where(
                                GAMES.c.id == game_id))
                        return cached
                except LogError:
                    pass
                self.forget(game_id)                # not as expected: read it all
        loaded = read_game(db, game_id)
        self.remember(game_id, loaded)
        return loaded

    def at_hand(self, game_id: str) -> LoadedGame | None:
        """The game if it is in memory, as it is there (not checked against the database),
        counted as used."""
        found = self.games.get(game_id)
        if found is not None:
            self._used_game(game_id)
        return found

    def remember(self, game_id: str, loaded: LoadedGame) -> None:
        """Keep the game in memory (games being played: finished games are let go).

        A finished game read again (its page, its live feed, its review) is not kept:
        kept, the games friends look back at would fill memory up to
        :data:`GAMES_IN_MEMORY`, and every full pass of the garbage collector scans all
        their objects while every answer waits (the manual's deploying page gives the
        figures)."""
        if loaded.over:
            self.forget(game_id)
            return
        now = self.clock()
        with self._guard:
            self.used_at[game_id] = now
            gone = _keep(self.games, game_id, loaded, GAMES_IN_MEMORY)
            # The least recently used come first: those idle too long go with them.
            for oldest in self.games:
                if now - self.used_at.get(oldest, now) < GAME_IDLE:
                    break
                gone.append(oldest)
            for oldest in gone:
                self.games.pop(oldest, None)
                self.used_at.pop(oldest, None)

    def forget(self, game_id: str) -> None:
        """Let the game go (it is read from the database if asked for again)."""
        self.games.pop(game_id, None)
        self.used_at.pop(game_id, None)

    def forget_game(self, loaded: LoadedGame) -> None:
        """Let this game go, whatever id it is kept under."""
        for game_id in [k for k, v in self.games.items() if v is loaded]:
            self.forget(game_id)

    def holder(self, hashed: str) -> tuple[str, int] | None:
        """The (game, seat) of a token's hash, if at hand."""
        found = self.holders.get(hashed)
        if found is not None:
            self._used(self.holders, hashed)
        return found

    def _used_game(self, game_id: str) -> None:
        with self._guard:
            if game_id in self.games:
                self.games.move_to_end(game_id)
                self.used_at[game_id] = self.clock()

    def _used(self, kept: OrderedDict[str, Any], key: str) -> None:
        with self._guard:
            if key in kept:
                kept.move_to_end(key)

    def know(self, hashed: str, holder: tuple[str, int]) -> None:
        """Keep a token's (game, seat) at hand by the token's hash."""
        with self._guard:
            _keep(self.holders, hashed, holder, HOLDERS_IN_MEMORY)


def _keep(kept: OrderedDict[str, Any], key: str, value: Any, most: int) -> list[str]:
    """Put ``key`` in ``kept`` as the most recently used; ``kept`` holds at most ``most``
    (the least recently used go first); answer the keys let go."""
    kept[key] = value
    kept.move_to_end(key)
    gone = []
    while len(kept) > most:
        oldest, _value = kept.popitem(last=False)
        gone.append(oldest)
    return gone
