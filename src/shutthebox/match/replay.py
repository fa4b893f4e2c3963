"""Replaying a log: rebuild the match it records, bring a match up to date, or list its
decisions with the position each was taken in.

The input events (:data:`~shutthebox.match.log.INPUT_EVENTS`) are applied in order and the
match's own events must then equal the log's: a log replays exactly or not at all.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from shutthebox.dice import Roll
from shutthebox.errors import LogError
from shutthebox.language import _
from shutthebox.match.core import Decision, Match, MatchConfig, PendingKind
from shutthebox.match.log import DECISION_EVENTS, INPUT_EVENTS, LOG_VERSION, Event, EventKind
from shutthebox.tiles import mask_of


def _whole_numbers(event: Event, index: int, key: str) -> list[int]:
    """The list of whole numbers an input event carries under ``key`` (not bools, not floats)."""
    values = event.get(key)
    if not isinstance(values, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise LogError(_("event {index} {event!r} does not replay: {key!r} must be a "
                         "list of whole numbers").format(index=index, event=event, key=key))
    return values


_WAITED_FOR = {EventKind.ROLL_OFF: PendingKind.ROLL_OFF, EventKind.ROLL: PendingKind.ROLL,
               EventKind.DICE: PendingKind.CHOOSE_DICE, EventKind.SHUT: PendingKind.SHUT,
               EventKind.STAND: PendingKind.SHUT}
"""What the match must wait for when each input event comes."""


def _event_input(match: Match, event: Event, index: int) -> int | Roll:
    """The roll, dice count or tile mask an input event carries, checked against what the
    match waits for."""
    kind = event["type"]
    pending = match.pending
    wanted = _WAITED_FOR[kind]
    if pending.kind is not wanted:
        raise LogError(f"event {index} {event!r} does not replay: the match waits for "
                       f"{pending.kind.value!r}"
                       + (" (it is over)" if pending.kind is PendingKind.OVER else ""))
    if kind in (EventKind.ROLL_OFF, EventKind.ROLL):
        return tuple(_whole_numbers(event, index, "roll"))
    if kind == EventKind.DICE:
        dice = event.get("dice")
        if isinstance(dice, bool) or not isinstance(dice, int):
            raise LogError(_("event {index} {event!r} does not replay: 'dice' must be 1 "
                             "or 2").format(index=index, event=event))
        return dice
    try:
        return mask_of(_whole_numbers(event, index, "tiles"))
    except ValueError as error:
        raise LogError(_("event {index} {event!r} does not replay: {error}").format(
                         index=index, event=event, error=error)) from None


def _replay_steps(log: Mapping[str, Any]) -> Iterator[tuple[Match, Event, int]]:
    """Rebuild a match from a log, yielding (match before the step, event, index) for each
    input event; the final match is checked against the whole log."""
    if not isinstance(log, Mapping) or "events" not in log:
        raise LogError(_("not a shutthebox game log: it has no 'events'"))
    if log.get("version") != LOG_VERSION:
        raise LogError(_("unsupported log version {version!r}: expected {LOG_VERSION}").format(
                         version=log.get('version'), LOG_VERSION=LOG_VERSION))
    try:
        match = Match(MatchConfig.from_dict(log))
    except (KeyError, TypeError, AttributeError) as error:
        raise LogError(_("the log's header is incomplete: {error}").format(error=error)) from None
    events = log["events"]
    if not isinstance(events, list):
        raise LogError(_("not a shutthebox game log: its 'events' is not a list"))
    yield from _steps(match, events, 0)


def _steps(match: Match, events: list[Any], start: int) -> Iterator[tuple[Match, Event, int]]:
    """Apply ``events[start:]`` to a match that has the first ``start`` of them, yielding
    (match before the step, event, index) for each input event; the match's events are
    then checked against ``events``."""
    for index in range(start, len(events)):
        event = events[index]
        kind = event.get("type") if isinstance(event, dict) else None
        if kind not in INPUT_EVENTS:
            continue
        given = _event_input(match, event, index)
        yield match, event, index
        try:
            if isinstance(given, tuple):
                match.apply_roll(given)
            else:
                match.decide(given)
        except (KeyError, TypeError, ValueError) as error:
            raise LogError(_("event {index} {event!r} does not replay: {error}").format(
                             index=index, event=event, error=error)) from None
    if match.events != events:
        diverge = next((i for i, (a, b) in enumerate(zip(match.events, events, strict=False))
                        if a != b), min(len(match.events), len(events)))
        raise LogError(_("the log does not replay: it differs at event {diverge}").format(
                         diverge=diverge))
    yield match, {"type": "end"}, len(events)   # not an event of the log: the steps' end


def advance(match: Match, events: list[Any]) -> None:
    """Bring a match up to ``events``, its whole log of which it has a beginning: the
    events it does not have yet are replayed (a match kept in memory while another
    process moved the game on).

    :raises LogError: ``events`` does not begin with the match's events, or does not replay.
    """
    start = len(match.events)
    if events[:start] != match.events:
        raise LogError(_("the log does not continue this match"))
    for _step in _steps(match, events, start):
        pass


def replay(log: Mapping[str, Any]) -> Match:
    """Rebuild a match from its log; the log must replay to exactly the same events.

    :raises LogError: not a game log of this version, or it does not replay.
    """
    last: Match | None = None
    for match, _event, _said in _replay_steps(log):
        last = match
    assert last is not None
    return last


def replay_decisions(log: Mapping[str, Any]) -> list[Decision]:
    """Every decision of a logged game with the position it was taken in.

    :raises LogError: not a game log of this version, or it does not replay.
    """
    decisions: list[Decision] = []
    for match, event, index in _replay_steps(log):
        if event["type"] not in DECISION_EVENTS:
            continue
        pending = match.pending
        assert pending.seat is not None and pending.turn is not None
        action = event["dice"] if event["type"] == EventKind.DICE else mask_of(event["tiles"])
        decisions.append(Decision(index, pending.seat, match.players[pending.seat],
                                  pending.turn, match.situation(), action, pending.role))
    return decisions
