"""The steps the server plays itself, each a unit of work
(:meth:`~shutthebox.web.play.changes.GameChanges.changing`): a roll-off or a computer's roll
and decision (driven by :mod:`shutthebox.web.play.computers`), and a turn clock that ran out
(driven by :mod:`shutthebox.web.play.clock`), after which the computer makes the move."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import select

from shutthebox.web.play.changes import GameChangedError, GameChanges
from shutthebox.web.play.memory import waiting_for
from shutthebox.web.play.seats import SeatKind
from shutthebox.web.play.table import TABLE_COMPUTER, timeout_events
from shutthebox.web.storage import GAMES, now


@dataclass(frozen=True)
class ServerStep:
    """A step the server plays: a roll (roll-off or a computer's), or a computer's decision
    (``log`` is the match's log for the solver worker)."""

    game_id: str
    count: int
    seat: int | None
    strategy: str | None = None
    log: dict[str, Any] | None = None
    pace: str = "watch"
    human: bool = False
    """Whether a person plays at the table (and waits for this step)."""

    @property
    def is_roll(self) -> bool:
        return self.strategy is None


def next_step(changes: GameChanges, game_id: str) -> ServerStep | None:
    """The step the server plays next in this game, or None if a person acts next."""
    loaded = changes.read(game_id)
    if waiting_for(loaded) != "server":
        return None
    match = loaded.match
    assert match is not None
    pending = match.pending
    if pending.is_chance:
        return ServerStep(game_id, loaded.count, pending.seat, pace=loaded.pace)
    assert pending.seat is not None
    return ServerStep(game_id, loaded.count, pending.seat,
                      loaded.seats[pending.seat].computer or TABLE_COMPUTER,
                      loaded.match_log(), loaded.pace,
                      any(s.kind is not SeatKind.COMPUTER for s in loaded.seats))


def play_step(changes: GameChanges, step: ServerStep, action: int | None) -> bool:
    """Play the step (roll, or the computer's action) if the game is still where it was
    planned; False if another server process got there first."""
    try:
        with changes.changing(step.game_id) as change:
            loaded = change.loaded
            if loaded.count != step.count or waiting_for(loaded) != "server":
                return False
            match = loaded.match
            assert match is not None
            made = len(match.events)
            if step.is_roll:
                match.roll(changes.dice)
            else:
                assert action is not None
                match.decide(action)
            for event in match.events[made:]:
                loaded.table.apply(event)       # (a timeout's move, made)
    except GameChangedError:
        return False
    return True


def games_waiting_for_server(changes: GameChanges, quiet_for: float) -> list[str]:
    """Games the server should move on that nobody has touched for ``quiet_for`` seconds
    (after a restart, or when the process driving them stopped)."""
    with changes.store.connect() as db:
        rows = db.execute(select(GAMES.c.id).where(
            GAMES.c.waiting_for == "server",
            GAMES.c.updated <= now() - timedelta(seconds=quiet_for)).limit(500))
        return [game_id for (game_id,) in rows]


def games_out_of_time(changes: GameChanges) -> list[tuple[str, int]]:
    """(id, event count) of the games whose turn clock has run out (the longest out first,
    a bounded number)."""
    with changes.store.connect() as db:
        rows = db.execute(select(GAMES.c.id, GAMES.c.event_count).where(
            GAMES.c.deadline <= now()).order_by(GAMES.c.deadline).limit(100))
        return [(game_id, count) for game_id, count in rows]


def time_out(changes: GameChanges, game_id: str, count: int) -> bool:
    """The clock ran out for the decision the game waits for at event ``count``: store the
    seat's ``timeout`` (and ``away`` after too many in a row), and hand the move to the
    computer. False if the game moved on meanwhile, or the clock did not run out (another
    process, or the player, got there first)."""
    try:
        with changes.changing(game_id) as change:
            loaded = change.loaded
            deadline = change.db.scalar(select(GAMES.c.deadline).where(GAMES.c.id == game_id))
            if loaded.count != count or deadline is None or deadline > now():
                return False
            match = loaded.match
            if match is None or not loaded.table.clock_runs(waiting_for(loaded)):
                change.touch = True             # (its deadline goes)
                return False
            seat = match.pending.seat
            assert seat is not None
            for event in timeout_events(match, seat, loaded.log(len(loaded.prefix))):
                loaded.add_table_event(event)
    except GameChangedError:
        return False
    return True
