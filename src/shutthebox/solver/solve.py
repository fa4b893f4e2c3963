"""Exact dynamic programming over the turn machine, for any rules and objective.

The value of the position before a roll (``V[open]``) is the best dice choice's expectation
over the rolls of the best move's value, and a roll with no move ends the turn with the
objective's value of the open tiles. Shutting tiles only removes bits, so every move leads to
a smaller mask: the masks are solved in increasing order, a popcount layer at a time, with
numpy (the float path, which solves many objectives at once: :func:`solve_many`) or with exact
fractions (:func:`solve_exact`). The same pass records the policy, and a forward pass of
probability mass through it gives the exact distribution of the final tiles and the score.

Ties between moves of equal value go to the move listed first in the stable order of
:func:`~shutthebox.turn.legal_moves` (tiles compared from the highest down, higher first);
ties between dice choices go to two dice. In floating point, values within a relative
``1e-12`` of the best count as equal to it.

>>> from shutthebox.rules import Rules
>>> round(solve(Rules(), "shut").value() * 100, 4)
7.1432
>>> solve_exact(Rules(tiles=9, one_die="low-sum"), "shut").value()
Fraction(956177159, 9795520512)
"""

from __future__ import annotations

import threading
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt
from cachetools import LRUCache

from shutthebox.dice import Roll, roll_outcomes
from shutthebox.errors import IllegalMoveError, TilesError
from shutthebox.rules import HIGH_TILE, LOW_SUM_LIMIT, OneDie, Rules
from shutthebox.solver.evaluate import final_distribution, score_distribution
from shutthebox.solver.objectives import Number, Objective, ObjectiveLike, parse_objective
from shutthebox.tiles import Tiles
from shutthebox.turn import Phase, TurnState, legal_moves

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
MoveArray = npt.NDArray[np.int16]
DiceArray = npt.NDArray[np.int8]
PolicyTables = tuple[DiceArray, dict[int, MoveArray]]

EPSILON = 1e-12
"""Float values within this much of the best (relative, at least absolute) tie with it."""


def tolerance(value: Any) -> Any:
    """How far below ``value`` a float may be and still tie with it."""
    return EPSILON * np.maximum(1.0, np.abs(value))


@dataclass(frozen=True)
class RollGroup:
    """Rolls that allow the same moves, merged: their probability and the moves."""

    rolls: tuple[Roll, ...]
    probability: Fraction
    moves: tuple[Tiles, ...]
    """In the stable order of :func:`~shutthebox.turn.legal_moves`."""


@cache
def roll_groups(rules: Rules, dice: int) -> tuple[RollGroup, ...]:
    """The rolls of ``dice`` dice grouped by the moves they allow in a full box.

    >>> from shutthebox.rules import Rules
    >>> [group.rolls for group in roll_groups(Rules(tiles=3), 2)][:2]
    [((1, 1),), ((1, 2),)]
    """
    by_moves: dict[tuple[Tiles, ...], list[tuple[Roll, Fraction]]] = {}
    for roll, p in roll_outcomes(dice):
        by_moves.setdefault(legal_moves(rules, rules.full, roll), []).append((roll, p))
    return tuple(RollGroup(tuple(r for r, _ in rolls), sum((p for _, p in rolls), Fraction(0)),
                           moves) for moves, rolls in by_moves.items())


@cache
def _group_of_roll(rules: Rules, dice: int) -> dict[Roll, int]:
    return {roll: i for i, group in enumerate(roll_groups(rules, dice)) for roll in group.rolls}


@cache
def _group_index(rules: Rules, dice: int) -> IntArray:
    """For each roll of ``roll_outcomes(dice)``, in that order, its group's index."""
    of_roll = _group_of_roll(rules, dice)
    return np.array([of_roll[roll] for roll, _ in roll_outcomes(dice)], dtype=np.int64)


@cache
def _layers(tiles: int) -> tuple[IntArray, ...]:
    masks = np.arange(1 << tiles, dtype=np.int64)
    counts = np.array([int(m).bit_count() for m in range(1 << tiles)])
    return tuple(masks[counts == k] for k in range(tiles + 1))


@cache
def _choice_codes(rules: Rules) -> npt.NDArray[np.int8]:
    """Per mask: 2 = two dice only, 1 = one die only, 3 = a choice of one or two.

    Vectorised :meth:`~shutthebox.rules.Rules.one_die_allowed` (the tests hold the two equal
    for every rule set and mask): the Python call for each of 4096 masks would take a third
    of a 12-tile solve.
    """
    masks = np.arange(1 << rules.tiles, dtype=np.int64)
    if rules.one_die is OneDie.LOW_SUM:
        sums = sum(((masks >> (tile - 1)) & 1) * tile for tile in range(1, rules.tiles + 1))
        allowed = sums <= LOW_SUM_LIMIT
    elif rules.one_die is OneDie.HIGH_SHUT:
        allowed = (masks >> (HIGH_TILE - 1)) == 0
    else:
        allowed = np.zeros(len(masks), dtype=bool)
    one_only = 1 if rules.one_die_forced else 3
    return np.where(allowed, one_only, 2).astype(np.int8)


def dice_choice_codes(rules: Rules) -> npt.NDArray[np.int8]:
    """:func:`_choice_codes`, public for the tests that hold it to the rules."""
    return _choice_codes(rules)


class Solution:
    """The optimal values and policy of one (rules, objective).

    Values are in the objective's own units (an expected score for ``score``, a probability
    for the others); :meth:`is_better` says which way is better. Exact solutions hold
    :class:`~fractions.Fraction` values, float ones Python floats.

    >>> from shutthebox.rules import Rules
    >>> from shutthebox.tiles import format_tiles
    >>> solution = solve(Rules(), "score")
    >>> round(solution.value(), 4), round(solution.p_shut, 4)
    (11.1575, 0.0709)
    >>> [(format_tiles(m), round(v, 2)) for m, v in solution.ranked_moves(0b111111111, (3, 5))]
    [('8', 9.24), ('1 7', 14.77), ('3 5', 15.18), ('2 6', 16.16), ('1 2 5', 21.81), \
('1 3 4', 21.83)]
    """

    def __init__(self, rules: Rules, objective: Objective, exact: bool, values: Sequence[Any],
                 finals: Sequence[Any], dice_values: dict[int, Sequence[Any]],
                 dice_table: DiceArray, group_moves: dict[int, MoveArray],
                 batch: tuple[_SharedForward, int] | None = None) -> None:
        self.rules = rules
        self.objective = objective
        self.exact = exact
        self._values = values
        self._finals = finals
        self._dice_values = dice_values
        self._dice_table = dice_table
        self._group_moves = group_moves
        self._sign = 1 if objective.maximise(rules) else -1
        self._final_distribution: dict[Tiles, Any] | None = None
        self._lock = threading.Lock()
        self._batch = batch

    def __repr__(self) -> str:
        return (f"<Solution {self.objective} {'exact' if self.exact else 'float'} "
                f"for {self.rules!r}>")

    def _number(self, value: Any) -> Any:
        return value if self.exact else float(value)

    # --- values ----------------------------------------------------------------------

    def value(self, open_tiles: Tiles | None = None) -> Any:
        """The optimal value before the next roll (and dice choice) with these tiles open;
        the start of the turn by default."""
        return self._number(self._values[self._mask(self.rules.full if open_tiles is None
                                                    else open_tiles)])

    def final_value(self, open_tiles: Tiles) -> Any:
        """The objective's value of ending the turn with these tiles open."""
        return self._number(self._finals[self._mask(open_tiles)])

    def is_better(self, value: Number, other: Number) -> bool:
        """Whether ``value`` is strictly better than ``other`` for this objective (in floats,
        by more than the tie tolerance)."""
        margin = 0 if self.exact else tolerance(float(other))
        return bool(self._sign * (value - other) > margin)

    def after_move(self, open_tiles: Tiles, move: Tiles) -> Any:
        """The value of shutting ``move`` (the position before the next roll)."""
        return self.value(open_tiles & ~move)

    def after_roll(self, open_tiles: Tiles, roll: Roll) -> Any:
        """The value of a roll: its best move's value, or the final value if it has none."""
        best = self.best_move(open_tiles, roll)
        return self.after_move(open_tiles, best) if best else self.final_value(open_tiles)

    def dice_value(self, open_tiles: Tiles, dice: int) -> Any:
        """The value of rolling ``dice`` dice now, playing best afterwards."""
        if dice not in (1, 2):
            raise IllegalMoveError(f"a roll uses 1 or 2 dice, not {dice!r}")
        if self._mask(open_tiles) == 0:
            return self.final_value(0)
        return self._number(self._dice_values[dice][open_tiles])

    # --- policy ----------------------------------------------------------------------

    def best_move(self, open_tiles: Tiles, roll: Roll) -> Tiles:
        """The optimal move for a roll (0 if the roll allows none)."""
        group = self._group(roll)
        return int(self._group_moves[len(roll)][self._mask(open_tiles), group])

    def _mask(self, open_tiles: Tiles) -> Tiles:
        if not 0 <= open_tiles <= self.rules.full:
            raise TilesError(f"open tiles {open_tiles!r} are not a set of tiles 1 to "
                             f"{self.rules.tiles} (a mask from 0 to {self.rules.full})")
        return open_tiles

    def _group(self, roll: Roll) -> int:
        group = _group_of_roll(self.rules, len(roll)).get(tuple(sorted(roll))) \
            if len(roll) in (1, 2) else None
        if group is None:
            raise IllegalMoveError(f"{roll!r} is not a roll: give one or two dice faces "
                                   f"from 1 to 6")
        return group

    def ranked_moves(self, open_tiles: Tiles, roll: Roll) -> list[tuple[Tiles, Any]]:
        """Every legal move with the value it leads to, best first; moves that tie keep the
        stable order, so the first is :meth:`best_move`."""
        self._group(roll)
        scored = [(m, self.after_move(open_tiles, m)) for m in legal_moves(
            self.rules, open_tiles, tuple(sorted(roll)))]
        by_value = sorted(range(len(scored)), key=lambda i: -self._sign * scored[i][1])
        ranked: list[tuple[Tiles, Any]] = []
        while by_value:
            head = scored[by_value[0]][1]
            tied = [i for i in by_value if not self.is_better(head, scored[i][1])]
            ranked.extend(scored[i] for i in sorted(tied))
            by_value = [i for i in by_value if i not in tied]
        return ranked

    def best_dice(self, open_tiles: Tiles) -> int:
        """The optimal number of dice to roll now."""
        if self._mask(open_tiles) == 0:
            return 2
        return int(self._dice_table[open_tiles])

    def ranked_dice(self, open_tiles: Tiles) -> list[tuple[int, Any]]:
        """Each allowed dice count with its value, best first (a tie goes to two dice)."""
        best = self.best_dice(open_tiles)
        choices = sorted(self.rules.dice_choices(open_tiles), key=lambda d: (d != best, -d))
        return [(d, self.dice_value(open_tiles, d)) for d in choices]

    def policy_tables(self) -> PolicyTables:
        """The policy as numpy tables for vectorised play: ``dice[open]``, the number of dice
        to roll, and ``moves[d][open, i]``, the tile mask to shut after the ``i``-th roll of
        :func:`~shutthebox.dice.roll_outcomes` ``(d)`` (0 where that roll allows no move, or
        where the rules do not let ``d`` dice be rolled).

        >>> from shutthebox.rules import Rules
        >>> from shutthebox.dice import roll_outcomes
        >>> dice, moves = solve(Rules(), "score").policy_tables()
        >>> i = [roll for roll, _ in roll_outcomes(2)].index((3, 5))
        >>> int(dice[0b111111111]), int(moves[2][0b111111111, i])    # roll 2 dice, shut 8
        (2, 128)
        """
        codes = _choice_codes(self.rules)
        dice = self._dice_table.copy()
        dice[0] = 0
        moves = {}
        for d, allowed in ((1, codes != 2), (2, codes != 1)):
            table = self._group_moves[d][:, _group_index(self.rules, d)]
            table[~allowed] = 0
            moves[d] = table
        return dice, moves

    # --- the whole turn under the optimal policy -------------------------------------------

    @property
    def final_distribution(self) -> dict[Tiles, Any]:
        """The probability of ending with each set of open tiles, playing optimally."""
        with self._lock:
            if self._final_distribution is None:
                self._final_distribution = self._compute_final_distribution()
            return self._final_distribution

    def _compute_final_distribution(self) -> dict[Tiles, Any]:
        if self.exact:
            def best(state: TurnState) -> dict[int, int]:
                if state.phase is Phase.CHOOSE_DICE:
                    return {self.best_dice(state.open_tiles): 1}
                assert state.roll is not None
                return {self.best_move(state.open_tiles, state.roll): 1}
            return final_distribution(self.rules, best, exact=True)
        if self._batch is not None:
            shared, column = self._batch
            ended = shared.ended()[:, column]
        else:
            ended = forward(self.rules, self._dice_table[:, None],
                            {d: t[:, :, None] for d, t in self._group_moves.items()})[:, 0]
        return {int(m): float(ended[m]) for m in np.flatnonzero(ended)}

    @property
    def distribution(self) -> dict[int, Any]:
        """The exact distribution of the turn's score under the optimal policy, by score."""
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


# --- the float path: many objectives at once, a popcount layer at a time ---------------------

@dataclass
class Batch:
    """Signed values (higher is better) and policy of K objectives side by side."""

    values: FloatArray
    """``[mask, k]``, before the roll."""
    finals: FloatArray
    dice_values: dict[int, FloatArray]
    dice_table: DiceArray
    """``[mask, k]``."""
    group_moves: dict[int, MoveArray]
    """``[mask, group, k]``: the best move for each roll group of ``roll_groups(rules, d)``."""


def solve_batch(rules: Rules, finals: FloatArray) -> Batch:
    """The optimal values and policy for signed final values ``finals[mask, k]``."""
    size, count = finals.shape
    values = finals.copy()
    codes = _choice_codes(rules)
    expect = {d: np.zeros((size, count)) for d in (1, 2)}
    group_moves = {d: np.zeros((size, len(roll_groups(rules, d)), count), dtype=np.int16)
                   for d in (1, 2)}
    dice_table = np.full((size, count), 2, dtype=np.int8)
    for layer in _layers(rules.tiles)[1:]:
        stuck_value = finals[layer]
        for d in (1, 2):
            total = np.zeros((len(layer), count))
            for g, group in enumerate(roll_groups(rules, d)):
                best = np.full((len(layer), count), -np.inf)
                options: list[tuple[Tiles, npt.NDArray[np.bool_], FloatArray]] = []
                for move in group.moves:
                    fits = (layer & move) == move
                    if not fits.any():
                        continue
                    after = np.where(fits[:, None], values[layer & ~move], -np.inf)
                    np.maximum(best, after, out=best)
                    options.append((move, fits, after))
                if not options:
                    total += float(group.probability) * stuck_value
                    continue
                stuck = np.isneginf(best)
                best = np.where(stuck, stuck_value, best)
                floor = best - tolerance(best)
                chosen = np.zeros((len(layer), count), dtype=np.int16)
                for move, fits, after in reversed(options):   # the first in stable order wins
                    chosen[fits[:, None] & (after >= floor)] = move
                group_moves[d][layer, g] = chosen
                total += float(group.probability) * best
            expect[d][layer] = total
        layer_codes = codes[layer][:, None]
        one = (layer_codes == 1) | ((layer_codes == 3)
                                    & (expect[1][layer] > expect[2][layer]
                                       + tolerance(expect[2][layer])))
        values[layer] = np.where(one, expect[1][layer], expect[2][layer])
        dice_table[layer] = np.where(one, 1, 2)
    return Batch(values, finals, expect, dice_table, group_moves)


def forward(rules: Rules, dice_table: DiceArray, group_moves: dict[int, MoveArray]) -> FloatArray:
    """``ended[mask, k]``: the chance that policy ``k`` ends the turn with ``mask`` open."""
    size, count = dice_table.shape
    column = np.arange(count)
    mass = np.zeros((size, count))
    mass[rules.full] = 1.0
    ended = np.zeros((size, count))
    for layer in reversed(_layers(rules.tiles)[1:]):
        here = mass[layer]
        if not here.any():
            continue
        targets, weights = [], []
        for d in (1, 2):
            rolling = np.where(dice_table[layer] == d, here, 0.0)
            if not rolling.any():
                continue
            for g, group in enumerate(roll_groups(rules, d)):
                share = float(group.probability) * rolling
                chosen = group_moves[d][layer, g].astype(np.int64)
                stuck = chosen == 0
                ended[layer] += np.where(stuck, share, 0.0)
                moving = ~stuck & (share > 0)
                targets.append(((layer[:, None] & ~chosen) * count + column)[moving])
                weights.append(share[moving])
        if targets:
            mass += np.bincount(np.concatenate(targets), weights=np.concatenate(weights),
                                minlength=size * count).reshape(size, count)
    ended[0] += mass[0]
    return ended


class _SharedForward:
    """The forward pass of a whole batch, run once when the first solution needs it."""

    def __init__(self, rules: Rules, batch: Batch) -> None:
        self._rules = rules
        self._batch: Batch | None = batch
        self._ended: FloatArray | None = None
        self._lock = threading.Lock()

    def ended(self) -> FloatArray:
        with self._lock:
            if self._ended is None:
                assert self._batch is not None
                self._ended = forward(self._rules, self._batch.dice_table,
                                      self._batch.group_moves)
                self._batch = None   # the solutions hold their own columns
            return self._ended


def _float_solutions(rules: Rules, objectives: Sequence[Objective]) -> list[Solution]:
    signs = np.array([1.0 if o.maximise(rules) else -1.0 for o in objectives])
    finals = np.stack([o.final_values(rules) for o in objectives], axis=1) * signs
    batch = solve_batch(rules, finals)
    shared = _SharedForward(rules, batch) if len(objectives) > 1 else None
    solutions = []
    for k, objective in enumerate(objectives):
        sign = signs[k]
        solutions.append(Solution(
            rules, objective, False, batch.values[:, k] * sign, batch.finals[:, k] * sign,
            {d: e[:, k] * sign for d, e in batch.dice_values.items()},
            np.ascontiguousarray(batch.dice_table[:, k]),
            {d: np.ascontiguousarray(t[:, :, k]) for d, t in batch.group_moves.items()},
            None if shared is None else (shared, k)))
    return solutions


# --- the exact path -------------------------------------------------------------------------

def _exact_solution(rules: Rules, objective: Objective) -> Solution:
    sign = 1 if objective.maximise(rules) else -1
    size = 1 << rules.tiles
    finals = [sign * Fraction(objective.final_value(rules, m)) for m in range(size)]
    values = list(finals)
    expect: dict[int, list[Fraction]] = {d: list(finals) for d in (1, 2)}
    group_moves = {d: np.zeros((size, len(roll_groups(rules, d))), dtype=np.int16)
                   for d in (1, 2)}
    dice_table = np.full(size, 2, dtype=np.int8)
    for open_tiles in range(1, size):
        for d in (1, 2):
            total = Fraction(0)
            for g, group in enumerate(roll_groups(rules, d)):
                best_move, best = 0, finals[open_tiles]
                for move in group.moves:   # strictly better only: the first of a tie stays
                    if open_tiles & move == move and (
                            not best_move or values[open_tiles & ~move] > best):
                        best_move, best = move, values[open_tiles & ~move]
                group_moves[d][open_tiles, g] = best_move
                total += group.probability * best
            expect[d][open_tiles] = total
        choices = rules.dice_choices(open_tiles)
        one = choices == (1,) or (1 in choices and expect[1][open_tiles] > expect[2][open_tiles])
        dice_table[open_tiles] = 1 if one else 2
        values[open_tiles] = expect[dice_table[open_tiles]][open_tiles]
    return Solution(rules, objective, True, [sign * v for v in values],
                    [sign * v for v in finals],
                    {d: [sign * v for v in e] for d, e in expect.items()}, dice_table,
                    group_moves)


# --- the cache ------------------------------------------------------------------------------

CACHE_SIZE = 256 << 12
"""Solutions kept, most recently used first, counted in positions: room for 256 solutions of
12 tiles (about 0.3 MB each) or 2,048 of 9 tiles, enough for every situation of a
four-player round."""

_cache: LRUCache[tuple[Rules, Hashable, bool], Solution] = LRUCache(
    CACHE_SIZE, getsizeof=lambda solution: 1 << solution.rules.tiles)
_cache_lock = threading.RLock()


def _remember(key: tuple[Rules, Hashable, bool], solution: Solution) -> Solution:
    with _cache_lock:
        _cache[key] = solution
    return solution


def _recall(key: tuple[Rules, Hashable, bool]) -> Solution | None:
    with _cache_lock:
        return _cache.get(key)


def solve(rules: Rules, objective: ObjectiveLike = "score") -> Solution:
    """The optimal solution of a turn (floats; cached per rules and objective).

    ``objective`` is ``"score"``, ``"shut"``, ``"beat:T"``, ``"reach:T"``, an
    :class:`~shutthebox.solver.objectives.Objective` or a function of the final open tiles.
    """
    return solve_many(rules, [objective])[0]


def solve_many(rules: Rules, objectives: Sequence[ObjectiveLike]) -> list[Solution]:
    """The solutions of several objectives, solved side by side in one pass (floats; cached).

    >>> from shutthebox.rules import Rules
    >>> [round(s.value(), 4) for s in solve_many(Rules(), ["beat:5", "beat:10"])]
    [0.2113, 0.4681]
    """
    chosen = [parse_objective(o) for o in objectives]
    keys = [(rules, o.cache_key(), False) for o in chosen]
    known: dict[tuple[Rules, Hashable, bool], Solution] = {}
    todo: dict[tuple[Rules, Hashable, bool], Objective] = {}
    for key, objective in zip(keys, chosen, strict=True):
        found = _recall(key)
        if found is not None:
            known[key] = found
        else:
            todo.setdefault(key, objective)
    if todo:
        for key, solution in zip(todo, _float_solutions(rules, list(todo.values())),
                                 strict=True):
            known[key] = _remember(key, solution)
    return [known[key] for key in keys]


def solve_exact(rules: Rules, objective: ObjectiveLike = "score") -> Solution:
    """The same in exact rational numbers (slower; for tests and small boards)."""
    chosen = parse_objective(objective)
    key = (rules, chosen.cache_key(), True)
    return _recall(key) or _remember(key, _exact_solution(rules, chosen))
