"""Simulating many single turns of one strategy, with exact figures beside them.

>>> from shutthebox.rules import Rules
>>> result = simulate(Rules(), "optimal:shut", games=200_000, seed=1)
>>> result.path
'table'
>>> abs(result.p_shut - 0.071432) < 4 * result.p_shut_se
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from shutthebox.dice import roll_outcomes
from shutthebox.errors import ShutTheBoxError
from shutthebox.players.base import Situation, Strategy
from shutthebox.players.simple import RandomStrategy
from shutthebox.rules import Rules
from shutthebox.simulate.fast import play_turns
from shutthebox.solver.evaluate import Policy, final_distribution, score_distribution
from shutthebox.solver.players import OptimalStrategy
from shutthebox.strategies import make_strategy
from shutthebox.turn import TurnState

Z95 = 1.959963984540054
CHUNK = 1 << 20
"""Games per chunk: memory stays bounded by this, however many games are asked for."""


class SimulationError(ShutTheBoxError):
    """A simulation that cannot be run as asked."""


PolicyTables = tuple[npt.NDArray[np.int8], dict[int, npt.NDArray[np.int16]]]


def policy_tables(rules: Rules, strategy: Strategy) -> PolicyTables | None:
    """The strategy as tables, if it is a fixed function of (open tiles, roll); else None."""
    if isinstance(strategy, RandomStrategy):
        return None
    if isinstance(strategy, OptimalStrategy):
        return strategy.solution_for(Situation()).policy_tables()
    size = 1 << rules.tiles
    dice = np.zeros(size, dtype=np.int8)
    moves = {d: np.zeros((size, len(roll_outcomes(d))), dtype=np.int16) for d in (1, 2)}
    for open_tiles in range(1, size):
        start = TurnState.before_roll(rules, open_tiles)
        choice = strategy.choose(start, Situation()) if start.is_decision else start.dice
        dice[open_tiles] = choice
        for d in rules.dice_choices(open_tiles):
            rolling = start.choose_dice(d) if start.is_decision else start
            for i, (roll, _) in enumerate(roll_outcomes(d)):
                rolled = rolling.apply_roll(roll)
                if not rolled.is_over:
                    moves[d][open_tiles, i] = strategy.choose(rolled, Situation())
    return dice, moves


def strategy_policy(strategy: Strategy) -> Policy:
    """A strategy as action probabilities: uniform for the random player, else its choice."""
    if isinstance(strategy, RandomStrategy):
        def uniform(state: TurnState) -> dict[int, float]:
            actions = state.legal_actions()
            return {a: 1.0 / len(actions) for a in actions}
        return uniform
    return lambda state: {strategy.choose(state, Situation()): 1.0}


@dataclass
class SimulationResult:
    """The figures of a simulation, and the exact ones of the same strategy."""

    rules: Rules
    strategy: str
    games: int
    seed: int
    path: str
    """``'table'`` (compiled) or ``'general'`` (any strategy through the turn machine)."""
    finals: npt.NDArray[np.int64]
    """How many games ended with each set of open tiles."""
    seconds: float
    exact_finals: dict[int, float] = field(default_factory=dict)

    def _scores(self) -> npt.NDArray[np.float64]:
        return np.array([self.rules.score(m) for m in range(len(self.finals))], dtype=float)

    @property
    def mean_score(self) -> float:
        return float(self.finals @ self._scores() / self.games)

    @property
    def mean_score_se(self) -> float:
        scores = self._scores()
        second = float(self.finals @ scores**2 / self.games)
        return math.sqrt(max(second - self.mean_score**2, 0.0) / self.games)

    @property
    def mean_score_ci(self) -> tuple[float, float]:
        return (self.mean_score - Z95 * self.mean_score_se,
                self.mean_score + Z95 * self.mean_score_se)

    @property
    def p_shut(self) -> float:
        return float(self.finals[0] / self.games)

    @property
    def p_shut_se(self) -> float:
        return math.sqrt(max(self.p_shut * (1 - self.p_shut), 1e-300) / self.games)

    @property
    def p_shut_ci(self) -> tuple[float, float]:
        return (max(0.0, self.p_shut - Z95 * self.p_shut_se),
                min(1.0, self.p_shut + Z95 * self.p_shut_se))

    @property
    def distribution(self) -> dict[int, float]:
        return score_distribution(self.rules, {int(mask): float(self.finals[mask]) / self.games
                                               for mask in np.nonzero(self.finals)[0]})

    @property
    def exact_distribution(self) -> dict[int, float]:
        return score_distribution(self.rules, self.exact_finals)

    @property
    def exact_mean_score(self) -> float:
        return sum(s * p for s, p in self.exact_distribution.items())

    @property
    def exact_p_shut(self) -> float:
        return self.exact_finals.get(0, 0.0)

    @property
    def turns_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    def to_dict(self) -> dict[str, Any]:
        exact_se = (self.mean_score - self.exact_mean_score) / self.mean_score_se \
            if self.mean_score_se else 0.0
        return {
            "rules": self.rules.to_dict(), "strategy": self.strategy, "games": self.games,
            "seed": self.seed, "path": self.path, "mean_score": self.mean_score,
            "mean_score_ci": list(self.mean_score_ci), "p_shut": self.p_shut,
            "p_shut_ci": list(self.p_shut_ci),
            "distribution": {str(s): p for s, p in self.distribution.items()},
            "turns_per_second": self.turns_per_second,
            "exact": {"mean_score": self.exact_mean_score, "p_shut": self.exact_p_shut,
                      "mean_score_standard_errors_apart": exact_se,
                      "distribution": {str(s): p for s, p in self.exact_distribution.items()}},
        }


def _general_path(rules: Rules, strategy: Strategy, first: int, count: int,
                  seed: int, finals: npt.NDArray[np.int64]) -> None:
    for game in range(first, first + count):
        rng = random.Random(seed * 1_000_003 + game)
        state = TurnState.start(rules)
        while not state.is_over:
            if state.is_chance:
                state = state.roll_with(rng)
            else:
                state = state.apply(strategy.choose(state, Situation()))
        finals[state.open_tiles] += 1


def simulate(rules: Rules, strategy: str | Strategy, games: int, seed: int = 0,
             path: str = "auto", chunk: int = CHUNK,
             progress: Callable[[int], None] | None = None, exact: bool = True
             ) -> SimulationResult:
    """Play ``games`` single turns of a strategy; ``path`` is auto, table or general.

    ``progress`` is called with the number of games done after each chunk.
    """
    if isinstance(games, bool) or games < 1:
        raise SimulationError(f"games must be at least 1, not {games!r}")
    name = strategy if isinstance(strategy, str) else strategy.name
    player = make_strategy(strategy, rules, random.Random(seed)) \
        if isinstance(strategy, str) else strategy
    tables = policy_tables(rules, player) if path in ("auto", "table") else None
    if path == "table" and tables is None:
        raise SimulationError(f"strategy {name!r} cannot be written as a table")
    if path not in ("auto", "table", "general"):
        raise SimulationError(f"path must be auto, table or general, not {path!r}")
    finals = np.zeros(1 << rules.tiles, dtype=np.int64)
    if tables is not None:
        play_turns(0, 1, seed, rules.full, *tables)  # compile outside the timing
    began = time.perf_counter()
    buffer: npt.NDArray[np.int16] | None = None
    step = chunk if tables is not None else max(1, min(chunk, 20_000))
    for first in range(0, games, step):
        count = min(step, games - first)
        if tables is not None:
            buffer = play_turns(first, count, seed, rules.full, *tables, out=buffer)
            finals += np.bincount(buffer[:count], minlength=len(finals))
        else:
            _general_path(rules, player, first, count, seed, finals)
        if progress is not None:
            progress(first + count)
    seconds = time.perf_counter() - began
    result = SimulationResult(rules, name, games, seed,
                              "table" if tables is not None else "general", finals, seconds)
    if exact:
        result.exact_finals = final_distribution(rules, strategy_policy(player))
    return result
