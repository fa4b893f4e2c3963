"""The score sheet of a real table: the players, each round's scores as they were played on a
wooden box, and what the format makes of them (the players out, the target reached, the
loser at the limit), the pot of each game and the ledger over the games.

The sheet keeps only what was typed in (:meth:`ScoreSheet.to_dict`): every total, elimination,
winner and payout is worked out again from it by the format's own rules
(:meth:`~shutthebox.formats.GameFormat.end_round`), as a :class:`~shutthebox.match.Match`
works them out on the screen's box. A round typed after a game ended begins the next game,
with the same players and stake.

>>> from shutthebox.formats import GameFormat
>>> from shutthebox.rules import Rules
>>> sheet = ScoreSheet(MatchConfig(Rules(), GameFormat.parse("elimination:20"),
...                                ("Ann", "Bo", "Cy"), stake=100))
>>> sheet.enter([12, 5, 9]).out
()
>>> sheet.enter([9, 3, 4]).out          # Ann reaches 21: out
(0,)
>>> game = sheet.games[-1]
>>> sheet.enter([None, 16, 2]).out, game.winners, game.payouts
((1,), (2,), {0: 0, 1: 0, 2: 300})
>>> sheet.ledger.net
{'Ann': -100, 'Bo': -100, 'Cy': 200}
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from shutthebox.errors import FormatError
from shutthebox.formats import RoundResult
from shutthebox.language import _
from shutthebox.match.core import MatchConfig
from shutthebox.match.money import Ledger, share_pot
from shutthebox.rules import Rules

MAX_SHEET_ROUNDS = 500
"""The rounds one sheet holds, over all its games: an evening's play, many times over."""


class SheetError(FormatError):
    """A round the sheet cannot take: a score no turn ends with, a score for a player who is
    out, a missing one, or a sheet already full."""


@functools.lru_cache(maxsize=64)
def possible_scores(rules: Rules) -> frozenset[int]:
    """Every score a turn can end with under ``rules``.

    >>> sorted(possible_scores(Rules(tiles=3)))
    [0, 1, 2, 3, 4, 5, 6]
    """
    return frozenset(rules.score(mask) for mask in range(rules.full + 1))


@dataclass(frozen=True)
class SheetRound:
    """One round as the sheet shows it: its number, each seat's score (``None``: out, or no
    turn after a shut box that won at once), each seat's total after it, the seats out at
    its end, and the seat whose shut box won the game at once, if one did."""

    number: int
    scores: tuple[int | None, ...]
    totals: tuple[int, ...]
    out: tuple[int, ...] = ()
    shut_box: int | None = None


@dataclass
class SheetGame:
    """One game of the sheet: its rounds so far and, once it is over, its winners, its losers
    and what each seat took of the pot."""

    config: MatchConfig
    number: int
    rounds: list[SheetRound] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    active: list[bool] = field(default_factory=list)
    winners: tuple[int, ...] = ()
    losers: tuple[int, ...] = ()
    payouts: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.totals = [0] * len(self.players)
        self.active = [True] * len(self.players)

    @property
    def players(self) -> tuple[str, ...]:
        return self.config.players

    @property
    def stake(self) -> int:
        return self.config.stake

    @property
    def pot(self) -> int:
        """Every player's ante."""
        return self.config.stake * len(self.players)

    @property
    def is_over(self) -> bool:
        return bool(self.winners)

    @property
    def playing(self) -> tuple[int, ...]:
        """The seats still in, in seat order."""
        return tuple(s for s, still in enumerate(self.active) if still)

    def enter(self, scores: Sequence[int | None]) -> SheetRound:
        """Add a round's scores, one a seat (``None`` for a seat that is out), and apply the
        format to them.

        :raises SheetError: the game is over, a score is missing, given for a player who is
            out, or one no turn ends with under the rules.
        """
        if self.is_over:
            raise SheetError(_("game {number} is over: a new round begins the next "
                               "game").format(number=self.number))
        rules, fmt = self.config.rules, self.config.format
        if len(scores) != len(self.players):
            raise SheetError(_("{count} scores for {players} players: give one a player, "
                               "empty for a player who is out").format(
                               count=len(scores), players=len(self.players)))
        shut_wins = fmt.shut_box_wins(rules)
        shut = [s for s in self.playing if scores[s] == rules.best_score]
        if shut_wins and len(shut) > 1:
            raise SheetError(_("{count} shut boxes in one round: a shut box wins at once "
                               "under these rules, so only the first one was played").format(
                               count=len(shut)))
        winner = shut[0] if shut_wins and shut else None
        allowed = possible_scores(rules)
        for seat, score in enumerate(scores):
            name = self.players[seat]
            if not self.active[seat]:
                if score is not None:
                    raise SheetError(_("{name} is out: no score for {name}, not "
                                       "{score!r}").format(name=name, score=score))
            elif score is None:
                if winner is None:
                    raise SheetError(_("no score for {name}: give a score for every "
                                       "player still in").format(name=name))
            elif isinstance(score, bool) or not isinstance(score, int) or score not in allowed:
                raise SheetError(_("{name}'s score {score!r}: no turn ends with that score "
                                   "under these rules (they go from {low} to {high})").format(
                                   name=name, score=score, low=min(allowed),
                                   high=max(allowed)))
        played = {s: score for s in self.playing if (score := scores[s]) is not None}
        for seat, score in played.items():
            self.totals[seat] += score
        number = len(self.rounds) + 1
        out: tuple[int, ...] = ()
        if winner is not None:
            self._finish((winner,), ())
        else:
            end = fmt.end_round(RoundResult(number, self.playing, played, self.totals,
                                            rules.lower_is_better))
            out = end.out
            for seat in out:
                self.active[seat] = False
            if end.winners:
                self._finish(end.winners, end.losers)
        entered = SheetRound(number, tuple(played.get(s) for s in range(len(self.players))),
                             tuple(self.totals), out, winner)
        self.rounds.append(entered)
        return entered

    def _finish(self, winners: tuple[int, ...], losers: tuple[int, ...]) -> None:
        self.winners, self.losers = winners, losers
        self.payouts = share_pot(self.pot, winners, len(self.players)) if self.stake else {}


@dataclass
class ScoreSheet:
    """The games of one table, one after another, and the ledger of their pots."""

    config: MatchConfig
    games: list[SheetGame] = field(default_factory=list)
    ledger: Ledger = field(default_factory=Ledger)

    def __post_init__(self) -> None:
        if self.config.format.is_battle:
            raise SheetError(_("a battle has no scores to keep: both players work on one "
                               "box"))

    @property
    def round_count(self) -> int:
        """The rounds entered, over every game."""
        return sum(len(game.rounds) for game in self.games)

    def enter(self, scores: Sequence[int | None]) -> SheetRound:
        """Add a round to the game under way, or begin the next game with it.

        :raises SheetError: the round does not fit (:meth:`SheetGame.enter`), or the sheet
            holds :data:`MAX_SHEET_ROUNDS` rounds.
        """
        if self.round_count >= MAX_SHEET_ROUNDS:
            raise SheetError(_("the sheet is full ({most} rounds): begin a new sheet").format(
                               most=MAX_SHEET_ROUNDS))
        fresh = not self.games or self.games[-1].is_over
        game = SheetGame(self.config, len(self.games) + 1) if fresh else self.games[-1]
        entered = game.enter(scores)
        if fresh:               # (only once its first round fits)
            self.games.append(game)
        if game.is_over:
            self.ledger.record(game)
        return entered

    def entered(self) -> list[list[list[int | None]]]:
        """The scores typed in, game by game and round by round."""
        return [[list(r.scores) for r in game.rounds] for game in self.games]

    def without_last_round(self) -> ScoreSheet:
        """The sheet as it was before its last round was entered (to correct a typing
        mistake).

        :raises SheetError: the sheet has no round.
        """
        typed = [round_ for game in self.entered() for round_ in game]
        if not typed:
            raise SheetError(_("the sheet has no round to take back"))
        return sheet_of(self.config, typed[:-1])

    def to_dict(self) -> dict[str, Any]:
        """What the sheet keeps: its configuration and the scores typed in."""
        return {"config": self.config.to_dict(), "games": self.entered()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ScoreSheet:
        """The sheet written by :meth:`to_dict`, every round entered again.

        :raises KeyError: a field is missing.
        :raises ValueError: a field cannot be read, or a round does not fit.
        """
        return sheet_of(MatchConfig.from_dict(data["config"]),
                        [round_ for game in data["games"] for round_ in game])


def sheet_of(config: MatchConfig, rounds: Sequence[Sequence[int | None]]) -> ScoreSheet:
    """A sheet with these rounds entered in order.

    :raises SheetError: a round does not fit.
    """
    sheet = ScoreSheet(config)
    for scores in rounds:
        sheet.enter(scores)
    return sheet
