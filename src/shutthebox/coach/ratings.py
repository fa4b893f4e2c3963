"""Ratings: a number for each player name from its finished games, on a scale where the
computer players stand at fixed places, so that a number means something.

**The system: Elo, generalised to several players.** A game of ``n`` players counts as the
``n(n-1)/2`` head-to-head results it contains: a player placed better than another beat them
(1), a shared place is a draw (1/2). Each player's rating moves by
``K / (n - 1) * sum over the others of (result - expected)``, where the expected result
against a player rated ``d`` points lower is ``1 / (1 + 10 ** (-d / 400))``. Why Elo and not
Glicko-2: a game of Shut the Box is short and much of it is luck, so ratings need many games
either way; Elo's one number and its one rule are easy to explain next to a game ("you gained
12 for beating Ann"), and the division by ``n - 1`` keeps one game's weight the same whatever
the table's size. Glicko-2's uncertainty would mostly tell a new player that one game says
little, which :attr:`Ratings.games` shows as well.

**The computer players stand still.** Each strength has a fixed rating
(:data:`COMPUTER_RATINGS`), measured by simulation (``benchmarks/computer_ratings.py``: the
computers play each other in two-player single rounds of the classic rules, and the ratings
are the Elo differences that fit their win rates, the medium computer at :data:`START`, where
a new player starts). A game against a computer moves only the person's rating.

>>> ratings = Ratings()
>>> ratings.record(GameResult((("Ann",), ("Bo",))))
{'Ann': 16.0, 'Bo': -16.0}
>>> ratings.rating("Ann"), ratings.games["Bo"]
(1516.0, 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from shutthebox.errors import ShutTheBoxError
from shutthebox.language import N_, _
from shutthebox.match import Match, replay

START = 1500.0
"""A new player's rating: the medium computer's."""

K = 32.0
"""The most a two-player game can move a rating (by beating a player rated far above)."""

SCALE = 400.0
"""Rating points for odds of ten to one."""

COMPUTER_RATINGS: dict[str, float] = {
    "random": 1281.0,
    "highest-first": 1500.0,
    "fewest-tiles": 1503.0,
    "optimal": 1509.0,
}
"""The fixed rating of each computer player, measured by ``benchmarks/computer_ratings.py``
(two-player single rounds of the classic rules, 20,000 a pair, the medium computer,
``highest-first``, at :data:`START`)."""

STRENGTH_OF = {"random": N_("easy"), "highest-first": N_("medium"), "optimal": N_("hard")}
"""The strength each computer player is offered as (see :data:`shutthebox.strategies.STRENGTHS`)."""


class RatingError(ShutTheBoxError):
    """A result that cannot be rated."""


def expected(rating: float, other: float) -> float:
    """The expected head-to-head result of a player against another (1 a win, 1/2 a draw).

    >>> expected(1500, 1500), round(expected(1900, 1500), 3)
    (0.5, 0.909)
    """
    return 1.0 / (1.0 + float(10.0 ** ((other - rating) / SCALE)))


@dataclass(frozen=True)
class GameResult:
    """How a finished game placed its players: ``places[0]`` the names placed first (the
    winners, who share a tie), then each place after."""

    places: tuple[tuple[str, ...], ...]

    def __post_init__(self) -> None:
        names = [name for place in self.places for name in place]
        if len(names) < 2 or any(not place for place in self.places):
            raise RatingError(_("a rated game needs two players or more in its places, "
                                "not {places!r}").format(places=[list(p) for p in self.places]))
        if len(set(names)) != len(names):
            raise RatingError(_("a player is placed twice in {places!r}").format(
                                places=[list(p) for p in self.places]))

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(name for place in self.places for name in place)

    def score(self, name: str, other: str) -> float:
        """``name``'s head-to-head result against ``other``: 1, 1/2 or 0."""
        mine, theirs = (next(i for i, p in enumerate(self.places) if n in p)
                        for n in (name, other))
        return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0

    @classmethod
    def of_match(cls, match: Match) -> GameResult:
        """The places of a finished match: the winners first, the losers (``loser-at``)
        last, the others between, ordered by their total (their score in a single round),
        equal totals sharing a place.

        :raises RatingError: the match is not over.
        """
        if not match.is_over:
            raise RatingError(_("only a finished game can be rated"))
        rules, names = match.rules, match.players
        middle = [s for s in range(len(names)) if s not in match.winners
                  and s not in match.losers]
        groups: dict[int, list[int]] = {}
        for seat in middle:
            groups.setdefault(match.totals[seat], []).append(seat)
        order = sorted(groups, reverse=not rules.lower_is_better)
        places = [tuple(names[s] for s in match.winners),
                  *(tuple(names[s] for s in groups[total]) for total in order),
                  *([tuple(names[s] for s in match.losers)] if match.losers else [])]
        return cls(tuple(places))

    @classmethod
    def of_log(cls, log: Mapping[str, Any]) -> GameResult:
        """The places of a finished game's log (see :meth:`of_match`).

        :raises LogError: the log does not replay.
        :raises RatingError: the game is not over.
        """
        return cls.of_match(replay(log))


@dataclass
class Ratings:
    """Every player's rating, the games it rests on, and its history (one value after each
    of the player's games), the computers' ratings held fixed."""

    fixed: Mapping[str, float] = field(default_factory=dict)
    """Names whose rating never moves (the computer players, by the names their seats
    play under)."""
    ratings: dict[str, float] = field(default_factory=dict)
    games: dict[str, int] = field(default_factory=dict)
    history: dict[str, list[float]] = field(default_factory=dict)

    def rating(self, name: str) -> float:
        if name in self.fixed:
            return float(self.fixed[name])
        return self.ratings.get(name, START)

    def record(self, result: GameResult) -> dict[str, float]:
        """Rate one finished game; returns each moving player's change."""
        players = result.players
        before = {name: self.rating(name) for name in players}
        weight = K / (len(players) - 1)
        changes: dict[str, float] = {}
        for name in players:
            if name in self.fixed:
                continue
            change = weight * sum(result.score(name, other) - expected(before[name],
                                                                       before[other])
                                  for other in players if other != name)
            changes[name] = change
            self.ratings[name] = before[name] + change
            self.history.setdefault(name, []).append(self.ratings[name])
        for name in players:
            self.games[name] = self.games.get(name, 0) + 1
        return changes

    def table(self) -> list[dict[str, Any]]:
        """The players who moved, best first: name, rating, games and what it is like."""
        return [{"player": name, "rating": rating, "games": self.games.get(name, 0),
                 "like": likeness(rating), "history": list(self.history.get(name, []))}
                for name, rating in sorted(self.ratings.items(), key=lambda kv: -kv[1])]


def rate(results: Iterable[GameResult], fixed: Mapping[str, float] | None = None) -> Ratings:
    """The ratings after these games, in order (a rating depends on when its games were
    played, as in every Elo list)."""
    ratings = Ratings(dict(fixed or {}))
    for result in results:
        ratings.record(result)
    return ratings


def likeness(rating: float) -> str:
    """What a rating is like, by the computer players' fixed ratings.

    >>> likeness(1500.0)
    'plays like the medium computer (1500)'
    >>> likeness(1700.0)
    'plays better than the hard computer (1509)'
    """
    ladder = sorted(COMPUTER_RATINGS.items(), key=lambda kv: kv[1])
    nearest, value = min(ladder, key=lambda kv: abs(kv[1] - rating))

    def named(strategy: str, at: float) -> str:
        strength = STRENGTH_OF.get(strategy)
        # a strength in the reader's words; the strategy's own name only for the others
        return (_("the {strength} computer ({rating})") if strength else
                _("the {strategy} computer ({rating})")).format(
            strength=_(strength) if strength else "", strategy=strategy, rating=f"{at:.0f}")

    if rating > ladder[-1][1] + SCALE / 8:
        return _("plays better than {computer}").format(computer=named(*ladder[-1]))
    if rating < ladder[0][1] - SCALE / 8:
        return _("plays below {computer}").format(computer=named(*ladder[0]))
    return _("plays like {computer}").format(computer=named(nearest, value))
