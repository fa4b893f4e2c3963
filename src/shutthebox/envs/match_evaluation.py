"""A match policy's exact chance to win a two-player match against the optimal player, in
every format of the turn families (``single``, ``rounds:R``, ``elimination:L``,
``loser-at:L``, ``race:T``).

Between turns a two-player match is a few numbers (:mod:`shutthebox.solver.matchplay`): the
round, the totals, and the score the first player posted this round once it has played. The
optimal player's turn from each such position is a distribution of its score, read from the
solver's tables (:func:`~shutthebox.solver.matchplay.match_play_chances`); the policy's turn
is the policy shown every decision node of the turn with that position in its observation
(the match environment's own), added up by one backward pass
(:func:`~shutthebox.solver.evaluate.policy_values`). The positions the match can reach are
found forward, then valued backward from the last: the chance to win is exact, with no
sampling. A round that returns to the same totals (both score 0 in a match to a threshold)
is solved as the fixed point it is: the round's value is linear in the value it returns to.

The work is one showing of the turn's decision nodes per position where the policy plays (a
policy's observation holds the totals and the posted score, so each one is a new question);
a computer player (``choose``) reads the turn alone, and is shown them once. A format whose
positions are more than ``max_positions`` is refused before the policy is asked anything
(:class:`MatchTooLargeToEvaluateError`, saying how many there are).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from shutthebox.envs.evaluation import (
    Evaluation,
    PolicyError,
    as_batch_policy,
    match_view,
    policy_chances,
)
from shutthebox.envs.multi import seat_features
from shutthebox.formats import SolverFamily
from shutthebox.rules import FirstPlayer, Rules
from shutthebox.solver.evaluate import decision_nodes, final_distribution, policy_values
from shutthebox.solver.matchplay import MatchSolution, match_play_chances, solve_match
from shutthebox.solver.matchplay.scores import compare, distinct_scores, score_index

MAX_POSITIONS = 2_000
"""The positions where the policy plays that :func:`evaluate_match` shows it by default:
each is one showing of every decision node of the turn."""

Position = tuple[int, int, int, int]
"""``(round, first's total, second's total, index of the first's score this round or -1
before it has played)``: where a two-player match stands before a turn."""
FloatArray = npt.NDArray[np.float64]


class MatchTooLargeToEvaluateError(PolicyError):
    """A match whose exact evaluation would show the policy too many positions."""


class _Match:
    """One order of play (the agent first or second) of a two-player match against the
    optimal player: its reachable positions and the agent's chance to win from each."""

    def __init__(self, solution: MatchSolution, agent_first: bool,
                 turn_value: Callable[[tuple[int, int, int], FloatArray], float]) -> None:
        self.solution = solution
        self.rules = solution.rules
        self.format = solution.format
        self.agent_first = agent_first
        self.turn_value = turn_value
        """The agent's value of its turn, from its context ``(own total, other's total,
        other's score posted this round or -1)`` and the value of each final score."""
        self.scores = solution.scores
        self.instant = self.format.shut_box_wins(self.rules) & (
            self.scores == self.rules.best_score)
        self.rounds = ((self.format.rounds or 1) if self.format.family is SolverFamily.ROUNDS
                       else 0)
        self.limit = self.format.threshold if self.rounds == 0 else 0
        self.agent_support = _reachable_scores(self.rules)
        self._chances = _optimal_chances(self.rules, str(self.format))
        self.values: dict[Position, float] = {}

    # --- the optimal player ----------------------------------------------------------------

    def _key(self, mover: int, position: Position) -> tuple[int, ...]:
        r, a, b, _ = position
        if self.rounds:          # the optimal player reads the difference of the totals
            return mover, r, a - b
        return mover, a, b

    def _fetch(self, mover: int, positions: list[Position]) -> None:
        """Solve the optimal player's turn at every position not yet known, at once."""
        wanted = {self._key(mover, p): p for p in positions}
        wanted = {k: p for k, p in wanted.items() if k not in self._chances}
        by_round: dict[int, list[tuple[tuple[int, ...], Position]]] = {}
        for key, position in wanted.items():
            by_round.setdefault(position[0], []).append((key, position))
        for r, items in by_round.items():
            a = np.array([p[1] for _, p in items], dtype=np.int64)
            b = np.array([p[2] for _, p in items], dtype=np.int64)
            rows = match_play_chances(self.solution, mover, a, b, r)
            for (key, _), row in zip(items, rows, strict=True):
                self._chances[key] = row

    def chances(self, mover: int, position: Position) -> FloatArray:
        """The optimal player's distribution of its score at ``position``."""
        key = self._key(mover, position)
        if key not in self._chances:
            self._fetch(mover, [position])
        return self._chances[key]

    def _mover_is_agent(self, mover: int) -> bool:
        return (mover == 0) == self.agent_first

    def support(self, mover: int, position: Position) -> npt.NDArray[np.bool_]:
        if self._mover_is_agent(mover):
            return self.agent_support
        return self.chances(mover, position) > 0

    # --- the positions ---------------------------------------------------------------------

    def after_first(self, position: Position, k: int) -> Position:
        r, a, b, _ = position
        return r, a + int(self.scores[k]), b, k

    def after_second(self, position: Position, k: int) -> Position | None:
        """The next round's position, or ``None`` when the second's score ``k`` ends the
        match."""
        r, a, b, _ = position
        total = b + int(self.scores[k])
        if self.rounds:
            return None if r + 1 >= self.rounds else (r + 1, a, total, -1)
        return None if a >= self.limit or total >= self.limit else (0, a, total, -1)

    def positions(self, most: int, name: str) -> list[Position]:
        """Every position before a round that the match can reach, the last ones first.

        Raises:
            MatchTooLargeToEvaluateError: the policy would play at more than ``most``
                positions.
        """
        start: Position = (0, 0, 0, -1)
        seen = {start}
        wave = [start]
        agent_positions = 0
        while wave:
            if self.agent_first:
                agent_positions += len(wave)
                self._check(agent_positions, most, name)
            else:
                self._fetch(0, wave)
            seconds = [self.after_first(p, int(k)) for p in wave
                       for k in np.flatnonzero(self.support(0, p) & ~self.instant)]
            if self.agent_first:
                self._fetch(1, seconds)
            else:
                agent_positions += len(seconds)
                self._check(agent_positions, most, name)
            wave = []
            for second in seconds:
                for k in np.flatnonzero(self.support(1, second) & ~self.instant):
                    after = self.after_second(second, int(k))
                    if after is not None and after not in seen:
                        seen.add(after)
                        wave.append(after)
        if self.rounds:
            return sorted(seen, key=lambda p: (-p[0], -(p[1] + p[2])))
        return sorted(seen, key=lambda p: -(p[1] + p[2]))

    def _check(self, agent_positions: int, most: int, name: str) -> None:
        if agent_positions > most:
            raise MatchTooLargeToEvaluateError(
                f"cannot evaluate a policy on {name} exactly: it would be shown more than "
                f"{most:,} positions of {self.format} (each one every decision node of a turn), "
                f"{'first' if self.agent_first else 'second'} to play; give max_positions= "
                f"to allow more, or measure it by play")

    # --- the values ------------------------------------------------------------------------

    def _share(self, first_share: Any) -> Any:
        return first_share if self.agent_first else 1.0 - first_share

    def _value_second(self, second: Position, start: Position, x: float) -> float:
        """The agent's chance after the first's turn, ``x`` standing for the value of
        ``start`` where the round returns to it."""
        r, a, b, k = second
        totals = b + self.scores
        if self.rounds:
            ended = np.full(len(self.scores), r + 1 >= self.rounds)
        else:
            ended = (totals >= self.limit) | (a >= self.limit)
        ends = np.where(ended, self._share(compare(self.rules, np.full(len(totals), a), totals)),
                        0.0)
        going = np.flatnonzero(self.support(1, second) & ~ended & ~self.instant)
        following = r + 1 if self.rounds else 0
        ends[going] = [x if (following, a, int(totals[j]), -1) == start
                       else self.values[(following, a, int(totals[j]), -1)] for j in going]
        ends[self.instant] = self._share(0.0)
        if self._mover_is_agent(1):
            return self.turn_value((b, a, k), ends)
        return float(self.chances(1, second) @ ends)

    def _value_round(self, start: Position, x: float) -> float:
        _, a, b, _ = start
        ends = np.zeros(len(self.scores))
        for k in np.flatnonzero(self.support(0, start)):
            ends[k] = self._share(1.0) if self.instant[k] else self._value_second(
                self.after_first(start, int(k)), start, x)
        if self._mover_is_agent(0):
            return self.turn_value((a, b, -1), ends)
        return float(self.chances(0, start) @ ends)

    def value(self, positions: list[Position]) -> float:
        """The agent's chance to win from the start, valuing ``positions`` last first."""
        zero = int(np.searchsorted(self.scores, 0))
        loops = not self.rounds and zero < len(self.scores) and self.scores[zero] == 0 \
            and not self.instant[zero]
        for start in positions:
            low = self._value_round(start, 0.0)
            if loops:      # the round's value is linear in the value it may return to
                slope = self._value_round(start, 1.0) - low
                low = low / (1.0 - slope) if slope < 1.0 else low
            self.values[start] = low
        return self.values[(0, 0, 0, -1)]


@cache
def _optimal_chances(rules: Rules, game_format: str) -> dict[tuple[int, ...], FloatArray]:
    """The optimal player's score distributions met so far in a match, by mover and
    position: kept, since a policy is evaluated again and again (every training epoch)."""
    return {}


@cache
def _reachable_scores(rules: Rules) -> npt.NDArray[np.bool_]:
    """The scores some play of a turn can end with: those a uniformly random player (who
    takes every legal action somewhere) ends with."""
    scores = distinct_scores(rules)
    ends = final_distribution(rules, lambda state: dict.fromkeys(
        state.legal_actions(), 1.0 / len(state.legal_actions())))
    reached = np.zeros(len(scores), dtype=bool)
    reached[np.searchsorted(scores, [rules.score(tiles) for tiles in ends])] = True
    return reached


def evaluate_match(policy: Any, env: Any, name: str, batch: int,
                   max_positions: int = MAX_POSITIONS) -> Evaluation:
    """The exact chance that ``policy`` in the environment's seat wins its two-player match
    against the optimal player (a tie counted half), beside the optimal player's own.

    Raises:
        PolicyError: the match is a battle, or has other opponents.
        MatchTooLargeToEvaluateError: the policy would play at more than ``max_positions``
            positions.
    """
    config = env.config
    if len(config.players) != 2 or set(env.opponent_names) != {"optimal"}:
        raise PolicyError(f"cannot evaluate a policy on {name} exactly: a match is evaluated "
                          f"against one optimal player, not against "
                          f"{', '.join(env.opponent_names)}")
    if config.format.family not in (SolverFamily.ROUNDS, SolverFamily.THRESHOLD):
        raise PolicyError(f"cannot evaluate a policy on {name} exactly: {config.format} is a "
                          f"battle, not a match of turns (measure it by play)")
    solution = solve_match(env.rules, config.format)
    if int(solution.scores.min()) < 0:
        raise PolicyError(f"cannot evaluate a policy on {name} exactly: its scores can be "
                          f"negative")
    rules, seat = solution.rules, env.seat
    nodes = decision_nodes(rules)
    act = as_batch_policy(policy, rules)
    by_mask = score_index(rules)
    reads_turns = hasattr(policy, "choose")     # a player reads the turn itself

    def chances_at(context: tuple[int, int, int]) -> tuple[FloatArray, FloatArray]:
        own, other, posted = context
        totals = [own, other] if seat == 0 else [other, own]
        scores = {} if posted < 0 else {1 - seat: int(solution.scores[posted])}
        show = match_view(seat_features(rules, config.format, scores, totals))
        return policy_chances(act, nodes, env.actions, batch, None if reads_turns else show)

    cached: dict[tuple[int, int, int], tuple[FloatArray, FloatArray]] = {}

    def turn_value(context: tuple[int, int, int], ends: FloatArray) -> float:
        key = (0, 0, -1) if reads_turns else context
        if key not in cached:
            if len(cached) >= 4:         # a round's fixed point asks the same context twice
                cached.pop(next(iter(cached)))
            cached[key] = chances_at(context)
        dice_chance, move_chance = cached[key]
        finals = ends[by_mask]
        return float(policy_values(nodes, finals, dice_chance, move_chance,
                                   np.zeros(len(finals)))[rules.full])

    if rules.first_player is FirstPlayer.SEAT:
        orders = [(seat == 0, 1.0)]
    else:
        orders = [(True, 0.5), (False, 0.5)]      # the roll-off seats either first
    value = 0.0
    for agent_first, weight in orders:
        play = _Match(solution, agent_first, turn_value)
        value += weight * play.value(play.positions(max_positions, name))
    return Evaluation(name, value, float(solution.win[seat]), nodes.count)
