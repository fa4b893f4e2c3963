"""PostgreSQL's announcements: they tell the other server processes of each stored batch
of a game's events, sent after its commit (and of what was said at a table), through
``NOTIFY`` on :data:`NOTIFY_CHANNEL`; every process ``LISTEN``s
(:mod:`shutthebox.web.live.feeds`).

An announcement is sent outside the move's transaction: a notifying transaction holds a
lock of the whole database from just before its commit until the commit is on disk, so
moves that each announced themselves would be committed one at a time. :class:`Announcer`
sends them after the commits, many batches a statement, in transactions that write nothing
to disk. A process that dies between a commit and its announcement leaves the other
processes' watchers of that game a move behind until the next.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import uuid
from typing import Any, NamedTuple

from sqlalchemy.engine import Engine

from shutthebox.web.codec import dumps, loads

log = logging.getLogger(__name__)

NOTIFY_CHANNEL = "shutthebox_events"
"""The PostgreSQL channel on which stored batches of events are announced (payload: a JSON
object, the process that stored them and each batch's :class:`News`; see
:func:`announcements` and :func:`heard`)."""
PAYLOAD_BYTES = 7_000
"""The most an announcement holds (PostgreSQL takes up to 8,000 bytes)."""
TABLE_QUEUE = 1_000
"""What is said at tables (reactions, rematches) waiting to be announced, at most."""
PROCESS = ""
"""This process, as its announcements name it (named anew in a forked child)."""


def _name_process() -> None:
    global PROCESS
    PROCESS = uuid.uuid4().hex[:12]


_name_process()
os.register_at_fork(after_in_child=_name_process)


class News(NamedTuple):
    """A batch of a game's events stored by a process: the game's event count after it,
    ``until`` (None: not at hand), and when at hand the count before it, whether the game
    is over and the live message of the batch, which the other processes send their
    watchers as is."""

    game_id: str
    until: int | None
    since: int | None = None
    over: bool = False
    message: str | None = None


def announcements(news: list[News]) -> list[str]:
    """The payloads announcing the batches this process stored, as few as fit (a message
    too long for a payload is left out: the watchers read the state instead).

    >>> [loads(p)["n"] for p in announcements([News("0f3a", 12, 10, False, "{}"),
    ...                                        News("77b1", None)])]
    [[['0f3a', 12, 10, False, '{}'], ['77b1', None, None, False, None]]]
    """
    payloads: list[str] = []
    items: list[str] = []
    size = 0
    for item in news:
        text = dumps(list(item))
        if len(text) > PAYLOAD_BYTES // 2:
            text = dumps(list(item._replace(message=None)))
        if items and size + len(text) > PAYLOAD_BYTES:
            payloads.append(_payload(items))
            items, size = [], 0
        items.append(text)
        size += len(text) + 1
    if items:
        payloads.append(_payload(items))
    return payloads


def table_announcements(told: list[tuple[str, str, dict[str, Any]]]) -> list[str]:
    """The payloads announcing what was said at tables in this process (reactions, rematches:
    a game's id, the kind and its data), as few as fit.

    >>> heard_table(table_announcements([("0f3a", "reaction", {"seat": 1})])[0]
    ...             .replace(PROCESS, "another"))
    [('0f3a', 'reaction', {'seat': 1})]
    """
    payloads: list[str] = []
    items: list[str] = []
    size = 0
    for item in told:
        text = dumps(list(item))
        if len(text) > PAYLOAD_BYTES:
            continue
        if items and size + len(text) > PAYLOAD_BYTES:
            payloads.append(f'{_own()}, "t": [{",".join(items)}]}}')
            items, size = [], 0
        items.append(text)
        size += len(text) + 1
    if items:
        payloads.append(f'{_own()}, "t": [{",".join(items)}]}}')
    return payloads


def heard_table(payload: str) -> list[tuple[str, str, dict[str, Any]]]:
    """What was said at tables in another process, as an announcement tells it (none from
    this process, or from an announcement of stored batches)."""
    if payload.startswith(_own()):
        return []
    try:
        found = loads(payload)
        return [(str(game_id), str(kind), dict(data)) for game_id, kind, data in found["t"]]
    except (ValueError, KeyError, TypeError):
        return []


def _payload(items: list[str]) -> str:
    return f'{_own()}, "n": [{",".join(items)}]}}'


def _own() -> str:
    """How this process's payloads begin."""
    return f'{{"p": "{PROCESS}"'


def heard(payload: str) -> list[News]:
    """The batches an announcement tells of; none if this process made it (it has told its
    own watchers already), or if it cannot be read.

    >>> heard('{"p": "another", "n": [["0f3a", 12, 10, false, "{}"]]}')
    [News(game_id='0f3a', until=12, since=10, over=False, message='{}')]
    >>> heard(announcements([News("0f3a", 12)])[0])
    []
    """
    if payload.startswith(_own()):     # (not read: a process hears all its own)
        return []
    try:
        found = loads(payload)
        return [News(str(game_id), until, since, bool(over), message)
                for game_id, until, since, over, message in found["n"]]
    except (ValueError, KeyError, TypeError):
        return []


async def _discard(connection: Any) -> None:
    """Close a connection that failed, or whose statement was cancelled (its state is not
    known)."""
    with contextlib.suppress(Exception):
        await connection.close()



class Announcer:
    """Tells the other server processes on the database of the batches this one stored
    (:data:`NOTIFY_CHANNEL`), after their commits, and of what was said at its tables:
    what is told while a statement is on its way goes in the next, one statement for all. An
    announcement that fails is let go (the watchers elsewhere catch up at the game's next;
    what was said at a table is gone)."""

    def __init__(self, engine: Engine) -> None:
        self.url = engine.url.set(drivername="postgresql").render_as_string(
            hide_password=False)
        self._news: dict[str, News] = {}
        self._table: list[tuple[str, str, dict[str, Any]]] = []
        self._connection: Any = None
        self._sending: asyncio.Task[None] | None = None

    def tell(self, news: News) -> None:
        """Announce a batch (from the event loop); of a game's batches not yet sent, the
        last one only."""
        self._news[news.game_id] = news
        if self._sending is None or self._sending.done():
            self._sending = asyncio.get_running_loop().create_task(self._send())

    def tell_table(self, game_id: str, kind: str, data: dict[str, Any]) -> None:
        """Announce something said at a table (from the event loop; see
        :meth:`shutthebox.web.live.feeds.LiveHub.tell`)."""
        if len(self._table) < TABLE_QUEUE:      # (past it, let go: no part of any game)
            self._table.append((game_id, kind, data))
        if self._sending is None or self._sending.done():
            self._sending = asyncio.get_running_loop().create_task(self._send())

    async def _send(self) -> None:
        import psycopg

        while self._news or self._table:
            news, self._news = list(self._news.values()), {}
            table, self._table = self._table, []
            try:
                if self._connection is None:
                    self._connection = await psycopg.AsyncConnection.connect(
                        self.url, autocommit=True)
                # (the payloads as a binary parameter, %b: as text, psycopg would escape
                # every quote of their JSON with a regular expression, a third of a move's
                # CPU on a busy server)
                await self._connection.execute(
                    "SELECT pg_notify(%s, payload) FROM unnest(CAST(%b AS text[])) AS payload",
                    (NOTIFY_CHANNEL, announcements(news) + table_announcements(table)))
            except Exception:
                log.debug("announcement failed", exc_info=True)
                connection, self._connection = self._connection, None
                if connection is not None:
                    await _discard(connection)

    async def close(self) -> None:
        """Send what is still to tell, and close the connection."""
        if self._sending is not None:
            with contextlib.suppress(Exception):
                await self._sending
        if self._connection is not None:
            await _discard(self._connection)
            self._connection = None
