"""Rate limits: token buckets per client address, per seat token and per client's unknown
invites, shared by every process of one server.

``shutthebox serve --workers N`` runs N processes behind one listening socket, and the
kernel hands each connection to any of them: buckets kept in each process would give a
client N times its limit. So the buckets live in one small table that every process maps
into memory (:class:`RateTable`): a file beside the default database, in the data folder,
that ``serve`` makes before it starts its workers and names to them in
:data:`TABLE_VARIABLE`. A process that finds no table named (a test's app, a server run
another way) makes one of its own.

Why a mapped file and not the database: a take is a few microseconds under the file's lock,
where a write to the database per request would queue behind the moves (SQLite has one
writer) or cost a round trip (PostgreSQL); and no further service (Redis) is needed. The
processes of one server run on one machine, so its memory is where they meet; servers on
several machines each keep their own table (the manual says so).

The table's layout: :data:`SLOTS` slots of :data:`SLOT` (a key's 64-bit fingerprint, its
tokens, when they were counted, when the bucket is full again). A key's slot is found among
:data:`PROBES` neighbours of its fingerprint's place; a slot whose bucket is full again is
free (its key, forgotten, would start full anyway), and when none of them is, the one full
soonest is taken over. Every take holds the whole file's lock (``fcntl.lockf``, between
processes, and a thread lock within one): a take is a few slots read and one written.
"""

from __future__ import annotations

import fcntl
import hashlib
import mmap
import os
import struct
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

TABLE_VARIABLE = "SHUTTHEBOX_RATE_TABLE"
"""The environment variable naming the table's file to a server's worker processes (set by
``shutthebox serve``, not by hand)."""
SLOT = struct.Struct("<Qddd")
"""A slot: the key's fingerprint (0: never used), tokens, when counted, when full again."""
SLOTS = 1 << 16
"""Slots in a table (2 MiB): far more clients than a server has at once."""
PROBES = 8


def table_file(folder: str | os.PathLike[str], port: int) -> Path:
    """The table file of the server on ``port``, in ``folder`` (``serve`` uses the data
    folder), made empty: a server that starts again, even after one killed without
    cleaning up, starts from full buckets in the same file."""
    path = Path(folder) / f"rates-{port}.table"
    with open(path, "wb") as file:
        file.truncate(SLOTS * SLOT.size)
    return path


class RateTable:
    """Token buckets by key in a table shared by the processes that map its file (see the
    module's description); ``path`` None: a table of this process alone."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        if path is None:
            self._file = tempfile.TemporaryFile()   # noqa: SIM115  (kept open)
            self._file.truncate(SLOTS * SLOT.size)
        else:
            self._file = open(path, "r+b")   # noqa: SIM115  (kept open: the map and the lock)
        self._map = mmap.mmap(self._file.fileno(), SLOTS * SLOT.size)
        self._lock = threading.Lock()

    def take(self, key: str, rate: float, burst: float, now: float | None = None,
             count: float = 1.0) -> float:
        """Take ``count`` requests from the key's bucket (``rate`` a second, ``burst`` at
        once; 0: only look): 0 if allowed, else the seconds until one is.

        >>> table = RateTable()
        >>> [table.take("203.0.113.9", 1.0, 2.0, now=100.0) for _ in range(3)]
        [0.0, 0.0, 1.0]
        >>> table.take("203.0.113.9", 1.0, 2.0, now=101.0)
        0.0
        """
        now = time.monotonic() if now is None else now
        fingerprint = int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(),
                                     "little") or 1
        with self._lock:
            fcntl.lockf(self._file, fcntl.LOCK_EX)
            try:
                slot, tokens, stamp = self._find(fingerprint, now)
                tokens = burst if stamp < 0 else min(burst, tokens + (now - stamp) * rate)
                wait = 0.0
                if tokens >= 1:
                    tokens -= count
                else:
                    wait = (1 - tokens) / rate
                full_at = now + (burst - tokens) / rate
                SLOT.pack_into(self._map, slot * SLOT.size, fingerprint, tokens, now, full_at)
            finally:
                fcntl.lockf(self._file, fcntl.LOCK_UN)
        return wait

    def _find(self, fingerprint: int, now: float) -> tuple[int, float, float]:
        """The key's slot, its tokens and when they were counted (-1: a new bucket)."""
        start = fingerprint % SLOTS
        chosen, soonest = start, float("inf")
        for probe in range(PROBES):
            slot = (start + probe) % SLOTS
            owner, tokens, stamp, full_at = SLOT.unpack_from(self._map, slot * SLOT.size)
            if owner == fingerprint:
                return slot, tokens, stamp
            if owner == 0 or full_at <= now:
                return slot, 0.0, -1.0
            if full_at < soonest:
                chosen, soonest = slot, full_at
        return chosen, 0.0, -1.0

    def close(self) -> None:
        self._map.close()
        self._file.close()


def shared_table() -> RateTable:
    """The table named by :data:`TABLE_VARIABLE`, or one of this process's own."""
    return RateTable(os.environ.get(TABLE_VARIABLE) or None)


@dataclass
class Bucket:
    """A token bucket: ``rate`` requests a second on average, ``burst`` at once."""

    rate: float
    burst: float
    tokens: float = -1.0
    stamp: float = field(default_factory=time.monotonic)

    def take(self, now: float, count: float = 1.0) -> float:
        """Take one request (``count`` 0: only look); 0 if allowed, else the seconds until
        one is allowed."""
        if self.tokens < 0:
            self.tokens = self.burst
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= count
            return 0.0
        return (1 - self.tokens) / self.rate


MANY_BUCKETS = 10_000
"""Past this many keys, the buckets that are full again (their clients have been quiet) are
forgotten before a new one is made."""


@dataclass
class Buckets:
    """A token bucket per key, all of one rate and burst, in this process alone (for what
    is counted per game, whose changes one process makes at a time)."""

    rate: float
    burst: float
    _by_key: dict[str, Bucket] = field(default_factory=dict)

    def take(self, key: str, now: float, count: float = 1.0) -> float:
        """:meth:`Bucket.take` of the key's bucket (made full if it has none)."""
        bucket = self._by_key.get(key)
        if bucket is None:
            if len(self._by_key) > MANY_BUCKETS:
                self._forget(now)
            bucket = self._by_key[key] = Bucket(self.rate, self.burst)
        return bucket.take(now, count)

    def _forget(self, now: float) -> None:
        full = now - self.burst / self.rate
        for key in [k for k, b in self._by_key.items() if b.stamp < full]:
            del self._by_key[key]


@dataclass
class RateLimits:
    """Requests a second per client address and per seat token (0: no limit), counted in
    ``table`` (the server's shared one if None)."""

    per_client: float = 50.0
    per_token: float = 20.0
    burst: float = 3.0
    """The burst allowed, in seconds' worth of requests."""
    table: RateTable | None = None

    def __post_init__(self) -> None:
        if self.table is None:
            self.table = shared_table()

    def wait(self, client: str, token: str | None) -> float:
        """0 if the request may go on, else the seconds to wait."""
        assert self.table is not None
        now = time.monotonic()
        wait = self.table.take("client " + client, self.per_client,
                               self.per_client * self.burst, now) if self.per_client else 0.0
        if token and self.per_token and not wait:
            wait = self.table.take("token " + token, self.per_token,
                                   self.per_token * self.burst, now)
        return wait


INVITE_MISSES = 1.0
"""Unknown invites one client may ask about a second, on average (after a burst of ten):
typing errors, never enough to guess a code (see
:data:`shutthebox.web.play.seats.INVITE_LENGTH`)."""


@dataclass
class CountLimit:
    """Something a client did (``what``: an unknown invite asked about, a name claimed),
    counted per client in ``table`` (the server's shared one if None): once a client has
    done it ``rate`` times a second for a while (after a ``burst``), it waits before it may
    again. Only what :meth:`count` counts costs: a request may be looked at first."""

    what: str
    rate: float
    burst: float
    table: RateTable | None = None

    def __post_init__(self) -> None:
        if self.table is None:
            self.table = shared_table()

    def wait(self, client: str) -> float:
        """0 if the client may, else the seconds until it may."""
        assert self.table is not None
        return self.table.take(f"{self.what} {client}", self.rate, self.burst, count=0.0)

    def count(self, client: str) -> None:
        assert self.table is not None
        self.table.take(f"{self.what} {client}", self.rate, self.burst)


def miss_limit(table: RateTable | None = None) -> CountLimit:
    """Unknown invites: :data:`INVITE_MISSES` a second, after ten."""
    return CountLimit("miss", INVITE_MISSES, 10.0, table)


CLAIMS_A_DAY = 10.0
"""Names one client address may claim a day, on average (after a burst of five): a family
behind one address claims a few; a thousand names from one address wait for months."""


def claim_limit(table: RateTable | None = None) -> CountLimit:
    """Names claimed (a refused claim is not counted): :data:`CLAIMS_A_DAY`, after five."""
    return CountLimit("claim", CLAIMS_A_DAY / 86_400, 5.0, table)
