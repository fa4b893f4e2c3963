"""The match: a state machine over the turns of a whole game, in any format.

Its :attr:`Match.pending` node is a chance node (a roll-off roll or a dice roll) or a decision
(a dice choice or the tiles to shut) for one seat, until the match is over; each step is
written to its event log (:mod:`shutthebox.match.log`).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any, NamedTuple, cast

from shutthebox.dice import Roll, roll_dice
from shutthebox.errors import FormatError, IllegalMoveError
from shutthebox.formats import FormatKind, GameFormat, RoundResult
from shutthebox.language import _
from shutthebox.match.log import (
    LOG_VERSION,
    AnteEvent,
    DiceEvent,
    EliminatedEvent,
    Event,
    EventKind,
    FirstEvent,
    LogEvent,
    LoserEvent,
    PassEvent,
    PayoutEvent,
    RollEvent,
    RollOffEvent,
    RoundEndEvent,
    RoundEvent,
    ShutEvent,
    StandEvent,
    StartEvent,
    TurnEndEvent,
    TurnEvent,
    WinnerEvent,
)
from shutthebox.match.money import MAX_STAKE, share_pot
from shutthebox.players.base import Role, Situation, Strategy
from shutthebox.rules import FirstPlayer, Rules
from shutthebox.tiles import Tiles, tiles_of
from shutthebox.turn import Phase, TurnState

MAX_PLAYERS = 12


@dataclass(frozen=True)
class MatchConfig:
    """Everything fixed before a match starts.

    :raises FormatError: empty or repeated player names, too many or too few players for the
        format, a format that does not fit the rules, or a stake out of range.
    """

    rules: Rules
    format: GameFormat
    players: tuple[str, ...]
    stake: int = 0
    """Each player's ante in cents; 0 for no betting."""

    def __post_init__(self) -> None:
        names = [name.strip() for name in self.players]
        if any(not name for name in names):
            raise FormatError(_("player names cannot be empty: {players!r}").format(
                                players=list(self.players)))
        if len(set(names)) != len(names):
            raise FormatError(_("player names must differ: {players!r}").format(
                                players=list(self.players)))
        if not 1 <= len(names) <= MAX_PLAYERS:
            raise FormatError(_("a game takes 1 to {MAX_PLAYERS} players, not {count}").format(
                                MAX_PLAYERS=MAX_PLAYERS, count=len(names)))
        object.__setattr__(self, "players", tuple(names))
        self.format.check(self.rules, len(names))
        if self.rules.instant_win is None:   # the format decides; the log says which
            object.__setattr__(self, "rules", self.rules.replace(
                instant_win=self.rules.shut_box_wins(self.format.multi_round)))
        if isinstance(self.stake, bool) or not isinstance(self.stake, int) \
                or not 0 <= self.stake <= MAX_STAKE:
            raise FormatError(_("the stake must be 0 to {MAX_STAKE} cents, not {stake!r}").format(
                                MAX_STAKE=MAX_STAKE, stake=self.stake))
        if self.stake and len(names) < 2:
            raise FormatError(_("a stake needs at least two players to play for the pot"))

    def to_dict(self) -> dict[str, Any]:
        """The configuration as JSON-ready data (the head of a log)."""
        return {"rules": self.rules.to_dict(), "format": str(self.format),
                "players": list(self.players), "stake": self.stake}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MatchConfig:
        """The configuration written by :meth:`to_dict`.

        :raises KeyError: a field is missing.
        :raises ValueError: a field cannot be read (a :class:`FormatError` or a
            :class:`~shutthebox.errors.RulesError` quoting it).
        """
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
        return self._value_ in ("roll-off", "roll")   # by value: member lookups are slow

    @property
    def is_decision(self) -> bool:
        """A dice choice or the tiles to shut (or stand up)."""
        return self._value_ in ("choose-dice", "shut")


_PENDING_OF_PHASE = {Phase.ROLL: PendingKind.ROLL, Phase.CHOOSE_DICE: PendingKind.CHOOSE_DICE,
                     Phase.SHUT: PendingKind.SHUT}


class Pending(NamedTuple):
    """What the match waits for next (a named tuple: the match makes one at every step of
    every read, and a tuple is made several times faster than a frozen dataclass)."""

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
        config = self.config.to_dict()
        self._log(StartEvent(type=EventKind.START, rules=config["rules"], format=config["format"],
                             players=config["players"], stake=config["stake"]))
        if self.config.stake:
            self._log(AnteEvent(type=EventKind.ANTE, stake=self.config.stake,
                                pot=self.config.stake * n))
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
    def stake(self) -> int:
        """Each player's ante in cents."""
        return self.config.stake

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
        """Resolve the pending chance node with a seedable generator; return the roll.

        :raises IllegalMoveError: the match does not wait for a roll.
        """
        pending = self.pending
        if not pending.is_chance:
            raise IllegalMoveError(_("nothing to roll: the match waits for {value!r}").format(
                                     value=pending.kind.value))
        dice = 2 if pending.turn is None else pending.turn.dice
        roll = roll_dice(rng, dice)
        self.apply_roll(roll)
        return roll

    def apply_roll(self, roll: Roll) -> None:
        """Resolve the pending chance node with a given roll.

        :raises IllegalMoveError: the match does not wait for a roll, or the roll does not
            fit it (a roll-off roll is two dice; a turn's roll has the dice chosen).
        """
        pending = self.pending
        roll = tuple(sorted(roll))
        if pending.kind is PendingKind.ROLL_OFF:
            assert pending.seat is not None
            if len(roll) != 2 or not all(1 <= f <= 6 for f in roll):
                raise IllegalMoveError(_("a roll-off roll is two dice, not {roll!r}").format(
                                         roll=list(roll)))
            self._log(RollOffEvent(type=EventKind.ROLL_OFF, seat=pending.seat, roll=list(roll)))
            self._rolloff[pending.seat] = sum(roll)
            if len(self._rolloff) == len(self._contenders):
                self._settle_rolloff()
            return
        if pending.kind is not PendingKind.ROLL:
            raise IllegalMoveError(_("nothing to roll: the match waits for {value!r}").format(
                                     value=pending.kind.value))
        assert self._turn is not None and pending.seat is not None
        self._turn = self._turn.apply_roll(roll)
        self._log(RollEvent(type=EventKind.ROLL, seat=pending.seat, roll=list(roll)))
        self._after_step()

    def decide(self, action: int) -> None:
        """Apply the pending decision: a dice count, or the tile mask to shut (or stand).

        :raises IllegalMoveError: no decision is pending, or the action is not legal here.
        """
        pending = self.pending
        turn = self._turn
        if not pending.is_decision or turn is None:
            raise IllegalMoveError(_("no decision is pending: the match waits for "
                                     "{value!r}").format(value=pending.kind.value))
        seat = pending.seat
        assert seat is not None
        if pending.kind is PendingKind.CHOOSE_DICE:
            self._turn = turn.choose_dice(action)
            self._log(DiceEvent(type=EventKind.DICE, seat=seat, dice=action))
            return
        after = turn.shut(action)
        tiles = list(tiles_of(action))
        self._log(StandEvent(type=EventKind.STAND, seat=seat, tiles=tiles)
                  if self._role is Role.STAND else
                  ShutEvent(type=EventKind.SHUT, seat=seat, tiles=tiles))
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

    def _log(self, event: LogEvent) -> None:
        self.events.append(cast(Event, event))

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
        self._log(FirstEvent(type=EventKind.FIRST, seat=first))
        if self.config.format.is_battle:
            self._board = self.rules.full
            self._position = 0
            self._start_battle_roll()
        else:
            self._start_round()

    def _start_round(self) -> None:
        self.round += 1
        self.round_scores = {}
        self._log(RoundEvent(type=EventKind.ROUND, round=self.round))
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
        self._log(TurnEvent(type=EventKind.TURN, seat=seat, round=self.round))

    def _after_step(self) -> None:
        turn = self._turn
        assert turn is not None
        if self.config.format.is_battle:
            if turn.is_over:
                self._log(PassEvent(type=EventKind.PASS, seat=self.order[self._position]))
                self._end_battle_roll()
            return
        if not turn.is_over:
            return
        seat = self.order[self._position]
        score = turn.score
        self.round_scores[seat] = score
        self.totals[seat] += score
        self._log(TurnEndEvent(type=EventKind.TURN_END, seat=seat, score=score,
                               open=list(tiles_of(turn.open_tiles)), shut_box=turn.is_shut))
        if turn.is_shut and self.config.format.shut_box_wins(self.rules):
            self._finish((seat,))
            return
        self._next_turn()

    def _end_round(self) -> None:
        self._log(RoundEndEvent(
            type=EventKind.ROUND_END, round=self.round,
            scores={str(s): v for s, v in sorted(self.round_scores.items())},
            totals=list(self.totals)))
        playing = tuple(s for s in self.order if self.active[s])
        end = self.config.format.end_round(RoundResult(
            self.round, playing, self.round_scores, self.totals, self.rules.lower_is_better))
        for seat in end.out:
            self.active[seat] = False
            self._log(EliminatedEvent(type=EventKind.ELIMINATED, seat=seat,
                                      total=self.totals[seat]))
        if end.winners:
            self._finish(end.winners, end.losers)
        else:
            self._start_round()

    def _finish(self, winners: tuple[int, ...], losers: tuple[int, ...] = ()) -> None:
        self.winners, self.losers = winners, losers
        self._over = True
        if losers:
            self._log(LoserEvent(type=EventKind.LOSER, seats=list(losers)))
        self._log(WinnerEvent(type=EventKind.WINNER, seats=list(winners)))
        if self.config.stake:
            self.payouts = share_pot(self.pot, winners, len(self.players))
            for seat, won in self.payouts.items():
                if won:
                    self._log(PayoutEvent(type=EventKind.PAYOUT, seat=seat, amount=won))

    # --- battle ------------------------------------------------------------------------

    def _start_battle_roll(self) -> None:
        """One single roll of a battle: the knocker shuts open tiles, the stander opens shut
        ones; the stander's turn is a turn over the shut tiles, mirrored."""
        self._role = Role.KNOCK if self._position == 0 else Role.STAND
        seat = self.order[self._position]
        tiles = self._board if self._role is Role.KNOCK else self.rules.full & ~self._board
        self._log(TurnEvent(type=EventKind.TURN, seat=seat, role=self._role.value))
        self._turn = TurnState.before_roll(self.rules, tiles)
        if self._turn.is_over:
            self._log(PassEvent(type=EventKind.PASS, seat=seat))
            self._end_battle_roll()

    def _end_battle_roll(self) -> None:
        if self._board == 0:
            self._finish((self.order[0],))
        elif self._board == self.rules.full and self._role is Role.STAND:
            self._finish((self.order[1],))
        else:
            self._position = 1 - self._position
            self._start_battle_roll()

    def to_log(self, seed: int | None = None) -> dict[str, Any]:
        """The whole game as JSON-ready data: the config, the events, and the seed if known."""
        return {"version": LOG_VERSION, "seed": seed, **self.config.to_dict(),
                "events": [dict(e) for e in self.events]}


def save_match(match: Match, path: Path, seed: int | None = None) -> Path:
    """Write the match's log as JSON (the folder is created).

    :raises OSError: the file cannot be written.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(match.to_log(seed), indent=1))
    return path


def play_out(match: Match, players: Mapping[int, Strategy], rng: random.Random,
             on_step: Callable[[Match], None] | None = None) -> None:
    """Run the match until it is over or waits for a seat with no strategy (a human).

    Chance nodes are rolled with ``rng``; ``on_step`` is called after every step.

    :raises IllegalMoveError: a strategy chose an action that is not legal.
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
