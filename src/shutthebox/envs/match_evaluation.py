"""A match policy's exact chance to win a two-player match against the optimal player, in
every format of the turn families (``single``, ``rounds:R``, ``elimination:L``,
``loser-at:L``, ``race:T``) and in the battle.

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

The battle keeps no score: its observation is the box alone, so the policy is shown the
turn's decision nodes once as the knocker or the stander (whichever it is), and each player's
turn (or roll, for ``battle:rolls``) is a matrix of chances from one box to the next. The
agent's chance to win from every box then solves one linear system (the battle can return to
any box it has left), for boxes of up to :data:`MAX_BATTLE_TILES` tiles.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt
from cachetools import FIFOCache

from shutthebox.envs.multi import seat_features
from shutthebox.envs.policies import (
    Evaluation,
    Observations,
    PolicyError,
    as_batch_policy,
    match_view,
    player_policy,
    policy_chances,
)
from shutthebox.formats import SolverFamily
from shutthebox.rules import FirstPlayer, Rules
from shutthebox.solver.evaluate import (
    DecisionNodes,
    decision_nodes,
    final_distribution,
    policy_values,
)
from shutthebox.solver.matchplay import MatchSolution, match_play_chances, solve_match
from shutthebox.solver.matchplay.scores import compare, distinct_scores, score_index

MAX_BATTLE_TILES = 10
"""The largest box whose battle is evaluated exactly: its linear system has two unknowns per
mask of the tiles."""
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
    if config.format.is_battle:
        return _battle(policy, env, name, batch)
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

    # (a round's fixed point asks the same context twice)
    cached: FIFOCache[tuple[int, int, int], tuple[FloatArray, FloatArray]] = FIFOCache(4)

    def turn_value(context: tuple[int, int, int], ends: FloatArray) -> float:
        key = (0, 0, -1) if reads_turns else context
        if key not in cached:
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


def _turn_chances(nodes: DecisionNodes, dice_chance: FloatArray, move_chance: FloatArray,
                  by_turns: bool) -> FloatArray:
    """``[start, end]``: the chance that a player's turn (or single roll) over the tiles
    ``start`` leaves ``end`` of them; what is missing from a row's 1 is an illegal action."""
    size = 1 << nodes.rules.tiles
    if by_turns:
        chances = np.zeros((size, size))
        for end in range(size):
            finals = np.zeros(size)
            finals[end] = 1.0
            chances[:, end] = policy_values(nodes, finals, dice_chance, move_chance, finals * 0)
        return chances
    chances = np.zeros((size, size))            # one roll: stuck, or one move
    starts = np.arange(size)
    for d in (1, 2):
        chances[starts, starts] += dice_chance[d - 1] * nodes.stuck_chance[d - 1]
    node = nodes.edge_node
    start = nodes.shut_masks[node]
    weight = (dice_chance[nodes.shut_dice[node] - 1, start] * nodes.shut_chance[node]
              * move_chance)
    np.add.at(chances, (start, start & ~nodes.edge_move), weight)
    chances[0, 0] = 1.0                          # no tiles: nothing to roll for
    return chances


def _battle(policy: Any, env: Any, name: str, batch: int) -> Evaluation:
    """The agent's exact chance to win a battle against the optimal player: the knocker's
    and the stander's turns as matrices of chances between boxes, then one linear system."""
    from shutthebox.players.base import Role, Situation
    from shutthebox.strategies import make_strategy

    rules, fmt, seat = env.rules, env.config.format, env.seat
    if rules.tiles > MAX_BATTLE_TILES:
        raise MatchTooLargeToEvaluateError(
            f"cannot evaluate a policy on {name} exactly: a battle of {rules.tiles} tiles has "
            f"{2 << rules.tiles:,} boxes to solve at once (at most {MAX_BATTLE_TILES} tiles); "
            f"measure it by play")
    solution = solve_match(rules, fmt)
    nodes = decision_nodes(rules)
    size, full = 1 << rules.tiles, (1 << rules.tiles) - 1
    act = as_batch_policy(policy, rules)
    reads_turns = hasattr(policy, "choose")
    seats = seat_features(rules, fmt, {}, [0, 0])
    optimal = make_strategy("optimal", rules, random.Random(0))

    def turns(role: Role, agent: bool) -> FloatArray:
        """The turn matrix of the role, played by the agent or by the optimal player."""
        if agent:
            base = match_view(seats)

            def show(observations: Observations) -> FloatArray:
                if role is Role.STAND:       # the box shows the tiles the stander has not
                    observations = {**observations, "open": 1 - observations["open"]}
                return base(observations)
            chances = policy_chances(act, nodes, env.actions, batch,
                                     None if reads_turns else show)
        else:
            chances = policy_chances(player_policy(optimal, rules, Situation(format=fmt,
                                                                             role=role)),
                                     nodes, env.actions, batch)
        return _turn_chances(nodes, *chances, by_turns=fmt.by_turns)

    if rules.first_player is FirstPlayer.SEAT:
        orders = [(seat == 0, 1.0)]
    else:
        orders = [(True, 0.5), (False, 0.5)]      # the roll-off seats either first
    value = 0.0
    complement = full & ~np.arange(size)
    for agent_knocks, weight in orders:
        knock, stand = turns(Role.KNOCK, agent_knocks), turns(Role.STAND, not agent_knocks)
        # unknowns: the agent's chance with the knocker to play on box b (first size), and
        # with the stander to play on box b (the stander's tiles are the shut ones)
        system = np.eye(2 * size)
        wins = np.zeros(2 * size)
        wins[:size] = knock[:, 0] * agent_knocks                 # the knocker shut them all
        system[:size, size + 1:] -= knock[:, 1:]
        stood = stand[complement]                                 # rows: box b
        wins[size:] = stood[:, 0] * (not agent_knocks)           # the stander stood them all
        # the stander leaves shut tiles s: the box is their complement, the knocker to play
        system[size:, complement[1:]] -= stood[:, 1:]
        chances = np.linalg.solve(system, wins)
        value += weight * float(chances[full])
    return Evaluation(name, value, float(solution.win[seat]), nodes.count)
