"""Whole games of every format, with an append-only event log that replays exactly.

A :class:`Match` is a state machine over turns, like :class:`~shutthebox.turn.TurnState`
one level up: its :attr:`Match.pending` node is a chance node (a roll-off roll or a dice
roll) or a decision (a dice choice or the tiles to shut) for one seat, until the match is
over. Chance nodes are resolved with a seedable generator (:meth:`Match.roll`) or an explicit
roll (:meth:`Match.apply_roll`); decisions with :meth:`Match.decide`.

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

from __future__ import annotations

import json
import os
import random
import stat
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from pathlib import Path
from typing import Any

from shutthebox.dice import Roll, roll_dice
from shutthebox.errors import FormatError, IllegalMoveError, LogError, ShutTheBoxError
from shutthebox.formats import FormatKind as FormatKind  # also read from here by callers
from shutthebox.formats import GameFormat as GameFormat  # of the match (MatchConfig.format)
from shutthebox.formats import RoundResult
from shutthebox.players.base import Role, Situation, Strategy
from shutthebox.rules import FirstPlayer, Rules
from shutthebox.tiles import Tiles, mask_of, tiles_of
from shutthebox.turn import Phase, TurnState

Event = dict[str, Any]
"""One entry of the log: a ``"type"`` and its fields, all JSON values."""

LOG_VERSION = 1
MAX_PLAYERS = 12
MAX_STAKE = 1_000_000_00
"""The largest stake, in cents (a million)."""


def parse_stake(text: str) -> int:
    """A stake written in money units (``'1'``, ``'0.50'``) as whole cents.

    >>> parse_stake("0.5")
    50
    """
    try:
        amount = Decimal(text.strip())
    except InvalidOperation:
        raise FormatError(f"stake {text!r} is not an amount of money") from None
    if not amount.is_finite():
        raise FormatError(f"stake {text!r} is not an amount of money")
    if amount < 0 or amount.adjusted() > 8 or amount * 100 > MAX_STAKE:
        raise FormatError(f"stake {text!r} must be an amount from 0 to "
                          f"{format_money(MAX_STAKE)}")
    cents = amount * 100
    if (amount and amount.adjusted() < -2) or cents != cents.to_integral_value():
        raise FormatError(f"stake {text!r} must be a positive amount in whole cents")
    return int(cents)


def format_money(cents: int) -> str:
    """Cents as money: ``'1.50'``, ``'-0.25'``."""
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"


@dataclass(frozen=True)
class MatchConfig:
    """Everything fixed before a match starts."""

    rules: Rules
    format: GameFormat
    players: tuple[str, ...]
    stake: int = 0
    """Each player's ante in cents; 0 for no betting."""

    def __post_init__(self) -> None:
        names = [name.strip() for name in self.players]
        if any(not name for name in names):
            raise FormatError(f"player names cannot be empty: {list(self.players)!r}")
        if len(set(names)) != len(names):
            raise FormatError(f"player names must differ: {list(self.players)!r}")
        if not 1 <= len(names) <= MAX_PLAYERS:
            raise FormatError(f"a game takes 1 to {MAX_PLAYERS} players, not {len(names)}")
        object.__setattr__(self, "players", tuple(names))
        self.format.check(self.rules, len(names))
        if self.rules.instant_win is None:   # the format decides; the log says which
            object.__setattr__(self, "rules", self.rules.replace(
                instant_win=self.rules.shut_box_wins(self.format.multi_round)))
        if isinstance(self.stake, bool) or not isinstance(self.stake, int) \
                or not 0 <= self.stake <= MAX_STAKE:
            raise FormatError(f"the stake must be 0 to {MAX_STAKE} cents, not {self.stake!r}")
        if self.stake and len(names) < 2:
            raise FormatError("a stake needs at least two players to play for the pot")

    def to_dict(self) -> dict[str, Any]:
        return {"rules": self.rules.to_dict(), "format": str(self.format),
                "players": list(self.players), "stake": self.stake}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MatchConfig:
        return cls(Rules.from_dict(dict(data["rules"])), GameFormat.parse(data["format"]),
                   tuple(data["players"]), int(data.get("stake", 0)))


class PendingKind(StrEnum):
    """What kind of node the match is at: its values are the words of the web API's
    ``pending.kind``, so the wire reads the same."""

    ROLL_OFF = "roll-off"
    ROLL = "roll"
    CHOOSE_DICE = "choose-dice"
    SHUT = "shut"
    OVER = "over"

    @property
    def is_chance(self) -> bool:
        """A roll-off roll or a dice roll."""
        return self in (PendingKind.ROLL_OFF, PendingKind.ROLL)

    @property
    def is_decision(self) -> bool:
        """A dice choice or the tiles to shut (or stand up)."""
        return self in (PendingKind.CHOOSE_DICE, PendingKind.SHUT)


_PENDING_OF_PHASE = {Phase.ROLL: PendingKind.ROLL, Phase.CHOOSE_DICE: PendingKind.CHOOSE_DICE,
                     Phase.SHUT: PendingKind.SHUT}


@dataclass(frozen=True)
class Pending:
    """What the match waits for next."""

    kind: PendingKind
    """A chance node (:attr:`PendingKind.ROLL_OFF`, :attr:`PendingKind.ROLL`), a decision
    (:attr:`PendingKind.CHOOSE_DICE`, :attr:`PendingKind.SHUT`), or
    :attr:`PendingKind.OVER`."""
    seat: int | None = None
    turn: TurnState | None = None
    role: Role = Role.TURN
    """:attr:`Role.TURN` in turn formats; :attr:`Role.KNOCK` or :attr:`Role.STAND` in a
    battle."""

    @property
    def is_chance(self) -> bool:
        return self.kind.is_chance

    @property
    def is_decision(self) -> bool:
        return self.kind.is_decision


@dataclass(frozen=True)
class Decision:
    """One decision taken in a game, as :func:`replay_decisions` finds it."""

    index: int
    """The position of the decision's event in the log."""
    seat: int
    player: str
    state: TurnState
    situation: Situation
    action: int
    role: Role = Role.TURN


@dataclass
class Match:
    """A match in progress. Drive it with :meth:`roll` / :meth:`apply_roll` and
    :meth:`decide`; read :attr:`pending`, :attr:`events` and the results."""

    config: MatchConfig
    events: list[Event] = field(default_factory=list)
    order: list[int] = field(default_factory=list)
    """Seats in playing order, the first player first (after the roll-off)."""
    round: int = 0
    totals: list[int] = field(default_factory=list)
    active: list[bool] = field(default_factory=list)
    round_scores: dict[int, int] = field(default_factory=dict)
    winners: tuple[int, ...] = ()
    losers: tuple[int, ...] = ()
    payouts: dict[int, int] = field(default_factory=dict)
    _contenders: list[int] = field(default_factory=list)
    _rolloff: dict[int, int] = field(default_factory=dict)
    _position: int = 0
    _turn: TurnState | None = None
    _role: Role = Role.TURN
    _board: Tiles = 0
    _over: bool = False

    def __post_init__(self) -> None:
        n = len(self.config.players)
        self.totals = [0] * n
        self.active = [True] * n
        self._log("start", **self.config.to_dict())
        if self.config.stake:
            self._log("ante", stake=self.config.stake, pot=self.config.stake * n)
        if self.rules.first_player is FirstPlayer.SEAT or n == 1:
            self._set_first(0)
        else:
            self._contenders = list(range(n))

    # --- reading ---------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self.config.rules

    @property
    def players(self) -> tuple[str, ...]:
        return self.config.players

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def board(self) -> Tiles:
        """The open tiles of the box: the current turn's, or the battle's shared box."""
        if self.config.format.is_battle:
            return self._board
        return self._turn.open_tiles if self._turn is not None else self.rules.full

    @property
    def pot(self) -> int:
        return self.config.stake * len(self.players)

    @property
    def pending(self) -> Pending:
        """The node the match is at."""
        if self._over:
            return Pending(PendingKind.OVER)
        if self._contenders:
            waiting = [s for s in self._contenders if s not in self._rolloff]
            return Pending(PendingKind.ROLL_OFF, waiting[0], role=Role.ROLL_OFF)
        turn = self._turn
        assert turn is not None
        seat = self.order[self._position]
        return Pending(_PENDING_OF_PHASE[turn.phase], seat, turn, self._role)

    def situation(self, seat: int | None = None) -> Situation:
        """What ``seat`` (default: the player to act) knows of the others this round."""
        if seat is None:
            seat = self.pending.seat
        if seat is None:
            return Situation()
        if self.config.format.is_battle:
            return Situation(format=self.config.format, role=self._role)
        others = [s for s in self.order if s != seat and self.active[s]]
        posted = tuple(self.round_scores[s] for s in others if s in self.round_scores)
        after = self.order[self.order.index(seat) + 1:]
        still = sum(1 for s in after if self.active[s] and s not in self.round_scores)
        totals = (self.totals[seat], *(self.totals[s] for s in others))
        decisive = self.config.format.kind is FormatKind.SINGLE
        played = tuple(s in self.round_scores for s in others)
        return Situation(posted, still, totals, max(self.round, 1), decisive,
                         self.config.format, others_played=played)

    # --- acting ------------------------------------------------------------------------

    def roll(self, rng: random.Random) -> Roll:
        """Resolve the pending chance node with a seedable generator; return the roll."""
        pending = self.pending
        if not pending.is_chance:
            raise IllegalMoveError(f"nothing to roll: the match waits for "
                                   f"{pending.kind.value!r}")
        dice = 2 if pending.turn is None else pending.turn.dice
        roll = roll_dice(rng, dice)
        self.apply_roll(roll)
        return roll

    def apply_roll(self, roll: Roll) -> None:
        """Resolve the pending chance node with a given roll."""
        pending = self.pending
        roll = tuple(sorted(roll))
        if pending.kind is PendingKind.ROLL_OFF:
            assert pending.seat is not None
            if len(roll) != 2 or not all(1 <= f <= 6 for f in roll):
                raise IllegalMoveError(f"a roll-off roll is two dice, not {list(roll)!r}")
            self._log("roll-off", seat=pending.seat, roll=list(roll))
            self._rolloff[pending.seat] = sum(roll)
            if len(self._rolloff) == len(self._contenders):
                self._settle_rolloff()
            return
        if pending.kind is not PendingKind.ROLL:
            raise IllegalMoveError(f"nothing to roll: the match waits for "
                                   f"{pending.kind.value!r}")
        assert self._turn is not None
        self._turn = self._turn.apply_roll(roll)
        self._log("roll", seat=pending.seat, roll=list(roll))
        self._after_step()

    def decide(self, action: int) -> None:
        """Apply the pending decision: a dice count, or the tile mask to shut (or stand)."""
        pending = self.pending
        turn = self._turn
        if not pending.is_decision or turn is None:
            raise IllegalMoveError(f"no decision is pending: the match waits for "
                                   f"{pending.kind.value!r}")
        if pending.kind is PendingKind.CHOOSE_DICE:
            self._turn = turn.choose_dice(action)
            self._log("dice", seat=pending.seat, dice=action)
            return
        after = turn.shut(action)
        self._log("stand" if self._role is Role.STAND else "shut", seat=pending.seat,
                  tiles=list(tiles_of(action)))
        if self.config.format.is_battle:
            self._board = self._board | action if self._role is Role.STAND else after.open_tiles
            decided = self._board == 0 or (self._role is Role.STAND
                                           and self._board == self.rules.full)
            if self.config.format.by_turns and not decided:
                self._turn = after   # the same player rolls on until stuck
                return
            self._end_battle_roll()
            return
        self._turn = after
        self._after_step()

    # --- the machinery -----------------------------------------------------------------

    def _log(self, kind: str, **fields: Any) -> None:
        self.events.append({"type": kind, **fields})

    def _settle_rolloff(self) -> None:
        best = (min if self.rules.first_player is FirstPlayer.LOWEST else max)(
            self._rolloff.values())
        tied = [s for s in self._contenders if self._rolloff[s] == best]
        self._rolloff = {}
        if len(tied) == 1:
            self._contenders = []
            self._set_first(tied[0])
        else:
            self._contenders = tied

    def _set_first(self, first: int) -> None:
        n = len(self.players)
        self.order = [(first + i) % n for i in range(n)]
        self._log("first", seat=first)
        if self.config.format.is_battle:
            self._board = self.rules.full
            self._position = 0
            self._start_battle_roll()
        else:
            self._start_round()

    def _start_round(self) -> None:
        self.round += 1
        self.round_scores = {}
        self._log("round", round=self.round)
        self._position = -1
        self._next_turn()

    def _next_turn(self) -> None:
        self._position += 1
        while self._position < len(self.order) and not self.active[self.order[self._position]]:
            self._position += 1
        if self._position == len(self.order):
            self._end_round()
            return
        seat = self.order[self._position]
        self._turn = TurnState.start(self.rules)
        self._log("turn", seat=seat, round=self.round)

    def _after_step(self) -> None:
        turn = self._turn
        assert turn is not None
        if self.config.format.is_battle:
            if turn.is_over:
                self._log("pass", seat=self.order[self._position])
                self._end_battle_roll()
            return
        if not turn.is_over:
            return
        seat = self.order[self._position]
        score = turn.score
        self.round_scores[seat] = score
        self.totals[seat] += score
        self._log("turn-end", seat=seat, score=score, open=list(tiles_of(turn.open_tiles)),
                  shut_box=turn.is_shut)
        if turn.is_shut and self.config.format.shut_box_wins(self.rules):
            self._finish((seat,))
            return
        self._next_turn()

    def _end_round(self) -> None:
        self._log("round-end", round=self.round,
                  scores={str(s): v for s, v in sorted(self.round_scores.items())},
                  totals=list(self.totals))
        playing = tuple(s for s in self.order if self.active[s])
        end = self.config.format.end_round(RoundResult(
            self.round, playing, self.round_scores, self.totals, self.rules.lower_is_better))
        for seat in end.out:
            self.active[seat] = False
            self._log("eliminated", seat=seat, total=self.totals[seat])
        if end.winners:
            self._finish(end.winners, end.losers)
        else:
            self._start_round()

    def _finish(self, winners: tuple[int, ...], losers: tuple[int, ...] = ()) -> None:
        self.winners, self.losers = winners, losers
        self._over = True
        if losers:
            self._log("loser", seats=list(losers))
        self._log("winner", seats=list(winners))
        if self.config.stake:
            share, extra = divmod(self.pot, len(winners))
            for seat in range(len(self.players)):
                won = (share + (1 if winners.index(seat) < extra else 0)
                       if seat in winners else 0)
                self.payouts[seat] = won
                if won:
                    self._log("payout", seat=seat, amount=won)

    # --- battle ------------------------------------------------------------------------

    def _start_battle_roll(self) -> None:
        """One single roll of a battle: the knocker shuts open tiles, the stander opens shut
        ones; the stander's turn is a turn over the shut tiles, mirrored."""
        self._role = Role.KNOCK if self._position == 0 else Role.STAND
        seat = self.order[self._position]
        tiles = self._board if self._role is Role.KNOCK else self.rules.full & ~self._board
        self._log("turn", seat=seat, role=self._role.value)
        self._turn = TurnState.before_roll(self.rules, tiles)
        if self._turn.is_over:
            self._log("pass", seat=seat)
            self._end_battle_roll()

    def _end_battle_roll(self) -> None:
        if self._board == 0:
            self._finish((self.order[0],))
        elif self._board == self.rules.full and self._role is Role.STAND:
            self._finish((self.order[1],))
        else:
            self._position = 1 - self._position
            self._start_battle_roll()

    # --- the log -----------------------------------------------------------------------

    def to_log(self, seed: int | None = None) -> dict[str, Any]:
        """The whole game as JSON-ready data: the config, the events, and the seed if known."""
        return {"version": LOG_VERSION, "seed": seed, **self.config.to_dict(),
                "events": [dict(e) for e in self.events]}

    def save(self, path: Path, seed: int | None = None) -> Path:
        """Write the log as JSON (the folder is created)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_log(seed), indent=1))
        return path


INPUT_EVENTS = ("roll-off", "roll", "dice", "shut", "stand")
"""The events that carry chance outcomes or decisions; all others follow from them."""


def _whole_numbers(event: Event, index: int, key: str) -> list[int]:
    """The list of whole numbers an input event carries under ``key`` (not bools, not floats)."""
    values = event.get(key)
    if not isinstance(values, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise LogError(f"event {index} {event!r} does not replay: {key!r} must be a list of "
                       f"whole numbers")
    return values


def _event_input(match: Match, event: Event, index: int) -> int | Roll:
    """The roll, dice count or tile mask an input event carries, checked against what the
    match waits for."""
    kind = event["type"]
    pending = match.pending
    wanted = {"roll-off": PendingKind.ROLL_OFF, "roll": PendingKind.ROLL,
              "dice": PendingKind.CHOOSE_DICE, "shut": PendingKind.SHUT,
              "stand": PendingKind.SHUT}[kind]
    if pending.kind is not wanted:
        raise LogError(f"event {index} {event!r} does not replay: the match waits for "
                       f"{pending.kind.value!r}"
                       + (" (it is over)" if pending.kind is PendingKind.OVER else ""))
    if kind in ("roll-off", "roll"):
        return tuple(_whole_numbers(event, index, "roll"))
    if kind == "dice":
        dice = event.get("dice")
        if isinstance(dice, bool) or not isinstance(dice, int):
            raise LogError(f"event {index} {event!r} does not replay: 'dice' must be 1 or 2")
        return dice
    try:
        return mask_of(_whole_numbers(event, index, "tiles"))
    except ValueError as error:
        raise LogError(f"event {index} {event!r} does not replay: {error}") from None


def _replay_steps(log: Mapping[str, Any]) -> Iterator[tuple[Match, Event, int]]:
    """Rebuild a match from a log, yielding (match before the step, event, index) for each
    input event; the final match is checked against the whole log."""
    if not isinstance(log, Mapping) or "events" not in log:
        raise LogError("not a shutthebox game log: it has no 'events'")
    if log.get("version") != LOG_VERSION:
        raise LogError(f"unsupported log version {log.get('version')!r}: expected {LOG_VERSION}")
    try:
        match = Match(MatchConfig.from_dict(log))
    except (KeyError, TypeError, AttributeError) as error:
        raise LogError(f"the log's header is incomplete: {error}") from None
    events = log["events"]
    if not isinstance(events, list):
        raise LogError("not a shutthebox game log: its 'events' is not a list")
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
            raise LogError(f"event {index} {event!r} does not replay: {error}") from None
    if match.events != events:
        diverge = next((i for i, (a, b) in enumerate(zip(match.events, events, strict=False))
                        if a != b), min(len(match.events), len(events)))
        raise LogError(f"the log does not replay: it differs at event {diverge}")
    yield match, {"type": "end"}, len(events)


def advance(match: Match, events: list[Any]) -> None:
    """Bring a match up to ``events``, its whole log of which it has a beginning: the
    events it does not have yet are replayed (a match kept in memory while another
    process moved the game on)."""
    start = len(match.events)
    if events[:start] != match.events:
        raise LogError("the log does not continue this match")
    for _ in _steps(match, events, start):
        pass


def replay(log: Mapping[str, Any]) -> Match:
    """Rebuild a match from its log; the log must replay to exactly the same events."""
    last: Match | None = None
    for match, _, _ in _replay_steps(log):
        last = match
    assert last is not None
    return last


def replay_decisions(log: Mapping[str, Any]) -> list[Decision]:
    """Every decision of a logged game with the position it was taken in."""
    decisions: list[Decision] = []
    for match, event, index in _replay_steps(log):
        if event["type"] not in ("dice", "shut", "stand"):
            continue
        pending = match.pending
        assert pending.seat is not None and pending.turn is not None
        action = event["dice"] if event["type"] == "dice" else mask_of(event["tiles"])
        decisions.append(Decision(index, pending.seat, match.players[pending.seat],
                                  pending.turn, match.situation(), action, pending.role))
    return decisions


MAX_LOG_BYTES = 16 * 1024 * 1024
"""The largest game log read from a file: a long match of twelve players is well under
1 MiB, and a file much larger is not a game log (``/dev/zero`` never ends)."""


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
        raise LogError(f"cannot read {shown!r}: {error.strerror or error}") from None
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise LogError(f"{shown!r} is not a game log: it is not a regular file")
    with os.fdopen(descriptor, "rb") as file:
        try:
            data = file.read(MAX_LOG_BYTES + 1)
        except OSError as error:
            raise LogError(f"cannot read {shown!r}: {error.strerror or error}") from None
    if len(data) > MAX_LOG_BYTES:
        raise LogError(f"{shown!r} is not a game log: it is larger than "
                       f"{MAX_LOG_BYTES // 2**20} MiB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise LogError(f"{shown!r} is not a game log: it is not text") from None


def load_log(path: Path) -> dict[str, Any]:
    """Read a saved game log (raises :class:`LogError` for a file that is not one).

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
        raise LogError(f"{shown!r} is not JSON: {error.msg} at line {error.lineno}") from None
    except RecursionError:
        raise LogError(f"{shown!r} is not a game log: its JSON is nested too deeply") from None
    except ValueError:   # Python refuses to read a whole number of thousands of digits
        raise LogError(f"{shown!r} is not a game log: it holds a number of more than "
                       f"{sys.get_int_max_str_digits()} digits") from None
    if not isinstance(data, dict) or "events" not in data:
        raise LogError(f"{shown!r} is not a shutthebox game log")
    players = data.get("players")
    if isinstance(players, list):
        for name in players:
            if not isinstance(name, str):
                raise LogError(f"{shown!r} is not a game log: a player name is {name!r}")
            try:
                clean_name(name)
            except ShutTheBoxError as error:
                raise LogError(f"{shown!r} has a player name that cannot be shown: "
                               f"{error}") from None
    return data


def play_out(match: Match, players: Mapping[int, Strategy], rng: random.Random,
             on_step: Callable[[Match], None] | None = None) -> None:
    """Run the match until it is over or waits for a seat with no strategy (a human).

    Chance nodes are rolled with ``rng``; ``on_step`` is called after every step.
    """
    while True:
        pending = match.pending
        if pending.is_chance:
            match.roll(rng)
        elif pending.is_decision and pending.seat in players:
            assert pending.turn is not None and pending.seat is not None
            match.decide(players[pending.seat].choose(pending.turn, match.situation()))
        else:
            return
        if on_step is not None:
            on_step(match)


@dataclass
class Ledger:
    """The running money of a betting session: each player's net result in cents."""

    net: dict[str, int] = field(default_factory=dict)
    games: int = 0

    def record(self, match: Match) -> None:
        """Add a finished match's antes and payouts."""
        if not match.is_over:
            raise FormatError("only a finished game can be entered in the ledger")
        stake = match.config.stake
        for seat, name in enumerate(match.players):
            self.net[name] = self.net.get(name, 0) - stake + match.payouts.get(seat, 0)
        self.games += 1
