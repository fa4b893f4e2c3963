"""What the server's host (who runs it, not a game's host) is given: who may read the
metrics and the admin view (:class:`Hosting`), the last errors of this process
(:class:`RecentErrors`) and a line in the log as each game finishes
(:class:`FinishedGames`)."""

from __future__ import annotations

import logging
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from cachetools import FIFOCache
from starlette.requests import HTTPConnection

from shutthebox.web.logs import game_event
from shutthebox.web.settings import ServerSettings, address_in, token_matches

LOOPBACK = ["127.0.0.1", "::1"]


@dataclass(frozen=True)
class Hosting:
    """Who may read ``/metrics`` (when ``metrics`` is on): an address of ``metrics_from``,
    or anyone with the token hashed in ``metrics_token``; and who may use the admin view
    (when ``admin_token`` is set): an address of ``admin_from`` with the admin token."""

    metrics: bool = False
    metrics_from: list[str] = field(default_factory=lambda: list(LOOPBACK))
    metrics_token: str = ""
    admin_token: str = ""
    admin_from: list[str] = field(default_factory=lambda: list(LOOPBACK))

    @staticmethod
    def of(settings: ServerSettings) -> Hosting:
        return Hosting(settings.metrics, settings.metrics_networks, settings.metrics_token,
                       settings.admin_token, settings.admin_networks)

    def may_scrape(self, connection: HTTPConnection) -> bool:
        if not self.metrics:
            return False
        return (address_in(_address(connection), self.metrics_from)
                or token_matches(bearer(connection), self.metrics_token))

    def may_administer(self, connection: HTTPConnection) -> bool:
        return (bool(self.admin_token)
                and address_in(_address(connection), self.admin_from)
                and token_matches(bearer(connection), self.admin_token))


def _address(connection: HTTPConnection) -> str | None:
    return connection.client.host if connection.client else None


def bearer(connection: HTTPConnection) -> str | None:
    """The token of the ``Authorization: Bearer`` header, if any."""
    scheme, _space, token = connection.headers.get("authorization", "").partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


class RecentErrors(logging.Handler):
    """The last warnings and errors this process logged, newest last."""

    def __init__(self, keep: int = 50) -> None:
        super().__init__(logging.WARNING)
        self.lines: deque[dict[str, Any]] = deque(maxlen=keep)

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append({"time": record.created, "level": record.levelname.lower(),
                           "logger": record.name, "message": record.getMessage()[:500]})


_errors: RecentErrors | None = None


def recent_errors() -> RecentErrors:
    """This process's :class:`RecentErrors`, listening to the server's and uvicorn's logs."""
    global _errors
    if _errors is None:
        _errors = RecentErrors()
        for name in ("shutthebox", "uvicorn"):
            logging.getLogger(name).addHandler(_errors)
    return _errors


class FinishedGames:
    """Logs each game's end once (a finished game's later batches, a reaction say, are
    over too)."""

    def __init__(self, keep: int = 4096) -> None:
        self._told: FIFOCache[str, None] = FIFOCache(keep)

    def tell(self, game_id: str) -> None:
        if game_id in self._told:
            return
        self._told[game_id] = None
        game_event("game finished", game=game_id)


__all__ = ["FinishedGames", "Hosting", "RecentErrors", "bearer", "recent_errors"]
