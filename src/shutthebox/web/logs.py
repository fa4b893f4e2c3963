"""The server's log: one line per request and per game event of note, to stderr, as text or
JSON, with no secret in it.

The lines go through the standard :mod:`logging` loggers ``shutthebox.access`` (requests)
and ``shutthebox.games`` (games created, joined, finished, a seat handed to the computer);
``shutthebox serve`` configures them and uvicorn's own (:func:`logging_config`). A line's
fields travel as ``extra={"fields": {...}}``: the text form writes them ``name=value``
after the message, the JSON form as members of its object.

Paths are written masked (:func:`masked_path`): an invite code in a path and every value
of a query string but a number become ``***``, as does any long segment that is not a
game's id (a token put in a path by mistake). Headers are never written, so neither are
the seat tokens and the admin token they carry.

>>> masked_path("/join/Ab3dE9")
'/join/***'
>>> masked_path("/api/invites/Ab3dE9/qr.svg")
'/api/invites/***/qr.svg'
>>> masked_path("/api/games/" + "a" * 32 + "/live", b"since=4&token=x")
'/api/games/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/live?since=4&token=***'
"""

from __future__ import annotations

import json
import logging
import re
import time
from typing import Any, Literal

ACCESS = logging.getLogger("shutthebox.access")
GAMES = logging.getLogger("shutthebox.games")
LogFormat = Literal["text", "json"]
LEVELS = ("debug", "info", "warning", "error")

SECRET_AFTER = frozenset({"join", "invites"})
"""Path segments followed by an invite code."""
GAME_ID = re.compile(r"[0-9a-f]{32}")
LONG = 20
"""Characters of a path segment beyond which, unless it is a game's id, it is masked."""
MASK = "***"


def masked_path(path: str, query: bytes = b"") -> str:
    """The path and query as a log may show them (see the module's description)."""
    parts = path.split("/")
    for index, part in enumerate(parts):
        after_secret = index > 0 and parts[index - 1] in SECRET_AFTER
        if part and (after_secret or (len(part) >= LONG and not GAME_ID.fullmatch(part))):
            parts[index] = MASK
    shown = "/".join(parts)
    if query:
        pairs = []
        for pair in query.decode("latin-1").split("&"):
            name, _equals, value = pair.partition("=")
            pairs.append(f"{name[:40]}={value if value.isdigit() else MASK}")
        shown += "?" + "&".join(pairs)
    return shown


def game_event(message: str, **fields: Any) -> None:
    """Log a game event of note (``message``: what happened, in English, as logs are)."""
    GAMES.info(message, extra={"fields": fields})


class LineFormatter(logging.Formatter):
    """A record as one line: ``time level logger message name=value ...`` or, with
    ``style="json"``, a JSON object with the same members."""

    def __init__(self, style: LogFormat = "text") -> None:
        super().__init__()
        self.json = style == "json"

    def format(self, record: logging.LogRecord) -> str:
        when = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
        when += f".{int(record.msecs):03d}Z"
        fields: dict[str, Any] = getattr(record, "fields", None) or {}
        message = record.getMessage()
        if record.exc_info:
            message += " " + self.formatException(record.exc_info).replace("\n", " | ")
        if self.json:
            return json.dumps({"time": when, "level": record.levelname.lower(),
                               "logger": record.name, "message": message, **fields},
                              default=str)
        extras = "".join(f" {name}={value}" for name, value in fields.items())
        return f"{when} {record.levelname} {record.name}: {message}{extras}"


def logging_config(level: str = "info", style: LogFormat = "text") -> dict[str, Any]:
    """The :func:`logging.config.dictConfig` of the server's processes (uvicorn applies it
    in each): every line to stderr through :class:`LineFormatter`."""
    handler = {"class": "logging.StreamHandler", "formatter": "line",
               "stream": "ext://sys.stderr"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"line": {"()": LineFormatter, "style": style}},
        "handlers": {"stderr": handler},
        "loggers": {
            "shutthebox": {"handlers": ["stderr"], "level": level.upper(),
                           "propagate": False},
            "uvicorn": {"handlers": ["stderr"], "level": level.upper(), "propagate": False},
            "uvicorn.access": {"handlers": [], "level": "CRITICAL", "propagate": False},
        },
    }
