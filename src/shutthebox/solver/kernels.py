"""A compiled twin of the float path for very many objectives at once.

The win-aware player needs, for every possible score, the chance that a later player beats it
or ties it; with digit scoring on 12 tiles that is 4096 solves and forward passes. numpy pays
its per-call cost on every one of them; this numba kernel walks the masks one objective at a
time, objectives in parallel, with the same tie rules as :func:`~shutthebox.solver.solve.
solve_batch` (the first move in stable order within the tolerance of the best, one die only
when strictly better), so it gives the same policy and the same numbers.
"""

from __future__ import annotations

import threading
from functools import cache

import numpy as np
import numpy.typing as npt
from numba import prange

from shutthebox.rules import Rules
from shutthebox.solver.compiled import compiled
from shutthebox.solver.solve import EPSILON, FloatArray, dice_choice_codes, roll_groups


@compiled(parallel=True)
def _ended(finals: FloatArray, codes: npt.NDArray[np.int8],  # pragma: no cover (compiled)
           group_start: npt.NDArray[np.int64], group_probability: FloatArray,
           move_start: npt.NDArray[np.int64], moves: npt.NDArray[np.int64],
           epsilon: float) -> FloatArray:
    size, count = finals.shape
    groups = len(group_probability)
    ended = np.zeros((size, count))
    for k in prange(count):
        values = finals[:, k].copy()
        dice = np.full(size, 2, dtype=np.int8)
        chosen = np.zeros((size, groups), dtype=np.int64)
        expect = np.zeros(2)
        for mask in range(1, size):
            for d in range(2):
                total = 0.0
                for g in range(group_start[d], group_start[d + 1]):
                    best = -np.inf
                    for j in range(move_start[g], move_start[g + 1]):
                        move = moves[j]
                        if mask & move == move and values[mask & ~move] > best:
                            best = values[mask & ~move]
                    if best == -np.inf:
                        total += group_probability[g] * finals[mask, k]
                        continue
                    floor = best - epsilon * max(1.0, abs(best))
                    for j in range(move_start[g], move_start[g + 1]):
                        move = moves[j]
                        if mask & move == move and values[mask & ~move] >= floor:
                            chosen[mask, g] = move
                            break
                    total += group_probability[g] * best
                expect[d] = total
            code = codes[mask]
            one = code == 1 or (code == 3 and expect[0] > expect[1]
                                + epsilon * max(1.0, abs(expect[1])))
            values[mask] = expect[0] if one else expect[1]
            dice[mask] = 1 if one else 2
        mass = np.zeros(size)
        mass[size - 1] = 1.0
        for mask in range(size - 1, 0, -1):
            here = mass[mask]
            if here == 0.0:
                continue
            d = dice[mask] - 1
            for g in range(group_start[d], group_start[d + 1]):
                share = here * group_probability[g]
                move = chosen[mask, g]
                if move == 0:
                    ended[mask, k] += share
                else:
                    mass[mask & ~move] += share
        ended[0, k] += mass[0]
    return ended


@cache
def _groups(rules: Rules) -> tuple[npt.NDArray[np.int64], FloatArray, npt.NDArray[np.int64],
                                   npt.NDArray[np.int64]]:
    group_start, move_start = [0], [0]
    probability: list[float] = []
    moves: list[int] = []
    for d in (1, 2):
        for group in roll_groups(rules, d):
            probability.append(float(group.probability))
            moves.extend(group.moves)
            move_start.append(len(moves))
        group_start.append(len(probability))
    return (np.array(group_start, dtype=np.int64), np.array(probability),
            np.array(move_start, dtype=np.int64), np.array(moves, dtype=np.int64))


PARALLEL_LAUNCH = threading.Lock()
"""numba's default thread pool must not run two parallel kernels at once (a web server's
threads could ask together): every parallel kernel of the package is launched under it."""


def ended_many(rules: Rules, finals: FloatArray) -> FloatArray:
    """``ended[mask, k]``: the chance that optimal play for the signed final values
    ``finals[:, k]`` (higher is better) ends the turn with ``mask`` open."""
    with PARALLEL_LAUNCH:
        return _ended(np.ascontiguousarray(finals, dtype=np.float64), dice_choice_codes(rules),
                      *_groups(rules), EPSILON)
