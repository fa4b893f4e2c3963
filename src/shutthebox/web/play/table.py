"""A table played online: its host, its turn clock, and the seats the computer plays for
players who are away.

The table's events (:class:`~shutthebox.match.TableKind`) are stored in the game's log
between the match's own, where they happened; the match never sees them. A game's table is
what its events make of it (:func:`table_of`), so a stored game replays exactly, its clock
and its absent players included:

- ``timeout``: the seat's time ran out, so the computer makes the decision it was waited for
  (a roll, a dice choice and its roll, or the tiles), and nothing else;
- ``away``: the computer plays the seat from here on, after :data:`MISSED_TURNS` timeouts in
  a row or when the host hands the seat over; ``back``: its player plays it again;
- ``pause`` and ``resume``: the host stops the clock and starts it again;
- ``end``: the host ends the game, which nobody wins.

The clock gives each decision of a person :attr:`TableState.clock` seconds from the moment
the game began to wait for it, which is when the events before it were stored: the game's
``deadline`` is stored with them, so it holds across a restart and across server processes
(:mod:`shutthebox.web.play.clock` enforces it).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from shutthebox.errors import ShutTheBoxError
from shutthebox.language import _
from shutthebox.match import INPUT_EVENTS, TABLE_EVENTS, Event, Match, PendingKind, TableKind
from shutthebox.match.log import DECISION_EVENTS

MISSED_TURNS = 3
"""Decisions in a row whose time runs out before the computer plays the seat until its
player comes back."""
MIN_CLOCK = 1
MAX_CLOCK = 3600
"""The seconds a decision a turn clock may give (one second is for tests and the brave)."""
TABLE_COMPUTER = "hard"
"""The computer that plays for a player who is away or out of time: the optimal player."""
ACTIONS = {PendingKind.ROLL: "roll", PendingKind.CHOOSE_DICE: "dice",
           PendingKind.SHUT: "shut"}
"""The action a person is waited for, by what the match waits for."""
_COVERED = {"roll": 1, "dice": 2, "shut": 1}
"""The match's input events a timeout's action makes (a dice choice is rolled at once)."""


class NotTheHostError(ShutTheBoxError):
    """A host's action asked for by another seat (403)."""


class ClockError(ShutTheBoxError):
    """A turn clock that a new game cannot have (400)."""


class TableStateError(ShutTheBoxError):
    """A table action that does not fit the game as it is: a clock to pause when there is
    none, a seat handed over twice, a game that is over (409)."""


@dataclass
class TableState:
    """What a game's table events make of it (see the module's description)."""

    clock: int | None = None
    """Seconds a decision (None: no clock)."""
    host: int | None = None
    """The seat that created the game, whose token may pause, hand over and end."""
    paused: bool = False
    ended: bool = False
    away: set[int] = field(default_factory=set)
    """Seats the computer plays until their players come back."""
    covering: tuple[int, int] | None = None
    """(seat, the match's input events left) of a timeout's action still to be made."""
    deadline: datetime | None = None
    """When the clock runs out for the decision waited for, as stored (None: it does not
    run)."""

    def plays(self, seat: int | None) -> bool:
        """Whether the computer plays for this human seat now."""
        return seat is not None and (seat in self.away or (
            self.covering is not None and self.covering[0] == seat))

    def apply(self, event: Event) -> None:
        """Take one event of the log (a table event, or one of the match's)."""
        kind = event["type"]
        if kind in TABLE_EVENTS:
            self._apply_table(event)
        elif self.covering is not None and kind in INPUT_EVENTS \
                and event.get("seat") == self.covering[0]:
            seat, left = self.covering
            self.covering = (seat, left - 1) if left > 1 else None

    def _apply_table(self, event: Event) -> None:
        kind = event["type"]
        if kind == TableKind.TIMEOUT:
            self.covering = (event["seat"], _COVERED[event["action"]])
        elif kind == TableKind.AWAY:
            self.away.add(event["seat"])
        elif kind == TableKind.BACK:
            self.away.discard(event["seat"])
        elif kind == TableKind.PAUSE:
            self.paused = True
        elif kind == TableKind.RESUME:
            self.paused = False
        elif kind == TableKind.END:
            self.ended = True

    def clock_runs(self, waiting: str) -> bool:
        """Whether the clock runs while the game waits for ``waiting`` (who acts next)."""
        return self.clock is not None and not self.paused and not self.ended \
            and waiting == "human"

    def to_dict(self, left: float | None) -> dict[str, Any]:
        """The table as the page is sent it; ``left``: the seconds the clock has left."""
        return {"clock": self.clock, "host": self.host, "paused": self.paused,
                "ended": self.ended, "away": sorted(self.away),
                "left": None if left is None else round(max(0.0, left), 1)}


def table_of(seat_events: Sequence[Event], events: Iterable[Event]) -> TableState:
    """The table of a stored game: its seat events (the first says the host and the clock)
    and the rest of its log."""
    head = seat_events[0] if seat_events else {}
    table = TableState(clock=head.get("clock"), host=head.get("host"))
    for event in events:
        table.apply(event)
    return table


def computer_moves(seat_events: Sequence[Event], events: Iterable[Event]) -> dict[int, str]:
    """The decisions the computer made for a person, by the number of their event among
    the match's own (as the review counts them): ``timeout`` (their time ran out) or
    ``away`` (the computer played their seat)."""
    table = table_of(seat_events, [])
    found: dict[int, str] = {}
    index = 0
    for event in events:
        if event["type"] not in TABLE_EVENTS:
            seat = event.get("seat")
            if event["type"] in DECISION_EVENTS and table.plays(seat):
                found[index] = "away" if seat in table.away else "timeout"
            index += 1
        table.apply(event)
    return found


def missed_in_a_row(events: Iterable[Event], seat: int) -> int:
    """The seat's decisions in a row whose time ran out, at the end of ``events`` (the log
    after the seat events): its own moves, an ``away`` and a ``back`` start the count
    again."""
    missed, covered = 0, 0
    for event in events:
        kind = event["type"]
        if event.get("seat") != seat:
            continue
        if kind == TableKind.TIMEOUT:
            missed += 1
            covered = _COVERED[event["action"]]
        elif kind in (TableKind.AWAY, TableKind.BACK):
            missed, covered = 0, 0
        elif kind in INPUT_EVENTS:
            if covered:
                covered -= 1
            else:
                missed = 0
    return missed


def timeout_events(match: Match, seat: int, log: Iterable[Event]) -> list[Event]:
    """The events of the seat's time running out on the decision the match waits for
    (``log``: the game's log after its seat events): a ``timeout``, and an ``away`` once it
    is the :data:`MISSED_TURNS`-th in a row."""
    action = ACTIONS[match.pending.kind]
    found: list[Event] = [{"type": TableKind.TIMEOUT.value, "seat": seat, "action": action}]
    missed = missed_in_a_row(log, seat) + 1
    if missed >= MISSED_TURNS:
        found.append({"type": TableKind.AWAY.value, "seat": seat, "reason": "missed",
                      "missed": missed})
    return found


def check_clock(clock: int | None, online: bool) -> int | None:
    """A turn clock asked for at a new game: None (no clock), or seconds a decision for a
    game with friends online.

    :raises ClockError: a clock out of range, or one for a game played here alone.
    """
    if clock is None or clock == 0:
        return None
    if not MIN_CLOCK <= clock <= MAX_CLOCK:
        raise ClockError(_("a turn clock gives {low} to {high} seconds a decision, not "
                           "{clock}").format(low=MIN_CLOCK, high=MAX_CLOCK, clock=clock))
    if not online:
        raise ClockError(_("a turn clock is for a game with friends online (a seat open to "
                           "invite): players sharing one screen need none"))
    return clock


def merge(prefix: list[Event], match_events: list[Event],
          table_events: list[tuple[int, Event]], since: int) -> list[Event]:
    """The game's log from event number ``since`` on: its seat events, then the match's
    events with the table's (each at its number in the log) between them."""
    if not table_events or table_events[-1][0] < since:
        before = len(prefix) + len(table_events)
        if since >= before:                 # (the most frequent: after every table event)
            return match_events[since - before:]
    return (prefix + _interleave(match_events, table_events, len(prefix)))[since:]


def _interleave(match_events: list[Event], table_events: list[tuple[int, Event]],
                start: int) -> list[Event]:
    """The match's events with the table's, each at its number (counted from ``start``,
    the first number after the seat events)."""
    merged: list[Event] = []
    taken = 0
    for position, event in table_events:
        wanted = position - start - len(merged)     # match events before this one
        merged.extend(match_events[taken:taken + wanted])
        taken += wanted
        merged.append(event)
    merged.extend(match_events[taken:])
    return merged
