"""The fast lane: a player's action (``roll``, ``dice``, ``shut``), the request a server
answers most, taken straight from ASGI to the game service; likewise a new game (``POST
/api/games``), whose body the route's own model checks.

A well-formed action (a JSON object of plain integers within the API's bounds, and at most
the headers the API knows) is answered here, without FastAPI's routing, dependency
resolution and pydantic models, which cost about as much as the move itself. Everything
else, a body of another shape included, goes on to the FastAPI routes unchanged, so that
the API's description, its lax parsing and its 422 messages stay in one place. Refusals
are answered with the same table as the routes' (:func:`shutthebox.web.api.refusals.refusal`).

A game's live feed (the WebSocket ``/api/games/{id}/live``, opened by every watcher of every
game) is taken here to :class:`shutthebox.web.live.feeds.LiveFeed` the same way.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from typing import Any

from shutthebox.web.api.checks import (
    ASGIApp,
    Receive,
    Scope,
    Send,
    client_key,
    header_map,
    replay,
    send_json,
)
from shutthebox.web.bounds import MAX_EVENT, MAX_KEY, MAX_SEAT, MAX_TILES
from shutthebox.web.codec import loads

Perform = Callable[[str, str | None, str, Any, int | None, str | None, int | None],
                   Awaitable[str]]
"""(game id, Authorization header, action, its argument, event number, Idempotency-Key,
seat) -> the answer as JSON."""
Refusal = Callable[[Exception], tuple[int, str, dict[str, str] | None]]
Feed = Callable[[Scope, Receive, Send, str], Awaitable[None]]
"""A game's live feed (WebSocket): (scope, receive, send, game id)."""
Start = Callable[[bytes, str], Awaitable[str | None]]
"""A new game from the request's body and client (:func:`~shutthebox.web.api.checks.client_key`)
-> its answer as JSON (None: a body for the route)."""

ACTION_PATH = re.compile(r"/api/games/([0-9a-f]{32})/(roll|dice|shut)")
LIVE_PATH = re.compile(r"/api/games/([^/]{1,64})/live")
GAMES_PATH = "/api/games"
ARGUMENT = {"roll": None, "dice": "dice", "shut": "tiles"}


def _number(value: Any, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def parse_action(kind: str, body: bytes) -> tuple[Any, int | None, int | None] | None:
    """(argument, event, seat) of a well-formed body for the action, else None.

    >>> parse_action("shut", b'{"tiles": [7, 2], "event": 5}')
    ([7, 2], 5, None)
    >>> parse_action("dice", b'{"dice": 3, "event": 5}') is None     # FastAPI says why
    True
    """
    try:
        found = loads(body)
    except ValueError:
        return None
    if not isinstance(found, dict):
        return None
    name = ARGUMENT[kind]
    if not set(found) <= {"event", "seat", *([name] if name else [])}:
        return None
    event, seat = found.get("event"), found.get("seat")
    if event is not None and not _number(event, 0, MAX_EVENT):
        return None
    if seat is not None and not _number(seat, 0, MAX_SEAT):
        return None
    if name is None:
        return None, event, seat
    argument = found.get(name)
    if name == "dice" and _number(argument, 1, 2):
        return argument, event, seat
    if name == "tiles" and isinstance(argument, list) and 1 <= len(argument) <= MAX_TILES \
            and all(type(t) is int for t in argument):
        return argument, event, seat
    return None


class ActionLane:
    """The middleware: well-formed actions to ``perform``, new games to ``start``, a game's
    live feed to ``live``, all else (and what ``start`` leaves) to ``app``."""

    def __init__(self, app: ASGIApp, perform: Perform, refusal: Refusal, live: Feed,
                 start: Start) -> None:
        self.app = app
        self.perform = perform
        self.refusal = refusal
        self.live = live
        self.start = start

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            feed = LIVE_PATH.fullmatch(scope["path"])
            if feed is not None:
                await self.live(scope, receive, send, feed[1])
            else:
                await self.app(scope, receive, send)
            return
        post = scope["type"] == "http" and scope["method"] == "POST"
        if post and scope["path"] == GAMES_PATH:
            await self._start(scope, receive, send)
            return
        found = ACTION_PATH.fullmatch(scope["path"]) if post else None
        if found is None:
            await self.app(scope, receive, send)
            return
        message = await receive()          # the whole body: the Guard has read it
        body = message.get("body", b"")
        headers = header_map(scope)
        key = headers.get(b"idempotency-key")
        action = parse_action(found[2], body) if message.get("more_body") is not True \
            else None
        if action is None or (key is not None and len(key) > MAX_KEY):
            await self.app(scope, replay(body, receive), send)
            return
        argument, event, seat = action
        authorization = headers.get(b"authorization")
        try:
            answer = await self.perform(
                found[1], authorization.decode("latin-1") if authorization else None,
                found[2], argument, event, key.decode("latin-1") if key else None, seat)
        except Exception as exc:           # every refusal has its answer (else: raised)
            await self._refuse(send, exc)
            return
        await send_json(send, 200, answer.encode())

    async def _start(self, scope: Scope, receive: Receive, send: Send) -> None:
        message = await receive()
        body = message.get("body", b"")
        try:
            answer = await self.start(body, client_key(scope)) \
                if message.get("more_body") is not True else None
        except Exception as exc:
            await self._refuse(send, exc)
            return
        if answer is None:
            await self.app(scope, replay(body, receive), send)
            return
        await send_json(send, 201, answer.encode())

    async def _refuse(self, send: Send, exc: Exception) -> None:
        status, detail, extra = self.refusal(exc)
        await send_json(send, status, json.dumps({"detail": detail}).encode(), [
            (k.lower().encode(), v.encode()) for k, v in (extra or {}).items()])
