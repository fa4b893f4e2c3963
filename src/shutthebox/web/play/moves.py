"""A player's move on the server: a roll, a dice choice or tiles to shut, checked (the
seat's token, the turn, the event number it was made against), applied to the game's
match with the server's dice, and stored with its answer in one unit of work
(:meth:`~shutthebox.web.play.changes.GameChanges.changing`) before it is acknowledged.

A repeated request with the same ``Idempotency-Key`` answers the first answer and changes
nothing; without a key, the event number sent must be the game's newest.
"""

from __future__ import annotations

import random
from typing import Any

from shutthebox.errors import ShutTheBoxError
from shutthebox.language import N_, _
from shutthebox.match import PendingKind
from shutthebox.tiles import mask_of
from shutthebox.web.play.changes import GameChanges, start_clock
from shutthebox.web.play.memory import LoadedGame
from shutthebox.web.play.seats import ForbiddenError, UnauthorizedError
from shutthebox.web.play.view import Batch, view_members
from shutthebox.web.storage import stored_answer


class NotYourTurnError(ShutTheBoxError):
    """The action is not the one the game waits for, not from the seat to act, or made
    against an event number that is no longer the newest (409)."""


class StaleError(ShutTheBoxError):
    """An action with neither an event number nor an Idempotency-Key (400)."""


def act(changes: GameChanges, game_id: str, token: str | None, kind: str, argument: Any,
        event: int | None, key: str | None, seat: int | None = None) -> str:
    """Apply the action (``roll``, ``dice`` with a count, ``shut`` with tiles) of the seat
    ``token`` holds (``seat``, if sent, must be it) and store it; answer the new state as
    JSON (or, for a repeated Idempotency-Key, the first answer).

    :raises UnauthorizedError: no token, or an unknown one (401).
    :raises ForbiddenError: a token of another game or another seat (403).
    :raises StaleError: neither ``event`` nor ``key`` (400).
    :raises NotYourTurnError: not this seat's turn, not this action, or an old ``event``
        (409).
    :raises ShutTheBoxError: an action the match refuses, such as tiles that cannot be
        shut (400).
    """
    if not token:
        raise UnauthorizedError(_("send your seat's token (Authorization: Bearer "
                                  "<token>)"))
    mine = changes.seat_of(game_id, [token])
    if seat is not None and seat != mine:
        raise ForbiddenError(_("this token holds seat {mine}, not seat {seat}").format(
                               mine=mine, seat=seat))
    if key is None and event is None:
        raise StaleError(_("send the event number the action was made against "
                           "(\"event\") or an Idempotency-Key header"))
    with changes.changing(game_id) as change:
        if key is not None:
            # (read outside the move's transaction: the answer is stored with the move,
            # which stores nothing if another request stored the key's answer first)
            first = stored_answer(change.connection, game_id, mine, key)
            if first is not None:
                return first
        loaded, before = change.loaded, change.before
        if event is not None and event != before:
            raise NotYourTurnError(_("the game has moved on: it is at event {before}, the "
                                     "action was made at event {event}; load it again")
                                   .format(before=before, event=event))
        apply_action(loaded, mine, kind, argument, changes.dice)
        members, state = view_members(game_id, loaded, before)
        body = f'{{{members}, "you": [{mine}]}}'
        change.batch = Batch.of(state, members)
        if key is not None:
            change.answer = (mine, key, body)
    return body


def apply_action(loaded: LoadedGame, seat: int, kind: str, argument: Any,
                 dice: random.Random) -> None:
    """Apply the action to the game in memory (its clock started for what comes next).

    :raises NotYourTurnError: not this seat's turn or not this action (409).
    :raises ShutTheBoxError: an action the match refuses (400).
    """
    match = loaded.match
    if match is None:
        raise NotYourTurnError(_("the game has not started: it waits for players to "
                                 "join"))
    pending = match.pending
    if match.is_over:
        raise NotYourTurnError(_("the game is over"))
    if pending.seat != seat:
        whose = loaded.seats[pending.seat].name if pending.seat is not None else _("the dice")
        raise NotYourTurnError(_("it is {whose}'s turn, not yours (seat {seat})").format(
                                 whose=whose, seat=seat))
    if loaded.table.plays(seat) or loaded.table.ended:
        raise NotYourTurnError(
            _("the game is ended") if loaded.table.ended else
            _("the computer plays seat {seat} now: take it back first "
              "(POST /api/games/<id>/table/back)").format(seat=seat)
            if seat in loaded.table.away else
            _("seat {seat}'s time ran out: the computer makes this move").format(
                seat=seat))
    wanted = {"roll": PendingKind.ROLL, "dice": PendingKind.CHOOSE_DICE,
              "shut": PendingKind.SHUT}[kind]
    if pending.kind is not wanted:
        raise NotYourTurnError(_("the game waits for {awaited}, not {sent}").format(
                               awaited=_(ACTION_WORDS[pending.kind]),
                               sent=_(ACTION_WORDS[wanted])))
    # A refusal changes nothing; were the match changed before it refused, the game's
    # event count would differ and the unit of work would let the game go from memory.
    if kind == "roll":
        match.roll(dice)
    elif kind == "dice":
        match.decide(argument)
        match.roll(dice)
    else:
        match.decide(mask_of(argument))
    if loaded.table.clock is not None:
        start_clock(loaded)             # (the answer says the clock of the next decision)


ACTION_WORDS = {PendingKind.ROLL: N_("a roll"), PendingKind.CHOOSE_DICE: N_("a dice choice"),
                PendingKind.SHUT: N_("tiles to shut"), PendingKind.ROLL_OFF: N_("the roll-off"),
                PendingKind.OVER: N_("nothing (it is over)")}
