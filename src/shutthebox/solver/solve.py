"""Exact dynamic programming over the turn machine, for any rules and objective.

The value of the position before a roll (``V[open]``) is the best dice choice's expectation
over the rolls of the best move's value, and a roll with no move ends the turn with the
objective's value of the open tiles. Shutting tiles only removes bits, so every move leads to
a smaller mask: the masks are solved in increasing order, a popcount layer at a time, with
numpy (the float path) or with exact fractions (:func:`solve_exact`).

Ties between moves of equal value go to the move listed first in the stable order of
:func:`~shutthebox.turn.legal_moves` (tiles compared from the highest down, higher first);
ties between dice choices go to two dice.

>>> from shutthebox.rules import Rules
>>> round(solve(Rules(), "shut").value() * 100, 4)
7.1432
>>> solve_exact(Rules(tiles=9, one_die="low-sum"), "shut").value()
Fraction(956177159, 9795520512)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from shutthebox.dice import Roll, roll_outcomes
from shutthebox.rules import Rules
from shutthebox.solver.evaluate import final_distribution, score_distribution
from shutthebox.solver.objectives import Number, Objective, parse_objective
from shutthebox.tiles import Tiles
from shutthebox.turn import Phase, TurnState, legal_moves

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

EPSILON = 1e-12
"""Two float values closer than this are a tie (broken by the stable move order)."""


@dataclass(frozen=True)
class RollGroup:
    """Rolls that allow the same moves, merged: their probability and the moves."""

    rolls: tuple[Roll, ...]
    probability: Fraction
    moves: tuple[Tiles, ...]


@cache
def roll_groups(rules: Rules, dice: int) -> tuple[RollGroup, ...]:
    """The rolls of ``dice`` dice grouped by the moves they allow in a full box."""
    by_moves: dict[tuple[Tiles, ...], list[tuple[Roll, Fraction]]] = {}
    for roll, p in roll_outcomes(dice):
        by_moves.setdefault(legal_moves(rules, rules.full, roll), []).append((roll, p))
    return tuple(RollGroup(tuple(r for r, _ in rolls), sum((p for _, p in rolls), Fraction(0)),
                           moves) for moves, rolls in by_moves.items())


@cache
def _layers(tiles: int) -> tuple[IntArray, ...]:
    masks = np.arange(1 << tiles, dtype=np.int64)
    counts = np.array([int(m).bit_count() for m in range(1 << tiles)])
    return tuple(masks[counts == k] for k in range(tiles + 1))


@cache
def _choice_codes(rules: Rules) -> npt.NDArray[np.int8]:
    """Per mask: 2 = two dice only, 1 = one die only, 3 = a choice of one or two."""
    codes = {(2,): 2, (1,): 1, (1, 2): 3}
    return np.array([codes[rules.dice_choices(m)] for m in range(1 << rules.tiles)],
                    dtype=np.int8)


class Solution:
    """The optimal values and policy of one (rules, objective).

    Values are in the objective's own units (an expected score for ``score``, a probability
    for the others); :meth:`is_better` says which way is better.
    """

    def __init__(self, rules: Rules, objective: Objective, values: Sequence[Any],
                 finals: Sequence[Any], exact: bool) -> None:
        self.rules = rules
        self.objective = objective
        self.exact = exact
        self._values = values
        self._finals = finals
        self._sign = 1 if objective.maximise(rules) else -1

    # --- values ----------------------------------------------------------------------

    def value(self, open_tiles: Tiles | None = None) -> Any:
        """The optimal value before the next roll (and dice choice) with these tiles open;
        the start of the turn by default."""
        return self._values[self.rules.full if open_tiles is None else open_tiles]

    def final_value(self, open_tiles: Tiles) -> Any:
        """The objective's value of ending the turn with these tiles open."""
        return self._finals[open_tiles]

    def is_better(self, value: Number, other: Number) -> bool:
        """Whether ``value`` is strictly better than ``other`` for this objective."""
        margin = 0 if self.exact else EPSILON
        return bool(self._sign * (value - other) > margin)

    def after_move(self, open_tiles: Tiles, move: Tiles) -> Any:
        """The value of shutting ``move`` (the position before the next roll)."""
        return self._values[open_tiles & ~move]

    def after_roll(self, open_tiles: Tiles, roll: Roll) -> Any:
        """The value of a roll: its best move's value, or the final value if it has none."""
        moves = legal_moves(self.rules, open_tiles, roll)
        if not moves:
            return self._finals[open_tiles]
        return self.after_move(open_tiles, self.best_move(open_tiles, roll))

    def dice_value(self, open_tiles: Tiles, dice: int) -> Any:
        """The value of rolling ``dice`` dice now, playing best afterwards."""
        total: Any = Fraction(0) if self.exact else 0.0
        for roll, p in roll_outcomes(dice):
            total += (p if self.exact else float(p)) * self.after_roll(open_tiles, roll)
        return total

    # --- policy ----------------------------------------------------------------------

    def ranked_moves(self, open_tiles: Tiles, roll: Roll) -> list[tuple[Tiles, Any]]:
        """Every legal move with the value it leads to, best first (ties: stable order)."""
        moves = legal_moves(self.rules, open_tiles, roll)
        scored = [(m, self.after_move(open_tiles, m)) for m in moves]
        order = sorted(range(len(scored)), key=lambda i: (-self._sign * scored[i][1], i)) \
            if self.exact else self._float_order(scored)
        return [scored[i] for i in order]

    def _float_order(self, scored: list[tuple[Tiles, Any]]) -> list[int]:
        # Stable insertion by value with the epsilon tie rule.
        order: list[int] = []
        for i, (_, v) in enumerate(scored):
            at = len(order)
            while at > 0 and self.is_better(v, scored[order[at - 1]][1]):
                at -= 1
            order.insert(at, i)
        return order

    def best_move(self, open_tiles: Tiles, roll: Roll) -> Tiles:
        """The optimal move for a roll (0 if the roll allows none)."""
        best, best_value = 0, None
        for m in legal_moves(self.rules, open_tiles, roll):
            v = self.after_move(open_tiles, m)
            if best_value is None or self.is_better(v, best_value):
                best, best_value = m, v
        return best

    def ranked_dice(self, open_tiles: Tiles) -> list[tuple[int, Any]]:
        """Each allowed dice count with its value, best first (ties: two dice first)."""
        choices = [(d, self.dice_value(open_tiles, d))
                   for d in sorted(self.rules.dice_choices(open_tiles), reverse=True)]
        best_first: list[tuple[int, Any]] = []
        for d, v in choices:
            at = len(best_first)
            while at > 0 and self.is_better(v, best_first[at - 1][1]):
                at -= 1
            best_first.insert(at, (d, v))
        return best_first

    def best_dice(self, open_tiles: Tiles) -> int:
        """The optimal number of dice to roll now."""
        return self.ranked_dice(open_tiles)[0][0]

    # --- the whole turn under the optimal policy -------------------------------------------

    @property
    def final_distribution(self) -> dict[Tiles, Any]:
        """The probability of ending with each set of open tiles, playing optimally."""
        return _final_distribution(self)

    @property
    def distribution(self) -> dict[int, Any]:
        """The exact distribution of the turn's score under the optimal policy."""
        return score_distribution(self.rules, self.final_distribution)

    @property
    def p_shut(self) -> Any:
        """The chance of shutting the box under the optimal policy."""
        return self.final_distribution.get(0, Fraction(0) if self.exact else 0.0)

    @property
    def expected_score(self) -> Any:
        """The expected score under the optimal policy."""
        return sum((s * p for s, p in self.distribution.items()),
                   Fraction(0) if self.exact else 0.0)

    # --- tables for the simulator ----------------------------------------------------------

    def policy_tables(self) -> tuple[npt.NDArray[np.int8], dict[int, npt.NDArray[np.int16]]]:
        """The policy as numpy tables: ``dice[open]`` (the dice count to roll) and
        ``moves[d][open, i]``, the tile mask to shut after the ``i``-th roll of
        ``roll_outcomes(d)`` (0 where the roll allows no move)."""
        return _policy_tables(self)


@lru_cache(maxsize=256)
def _final_distribution(solution: Solution) -> dict[Tiles, Any]:
    def best(state: TurnState) -> dict[int, int]:
        if state.phase is Phase.CHOOSE_DICE:
            return {solution.best_dice(state.open_tiles): 1}
        assert state.roll is not None
        return {solution.best_move(state.open_tiles, state.roll): 1}
    return final_distribution(solution.rules, best, solution.exact)


@lru_cache(maxsize=64)
def _policy_tables(
        solution: Solution) -> tuple[npt.NDArray[np.int8], dict[int, npt.NDArray[np.int16]]]:
    rules = solution.rules
    size = 1 << rules.tiles
    dice = np.zeros(size, dtype=np.int8)
    moves = {d: np.zeros((size, len(roll_outcomes(d))), dtype=np.int16) for d in (1, 2)}
    for open_tiles in range(1, size):
        dice[open_tiles] = solution.best_dice(open_tiles)
        for d in rules.dice_choices(open_tiles):
            for i, (roll, _) in enumerate(roll_outcomes(d)):
                moves[d][open_tiles, i] = solution.best_move(open_tiles, roll)
    return dice, moves


def _finals(rules: Rules, objective: Objective, exact: bool) -> list[Any]:
    values = [objective.final_value(rules, m) for m in range(1 << rules.tiles)]
    return [Fraction(v) for v in values] if exact else [float(v) for v in values]


def _solve_float(rules: Rules, objective: Objective) -> Solution:
    sign = 1.0 if objective.maximise(rules) else -1.0
    finals = np.array(_finals(rules, objective, exact=False)) * sign
    values = finals.copy()
    codes = _choice_codes(rules)
    groups = {d: roll_groups(rules, d) for d in (1, 2)}
    need_one = bool(np.any(codes != 2))
    for layer in _layers(rules.tiles)[1:]:
        expect = {}
        for d in (1, 2) if need_one else (2,):
            total = np.zeros(len(layer))
            for group in groups[d]:
                best = np.full(len(layer), -np.inf)
                for move in group.moves:
                    fits = (layer & move) == move
                    if not fits.any():
                        continue
                    candidate = np.where(fits, values[layer & ~move], -np.inf)
                    np.maximum(best, candidate, out=best)
                best = np.where(np.isneginf(best), finals[layer], best)
                total += float(group.probability) * best
            expect[d] = total
        layer_codes = codes[layer]
        result = expect[2]
        if need_one:
            result = np.where(layer_codes == 1, expect[1],
                              np.where(layer_codes == 3, np.maximum(expect[1], expect[2]),
                                       expect[2]))
        values[layer] = result
    return Solution(rules, objective, (values * sign).tolist(), (finals * sign).tolist(),
                    exact=False)


def _solve_exact(rules: Rules, objective: Objective) -> Solution:
    sign = 1 if objective.maximise(rules) else -1
    finals = [sign * v for v in _finals(rules, objective, exact=True)]
    values = list(finals)
    for open_tiles in range(1, 1 << rules.tiles):
        best_choice: Fraction | None = None
        for d in rules.dice_choices(open_tiles):
            total = Fraction(0)
            for group in roll_groups(rules, d):
                fitting = [values[open_tiles & ~m] for m in group.moves
                           if open_tiles & m == m]
                total += group.probability * (max(fitting) if fitting else finals[open_tiles])
            if best_choice is None or total > best_choice:
                best_choice = total
        assert best_choice is not None
        values[open_tiles] = best_choice
    return Solution(rules, objective, [sign * v for v in values], [sign * v for v in finals],
                    exact=True)


@lru_cache(maxsize=512)
def _cached(rules: Rules, key: Any, objective: Objective, exact: bool) -> Solution:
    return _solve_exact(rules, objective) if exact else _solve_float(rules, objective)


def solve(rules: Rules, objective: str | Objective = "score") -> Solution:
    """The optimal solution of a turn (floats; cached per rules and objective)."""
    chosen = parse_objective(objective)
    return _cached(rules, chosen.cache_key(), chosen, False)


def solve_exact(rules: Rules, objective: str | Objective = "score") -> Solution:
    """The same in exact rational numbers (slower; for tests and small boards)."""
    chosen = parse_objective(objective)
    return _cached(rules, chosen.cache_key(), chosen, True)
