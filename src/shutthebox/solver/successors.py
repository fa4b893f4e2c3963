"""Each mask's legal successors for every roll group, as flat numpy tables (no numba).

The compiled kernels of match play (:mod:`~shutthebox.solver.match_kernels`) read them roll
group by roll group (:func:`successors`); the single round's sweeps
(:mod:`~shutthebox.solver.round_kernels`, :mod:`~shutthebox.solver.round_sweep`) mask by mask
(:func:`successors_by_mask`). Both keep each list in the stable move order of
:func:`~shutthebox.turn.legal_moves`, so that ties go to the same move as in
:func:`~shutthebox.solver.solve.solve_batch`. Building them needs numpy only: a process that
never starts numba may use them.

>>> from shutthebox.rules import Rules
>>> table = successors_by_mask(Rules(tiles=2))
>>> len(table.probability), int(table.start[-1])   # roll groups; (mask, group, move) rows
(7, 8)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from shutthebox.rules import Rules
from shutthebox.solver.solve import dice_choice_codes, roll_groups

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Successors:
    """For each roll group ``g`` (one-die groups first) and mask, its legal successors:
    ``succ[start[g * size + mask]:start[g * size + mask + 1]]``."""

    size: int
    codes: npt.NDArray[np.int8]
    group_start: IntArray
    probability: FloatArray
    start: IntArray
    succ: IntArray


@cache
def successors(rules: Rules) -> Successors:
    """The successor table of a rule set (cached)."""
    size = 1 << rules.tiles
    masks = np.arange(size, dtype=np.int64)
    group_start = [0]
    probability: list[float] = []
    pieces: list[tuple[IntArray, IntArray]] = []
    g = 0
    for d in (1, 2):
        for group in roll_groups(rules, d):
            probability.append(float(group.probability))
            for move in group.moves:
                fits = masks[(masks & move) == move]
                pieces.append((g * size + fits, fits & ~move))
            g += 1
        group_start.append(g)
    keys = np.concatenate([k for k, _ in pieces]) if pieces else np.zeros(0, np.int64)
    after = np.concatenate([a for _, a in pieces]) if pieces else np.zeros(0, np.int64)
    order = np.argsort(keys, kind="stable")
    counts = np.bincount(keys, minlength=g * size)
    start = np.zeros(g * size + 1, dtype=np.int64)
    np.cumsum(counts, out=start[1:])
    return Successors(size, dice_choice_codes(rules), np.array(group_start, dtype=np.int64),
                      np.array(probability), start, after[order].astype(np.int64))


@dataclass(frozen=True)
class MaskSuccessors:
    """For each mask and roll group ``g`` (one-die groups first), its legal successors:
    ``succ[start[mask * groups + g]:start[mask * groups + g + 1]]``, in the stable move
    order."""

    codes: npt.NDArray[np.int8]
    group_start: IntArray
    probability: FloatArray
    start: IntArray
    succ: npt.NDArray[np.int32]


@cache
def successors_by_mask(rules: Rules) -> MaskSuccessors:
    """:func:`successors`, laid out mask by mask (cached)."""
    table = successors(rules)
    groups = len(table.probability)
    counts = np.diff(table.start)   # [g * size + mask]
    key = np.repeat(np.arange(groups * table.size, dtype=np.int64), counts)
    order = np.argsort((key % table.size) * groups + key // table.size, kind="stable")
    start = np.zeros(groups * table.size + 1, dtype=np.int64)
    np.cumsum(counts.reshape(groups, table.size).T.reshape(-1), out=start[1:])
    return MaskSuccessors(table.codes, table.group_start, table.probability,
                          start, table.succ[order].astype(np.int32))
