"""The process's file descriptors: how many connections it may hold, and a quiet log when
it has run out.

Every connection takes a file descriptor; a process that runs out cannot accept (nor open
its database, nor answer anyone). So the server raises its own limit to the most the system
lets it, and the HTTP server is told to answer 503 beyond three quarters of it (uvicorn's
``limit_concurrency``), keeping the rest for the database, the solver workers and the log.
"""

from __future__ import annotations

import contextlib
import logging
import resource
import time

UNLIMITED_CONNECTIONS = 65_536
"""The connections taken when the system sets no limit on file descriptors."""


def connection_limit(wanted: int = 0) -> int:
    """The connections a server process may hold: ``wanted``, or if 0 three quarters of
    the file descriptors it may open, after raising its own limit to the most the system
    lets it; and asyncio's failed accepts quieted (:class:`AcceptFailures`)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
    asyncio_log = logging.getLogger("asyncio")
    if not any(isinstance(f, AcceptFailures) for f in asyncio_log.filters):
        asyncio_log.addFilter(AcceptFailures())
    if wanted:
        return wanted
    return max(64, soft * 3 // 4) if soft != resource.RLIM_INFINITY else UNLIMITED_CONNECTIONS


class AcceptFailures(logging.Filter):
    """Lets through one line, without its traceback, per :attr:`every` seconds of asyncio's
    "socket.accept() out of system resource" (written at every failed accept once the
    process has run out of file descriptors: 443,885 tracebacks in one flood); and none of
    the retries of those accepts that come due after the server has closed its socket as
    it stops (:func:`late_retry`)."""

    def __init__(self, every: float = 10.0) -> None:
        super().__init__()
        self.every = every
        self.last = -every
        self.dropped = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if late_retry(record):
            return False
        if not str(record.msg).startswith("socket.accept() out of system resource"):
            return True
        now = time.monotonic()
        if now - self.last < self.every:
            self.dropped += 1
            return False
        record.msg = (f"no more connections accepted for now: the process is out of file "
                      f"descriptors ({self.dropped} more such failures since the last line)")
        record.args = ()
        record.exc_info = None
        record.exc_text = None
        self.last, self.dropped = now, 0
        return True


def late_retry(record: logging.LogRecord) -> bool:
    """Whether the record is asyncio's error for a retry of a failed accept that came due
    once the listening socket was closed (Python 3.11 logs a traceback for each: the
    socket's file descriptor is -1 by then). Nothing is lost: the server is stopping."""
    error = record.exc_info[1] if record.exc_info else None
    return (isinstance(error, ValueError) and "Invalid file descriptor: -1" in str(error)
            and "start_serving" in record.getMessage())
