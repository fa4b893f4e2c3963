"""Who is at a game's table now: the seats whose players have the game open.

A page that holds seats of the game says so on its live feed, once, in its first message
(``{"type": "hello", "tokens": [...]}``, the tokens of its seats: a watcher without a seat
says nothing and counts as no one). A seat is present while at least one of its feeds is
open, in this server process: presence is not shared between processes (a player whose feed
another process serves is seen there, not here). Each arrival and departure is told to the
game's feeds as a ``presence`` message, in each reader's language.
"""

from __future__ import annotations

import collections
import json
from typing import Any

from shutthebox.narration import presence_text

HELLO_BYTES = 4_000
"""The most a hello may weigh (20 tokens and their quotes)."""
MAX_HELLO_TOKENS = 20
CHANGES_KEPT = 16
"""Arrivals and departures kept per game for feeds busy sending (one further behind misses
the oldest; it still says who is present now)."""


def hello_tokens(message: str) -> list[str]:
    """The seat tokens of a feed's hello (none for any other message).

    >>> hello_tokens('{"type": "hello", "tokens": ["abc", 7, "def"]}')
    ['abc', 'def']
    >>> hello_tokens('{"type": "ping"}'), hello_tokens("not json")
    ([], [])
    """
    if len(message) > HELLO_BYTES:
        return []
    try:
        found = json.loads(message)
    except ValueError:
        return []
    if not isinstance(found, dict) or found.get("type") != "hello" \
            or not isinstance(found.get("tokens"), list):
        return []
    return [t for t in found["tokens"][:MAX_HELLO_TOKENS]
            if isinstance(t, str) and 0 < len(t) <= 100]


class Presence:
    """The seats present at each game (see the module's description), and the arrivals and
    departures told to its feeds."""

    def __init__(self) -> None:
        self._feeds: dict[str, collections.Counter[int]] = {}
        self._changes: dict[str, collections.deque[tuple[int, int, bool]]] = {}
        self._numbered = 0

    def online(self, game_id: str) -> list[int]:
        """The seats present at the game, in order."""
        return sorted(self._feeds.get(game_id, ()))

    def arrive(self, game_id: str, seats: list[int]) -> None:
        """A feed of the game holding ``seats`` opened."""
        feeds = self._feeds.setdefault(game_id, collections.Counter())
        for seat in set(seats):
            feeds[seat] += 1
            if feeds[seat] == 1:
                self._change(game_id, seat, True)

    def leave(self, game_id: str, seats: list[int]) -> None:
        """A feed of the game holding ``seats`` closed."""
        feeds = self._feeds.get(game_id)
        if feeds is None:
            return
        for seat in set(seats):
            feeds[seat] -= 1
            if feeds[seat] <= 0:
                del feeds[seat]
                self._change(game_id, seat, False)
        if not feeds:
            del self._feeds[game_id]

    def forget(self, game_id: str) -> None:
        """Nobody watches the game any longer: its changes go."""
        self._changes.pop(game_id, None)

    def mark(self) -> int:
        """A mark after every change so far (a new feed hears what follows)."""
        return self._numbered

    def after(self, game_id: str, mark: int) -> tuple[int, list[tuple[int, bool]]]:
        """The changes of the game after ``mark``, (seat, arrived), and the new mark."""
        changes = self._changes.get(game_id)
        if not changes or changes[-1][0] <= mark:
            return mark, []
        return changes[-1][0], [(seat, here) for number, seat, here in changes
                                if number > mark]

    def message(self, game_id: str, names: list[str],
                change: tuple[int, bool] | None = None) -> str:
        """The ``presence`` message of the game: the seats present, and the change told (in
        a sentence made in the reader's language, with the seats' ``names``), if any."""
        body: dict[str, Any] = {"type": "presence", "online": self.online(game_id)}
        if change is not None:
            seat, here = change
            name = names[seat] if 0 <= seat < len(names) else ""
            body |= {"seat": seat, "here": here, "text": presence_text(name, here)}
        return json.dumps(body, ensure_ascii=False)

    def _change(self, game_id: str, seat: int, here: bool) -> None:
        self._numbered += 1
        changes = self._changes.get(game_id)
        if changes is None:
            changes = self._changes[game_id] = collections.deque(maxlen=CHANGES_KEPT)
        changes.append((self._numbered, seat, here))
