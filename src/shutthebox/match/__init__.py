"""Whole games of every format, with an append-only event log that replays exactly.

A :class:`Match` is a state machine over turns, like :class:`~shutthebox.turn.TurnState`
one level up: its :attr:`Match.pending` node is a chance node (a roll-off roll or a dice
roll) or a decision (a dice choice or the tiles to shut) for one seat, until the match is
over. Chance nodes are resolved with a seedable generator (:meth:`Match.roll`) or an explicit
roll (:meth:`Match.apply_roll`); decisions with :meth:`Match.decide`.

The package holds one concept a module: the match itself (:mod:`shutthebox.match.core`),
money and the ledger (:mod:`shutthebox.match.money`), the score sheet of a real table
(:mod:`shutthebox.match.sheet`), the event log and its vocabulary
(:mod:`shutthebox.match.log`), and replay (:mod:`shutthebox.match.replay`). Every name is
read from here.

>>> import random
>>> from shutthebox.rules import Rules
>>> from shutthebox.players.simple import HighestFirstStrategy
>>> config = MatchConfig(Rules(), GameFormat.parse("single"), ("Ann", "Bob"))
>>> match = Match(config)
>>> play_out(match, {0: HighestFirstStrategy(), 1: HighestFirstStrategy()}, random.Random(7))
>>> match.is_over, match.winners
(True, (0,))
>>> replay(match.to_log()).events == match.events
True
"""

from shutthebox.formats import FormatKind, GameFormat
from shutthebox.match.core import (
    MAX_PLAYERS,
    Decision,
    Match,
    MatchConfig,
    Pending,
    PendingKind,
    play_out,
    save_match,
)
from shutthebox.match.log import (
    INPUT_EVENTS,
    LOG_VERSION,
    MAX_LOG_BYTES,
    TABLE_EVENTS,
    Event,
    EventKind,
    LogEvent,
    TableEvent,
    TableKind,
    load_log,
    read_log_text,
)
from shutthebox.match.money import MAX_STAKE, Ledger, format_money, parse_stake
from shutthebox.match.replay import advance, replay, replay_decisions
from shutthebox.match.sheet import (
    MAX_SHEET_ROUNDS,
    ScoreSheet,
    SheetError,
    SheetGame,
    SheetRound,
    possible_scores,
)

__all__ = [
    "INPUT_EVENTS",
    "LOG_VERSION",
    "MAX_LOG_BYTES",
    "MAX_PLAYERS",
    "MAX_SHEET_ROUNDS",
    "MAX_STAKE",
    "TABLE_EVENTS",
    "Decision",
    "Event",
    "EventKind",
    "FormatKind",
    "GameFormat",
    "Ledger",
    "LogEvent",
    "Match",
    "MatchConfig",
    "Pending",
    "PendingKind",
    "ScoreSheet",
    "SheetError",
    "SheetGame",
    "SheetRound",
    "TableEvent",
    "TableKind",
    "advance",
    "format_money",
    "load_log",
    "parse_stake",
    "play_out",
    "possible_scores",
    "read_log_text",
    "replay",
    "replay_decisions",
    "save_match",
]
