"""Who is at a game's table now: the seats whose players have the game open.

A page that holds seats of the game says so on its live feed, once, in its first message
(``{"type": "hello", "tokens": [...]}``, the tokens of its seats: a watcher without a seat
says nothing and counts as no one). A seat is present while at least one of its feeds is
open. On PostgreSQL each process announces the seats present through its own feeds
whenever they change (:meth:`shutthebox.web.live.feeds.LiveHub`'s announcer), and counts the
others' as they announce them; on SQLite a process knows only its own feeds. Each arrival
and departure is told to the game's feeds as a ``presence`` message, in each reader's
language.

The news is coalesced: feeds opening and closing only count (:meth:`Presence.arrive`,
:meth:`Presence.leave`, :meth:`Presence.heard`), and what changed is told once the game's
table has been still for a moment (:meth:`Presence.settle`, called by the live hub
:data:`~shutthebox.web.live.feeds.PRESENCE_SECONDS` after the first change), so that a
client that comes and goes in a loop (a page reloaded, or an attacker) costs the other
feeds a message a moment at most, and nothing when it ends where it began (200 comings and
goings were 400 messages to every other feed of the table, and as many announcements).
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
        self._others: dict[str, dict[str, set[int]]] = {}
        """Per game, the seats present through each other process's feeds."""
        self._changes: dict[str, collections.deque[tuple[int, int, bool]]] = {}
        self._told: dict[str, list[int]] = {}
        """Per game, the seats present as its feeds were last told."""
        self._numbered = 0

    def online(self, game_id: str) -> list[int]:
        """The seats present at the game, in order."""
        present = set(self._feeds.get(game_id, ()))
        for seats in self._others.get(game_id, {}).values():
            present |= seats
        return sorted(present)

    def here(self, game_id: str) -> list[int]:
        """The seats present through this process's feeds (as it announces them)."""
        return sorted(self._feeds.get(game_id, ()))

    def arrive(self, game_id: str, seats: list[int]) -> None:
        """A feed of the game holding ``seats`` opened (told at :meth:`settle`)."""
        feeds = self._feeds.setdefault(game_id, collections.Counter())
        for seat in set(seats):
            feeds[seat] += 1

    def leave(self, game_id: str, seats: list[int]) -> None:
        """A feed of the game holding ``seats`` closed (told at :meth:`settle`)."""
        feeds = self._feeds.get(game_id)
        if feeds is None:
            return
        for seat in set(seats):
            feeds[seat] -= 1
            if feeds[seat] <= 0:
                del feeds[seat]
        if not feeds:
            del self._feeds[game_id]

    def heard(self, game_id: str, process: str, seats: object) -> None:
        """Another process announced the seats present at the game through its feeds (told
        at :meth:`settle`)."""
        if not isinstance(seats, list) or len(seats) > 100:
            return
        others = self._others.setdefault(game_id, {})
        others[process] = {s for s in seats if type(s) is int}
        if not others[process]:
            del others[process]

    def forget(self, game_id: str) -> None:
        """Nobody watches the game here any longer: its changes and what the other
        processes said of it go (a process that stopped says nothing more)."""
        self._changes.pop(game_id, None)
        self._others.pop(game_id, None)
        self._told.pop(game_id, None)

    def settle(self, game_id: str) -> bool:
        """Record the arrivals and departures since the game's feeds were last told (none
        for a seat that left and came back meanwhile); whether there were any.

        >>> presence = Presence()
        >>> presence.arrive("g", [1]); presence.leave("g", [1]); presence.settle("g")
        False
        >>> presence.arrive("g", [0]); presence.settle("g"), presence.after("g", 0)
        (True, (1, [(0, True)]))
        """
        before, after = self._told.get(game_id, []), self.online(game_id)
        if before == after:
            return False
        self._told[game_id] = after
        for seat in sorted(set(before) ^ set(after)):
            self._change(game_id, seat, seat in after)
        return True

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
