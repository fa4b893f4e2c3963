"""Live updates: every client watching a game hears of each stored batch of events.

In one server process a commit wakes the game's watchers at once. Across processes sharing
a database: on PostgreSQL each process announces the batches it stored with ``NOTIFY``,
after their commits (:class:`shutthebox.web.storage.Announcer`), and every process
``LISTEN``s; on SQLite (one
machine) each process checks ``PRAGMA data_version`` every 50 ms, which moves whenever
another connection commits, and then asks which of the games it has watchers for have more
events than it knows of (none, when it serves alone). A watcher reads what it missed from
the database, so a wake-up that comes twice, or late, costs nothing and loses nothing.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any
from urllib.parse import parse_qs

from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError
from starlette.concurrency import run_in_threadpool

from shutthebox.errors import ShutTheBoxError
from shutthebox.language import _, current_language
from shutthebox.web.asgi import NO_GAME_CLOSE, Receive, Scope, Send, call_in_loop
from shutthebox.web.bounds import MAX_EVENT
from shutthebox.web.limits import Bucket
from shutthebox.web.live.presence import Presence, hello_tokens
from shutthebox.web.play.memory import GameNotFoundError
from shutthebox.web.play.service import GameService
from shutthebox.web.play.view import Batch
from shutthebox.web.storage import (
    NOTIFY_CHANNEL,
    Announcer,
    News,
    heard,
    heard_table,
    is_postgresql,
    postgresql,
)

log = logging.getLogger(__name__)

POLL_SECONDS = 0.05
PING_SECONDS = 20.0
GAME_OVER_CLOSE = 4000
"""The close code of a feed whose game is over: its last state was sent, nothing follows."""
DATABASE_AWAY_CLOSE = 1013
BAD_REQUEST_CLOSE = 1008
LINGER_SECONDS = 600.0
"""How long a feed opened with ``table=1`` stays open once its game is over, for what is
said at the table after it (reactions, the rematch)."""
Speaker = Callable[[dict[str, Any]], str]
"""Makes the live message (JSON text) of something said at a table from its data, in the
language of the feed that sends it."""
PRESENCE_SECONDS = 1.0
"""How long a game's presence news waits, from its first change, to be told as one
(:meth:`shutthebox.web.live.presence.Presence.settle`)."""
FEED_MESSAGES = 1.0
"""Messages a second a live feed takes from its client, on average after a burst of
:data:`FEED_BURST` (a page sends one, its hello); the connection of a client that sends
more is closed at once, where a feed flooded with 50,000 a second was read for ever."""
FEED_BURST = 10.0
TOLD_KEPT = 16
"""Messages told a game's table (:meth:`LiveHub.tell`) kept for watchers that are busy
sending: one further behind misses the oldest (they are not part of the game)."""


class LiveHub:
    """Who watches which game, and the listener that hears other processes' commits."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._watchers: dict[str, set[asyncio.Event]] = {}
        self._counts: dict[str, int] = {}
        self._latest: dict[str, Batch] = {}
        """Per watched game: the last batch this process stored."""
        self._progress: dict[str, float] = {}
        self._told: dict[str, collections.deque[
            tuple[int, str, dict[str, Any], dict[str, str]]]] = {}
        self._told_count = 0
        self.presence = Presence()
        """The seats whose players have the game open (in this process)."""
        self.speakers: dict[str, Speaker] = {}
        """What is said at a table, by kind (see :meth:`tell`)."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._listener: asyncio.Task[None] | None = None
        self._announcer: Announcer | None = None
        self._settling: dict[str, asyncio.TimerHandle] = {}
        """The games whose presence news waits to be told (see :meth:`seats_changed`)."""
        self._announced: dict[str, list[int]] = {}
        """Per game, the seats present here as last announced to the other processes."""

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        if is_postgresql(self.engine):
            self._announcer = Announcer(self.engine)
        listen = self._listen_postgresql if is_postgresql(self.engine) else self._poll_sqlite
        self._listener = asyncio.create_task(listen())

    async def stop(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(BaseException):
                await self._listener
        if self._announcer is not None:
            await self._announcer.close()

    def watch(self, game_id: str) -> asyncio.Event:
        """An event set whenever the game may have new events."""
        wake = asyncio.Event()
        self._watchers.setdefault(game_id, set()).add(wake)
        return wake

    def unwatch(self, game_id: str, wake: asyncio.Event) -> None:
        watchers = self._watchers.get(game_id)
        if watchers is not None:
            watchers.discard(wake)
            if not watchers:
                del self._watchers[game_id]
                self._counts.pop(game_id, None)
                self._latest.pop(game_id, None)
                self._progress.pop(game_id, None)
                self._told.pop(game_id, None)
                self.presence.forget(game_id)

    def seats_changed(self, game_id: str) -> None:
        """The seats present at the game may have changed (a feed of this process, or
        another process's announcement): in :data:`PRESENCE_SECONDS`, tell its watchers
        and, on PostgreSQL, the other processes what changed meanwhile, once (from the
        event loop)."""
        if game_id not in self._settling:
            loop = self._loop or asyncio.get_running_loop()
            self._settling[game_id] = loop.call_later(PRESENCE_SECONDS, self._settle,
                                                      game_id)

    def _settle(self, game_id: str) -> None:
        del self._settling[game_id]
        if game_id in self._watchers and self.presence.settle(game_id):
            self.wake_all(game_id)
        here = self.presence.here(game_id)
        if self._announcer is not None and here != self._announced.get(game_id, []):
            self._announcer.tell_table(game_id, "presence", {
                "process": postgresql.PROCESS, "seats": here})
        if here:
            self._announced[game_id] = here
        else:
            self._announced.pop(game_id, None)

    def wake_all(self, game_id: str) -> None:
        """Wake the game's feeds (for news that is no batch of events: who is present)."""
        for wake in self._watchers.get(game_id, ()):
            wake.set()

    def watching(self, game_id: str) -> int:
        """How many clients of this process watch the game."""
        return len(self._watchers.get(game_id, ()))

    def batch_after(self, game_id: str, sent: int) -> Batch | None:
        """The batch that follows a watcher's ``sent`` events, if this process stored it
        (no database read then)."""
        latest = self._latest.get(game_id)
        if latest is None or latest.since != sent:
            return None
        return latest

    def progress(self, game_id: str, fraction: float) -> None:
        """Tell the game's watchers how far the server's long solve for it is (from the
        event loop)."""
        if game_id in self._watchers:
            self._progress[game_id] = fraction
            for wake in self._watchers[game_id]:
                wake.set()

    def take_progress(self, game_id: str) -> str | None:
        """The progress message for the game's watchers, if there is news."""
        fraction = self._progress.get(game_id)
        if fraction is None:
            return None
        return json.dumps({"type": "progress", "fraction": round(fraction, 3),
                           "what": _("Working out the exact match tables for these rules "
                                     "(only the first time)")})

    def tell(self, game_id: str, kind: str, data: dict[str, Any]) -> None:
        """Tell the game's watchers, in every process, something said at the table that is
        no part of the game (a reaction, a rematch: ``kind``, a key of :attr:`speakers`),
        from the event loop. Each feed says it in its reader's language (made once for each
        language its watchers speak)."""
        self._tell_here(game_id, kind, data)
        if self._announcer is not None:
            self._announcer.tell_table(game_id, kind, data)

    def _tell_here(self, game_id: str, kind: str, data: dict[str, Any]) -> None:
        watchers = self._watchers.get(game_id)
        if not watchers or kind not in self.speakers:
            return
        self._told_count += 1
        told = self._told.get(game_id)
        if told is None:
            told = self._told[game_id] = collections.deque(maxlen=TOLD_KEPT)
        told.append((self._told_count, kind, data, {}))
        for wake in watchers:
            wake.set()

    def told_after(self, game_id: str, mark: int) -> tuple[int, list[str]]:
        """The messages told the game after ``mark`` (0: none yet), as JSON texts in the
        language of the caller's context, and the new mark."""
        told = self._told.get(game_id)
        if not told or told[-1][0] <= mark:
            return mark, []
        language = current_language()
        said = []
        for number, kind, data, spoken in told:
            if number > mark:
                if language not in spoken:
                    spoken[language] = self.speakers[kind](data)
                said.append(spoken[language])
        return told[-1][0], said

    def told_mark(self) -> int:
        """A mark after every message told so far (a new watcher hears what follows)."""
        return self._told_count

    def publish(self, game_id: str, batch: Batch | None = None) -> None:
        """Wake the game's watchers (from any thread), with the batch just stored when it
        is at hand, and tell the other processes on PostgreSQL."""
        if self._loop is not None:
            call_in_loop(self._loop, self._stored, game_id, batch)

    def _stored(self, game_id: str, batch: Batch | None) -> None:
        self._wake(game_id, batch)
        if self._announcer is not None:
            self._announcer.tell(News(game_id, None) if batch is None else News(
                game_id, batch.count, batch.since, batch.over, batch.message))

    def known_count(self, game_id: str) -> int | None:
        """The game's event count as this process last heard it (None if unknown)."""
        return self._counts.get(game_id)

    def _wake(self, game_id: str, batch: Batch | None = None,
              count: int | None = None) -> None:
        if game_id not in self._watchers:
            return
        if batch is not None:
            count = batch.count
        if count is not None:
            if count <= self._counts.get(game_id, -1):
                return                  # nothing new: heard of already
            self._counts[game_id] = count
        if batch is not None:
            self._latest[game_id] = batch
            self._progress.pop(game_id, None)    # the long solve is over
        for wake in self._watchers.get(game_id, ()):
            wake.set()

    # --- other processes' commits ------------------------------------------------------

    async def _poll_sqlite(self) -> None:
        """Wake the watched games whose event counts another process moved on."""
        version: list[object] = [None]

        def changed(connection: Connection, known: dict[str, int]) -> Sequence[Any]:
            try:
                now = connection.execute(text("PRAGMA data_version")).scalar()
                if now == version[0]:
                    return []
                version[0] = now
                return moved_on(connection, known)
            finally:
                connection.rollback()

        with self.engine.connect() as connection:
            while True:
                await asyncio.sleep(POLL_SECONDS)
                if not self._watchers:
                    continue
                try:
                    self._compare(await run_in_threadpool(changed, connection,
                                                          self._known()))
                except Exception:       # a locked or busy file: look again next time
                    log.debug("live poll failed", exc_info=True)

    def _known(self) -> dict[str, int]:
        """The watched games and their event counts as this process knows them (-1: not
        yet)."""
        counts = self._counts
        return {game_id: counts.get(game_id, -1) for game_id in self._watchers}

    def _compare(self, rows: Sequence[Any]) -> None:
        for game_id, count in rows:
            self._wake(game_id, count=count)

    async def _listen_postgresql(self) -> None:
        """LISTEN on the channel; after a lost connection, listen again and wake everyone
        (they read what they missed)."""
        import psycopg

        url = self.engine.url.set(drivername="postgresql").render_as_string(
            hide_password=False)
        delay = 0.2
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    delay = 0.2
                    for game_id in list(self._watchers):
                        self._wake(game_id)
                    async for notice in conn.notifies():
                        for news in heard(notice.payload):
                            self._wake(news.game_id, _batch(news), news.until)
                        for game_id, kind, data in heard_table(notice.payload):
                            if kind == "presence":
                                self.presence.heard(game_id, str(data.get("process")),
                                                    data.get("seats"))
                                self.seats_changed(game_id)
                            else:
                                self._tell_here(game_id, kind, data)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.debug("live listener lost its connection", exc_info=True)
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)


def _batch(news: News) -> Batch | None:
    """The batch another process stored, when its announcement carries its message."""
    if news.message is None or news.since is None or news.until is None:
        return None
    return Batch(news.since, news.until, news.message, news.over)


def moved_on(connection: Connection, known: dict[str, int]) -> Sequence[Any]:
    """(id, event count) of the games in ``known`` that have more events stored than it
    says (on SQLite).

    One statement whatever the number of games (the games and counts as one JSON object),
    so that nothing is compiled anew 20 times a second; a process that serves alone knows
    its own moves, so nothing comes back to it.
    """
    return connection.exec_driver_sql(
        "SELECT games.id, games.event_count FROM json_each(?) AS known "
        "JOIN games ON games.id = known.key WHERE games.event_count > known.value",
        (json.dumps(known),)).all()


class LiveFeed:
    """The WebSocket ``/api/games/{id}/live?since=N``, a plain ASGI endpoint (the feed is
    opened once per watcher and game, and speaks in a few fixed messages: no routing, no
    validation models): a ``state`` message with the events from ``since``, then one
    whenever more are stored, a ``progress`` message while the server's long solve for the
    game runs, what is told at the table (:meth:`LiveHub.tell`: reactions, the rematch),
    and a ``ping`` after 20 quiet seconds. A client that leaves is let go at once; once the
    game is over and its last state sent, the feed is closed with :data:`GAME_OVER_CLOSE`
    (with ``table=1``, :data:`LINGER_SECONDS` later, for what is said after the game). An
    unknown game is refused with :data:`NO_GAME_CLOSE`. With ``table=1`` a feed also says
    who is at the table (:mod:`shutthebox.web.live.presence`): a ``presence`` message after the
    first state and at each arrival and departure; the page's hello (its seats' tokens)
    makes its seats present, and gives back a seat the computer played while it was away.
    Its database work runs through :meth:`GameService.run`."""

    def __init__(self, service: GameService, hub: LiveHub) -> None:
        self.service = service
        self.hub = hub

    async def __call__(self, scope: Scope, receive: Receive, send: Send, game_id: str
                       ) -> None:
        if (await receive())["type"] != "websocket.connect":
            return
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        since_text = query.get("since", ["0"])[0]
        if not since_text.isdigit() or len(since_text) > 10:
            await _refuse(send, BAD_REQUEST_CLOSE, f"since must be an event number, not "
                          f"{since_text[:20]!r}")
            return
        since = min(int(since_text), MAX_EVENT)
        linger = query.get("table") == ["1"]
        try:
            state = await self.service.run(game_id, self.service.state, game_id, since)
        except GameNotFoundError as exc:
            await _refuse(send, NO_GAME_CLOSE, str(exc))
            return
        except DBAPIError:
            await _refuse(send, DATABASE_AWAY_CLOSE, "the database is not answering")
            return
        await send({"type": "websocket.accept"})
        wake = self.hub.watch(game_id)
        gone = asyncio.Event()
        held: list[int] = []
        """The seats this feed's page holds (present while it is open)."""

        greeted: list[bool] = []

        async def hello(message: str) -> None:
            tokens = [] if greeted else hello_tokens(message)
            if not tokens:
                return
            greeted.append(True)        # one hello a feed: its tokens are looked up once
            seats = await self._hello(game_id, state, tokens)
            self.hub.presence.arrive(game_id, seats)
            held.extend(seats)
            if seats:
                self.hub.seats_changed(game_id)

        reader = asyncio.create_task(_until_disconnect(receive, gone, wake, hello))
        try:
            await self._follow(send, game_id, state, wake, gone, linger)
            # A feed that floods ends here without a close frame: uvicorn then closes its
            # connection at once, where after a close frame it would read on (and parse
            # what it drops) for seconds, waiting for the client's own close.
        except OSError:             # the client went away while a message was sent
            pass
        except RuntimeError as error:   # ... or had closed it: uvicorn refuses a send after
            if "Unexpected ASGI message" not in str(error):  # a close with this error
                raise
        finally:
            reader.cancel()
            self.hub.presence.leave(game_id, held)
            if held:
                self.hub.seats_changed(game_id)
            self.hub.unwatch(game_id, wake)

    async def _hello(self, game_id: str, state: dict[str, Any], tokens: list[str]
                     ) -> list[int]:
        """The seats of the game a page's tokens hold; a seat among them that the computer
        plays while its player was away is theirs again."""
        service = self.service
        held: list[int] = []
        for token in tokens:
            try:
                seat = await service.run(game_id, service.seat_of, game_id, [token])
            except (ShutTheBoxError, DBAPIError):
                continue                # not a seat of this game: a watcher, then
            if seat not in held:
                held.append(seat)
            if seat in state.get("table", {}).get("away", ()):
                with contextlib.suppress(ShutTheBoxError, DBAPIError):
                    await service.run(game_id, service.table_action, game_id, token,
                                      "back")
        return held

    async def _follow(self, send: Send, game_id: str, state: dict[str, Any],
                      wake: asyncio.Event, gone: asyncio.Event, linger: bool = False
                      ) -> None:
        quiet = _QuietTimer(asyncio.get_running_loop(), PING_SECONDS, wake)

        async def text(message: str) -> None:
            await send({"type": "websocket.send", "text": message})
            quiet.sent()

        try:
            closing = await self._news(text, game_id, state, wake, gone, quiet, linger)
        finally:
            quiet.cancel()
        if closing is not None:
            await _close(send, *closing)

    async def _news(self, text: Callable[[str], Awaitable[None]], game_id: str,
                    state: dict[str, Any], wake: asyncio.Event, gone: asyncio.Event,
                    quiet: _QuietTimer, linger: bool = False) -> tuple[int, str] | None:
        """Send the game's news until it is over (and with ``linger``, for
        :data:`LINGER_SECONDS` more) or the client leaves; answer the close code and reason
        to end the feed with (None: the client has gone)."""
        hub, service = self.hub, self.service
        language = current_language()       # the watcher's (the feed's request's)
        first = Batch.of(state)
        mark = hub.told_mark()
        presence = hub.presence
        here = presence.mark()
        await text(first.message)
        if linger:                      # (the table's talk: who is at it too)
            await text(presence.message(game_id, []))
        sent, over = first.count, first.over
        told: str | None = None
        until = None
        while not over or linger:
            if over:
                now = quiet.loop.time()
                until = now + LINGER_SECONDS if until is None else until
                if now >= until:
                    break
            await wake.wait()
            wake.clear()
            if gone.is_set():
                return None
            if quiet.take_due():
                await text('{"type": "ping"}')
            news = hub.take_progress(game_id)
            if news is not None and news != told:
                await text(news)
                told = news
            mark, said = hub.told_after(game_id, mark)
            for message in said:
                await text(message)
            here, changes = presence.after(game_id, here) if linger else (here, [])
            for change in changes:      # (the names as they are now: friends join)
                await text(presence.message(game_id, service.names(game_id, state),
                                            change))
            if over:
                continue
            batch = hub.batch_after(game_id, sent)   # as this process stored it, if it did
            stored = batch
            if batch is not None and batch.language != language:
                batch = batch.spoken.get(language)
            if batch is None:
                known = hub.known_count(game_id)
                if known is not None and known <= sent:
                    continue            # nothing this watcher has not had
                # Another language's batch, or behind by more than a batch: the game read
                # as every reader reads it (from memory when it is up to date).
                try:
                    found = await service.run(game_id, service.state, game_id, sent)
                except DBAPIError:
                    return DATABASE_AWAY_CLOSE, "the database is not answering"
                if found["event_count"] <= sent:
                    continue
                batch = Batch.of(found)
                if stored is not None and stored.count == batch.count:
                    stored.spoken[language] = batch     # (for the language's other watchers)
            await text(batch.message)
            sent, over = batch.count, batch.over
        return GAME_OVER_CLOSE, "the game is over"


class _QuietTimer:
    """Wakes a feed once it has sent nothing for ``seconds`` (it then sends a ping): one
    timer per feed, set again from the last message sent, where a timeout around each wait
    would make and cancel a timer for every move."""

    def __init__(self, loop: asyncio.AbstractEventLoop, seconds: float, wake: asyncio.Event
                 ) -> None:
        self.loop, self.seconds, self.wake = loop, seconds, wake
        self.last = loop.time()
        self.due = False
        self._timer = loop.call_at(self.last + seconds, self._check)

    def sent(self) -> None:
        self.last = self.loop.time()

    def take_due(self) -> bool:
        """Whether a ping is due (once)."""
        due, self.due = self.due, False
        return due

    def _check(self) -> None:
        at = self.last + self.seconds
        if self.loop.time() >= at:
            self.due = True
            self.wake.set()
            at = self.loop.time() + self.seconds
        self._timer = self.loop.call_at(at, self._check)

    def cancel(self) -> None:
        self._timer.cancel()


async def _close(send: Send, code: int, reason: str) -> None:
    await send({"type": "websocket.close", "code": code, "reason": reason[:120]})


async def _refuse(send: Send, code: int, reason: str) -> None:
    """Accept, then close with the code: a browser is told the code and reason of a closed
    feed, where a refused handshake reaches it only as HTTP 403 (code 1006)."""
    await send({"type": "websocket.accept"})
    await _close(send, code, reason)


async def _until_disconnect(receive: Receive, gone: asyncio.Event, wake: asyncio.Event,
                            heard: Callable[[str], Awaitable[None]] | None = None) -> bool:
    """Read what a live client sends until it leaves (``heard`` takes each text message)
    or sends more than :data:`FEED_MESSAGES` allows; then wake its handler. Whether it sent
    too many."""
    allowance = Bucket(FEED_MESSAGES, FEED_BURST)
    loop = asyncio.get_running_loop()
    try:
        while True:
            message = await receive()
            if message["type"] == "websocket.disconnect":
                return False
            if allowance.take(loop.time()):
                return True
            if heard is not None and isinstance(message.get("text"), str):
                await heard(message["text"])
    finally:
        gone.set()
        wake.set()
