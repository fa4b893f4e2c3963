"""The formats of a game: how many rounds, the limit or target, and the battle's reading.

A :class:`GameFormat` is what a match is played as and what the match solver solves; it sits
below both, so each reads one definition. How each kind is played (its number and players, how
a round ends and who is out, how the match solver tabulates it) is one :class:`FormatPlay`
object per kind, in :data:`FORMATS`: the match and the solver ask it rather than branch on the
kind.

>>> GameFormat.parse("loser-at")
GameFormat.parse('loser-at:100')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from shutthebox.errors import FormatError
from shutthebox.language import N_, _
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


class SolverFamily(StrEnum):
    """How the exact two-player match solver tabulates a format: round by round (a fixed
    number of rounds), by the totals below a threshold, or as the battle's stochastic game."""

    ROUNDS = "rounds"
    THRESHOLD = "threshold"
    BATTLE = "battle"


class BattleReading(StrEnum):
    """The two readings of the battle's "players take turns rolling": one roll at a time, or a
    whole turn (roll until stuck) at a time."""

    ROLLS = "rolls"
    TURNS = "turns"


DEFAULT_BATTLE = BattleReading.TURNS
"""``battle`` alone: a whole turn at a time, the reading whose games have a human length
(see the README for the games' lengths under optimal play)."""


@dataclass(frozen=True)
class RoundResult:
    """Where a match of turns stands once every player still in has played the round."""

    number: int
    """The round just played, from 1."""
    playing: tuple[int, ...]
    """The seats still in, in playing order."""
    scores: Mapping[int, int]
    """This round's score of each seat that played it."""
    totals: Sequence[int]
    """Each seat's total over the rounds, this one included."""
    lower_is_better: bool

    def best(self, seats: Iterable[int], by_total: bool = True) -> tuple[int, ...]:
        """The seats among ``seats`` with the best total (or this round's best score), in
        seat order."""
        chosen = sorted(seats)
        scores: Mapping[int, int] | Sequence[int] = self.totals if by_total else self.scores
        pick = min if self.lower_is_better else max
        best = pick(scores[s] for s in chosen)
        return tuple(s for s in chosen if scores[s] == best)


@dataclass(frozen=True)
class RoundEnd:
    """What the end of a round decides: the seats out, and the winners (and losers) once the
    match is over; no winners means another round."""

    out: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    losers: tuple[int, ...] = ()


class FormatPlay:
    """How one kind of format is played: its number, its players, how a round ends and who
    is out, and how the match solver tabulates it. One object per :class:`FormatKind`
    (:data:`FORMATS`), read by the match and the match solver alike."""

    kind: FormatKind
    default_limit: int | None = None
    """The number the format takes when none is given; ``None`` for a format without one."""
    max_limit: int | None = None
    """The largest number it takes: beyond it a match would not end in a sitting."""
    min_players: int = 1
    multi_round: bool = False
    """Several rounds, where a shut box scores 0 unless ``instant_win`` is set."""
    family: SolverFamily | None = None
    """How the exact two-player match solver tabulates it; ``None``: it has no match table
    (a game alone)."""
    shared_box: bool = False
    """Both players work on one box (the battle) rather than each playing turns."""

    def goal(self, limit: int | None) -> str:
        """How the format is won, in one sentence."""
        raise NotImplementedError

    def end_round(self, limit: int | None, result: RoundResult) -> RoundEnd:
        """What the end of a round decides in this format."""
        raise NotImplementedError

    def rounds(self, limit: int | None) -> int | None:
        """The number of rounds the format plays, if it is fixed."""
        return None

    def example(self) -> str | None:
        """A format of this kind written out in full, for an error message."""
        return None if self.default_limit is None else f"{self.kind.value}:{self.default_limit}"

    def check_scoring(self, rules: Rules) -> None:
        """Refuse a scoring the format cannot be played with."""

    def check_players(self, players: int) -> None:
        """Refuse a number of players the format cannot be played by."""
        if players < self.min_players:
            raise FormatError(_("{format} needs at least {min_players} players, not "
                                "{players}").format(
                                format=self.kind.value, min_players=self.min_players,
                                players=players))

    def needs_table(self, players: int) -> bool:
        """Whether exact play of a game of ``players`` reads this format's two-player match
        table (against more than one, the table of the leading rival)."""
        return self.multi_round and players >= 2

    def total_over(self, limit: int | None, total: int) -> str | None:
        """Why a player with this total can no longer be playing the match (``None``: the
        total leaves the match going)."""
        return None


class _OneRound(FormatPlay):
    """One turn each: this round's best score wins."""

    def rounds(self, limit: int | None) -> int | None:
        return 1

    def end_round(self, limit: int | None, result: RoundResult) -> RoundEnd:
        return RoundEnd(winners=result.best(result.playing, by_total=False))


class SoloPlay(_OneRound):
    kind = FormatKind.SOLO

    def goal(self, limit: int | None) -> str:
        return _("one turn alone: beat your personal best")

    def check_players(self, players: int) -> None:
        if players != 1:
            raise FormatError(_("solo is for one player, not {players}").format(players=players))
        super().check_players(players)


class SinglePlay(_OneRound):
    kind = FormatKind.SINGLE
    family = SolverFamily.ROUNDS

    def goal(self, limit: int | None) -> str:
        return _("one turn each: the best score wins")


class RoundsPlay(FormatPlay):
    kind = FormatKind.ROUNDS
    default_limit, max_limit = 3, 100
    multi_round = True
    family = SolverFamily.ROUNDS

    def goal(self, limit: int | None) -> str:
        return _("{rounds} rounds: the best total wins").format(rounds=limit)

    def rounds(self, limit: int | None) -> int | None:
        return limit

    def end_round(self, limit: int | None, result: RoundResult) -> RoundEnd:
        if result.number >= (limit or 0):
            return RoundEnd(winners=result.best(result.playing))
        return RoundEnd()


class _Threshold(FormatPlay):
    """Several rounds until a total reaches the format's number."""

    default_limit, max_limit = 100, 10_000
    multi_round = True
    family = SolverFamily.THRESHOLD

    def reached(self, limit: int | None, result: RoundResult) -> list[int]:
        """The seats still in whose total has reached the limit."""
        assert limit is not None
        return [s for s in result.playing if result.totals[s] >= limit]

    def total_over(self, limit: int | None, total: int) -> str | None:
        if limit is None or total < limit:
            return None
        return _(self.over_words).format(total=total, limit=limit)

    over_words = N_("a total of {total} has reached {limit}, so the match is over")
    """What a total at the limit means."""


class _PenaltyPoints(_Threshold):
    min_players = 2

    def check_scoring(self, rules: Rules) -> None:
        if not rules.lower_is_better:
            raise FormatError(_("{format} counts penalty points, so it needs sum or "
                                "digits scoring, not {scoring!r}").format(
                                format=self.kind.value, scoring=rules.scoring.value))


class EliminationPlay(_PenaltyPoints):
    kind = FormatKind.ELIMINATION
    default_limit = 45
    over_words = N_("a total of {total} has reached {limit}, so that player is out: give the "
                    "totals of the players still in")

    def goal(self, limit: int | None) -> str:
        return _("a total of {limit} or more is out: the last player left wins").format(
            limit=limit)

    def end_round(self, limit: int | None, result: RoundResult) -> RoundEnd:
        out = self.reached(limit, result)
        left = [s for s in result.playing if s not in out]
        if len(left) == 1:
            return RoundEnd(tuple(out), (left[0],))
        if not left:
            return RoundEnd(tuple(out), result.best(out))
        return RoundEnd(tuple(out))


class LoserAtPlay(_PenaltyPoints):
    kind = FormatKind.LOSER_AT
    over_words = N_("a total of {total} has reached {limit}, so the game is over (the highest "
                    "total lost)")

    def goal(self, limit: int | None) -> str:
        return _("once a total reaches {limit}, the highest total loses and the lowest "
                 "wins").format(limit=limit)

    def end_round(self, limit: int | None, result: RoundResult) -> RoundEnd:
        if not self.reached(limit, result):
            return RoundEnd()
        worst = max(result.totals[s] for s in result.playing)
        losers = tuple(s for s in sorted(result.playing) if result.totals[s] == worst)
        return RoundEnd(winners=result.best(result.playing), losers=losers)


class RacePlay(_Threshold):
    kind = FormatKind.RACE
    default_limit = 200
    over_words = N_("a total of {total} has reached the target {limit}, so the race is over")

    def goal(self, limit: int | None) -> str:
        return _("the first to a total of {limit} wins (the highest total, if two reach it "
                 "in one round)").format(limit=limit)

    def check_scoring(self, rules: Rules) -> None:
        if rules.scoring is not Scoring.COVERED:
            raise FormatError(_("a race to a target needs covered scoring (higher is "
                                "better), but scoring is {scoring!r}").format(
                                scoring=rules.scoring.value))

    def end_round(self, limit: int | None, result: RoundResult) -> RoundEnd:
        if self.reached(limit, result):
            return RoundEnd(winners=result.best(result.playing))
        return RoundEnd()


class BattlePlay(FormatPlay):
    kind = FormatKind.BATTLE
    min_players = 2
    family = SolverFamily.BATTLE
    shared_box = True

    def goal(self, limit: int | None) -> str:
        return _("the knocker wins by shutting every tile, the stander by standing every "
                 "tile up again")

    def example(self) -> str | None:
        return "battle:turns"

    def check_players(self, players: int) -> None:
        if players != 2:
            raise FormatError(_("a battle is for exactly two players, not {players}").format(
                                players=players))
        super().check_players(players)

    def end_round(self, limit: int | None, result: RoundResult) -> RoundEnd:
        raise FormatError(_("a battle has no rounds: it ends when the box is shut or "
                            "full"))

    def needs_table(self, players: int) -> bool:
        return True


FORMATS: dict[FormatKind, FormatPlay] = {play.kind: play for play in (
    SoloPlay(), SinglePlay(), RoundsPlay(), EliminationPlay(), LoserAtPlay(), RacePlay(),
    BattlePlay())}
"""How each kind of format is played."""
MULTI_ROUND = tuple(kind for kind, play in FORMATS.items() if play.multi_round)
"""The formats of several rounds, where a shut box scores 0 unless ``instant_win`` is set."""


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
        kind, play = self.kind, FORMATS[self.kind]
        if play.shared_box:
            try:
                object.__setattr__(self, "reading", BattleReading(self.reading or DEFAULT_BATTLE))
            except ValueError:
                raise FormatError(_("a battle is read by rolls or turns, not {reading!r}").format(
                                    reading=self.reading)) from None
        elif self.reading is not None:
            raise FormatError(_("{format} has no reading, but {reading!r} was given").format(
                                format=kind.value, reading=self.reading))
        if play.default_limit is not None:
            assert play.max_limit is not None
            if self.limit is None:
                object.__setattr__(self, "limit", play.default_limit)
            elif isinstance(self.limit, bool) or not isinstance(self.limit, int) or self.limit < 1:
                raise FormatError(_("{format} needs a whole number of at least 1, not "
                                    "{limit!r}").format(format=kind.value, limit=self.limit))
            elif self.limit > play.max_limit:
                raise FormatError(_("{format} takes a number up to {max_limit}, not "
                                    "{limit}").format(
                                    format=kind.value, max_limit=play.max_limit,
                                    limit=self.limit))
        elif self.limit is not None:
            raise FormatError(_("{format} takes no number, but {limit!r} was given").format(
                                format=kind.value, limit=self.limit))

    @classmethod
    def parse(cls, text: str) -> GameFormat:
        """Read ``single``, ``solo``, ``rounds:R``, ``elimination:L``, ``loser-at:L``,
        ``race:T`` or ``battle`` (``battle:rolls``, ``battle:turns``).

        :raises FormatError: an unknown format, or a number it cannot take (the message
            quotes the text).
        """
        name, colon, number = text.strip().partition(":")
        try:
            kind = FormatKind(name)
        except ValueError:
            known = ", ".join(f"{k.value}:N" if FORMATS[k].default_limit is not None
                              else k.value for k in FormatKind)
            raise FormatError(_("unknown format {text!r}: known are {known}").format(
                                text=text, known=known)) from None
        play = FORMATS[kind]
        if not number:
            if colon:
                example = play.example()
                raise FormatError((_("format {text!r} has nothing after the colon: write "
                                     "{example}, or {format} alone") if example else
                                   _("format {text!r} has nothing after the colon: write "
                                     "{format} alone")).format(
                                    text=text, example=example, format=kind.value))
            return cls(kind)
        if play.shared_box:
            if number not in tuple(BattleReading):
                raise FormatError(_("unknown battle {text!r}: battle:rolls (one roll at "
                                    "a time) or battle:turns (a whole turn at a time)").format(
                                    text=text))
            return cls(kind, reading=BattleReading(number))
        if number.startswith("-") and number[1:].isascii() and number[1:].isdigit():
            raise FormatError(_("the number in format {text!r} is negative: {format} "
                                "takes a number of at least 1").format(
                                text=text, format=kind.value))
        if not (number.isascii() and number.isdigit()):
            raise FormatError(_("the number in format {text!r} must be a whole number").format(
                                text=text))
        if len(number) > 9:
            raise FormatError(_("the number in format {text!r} is too large: {format} "
                                "takes up to {most}").format(
                                text=text, format=kind.value, most=play.max_limit or 0))
        return cls(kind, int(number))

    def __str__(self) -> str:
        if self.reading is not None:
            return f"{self.kind.value}:{self.reading.value}"
        return self.kind.value if self.limit is None else f"{self.kind.value}:{self.limit}"

    @property
    def play(self) -> FormatPlay:
        """How this kind of format is played."""
        return FORMATS[self.kind]

    @property
    def multi_round(self) -> bool:
        """Whether the format plays several rounds (a shut box then scores 0 by default)."""
        return FORMATS[self.kind].multi_round

    @property
    def is_battle(self) -> bool:
        """A battle: two players on one box, the knocker and the stander."""
        return FORMATS[self.kind].shared_box

    @property
    def family(self) -> SolverFamily | None:
        """How the exact two-player match solver tabulates this format (``None``: solo)."""
        return FORMATS[self.kind].family

    @property
    def rounds(self) -> int | None:
        """The number of rounds played, if fixed (``single`` 1, ``rounds:R`` R).

        >>> GameFormat.parse("rounds:5").rounds, GameFormat.parse("race").rounds
        (5, None)
        """
        return FORMATS[self.kind].rounds(self.limit)

    @property
    def threshold(self) -> int:
        """The limit or target of a format of the threshold family.

        :raises FormatError: the format has no limit or target.
        """
        if FORMATS[self.kind].family is not SolverFamily.THRESHOLD or self.limit is None:
            raise FormatError(_("{format} has no limit or target").format(format=self))
        return self.limit

    def shut_box_wins(self, rules: Rules) -> bool:
        """Whether a shut box wins the match at once under ``rules`` (never in a game alone,
        which has nobody to beat).

        >>> from shutthebox.rules import Rules
        >>> [GameFormat.parse(f).shut_box_wins(Rules()) for f in ("single", "rounds", "solo")]
        [True, False, False]
        """
        return self.kind is not FormatKind.SOLO and rules.shut_box_wins(self.multi_round)

    def end_round(self, result: RoundResult) -> RoundEnd:
        """What the end of a round decides: who is out, and who won (or lost) once the match
        is over.

        >>> end = GameFormat.parse("elimination:45").end_round(
        ...     RoundResult(4, (0, 1, 2), {0: 9, 1: 12, 2: 5}, [40, 47, 30], True))
        >>> end.out, end.winners
        ((1,), ())

        :raises FormatError: a battle, which has no rounds.
        """
        return FORMATS[self.kind].end_round(self.limit, result)

    def needs_table(self, players: int) -> bool:
        """Whether exact play of a game of ``players`` reads this format's two-player match
        table: a battle, or several rounds against others."""
        return FORMATS[self.kind].needs_table(players)

    def total_over(self, total: int) -> str | None:
        """Why a player with this total can no longer be playing the match, or ``None``.

        >>> GameFormat.parse("loser-at:100").total_over(104)
        'a total of 104 has reached 100, so the game is over (the highest total lost)'
        >>> GameFormat.parse("rounds:3").total_over(104) is None
        True
        """
        return FORMATS[self.kind].total_over(self.limit, total)

    @property
    def goal(self) -> str:
        """How the format is won, in one sentence.

        >>> GameFormat.parse("battle").goal
        'the knocker wins by shutting every tile, the stander by standing every tile up again'
        """
        return FORMATS[self.kind].goal(self.limit)

    @property
    def by_turns(self) -> bool:
        """A battle read a whole turn at a time."""
        return self.reading is BattleReading.TURNS

    def __repr__(self) -> str:
        return f"GameFormat.parse({str(self)!r})"

    def check(self, rules: Rules, players: int) -> None:
        """Refuse a format that does not fit the rules or the number of players.

        :raises FormatError: the scoring does not fit the format, or the number of players.
        """
        play = FORMATS[self.kind]
        play.check_scoring(rules)
        play.check_players(players)
