"""Reactions: an emoji a seated player sends to every board of the game, shown briefly.

Only a reaction of the fixed set (:data:`shutthebox.table_talk.REACTIONS`) is accepted, by
its id: no free text, so nothing to moderate. Only a seat's token may send one (not a
watcher), for its own game, playing or over. A seat may send :data:`RATE` a second on
average, :data:`BURST` at once (a bucket per seat, in the server process); past that it is
refused with 429 and a Retry-After. A reaction is no part of the game: it is not stored,
it goes to the game's live feeds (:meth:`shutthebox.web.live.feeds.LiveHub.tell`, every process's
on PostgreSQL) and is gone.
"""

from __future__ import annotations

import math
import time
from typing import Any

from shutthebox.errors import ShutTheBoxError
from shutthebox.language import _
from shutthebox.table_talk import REACTIONS, reaction_emoji, reaction_text
from shutthebox.web.codec import dumps
from shutthebox.web.limits import Buckets
from shutthebox.web.play.service import GameService

RATE = 1.0
"""Reactions a seat may send a second, on average."""
BURST = 3.0
"""Reactions a seat may send at once, after a quiet while."""


class TooManyReactionsError(ShutTheBoxError):
    """A seat that sent reactions faster than :data:`RATE` (429)."""


class UnknownReactionError(ShutTheBoxError):
    """A reaction id outside the fixed set (400)."""


def speak(data: dict[str, Any]) -> str:
    """The live message of a reaction (as :meth:`Reactions.check` answers it), in the
    language of the feed: who (seat) sent which (id and emoji), in a sentence."""
    reaction = str(data["reaction"])
    return dumps({"type": "reaction", "seat": data["seat"], "reaction": reaction,
                  "emoji": reaction_emoji(reaction),
                  "text": reaction_text(reaction, str(data["name"])), "sent": data["sent"]})


class Reactions:
    """Checks a reaction (the seat's token, the set, the seat's rate) and makes its live
    message."""

    def __init__(self, service: GameService, rate: float = RATE, burst: float = BURST
                 ) -> None:
        self.service = service
        self._buckets = Buckets(rate, burst)

    def check(self, game_id: str, token: str | None, reaction: str) -> dict[str, Any]:
        """The seat's reaction as the live feeds say it (:func:`speak`), once it is allowed.

        :raises UnauthorizedError: no token, or one that holds no seat (401).
        :raises ForbiddenError: a token of another game's seat (403).
        :raises UnknownReactionError: not one of the reactions (400).
        :raises TooManyReactionsError: the seat's rate is spent (429).
        """
        seat = self.service.seat_of(game_id, [token] if token else [])
        if reaction not in REACTIONS:
            raise UnknownReactionError(_("no reaction {reaction!r}: one of {reactions}").format(
                                       reaction=reaction[:40], reactions=", ".join(REACTIONS)))
        wait = self._buckets.take(f"{game_id}/{seat}", time.monotonic())
        if wait:
            raise TooManyReactionsError(_(
                "too many reactions: one a second at most (try again in {seconds} s)").format(
                seconds=math.ceil(wait)))
        return {"seat": seat, "reaction": reaction, "name": self._name(game_id, seat),
                "sent": time.time()}

    def _name(self, game_id: str, seat: int) -> str:
        """The seat's player name."""
        return self.service.changes.read(game_id).seats[seat].name
