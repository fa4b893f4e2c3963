"""Tournaments: whole matches of any format between strategies, seats rotated.

>>> from shutthebox.rules import Rules
>>> result = tournament(Rules(), ["optimal", "random"], "single", matches=40, seed=1)
>>> sum(result.wins.values()) == 40
True
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from shutthebox.match import GameFormat, Match, MatchConfig, play_out
from shutthebox.players.base import Strategy
from shutthebox.rules import Rules
from shutthebox.simulate.turns import Z95, SimulationError
from shutthebox.strategies import make_strategy


@dataclass
class TournamentResult:
    """Win shares (ties share a win), rounds and winnings of each strategy."""

    rules: Rules
    format: str
    players: list[str]
    matches: int
    stake: int
    wins: dict[str, float] = field(default_factory=dict)
    rounds: int = 0
    winnings: dict[str, int] = field(default_factory=dict)
    """Net cents won over the whole tournament."""

    def win_rate(self, name: str) -> float:
        return self.wins[name] / self.matches

    def win_rate_ci(self, name: str) -> tuple[float, float]:
        p = self.win_rate(name)
        half = Z95 * math.sqrt(max(p * (1 - p), 0.0) / self.matches)
        return max(0.0, p - half), min(1.0, p + half)

    @property
    def mean_rounds(self) -> float:
        return self.rounds / self.matches

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(), "format": self.format, "matches": self.matches,
            "mean_rounds": self.mean_rounds, "stake": self.stake,
            "players": [{"strategy": name, "win_rate": self.win_rate(name),
                         "win_rate_ci": list(self.win_rate_ci(name)),
                         "winnings_per_game": self.winnings.get(name, 0) / 100 / self.matches}
                        for name in self.players]}


def seat_labels(players: Sequence[str]) -> list[str]:
    """A label for each seat: the strategy's name, numbered when it plays more than once.

    >>> seat_labels(["optimal", "random", "optimal"])
    ['optimal #1', 'random', 'optimal #2']
    """
    counts = Counter(players)
    seen: Counter[str] = Counter()
    labels = []
    for name in players:
        seen[name] += 1
        labels.append(f"{name} #{seen[name]}" if counts[name] > 1 else name)
    return labels


def tournament(rules: Rules, players: Sequence[str], game_format: str, matches: int,
               seed: int = 0, stake: int = 0,
               progress: Callable[[int], None] | None = None) -> TournamentResult:
    """Play ``matches`` matches; seat ``i`` of match ``k`` is player ``(i + k) mod n``.

    A strategy may take several seats (``optimal,optimal``): each is a player of its own,
    reported as ``optimal #1``, ``optimal #2``.
    """
    if isinstance(matches, bool) or matches < 1:
        raise SimulationError(f"matches must be at least 1, not {matches!r}")
    if not players:
        raise SimulationError("a tournament needs at least one player")
    fmt = GameFormat.parse(game_format)
    rng = random.Random(seed)
    labels = seat_labels(players)
    strategies: dict[str, Strategy] = {
        label: make_strategy(name, rules, random.Random(rng.random()))
        for label, name in zip(labels, players, strict=True)}
    players = labels
    result = TournamentResult(rules, str(fmt), list(players), matches, stake,
                              wins=dict.fromkeys(players, 0.0),
                              winnings=dict.fromkeys(players, 0))
    n = len(players)
    for k in range(matches):
        seating = [players[(i + k) % n] for i in range(n)]
        config = MatchConfig(rules, fmt, tuple(seating), stake)
        match = Match(config)
        play_out(match, {seat: strategies[name] for seat, name in enumerate(seating)}, rng)
        for seat in match.winners:
            result.wins[seating[seat]] += 1 / len(match.winners)
        result.rounds += match.round
        for seat, name in enumerate(seating):
            result.winnings[name] += match.payouts.get(seat, 0) - stake
        if progress is not None:
            progress(k + 1)
    return result
