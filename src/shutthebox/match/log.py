"""The event log of a match: its vocabulary, its version, and reading a saved log.

A match writes one event per thing that happens, in order: a ``"type"`` (an
:class:`EventKind`) and its fields, all JSON values. Each kind has a ``TypedDict`` below that
names its fields. The events that carry a chance outcome or a decision
(:data:`INPUT_EVENTS`) are the game; every other event follows from them, so a log replays
exactly (:func:`shutthebox.match.replay`).

>>> RollEvent(type=EventKind.ROLL, seat=0, roll=[3, 5]) == {"type": "roll", "seat": 0,
...                                                           "roll": [3, 5]}
True
"""

from __future__ import annotations

import json
import os
import stat
import sys
from enum import StrEnum
from pathlib import Path
from typing import Any, Literal, NotRequired, TypedDict

from shutthebox.errors import LogError, ShutTheBoxError
from shutthebox.language import _
from shutthebox.paths import reason

Event = dict[str, Any]
"""One entry of the log as read or stored: a ``"type"`` and its fields, all JSON values."""

LOG_VERSION = 1
"""The version of the log's format, written in every log and checked when one is read."""


class EventKind(StrEnum):
    """The ``"type"`` of each event of the log (the values are the log's words)."""

    START = "start"
    ANTE = "ante"
    FIRST = "first"
    ROLL_OFF = "roll-off"
    ROUND = "round"
    TURN = "turn"
    ROLL = "roll"
    DICE = "dice"
    SHUT = "shut"
    STAND = "stand"
    PASS = "pass"
    TURN_END = "turn-end"
    ROUND_END = "round-end"
    ELIMINATED = "eliminated"
    LOSER = "loser"
    WINNER = "winner"
    PAYOUT = "payout"


INPUT_EVENTS = (EventKind.ROLL_OFF, EventKind.ROLL, EventKind.DICE, EventKind.SHUT,
                EventKind.STAND)
"""The events that carry chance outcomes or decisions; all others follow from them."""
DECISION_EVENTS = (EventKind.DICE, EventKind.SHUT, EventKind.STAND)
"""The events that carry a player's decision."""


class StartEvent(TypedDict):
    """The match's configuration (:meth:`shutthebox.match.MatchConfig.to_dict`)."""

    type: Literal[EventKind.START]
    rules: dict[str, Any]
    format: str
    players: list[str]
    stake: int


class AnteEvent(TypedDict):
    """Every player's stake goes into the pot."""

    type: Literal[EventKind.ANTE]
    stake: int
    pot: int


class _SeatEvent(TypedDict):
    seat: int


class _RollEvent(_SeatEvent):
    roll: list[int]


class _TilesEvent(_SeatEvent):
    tiles: list[int]


class FirstEvent(_SeatEvent):
    """Who plays first (in seat order, or after the roll-off)."""

    type: Literal[EventKind.FIRST]


class RollOffEvent(_RollEvent):
    """A roll-off roll: two dice to decide who plays first."""

    type: Literal[EventKind.ROLL_OFF]


class RoundEvent(TypedDict):
    """A round begins."""

    type: Literal[EventKind.ROUND]
    round: int


class TurnEvent(_SeatEvent):
    """A turn begins: in a round (``round``), or a battle's turn or roll (``role``)."""

    type: Literal[EventKind.TURN]
    round: NotRequired[int]
    role: NotRequired[str]


class RollEvent(_RollEvent):
    """The dice of a turn."""

    type: Literal[EventKind.ROLL]


class DiceEvent(_SeatEvent):
    """A dice choice: one die or two."""

    type: Literal[EventKind.DICE]
    dice: int


class ShutEvent(_TilesEvent):
    """The tiles shut for a roll."""

    type: Literal[EventKind.SHUT]


class StandEvent(_TilesEvent):
    """The tiles a battle's stander stands up for a roll."""

    type: Literal[EventKind.STAND]


class PassEvent(_SeatEvent):
    """A battle's mover can do nothing with the roll (or has no tiles to work on)."""

    type: Literal[EventKind.PASS]


class TurnEndEvent(_SeatEvent):
    """A turn's end: its score and the tiles left open."""

    type: Literal[EventKind.TURN_END]
    score: int
    open: list[int]
    shut_box: bool


class RoundEndEvent(TypedDict):
    """A round's end: its scores by seat (as text keys, as JSON has them) and the totals."""

    type: Literal[EventKind.ROUND_END]
    round: int
    scores: dict[str, int]
    totals: list[int]


class EliminatedEvent(_SeatEvent):
    """A player out of an elimination match, with their total."""

    type: Literal[EventKind.ELIMINATED]
    total: int


class _SeatsEvent(TypedDict):
    seats: list[int]


class LoserEvent(_SeatsEvent):
    """The losers of a ``loser-at`` match."""

    type: Literal[EventKind.LOSER]


class WinnerEvent(_SeatsEvent):
    """The winners (several on a tie): the match is over."""

    type: Literal[EventKind.WINNER]


class PayoutEvent(_SeatEvent):
    """A winner's share of the pot, in cents."""

    type: Literal[EventKind.PAYOUT]
    amount: int


LogEvent = (StartEvent | AnteEvent | FirstEvent | RollOffEvent | RoundEvent | TurnEvent
            | RollEvent | DiceEvent | ShutEvent | StandEvent | PassEvent | TurnEndEvent
            | RoundEndEvent | EliminatedEvent | LoserEvent | WinnerEvent | PayoutEvent)
"""Any event a match writes."""


class TableKind(StrEnum):
    """The ``"type"`` of each event of a table played online (the web app's), stored
    between the match's own events: who plays a seat and the turn clock. The match never
    reads them; the web app replays them beside it, so a stored game replays exactly."""

    TIMEOUT = "timeout"
    AWAY = "away"
    BACK = "back"
    PAUSE = "pause"
    RESUME = "resume"
    END = "end"


class TimeoutEvent(_SeatEvent):
    """The seat's time ran out: the computer makes the ``action`` it was waited for
    (``roll``, ``dice``: the choice and its roll, or ``shut``: the tiles) for it."""

    type: Literal[TableKind.TIMEOUT]
    action: str


class AwayEvent(_SeatEvent):
    """From here on the computer plays the seat, until its player comes back; ``reason``:
    ``missed`` (``missed`` decisions in a row whose time ran out) or ``host`` (the host
    handed it over)."""

    type: Literal[TableKind.AWAY]
    reason: str
    missed: NotRequired[int]


class BackEvent(_SeatEvent):
    """The seat's player came back and plays it again."""

    type: Literal[TableKind.BACK]


class PauseEvent(TypedDict):
    """The host stopped the turn clock."""

    type: Literal[TableKind.PAUSE]


class ResumeEvent(TypedDict):
    """The host started the turn clock again (a full clock for the decision waited for)."""

    type: Literal[TableKind.RESUME]


class EndEvent(TypedDict):
    """The host ended the game: nothing more is played, and nobody wins it."""

    type: Literal[TableKind.END]


TableEvent = TimeoutEvent | AwayEvent | BackEvent | PauseEvent | ResumeEvent | EndEvent
"""Any event of a table played online."""
TABLE_EVENTS = frozenset(TableKind)
"""The types of the table's events, as the log has them."""


MAX_LOG_BYTES = 16 * 1024 * 1024
"""The largest game log read from a file: a long match of twelve players is far smaller,
and a file much larger is not a game log (``/dev/zero`` never ends)."""


def read_log_text(path: Path) -> str:
    """The text of a game log file: a regular file of at most :data:`MAX_LOG_BYTES`.

    A FIFO or a device is refused without reading it (a FIFO would wait for a writer, a
    device may never end).

    :raises LogError: the file cannot be read, is not a regular file, is too large or is not
        UTF-8 text.
    """
    shown = str(path)
    try:
        # O_NONBLOCK: opening a FIFO does not wait for a writer; regular files ignore it
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise LogError(_("cannot read {shown!r}: {error}").format(
                         shown=shown, error=reason(error))) from None
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise LogError(_("{shown!r} is not a game log: it is not a regular file").format(
                         shown=shown))
    with os.fdopen(descriptor, "rb") as file:
        try:
            data = file.read(MAX_LOG_BYTES + 1)
        except OSError as error:
            raise LogError(_("cannot read {shown!r}: {error}").format(
                             shown=shown, error=reason(error))) from None
    if len(data) > MAX_LOG_BYTES:
        raise LogError(_("{shown!r} is not a game log: it is larger than {mib} MiB").format(
                         shown=shown, mib=MAX_LOG_BYTES // 2**20))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise LogError(_("{shown!r} is not a game log: it is not text").format(
            shown=shown)) from None


def load_log(path: Path) -> dict[str, Any]:
    """Read a saved game log.

    Its player names must pass :func:`~shutthebox.names.clean_name`: a name from a file is
    printed later, and one holding a terminal escape would act on the terminal.

    :raises LogError: the file cannot be read, or is not a game log.
    """
    from shutthebox.names import clean_name

    shown = str(path)
    text = read_log_text(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise LogError(_("{shown!r} is not JSON: {msg} at line {lineno}").format(
                         shown=shown, msg=error.msg, lineno=error.lineno)) from None
    except RecursionError:
        raise LogError(_("{shown!r} is not a game log: its JSON is nested too deeply").format(
                         shown=shown)) from None
    except ValueError:   # Python refuses to read a whole number of thousands of digits
        raise LogError(_("{shown!r} is not a game log: it holds a number of more than "
                         "{digits} digits").format(
                         shown=shown, digits=sys.get_int_max_str_digits())) from None
    if not isinstance(data, dict) or "events" not in data:
        raise LogError(_("{shown!r} is not a shutthebox game log").format(shown=shown))
    players = data.get("players")
    if isinstance(players, list):
        for name in players:
            if not isinstance(name, str):
                raise LogError(_("{shown!r} is not a game log: a player name is {name!r}").format(
                                 shown=shown, name=name))
            try:
                clean_name(name)
            except ShutTheBoxError as error:
                raise LogError(_("{shown!r} has a player name that cannot be shown: "
                                 "{error}").format(shown=shown, error=error)) from None
    return data
