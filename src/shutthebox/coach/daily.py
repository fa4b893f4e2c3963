"""The daily box: one solo turn a day, the same for everyone, so that scores compare fairly.

The day fixes the rule set (a preset, in a fixed rotation) and the dice: the i-th roll of the
day (counted from 0) is the same whatever was shut before, derived from the date and ``i``
alone (SHA-256 of ``shutthebox daily DATE i``); when one die is rolled, it is the first die
of that roll. Perfect play is the optimal player's turn (the best expected score) on the same
dice; the player's accuracy is the coach's (:mod:`shutthebox.coach.analysis`).

Those dice are public: anyone with the package can print any day's, which is what the
terminal's box, played offline, needs. A server keys them with a secret of its own
(HMAC-SHA256 of the same text, the faces drawn the same way), so that nobody can compute its
daily box ahead (:mod:`shutthebox.web.records.daily`).

>>> from datetime import date
>>> box = daily_box(date(2026, 11, 24))
>>> box.preset, box.roll(0, 2), box.roll(0, 1)
('classic', (1, 2), (2,))
>>> daily_box(date(2026, 11, 24), secret=b"a server's own").roll(0, 2) != box.roll(0, 2)
True
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from shutthebox.dice import FACES, Roll
from shutthebox.errors import LogError, ShutTheBoxError
from shutthebox.formats import GameFormat
from shutthebox.language import _
from shutthebox.match import Match, MatchConfig
from shutthebox.rules import PRESETS, Rules

DAILY_PRESETS = ("classic", "pub", "lever-9", "children-two-tiles", "encyclopedia", "cards",
                 "pub-digits", "family-12", "covered", "children-digits", "box-12",
                 "family-12-faces")
"""The rotation of the day's rule set, one a day from 1 January of year 1 (a date always
gives the same box: a preset added later does not join the rotation)."""

SOLO = GameFormat.parse("solo")


class DailyDateError(ShutTheBoxError):
    """A date that cannot be read."""


def parse_day(text: str) -> date:
    """A date written ``YYYY-MM-DD``.

    :raises DailyDateError: it is not one.

    >>> parse_day("2026-11-24")
    datetime.date(2026, 11, 24)
    """
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise DailyDateError(_("date {text!r} is not a day written YYYY-MM-DD, like "
                               "2026-11-24").format(text=text)) from None


@dataclass(frozen=True)
class DailyBox:
    """The box of one day: its rule set and its stream of dice (keyed by ``secret``, if
    any: a server's own dice, which nobody without the secret can compute)."""

    day: date
    preset: str
    rules: Rules
    secret: bytes | None = field(default=None, repr=False)

    def roll(self, index: int, dice: int = 2) -> Roll:
        """The ``index``-th roll of the day (from 0) with ``dice`` dice: the first die alone
        for one die."""
        text = f"shutthebox daily {self.day.isoformat()} {index}".encode()
        digest = (hashlib.sha256(text).digest() if self.secret is None else
                  hmac.new(self.secret, text, hashlib.sha256).digest())
        number = int.from_bytes(digest[:8], "big")
        faces = (number % FACES + 1, number // FACES % FACES + 1)
        return tuple(sorted(faces[:dice]))

    def rolls(self, count: int | None = None) -> list[Roll]:
        """The first ``count`` two-dice rolls of the day (enough for any turn by default:
        each roll but the last shuts a tile)."""
        return [self.roll(i) for i in range(count if count is not None else
                                            self.rules.tiles + 1)]

    def start(self, player: str = "You") -> Match:
        """A new solo match of the day's rules, its rolls to be taken from :meth:`next_roll`."""
        return Match(MatchConfig(self.rules, SOLO, (player,)))

    def next_roll(self, match: Match) -> Roll:
        """The roll the match waits for: the next of the day's, with the dice it rolls."""
        turn = match.pending.turn
        if turn is None or not match.pending.is_chance:
            raise LogError(_("the daily box is not waiting for a roll"))
        done = sum(1 for e in match.events if e["type"] == "roll")
        return self.roll(done, turn.dice)

    def play(self, choose: Callable[[Match], int], player: str = "You") -> Match:
        """A whole turn of the day, each decision asked of ``choose``."""
        match = self.start(player)
        while not match.is_over:
            if match.pending.is_chance:
                match.apply_roll(self.next_roll(match))
            else:
                match.decide(choose(match))
        return match

    def perfect(self) -> Match:
        """The optimal player's turn on the day's dice (the best expected score)."""
        from shutthebox.solver.players import make_optimal

        player = make_optimal("", self.rules)

        def choose(match: Match) -> int:
            assert match.pending.turn is not None
            return player.choose(match.pending.turn, match.situation())

        return self.play(choose, "perfect play")

    def check(self, log: Mapping[str, Any]) -> None:
        """Refuse a log that is not a turn of this day's box (other rules, or other dice).

        :raises LogError: it is not.
        """
        if Rules.from_dict(dict(log.get("rules", {}))) != self.rules.replace(
                instant_win=self.rules.shut_box_wins(False)) or log.get("format") != "solo":
            raise LogError(_("the game is not the daily box of {day}: its rules or "
                             "format differ").format(day=self.day))
        rolls = [e for e in log.get("events", []) if e.get("type") == "roll"]
        for index, event in enumerate(rolls):
            dice = len(event.get("roll", ()))
            if tuple(sorted(event.get("roll", ()))) != self.roll(index, dice):
                raise LogError(_("the game is not the daily box of {day}: its roll "
                                 "{number} is {logged!r}, the day's is {roll}").format(
                                 day=self.day, number=index + 1, logged=event.get('roll'),
                                 roll=list(self.roll(index, dice))))

    def result(self, log: Mapping[str, Any]) -> dict[str, Any]:
        """A finished turn of the day against perfect play on the same dice: ``score``,
        ``perfect`` (perfect play's score), ``accuracy``, and the coach's full analysis.

        :raises LogError: the log is not a finished turn of this day's box.
        """
        from shutthebox.coach.analysis import analyse

        self.check(log)
        analysis = analyse(log)
        ended = [e for e in log["events"] if e["type"] == "turn-end"]
        if not ended:
            raise LogError(_("the daily box of {day} is not finished").format(day=self.day))
        (player,) = analysis.players
        perfect = self.perfect()
        return {"day": self.day.isoformat(), "preset": self.preset,
                "player": player.player, "score": ended[0]["score"],
                "perfect": _score(perfect), "accuracy": player.accuracy,
                "perfect_moves": steps(perfect.events), "moves": steps(log["events"]),
                "analysis": analysis.to_dict()}

    def perfect_score(self) -> int:
        """What perfect play scored on the day's dice."""
        return _score(self.perfect())

    def to_dict(self) -> dict[str, Any]:
        """The day's box for a page or a script: the date, the preset, the rules, the day's
        first rolls and perfect play's score on them (all of the dice: a server never sends
        its keyed box's)."""
        return {"day": self.day.isoformat(), "preset": self.preset,
                "rules": self.rules.to_dict(),
                "rolls": [list(r) for r in self.rolls()],
                "perfect": self.perfect_score()}


def _score(match: Match) -> int:
    return int(next(e["score"] for e in match.events if e["type"] == "turn-end"))


def steps(events: Iterable[Mapping[str, Any]]) -> list[str]:
    """A turn's rolls and decisions in words, one a step: ``'roll 3+5=8'``, ``'2 dice'``,
    ``'shut 8'``.

    >>> steps([{"type": "roll", "roll": [3, 5]}, {"type": "shut", "tiles": [8]}])
    ['roll 3+5=8', 'shut 8']
    """
    from shutthebox.dice import format_roll
    from shutthebox.strategies import format_move
    from shutthebox.tiles import mask_of

    words = {"roll": lambda e: _("roll {roll}").format(roll=format_roll(tuple(e["roll"]))),
             "dice": lambda e: _("1 die") if e["dice"] == 1 else _("{count} dice").format(
                 count=e["dice"]),
             "shut": lambda e: _("shut {tiles}").format(tiles=format_move(mask_of(e["tiles"])))}
    return [words[e["type"]](e) for e in events if e.get("type") in words]


def daily_box(day: date, secret: bytes | None = None) -> DailyBox:
    """The box of ``day``: the preset of the rotation and the day's dice, the public ones
    (everyone's, offline) or, with a ``secret``, the ones it keys (a server's)."""
    preset = DAILY_PRESETS[day.toordinal() % len(DAILY_PRESETS)]
    return DailyBox(day, preset, PRESETS[preset].rules, secret)
