"""Compiled turn values for match play: many objectives, values only, on one core.

A match table needs the value of the start of a turn for tens of thousands of objectives (one
per match position), not their policies: :func:`start_values` walks the masks once per
objective over a table of each mask's legal successors per roll group
(:func:`~shutthebox.solver.successors.successors`, built once per rule set), and also
returns, for the self-loop of a match (a round in which nothing changes), the chance that
optimal play ends the turn on the looping mask: the derivative of the value with respect to
that final value, which lets the match solver find the loop's fixed point by Newton's method
in one or two steps. :func:`turn_values` and :func:`roll_values` give every
mask's value of a whole turn and of one roll, for the battle.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from shutthebox.rules import Rules
from shutthebox.solver.compiled import compiled
from shutthebox.solver.successors import successors

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


LANES = 16
"""Objectives solved side by side in the compiled loop (vectorised across them)."""


@compiled()
def _start_values(finals: FloatArray, loop: FloatArray,  # pragma: no cover (compiled)
                  codes: npt.NDArray[np.int8], group_start: IntArray, probability: FloatArray,
                  start: IntArray, succ: IntArray, track: bool, out_value: FloatArray,
                  out_loop: FloatArray) -> None:
    count, size = finals.shape
    lanes = 16
    final = np.zeros((size, lanes))
    values = np.empty((size, lanes))
    looped = np.empty((size, lanes))
    best = np.empty(lanes)
    best_loop = np.empty(lanes)
    total = np.empty(lanes)
    total_loop = np.empty(lanes)
    top = np.empty(lanes)
    top_loop = np.empty(lanes)
    for first in range(0, count, lanes):
        used = min(lanes, count - first)
        for mask in range(size):
            for w in range(used):
                final[mask, w] = finals[first + w, mask]
        for w in range(lanes):
            values[0, w] = final[0, w]
            looped[0, w] = loop[0]
        for mask in range(1, size):
            code = codes[mask]
            for w in range(lanes):
                best[w] = -np.inf
                best_loop[w] = 0.0
            for d in range(2):
                if (d == 0 and code == 2) or (d == 1 and code == 1):
                    continue
                for w in range(lanes):
                    total[w] = 0.0
                    total_loop[w] = 0.0
                for g in range(group_start[d], group_start[d + 1]):
                    p = probability[g]
                    lo, hi = start[g * size + mask], start[g * size + mask + 1]
                    if lo == hi:
                        stuck_loop = p * loop[mask]
                        for w in range(lanes):
                            total[w] += p * final[mask, w]
                            total_loop[w] += stuck_loop
                        continue
                    for w in range(lanes):
                        top[w] = -np.inf
                        top_loop[w] = 0.0
                    if track:
                        for j in range(lo, hi):
                            after = succ[j]
                            for w in range(lanes):
                                v = values[after, w]
                                higher = v > top[w]
                                top[w] = v if higher else top[w]
                                top_loop[w] = looped[after, w] if higher else top_loop[w]
                    else:
                        for j in range(lo, hi):
                            after = succ[j]
                            for w in range(lanes):
                                top[w] = max(top[w], values[after, w])
                    for w in range(lanes):
                        total[w] += p * top[w]
                        total_loop[w] += p * top_loop[w]
                for w in range(lanes):   # a tie goes to two dice
                    take = total[w] > best[w] or (d == 1 and total[w] >= best[w])
                    best[w] = total[w] if take else best[w]
                    best_loop[w] = total_loop[w] if take else best_loop[w]
            for w in range(lanes):
                values[mask, w] = best[w]
                looped[mask, w] = best_loop[w]
        for w in range(used):
            out_value[first + w] = values[size - 1, w]
            out_loop[first + w] = looped[size - 1, w]


def start_values(rules: Rules, finals: FloatArray,
                 loop: FloatArray | None = None) -> tuple[FloatArray, FloatArray]:
    """For each row of ``finals[k, mask]`` (the mover's value of ending with ``mask`` open,
    higher is better): the optimal value at the start of the turn, and the chance that optimal
    play ends it on a mask where ``loop`` is 1."""
    table = successors(rules)
    finals = np.ascontiguousarray(finals, dtype=np.float64)
    flags = np.zeros(table.size) if loop is None else np.ascontiguousarray(loop, np.float64)
    value = np.empty(len(finals))
    looped = np.empty(len(finals))
    _start_values(finals, flags, table.codes, table.group_start, table.probability,
                  table.start, table.succ, loop is not None, value, looped)
    return value, looped


@compiled()
def _turn_values(final: FloatArray, codes: npt.NDArray[np.int8],  # pragma: no cover
                 group_start: IntArray, probability: FloatArray, start: IntArray,
                 succ: IntArray, one_roll: bool, after: FloatArray, out: FloatArray) -> None:
    size = len(final)
    out[0] = final[0]
    for mask in range(1, size):
        code = codes[mask]
        best = -np.inf
        for d in range(2):
            if (d == 0 and code == 2) or (d == 1 and code == 1):
                continue
            total = 0.0
            for g in range(group_start[d], group_start[d + 1]):
                lo, hi = start[g * size + mask], start[g * size + mask + 1]
                top = final[mask] if lo == hi else -np.inf
                for j in range(lo, hi):
                    v = after[succ[j]] if one_roll else out[succ[j]]
                    if v > top:
                        top = v
                total += probability[g] * top
            if total > best:
                best = total
        out[mask] = best


def turn_values(rules: Rules, final: FloatArray) -> FloatArray:
    """Every mask's optimal value of a whole turn started there, for final values
    ``final[mask]`` (higher is better)."""
    table = successors(rules)
    out = np.empty(table.size)
    final = np.ascontiguousarray(final, dtype=np.float64)
    _turn_values(final, table.codes, table.group_start, table.probability, table.start,
                 table.succ, False, final, out)
    return out


def roll_values(rules: Rules, stuck: FloatArray, after: FloatArray) -> FloatArray:
    """Every mask's optimal value of one roll: ``stuck[mask]`` when the roll has no move,
    else the best ``after[mask without the move]``."""
    table = successors(rules)
    out = np.empty(table.size)
    _turn_values(np.ascontiguousarray(stuck, dtype=np.float64), table.codes,
                 table.group_start, table.probability, table.start, table.succ, True,
                 np.ascontiguousarray(after, dtype=np.float64), out)
    return out
