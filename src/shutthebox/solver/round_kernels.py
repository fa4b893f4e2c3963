"""A compiled sweep over the best score posted, for the exact single round.

At seat ``i`` of a single round the mover's objective, with the best score so far of rank ``b``
held by ``h`` players, is: ``below[r]`` for a final rank ``r`` better than ``b`` (the mover then
holds the best score alone), ``at[b, h]`` for a tie with ``b``, and nothing for a worse rank.
The round needs, for every ``b`` and ``h``, the chance that optimal play for that objective ends
the turn on rank ``b`` and on a rank worse than ``b``.

Solving each ``(b, h)`` afresh costs a whole turn's dynamic programming (every mask) and a
forward pass: with digit scoring on 12 tiles, 4,095 ranks per ``h``. But going from ``b`` to
``b + 1`` changes the final values of the masks of ranks ``b`` and ``b + 1`` only, and a mask's
value depends only on the final values of the masks it can reach, all of them subsets of it.
:func:`sweep` therefore walks ``b`` upwards and solves again only the supersets of the masks
whose final value changed (at most 2 x 3^12 masks over the whole sweep, against 4,095 x 4,096),
and carries the two chances backwards with the values instead of a forward pass. Every ``h``
of a seat travels side by side in the same sweep (they differ only at rank ``b``).

The sweep reads each mask's successors from a table laid out mask by mask
(:func:`~shutthebox.solver.successors.successors_by_mask`: a mask's moves of every roll group
side by side, where the match kernels' table keeps a roll group's moves of every mask
together), and walks the lanes
innermost, so that the ``h`` lanes share each successor's lookup: with digit scoring on 12
tiles a sweep of one lane takes about 0.1 s of one core, each further lane about 0.04 s.

Ties follow :func:`~shutthebox.solver.solve.solve_batch`: the first move in stable order within
the tolerance of the best, one die only when strictly better; so the chances are those of the
solver's own policy.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from shutthebox.rules import Rules
from shutthebox.solver.compiled import compiled
from shutthebox.solver.solve import EPSILON
from shutthebox.solver.successors import successors_by_mask

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@compiled()
def _sweep(below: FloatArray, at: FloatArray, rank: IntArray,  # pragma: no cover (compiled)
           by_rank_start: IntArray, by_rank: IntArray, codes: npt.NDArray[np.int8],
           group_start: IntArray, probability: FloatArray, start: IntArray,
           succ: npt.NDArray[np.int32], epsilon: float, out_tie: FloatArray,
           out_worse: FloatArray) -> None:
    ranks, lanes = at.shape
    size = len(rank)
    groups = len(probability)
    final = np.zeros((size, lanes))
    values = np.zeros((size, lanes))
    tie = np.zeros((size, lanes))
    worse = np.zeros((size, lanes))
    marked = np.full(size, -1, dtype=np.int64)
    best = np.zeros(lanes)   # a roll group's best value, then each dice count's expectations
    total, total_tie, total_worse = np.zeros(lanes), np.zeros(lanes), np.zeros(lanes)
    one, one_tie, one_worse = np.zeros(lanes), np.zeros(lanes), np.zeros(lanes)
    for b in range(ranks):
        lowest = size
        for r in range(max(b - 1, 0), b + 1):
            for i in range(by_rank_start[r], by_rank_start[r + 1]):
                mask = by_rank[i]
                for w in range(lanes):
                    final[mask, w] = at[b, w] if r == b else below[r]
                if b > 0:   # the supersets: every mask above whose value can change
                    lowest = min(lowest, mask)
                    rest = (size - 1) ^ mask
                    part = rest
                    while True:
                        marked[mask | part] = b
                        if part == 0:
                            break
                        part = (part - 1) & rest
        for mask in range(0 if b == 0 else lowest, size):
            if b > 0 and marked[mask] != b:
                continue
            # Solve the mask again for every lane: its value and its two chances.
            at_b = 1.0 if rank[mask] == b else 0.0
            past_b = 1.0 if rank[mask] > b else 0.0
            if mask == 0:
                for w in range(lanes):
                    values[0, w], tie[0, w], worse[0, w] = final[0, w], at_b, past_b
                continue
            code = codes[mask]
            for d in range(2):
                if (d == 0 and code == 2) or (d == 1 and code == 1):
                    continue
                if d == 1:   # keep one die's
                    one[:], one_tie[:], one_worse[:] = total, total_tie, total_worse
                total[:], total_tie[:], total_worse[:] = 0.0, 0.0, 0.0
                for g in range(group_start[d], group_start[d + 1]):
                    p = probability[g]
                    lo, hi = start[mask * groups + g], start[mask * groups + g + 1]
                    if lo == hi:   # no move: the turn ends here
                        for w in range(lanes):
                            total[w] += p * final[mask, w]
                            total_tie[w] += p * at_b
                            total_worse[w] += p * past_b
                        continue
                    after = succ[lo]
                    if hi == lo + 1:   # one move: nothing to choose
                        for w in range(lanes):
                            total[w] += p * values[after, w]
                            total_tie[w] += p * tie[after, w]
                            total_worse[w] += p * worse[after, w]
                        continue
                    for w in range(lanes):
                        best[w] = values[after, w]
                    for j in range(lo + 1, hi):
                        after = succ[j]
                        for w in range(lanes):
                            best[w] = max(best[w], values[after, w])
                    for w in range(lanes):
                        floor = best[w] - epsilon * max(1.0, abs(best[w]))
                        for j in range(lo, hi):   # the first in stable order within tolerance
                            after = succ[j]
                            if values[after, w] >= floor:
                                break
                        total[w] += p * best[w]
                        total_tie[w] += p * tie[after, w]
                        total_worse[w] += p * worse[after, w]
            for w in range(lanes):   # one die only (code 1) is in ``total``, as two dice only
                if code == 3 and one[w] > total[w] + epsilon * max(1.0, abs(total[w])):
                    values[mask, w], tie[mask, w], worse[mask, w] = one[w], one_tie[w], \
                        one_worse[w]
                else:   # one kind of roll only, or a tie between the choices: two dice
                    values[mask, w], tie[mask, w], worse[mask, w] = total[w], total_tie[w], \
                        total_worse[w]
        for w in range(lanes):
            out_tie[b, w] = tie[size - 1, w]
            out_worse[b, w] = worse[size - 1, w]


def sweep(rules: Rules, rank: IntArray, below: FloatArray,
          at: FloatArray) -> tuple[FloatArray, FloatArray]:
    """For each of the best ``len(at)`` ranks ``b`` and each lane ``w``: the chances that
    optimal play for the objective (``below[r]`` for a rank ``r < b``, ``at[b, w]`` for rank
    ``b``, 0 for worse; higher is better) ends the turn on rank ``b``, and on a worse rank.
    ``rank[mask]`` is each final mask's rank, 0 the best.

    >>> from shutthebox.rules import Rules
    >>> rank = np.array([0, 1, 2, 3])   # 2 tiles, sum scoring: 0, 1, 2, 3
    >>> tie, worse = sweep(Rules(tiles=2), rank, np.ones(4), np.full((4, 1), 0.5))
    >>> [round(float(p), 4) for p in tie[:, 0]], [round(float(p), 4) for p in worse[:, 0]]
    ([0.0556, 0.0278, 0.0, 0.9167], [0.9444, 0.9167, 0.9167, 0.0])
    """
    table = successors_by_mask(rules)
    at = np.ascontiguousarray(at, dtype=np.float64)
    order = np.argsort(rank, kind="stable")
    by_rank_start = np.zeros(len(below) + 1, dtype=np.int64)
    np.cumsum(np.bincount(rank, minlength=len(below)), out=by_rank_start[1:])
    out_tie = np.zeros(at.shape)
    out_worse = np.zeros(at.shape)
    _sweep(np.ascontiguousarray(below, dtype=np.float64), at,
           np.ascontiguousarray(rank, dtype=np.int64), by_rank_start, order.astype(np.int64),
           table.codes, table.group_start, table.probability, table.start, table.succ,
           EPSILON, out_tie, out_worse)
    return out_tie, out_worse
