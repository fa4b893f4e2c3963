"""A table's actions, each a table event stored in the game's log by one unit of work
(:meth:`~shutthebox.web.play.changes.GameChanges.changing`): the host's ``pause``,
``resume``, ``end`` and ``hand`` (a seat to the computer), and any player's ``back``.

A game's log is bounded: the host may make at most :data:`HOST_ACTIONS_A_TURN` table
actions between two turns' ends (429 past them, until a turn ends) and
:data:`HOST_ACTIONS_A_GAME` in a whole game (409 past them), so that pausing and resuming
in a loop cannot grow a game's log, and the cost of every later request on it, without end.
"""

from __future__ import annotations

from typing import Any

from shutthebox.errors import ShutTheBoxError
from shutthebox.language import _
from shutthebox.match import TableKind
from shutthebox.web.play.changes import GameChanges
from shutthebox.web.play.memory import LoadedGame
from shutthebox.web.play.seats import SeatKind
from shutthebox.web.play.table import NotTheHostError, TableStateError

HOST_ACTIONS_A_TURN = 10
"""The host's table actions between two turns' ends, at most: enough to pause and resume a
few times while a friend answers the door."""
HOST_ACTIONS_A_GAME = 200
"""The host's table actions in a whole game, at most."""
HOST_KINDS = (TableKind.PAUSE.value, TableKind.RESUME.value, TableKind.END.value)


class TooManyTableActionsError(ShutTheBoxError):
    """The host made as many table actions this turn as a turn allows (429)."""


def table_action(changes: GameChanges, game_id: str, mine: int, action: str,
                 seat: int | None = None) -> None:
    """Seat ``mine``'s table action (see the module's description); nothing is stored when
    it changes nothing (``back`` of a seat the computer does not play).

    :raises NotTheHostError: a host's action by another seat (403).
    :raises TableStateError: an action that does not fit the game as it is, or past the
        host's actions of a game (409).
    :raises TooManyTableActionsError: past the host's actions of a turn (429).
    """
    with changes.changing(game_id) as change:
        event = table_event(change.loaded, mine, action, seat)
        if event is not None:
            change.loaded.add_table_event(event)


def table_event(loaded: LoadedGame, mine: int, action: str, seat: int | None
                ) -> dict[str, Any] | None:
    """The table event of ``action`` by seat ``mine`` (None: nothing to change)."""
    table, match = loaded.table, loaded.match
    if match is None:
        raise TableStateError(_("the game has not started: it waits for players to "
                                "join"))
    if match.is_over or table.ended:
        raise TableStateError(_("the game is over"))
    if action == "back":
        return {"type": TableKind.BACK.value, "seat": mine} if mine in table.away \
            else None
    if mine != table.host:
        raise NotTheHostError(_("only the host (the seat that created the game) may do "
                                "this; this token holds seat {seat}").format(seat=mine))
    check_host_actions(loaded)
    if action == "end":
        return {"type": TableKind.END.value}
    if action in ("pause", "resume"):
        if table.clock is None:
            raise TableStateError(_("this game has no turn clock"))
        if table.paused == (action == "pause"):
            raise TableStateError(_("the clock is paused already") if table.paused
                                  else _("the clock is running already"))
        return {"type": action}
    if seat is None or not 0 <= seat < len(loaded.seats):
        raise TableStateError(_("no seat {seat} at this table: seats are 0 to {last}")
                              .format(seat=seat, last=len(loaded.seats) - 1))
    if loaded.seats[seat].kind is SeatKind.COMPUTER or seat in table.away:
        raise TableStateError(_("the computer plays seat {seat} already").format(
            seat=seat))
    if seat == mine:
        raise TableStateError(_("the host plays their own seat: hand over another one"))
    return {"type": TableKind.AWAY.value, "seat": seat, "reason": "host"}


def check_host_actions(loaded: LoadedGame) -> None:
    """:raises TooManyTableActionsError, TableStateError: the host's actions of this turn,
    or of the game, are all made."""
    assert loaded.match is not None
    turn_ends = [event["position"] for event in _positions(loaded)
                 if event["type"] == "turn-end"]
    since = turn_ends[-1] if turn_ends else -1
    hosts = [position for position, event in loaded.table_events if _by_host(event)]
    if len(hosts) >= HOST_ACTIONS_A_GAME:
        raise TableStateError(_("the host has made {count} table actions in this game, as "
                                "many as a game allows").format(count=len(hosts)))
    if sum(1 for position in hosts if position > since) >= HOST_ACTIONS_A_TURN:
        raise TooManyTableActionsError(_(
            "the host has made {count} table actions this turn, as many as a turn allows: "
            "wait for the turn to end").format(count=HOST_ACTIONS_A_TURN))


def _by_host(event: dict[str, Any]) -> bool:
    return event["type"] in HOST_KINDS or (event["type"] == TableKind.AWAY.value
                                           and event.get("reason") == "host")


def _positions(loaded: LoadedGame) -> list[dict[str, Any]]:
    """The match's ``turn-end`` events with their positions in the game's log."""
    start = len(loaded.prefix)
    return [{"position": start + offset, "type": event["type"]}
            for offset, event in enumerate(loaded.log(start))
            if event["type"] == "turn-end"]
