"""The formats of a game: how many rounds, the limit or target, and the battle's reading.

A :class:`GameFormat` is what a match is played as and what the match solver solves; it sits
below both, so each reads one definition.

>>> GameFormat.parse("loser-at")
GameFormat.parse('loser-at:100')
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from shutthebox.errors import FormatError
from shutthebox.rules import Rules, Scoring


class FormatKind(StrEnum):
    """The game formats of the rules catalogue."""

    SOLO = "solo"
    SINGLE = "single"
    ROUNDS = "rounds"
    ELIMINATION = "elimination"
    LOSER_AT = "loser-at"
    RACE = "race"
    BATTLE = "battle"


_DEFAULT_LIMIT = {FormatKind.ROUNDS: 3, FormatKind.ELIMINATION: 45, FormatKind.LOSER_AT: 100,
                  FormatKind.RACE: 200}
_MAX_LIMIT = {FormatKind.ROUNDS: 100, FormatKind.ELIMINATION: 10_000,
              FormatKind.LOSER_AT: 10_000, FormatKind.RACE: 10_000}
"""The largest number each format takes: beyond it a match would not end in a sitting."""
_MIN_PLAYERS = {FormatKind.SOLO: 1, FormatKind.SINGLE: 1, FormatKind.ROUNDS: 1,
                FormatKind.ELIMINATION: 2, FormatKind.LOSER_AT: 2, FormatKind.RACE: 1,
                FormatKind.BATTLE: 2}
MULTI_ROUND = (FormatKind.ROUNDS, FormatKind.ELIMINATION, FormatKind.LOSER_AT, FormatKind.RACE)
"""The formats of several rounds, where a shut box scores 0 unless ``instant_win`` is set."""


class BattleReading(StrEnum):
    """The two readings of the battle's "players take turns rolling": one roll at a time, or a
    whole turn (roll until stuck) at a time."""

    ROLLS = "rolls"
    TURNS = "turns"


DEFAULT_BATTLE = BattleReading.TURNS
"""``battle`` alone: a whole turn at a time, the reading whose games have a human length
(under optimal play on 9 tiles, a median of 11 turns, 43 rolls, against 176 single rolls one
at a time: see the README)."""


@dataclass(frozen=True)
class GameFormat:
    """A format and its number: rounds to play, elimination or losing limit, race target.

    >>> GameFormat.parse("elimination:50")
    GameFormat.parse('elimination:50')
    >>> str(GameFormat.parse("race"))
    'race:200'
    """

    kind: FormatKind = FormatKind.SINGLE
    limit: int | None = None
    reading: BattleReading | None = None
    """The battle's reading (``rolls`` or ``turns``); ``None`` for other formats."""

    def __post_init__(self) -> None:
        kind = self.kind
        if kind is FormatKind.BATTLE:
            try:
                object.__setattr__(self, "reading", BattleReading(self.reading or DEFAULT_BATTLE))
            except ValueError:
                raise FormatError(f"a battle is read by rolls or turns, not "
                                  f"{self.reading!r}") from None
        elif self.reading is not None:
            raise FormatError(f"{kind.value} has no reading, but {self.reading!r} was given")
        if kind in _DEFAULT_LIMIT:
            if self.limit is None:
                object.__setattr__(self, "limit", _DEFAULT_LIMIT[kind])
            elif isinstance(self.limit, bool) or not isinstance(self.limit, int) or self.limit < 1:
                raise FormatError(f"{kind.value} needs a whole number of at least 1, "
                                  f"not {self.limit!r}")
            elif self.limit > _MAX_LIMIT[kind]:
                raise FormatError(f"{kind.value} takes a number up to {_MAX_LIMIT[kind]}, "
                                  f"not {self.limit}")
        elif self.limit is not None:
            raise FormatError(f"{kind.value} takes no number, but {self.limit!r} was given")

    @classmethod
    def parse(cls, text: str) -> GameFormat:
        """Read ``single``, ``solo``, ``rounds:R``, ``elimination:L``, ``loser-at:L``,
        ``race:T`` or ``battle``."""
        name, colon, number = text.strip().partition(":")
        try:
            kind = FormatKind(name)
        except ValueError:
            known = ", ".join(f"{k.value}:N" if k in _DEFAULT_LIMIT else k.value
                              for k in FormatKind)
            raise FormatError(f"unknown format {text!r}: known are {known}") from None
        if not number:
            if colon:
                example = (f"{kind.value}:{_DEFAULT_LIMIT[kind]}, or " if kind in _DEFAULT_LIMIT
                           else "battle:turns, or " if kind is FormatKind.BATTLE else "")
                raise FormatError(f"format {text!r} has nothing after the colon: write "
                                  f"{example}{kind.value} alone")
            return cls(kind)
        if kind is FormatKind.BATTLE:
            if number not in tuple(BattleReading):
                raise FormatError(f"unknown battle {text!r}: battle:rolls (one roll at a time) "
                                  f"or battle:turns (a whole turn at a time)")
            return cls(kind, reading=BattleReading(number))
        if number.startswith("-") and number[1:].isascii() and number[1:].isdigit():
            raise FormatError(f"the number in format {text!r} is negative: {kind.value} "
                              "takes a number of at least 1")
        if not (number.isascii() and number.isdigit()):
            raise FormatError(f"the number in format {text!r} must be a whole number")
        if len(number) > 9:
            raise FormatError(f"the number in format {text!r} is too large: {kind.value} "
                              f"takes up to {_MAX_LIMIT.get(kind, 0)}")
        return cls(kind, int(number))

    def __str__(self) -> str:
        if self.reading is not None:
            return f"{self.kind.value}:{self.reading.value}"
        return self.kind.value if self.limit is None else f"{self.kind.value}:{self.limit}"

    @property
    def multi_round(self) -> bool:
        """Whether the format plays several rounds (a shut box then scores 0 by default)."""
        return self.kind in MULTI_ROUND

    @property
    def goal(self) -> str:
        """How the format is won, in one sentence.

        >>> GameFormat.parse("battle").goal
        'the knocker wins by shutting every tile, the stander by standing every tile up again'
        """
        kind, limit = self.kind, self.limit
        return {
            FormatKind.SOLO: "one turn alone: beat your personal best",
            FormatKind.SINGLE: "one turn each: the best score wins",
            FormatKind.ROUNDS: f"{limit} rounds: the best total wins",
            FormatKind.ELIMINATION: f"a total of {limit} or more is out: the last player "
                                    "left wins",
            FormatKind.LOSER_AT: f"once a total reaches {limit}, the highest total loses and "
                                 "the lowest wins",
            FormatKind.RACE: f"the first to a total of {limit} wins (the highest total, if "
                             "two reach it in one round)",
            FormatKind.BATTLE: "the knocker wins by shutting every tile, the stander by "
                               "standing every tile up again",
        }[kind]

    @property
    def by_turns(self) -> bool:
        """A battle read a whole turn at a time."""
        return self.reading is BattleReading.TURNS

    def __repr__(self) -> str:
        return f"GameFormat.parse({str(self)!r})"

    def check(self, rules: Rules, players: int) -> None:
        """Refuse a format that does not fit the rules or the number of players."""
        kind = self.kind
        if kind is FormatKind.RACE and rules.scoring is not Scoring.COVERED:
            raise FormatError(f"a race to a target needs covered scoring (higher is better), "
                              f"but scoring is {rules.scoring.value!r}")
        if kind in (FormatKind.ELIMINATION, FormatKind.LOSER_AT) and not rules.lower_is_better:
            raise FormatError(f"{kind.value} counts penalty points, so it needs sum or digits "
                              f"scoring, not {rules.scoring.value!r}")
        if kind is FormatKind.SOLO and players != 1:
            raise FormatError(f"solo is for one player, not {players}")
        if kind is FormatKind.BATTLE and players != 2:
            raise FormatError(f"a battle is for exactly two players, not {players}")
        if players < _MIN_PLAYERS[kind]:
            raise FormatError(f"{kind.value} needs at least {_MIN_PLAYERS[kind]} players, "
                              f"not {players}")
