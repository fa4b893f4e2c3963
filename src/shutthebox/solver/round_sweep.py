"""The single round's sweep over the best score posted, by numpy alone: no numba to start.

:func:`~shutthebox.solver.round_kernels.sweep` gives, for every best rank ``b`` posted and
every lane ``w`` (number of holders), the chances that a seat's optimal play ties rank ``b``
or ends worse. It is compiled, and numba's start-up in a fresh process (about 0.5 s of one
core, 0.7 s where SciPy is installed: numba imports it as it loads its first kernel) costs
more than the whole of this module's :func:`sweep` for a rule set with a few hundred scores
(every sum or covered scoring, digits on 9 tiles): the tables of four players of a 12-tile
preset take about 0.35 s of one core here.

A turn only shuts tiles, and shutting a tile makes the score strictly better under every
scoring (sum and digits: lower; covered: higher): every successor of a mask has a better
rank. So a mask of rank ``r`` can only end on ranks ``r`` and better, and for every ``b > r``
it plays as for ``b = r + 1`` (every final it can reach is then worth ``below``). The masks
are solved best rank first, as many side by side as have no successor among them (a step:
with sum scoring on 12 tiles 76 of them, with digits on 9 tiles 9), each for the best ranks
``b <= r + 1`` only (the later ones are copies) and every lane at once. A step follows
:func:`~shutthebox.solver.solve.solve_batch`'s tie rules (the first move in stable order
within the tolerance of the best, one die only when strictly better), so the chances are the
compiled sweep's, to rounding (the tests hold them within 1e-12).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from shutthebox.rules import Rules
from shutthebox.solver.solve import EPSILON
from shutthebox.solver.successors import successors_by_mask

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class RankStep:
    """Masks of consecutive ranks, none a successor of another (the shut box left out), and
    their roll groups of each dice count they may roll, in (mask, group) order.

    The groups with a move are at ``moving``, most moves first: ``moves[k]`` holds the
    successor of the ``k``-th move (in stable order) of the first ``len(moves[k])`` of them.
    Those with none are at ``stuck``. ``runs`` starts each mask's groups of one dice count;
    ``one_run`` and ``two_run`` are each mask's runs of one die and of two dice (its only run
    where it may roll one count only)."""

    rank: int
    """The worst rank of the step's masks."""
    masks: IntArray
    codes: npt.NDArray[np.int8]
    groups: int
    moves: tuple[IntArray, ...]
    moving: IntArray
    moving_probability: FloatArray
    stuck: IntArray
    stuck_probability: FloatArray
    stuck_ranks: IntArray
    """The ranks of the masks of the groups at ``stuck``, each once."""
    stuck_which: IntArray
    """The rank in ``stuck_ranks`` of each group at ``stuck``."""
    runs: IntArray
    one_run: IntArray
    two_run: IntArray


def _rank_steps_of(rules: Rules, rank: IntArray) -> tuple[RankStep, ...] | None:
    table = successors_by_mask(rules)
    groups = len(table.probability)
    size = len(rank)
    counts = np.diff(table.start).reshape(size, groups)
    owner = np.repeat(np.arange(size), counts.sum(axis=1))
    if np.any(rank[table.succ] >= rank[owner]):
        return None   # a move that does not better the score: no rank order to solve in
    one_die = np.arange(groups) < table.group_start[1]
    allowed = np.where((table.codes == 1)[:, None], one_die[None, :],
                       np.where((table.codes == 2)[:, None], ~one_die[None, :], True))
    # The masks best rank first, as many side by side as have no successor among them.
    top = np.full(size, -1)
    np.maximum.at(top, owner, rank[table.succ])   # each mask's worst successor's rank
    order = (np.argsort(rank[1:], kind="stable") + 1).tolist()
    batches: list[list[int]] = []
    for mask in order:
        if not batches or top[mask] >= rank[batches[-1][0]]:
            batches.append([])
        batches[-1].append(mask)
    steps = []
    for batch in batches:
        mine = np.array(batch, dtype=np.int64)
        local, group = np.nonzero(allowed[mine])   # in (mask, group) order
        sizes = counts[mine[local], group]
        moving = np.flatnonzero(sizes > 0)
        moving = moving[np.argsort(-sizes[moving], kind="stable")]   # most moves first
        begin, width = table.start[mine[local[moving]] * groups + group[moving]], sizes[moving]
        moves = tuple(table.succ[begin[:int((width > k).sum())] + k].astype(np.int64)
                      for k in range(int(width.max(initial=0))))
        stuck = np.flatnonzero(sizes == 0)
        two = ~one_die[group]
        runs = np.flatnonzero(np.r_[True, (local[1:] != local[:-1]) | (two[1:] != two[:-1])])
        first_run = np.searchsorted(local[runs], np.arange(len(mine)))
        last_run = np.searchsorted(local[runs], np.arange(len(mine)), side="right") - 1
        steps.append(RankStep(
            int(rank[mine].max()), mine, table.codes[mine], len(local), moves, moving,
            table.probability[group[moving]], stuck, table.probability[group[stuck]],
            *np.unique(rank[mine[local[stuck]]], return_inverse=True), runs, first_run,
            last_run))
    return tuple(steps)


@lru_cache(maxsize=8)
def _rank_steps(rules: Rules, rank_bytes: bytes) -> tuple[RankStep, ...] | None:
    return _rank_steps_of(rules, np.frombuffer(rank_bytes, dtype=np.int64))


def rank_steps(rules: Rules, rank: IntArray) -> tuple[RankStep, ...] | None:
    """The masks by rank, best first, with their successors (cached); ``None`` when some
    move does not make the rank strictly better (no scoring of the rules does that)."""
    return _rank_steps(rules, np.ascontiguousarray(rank, dtype=np.int64).tobytes())


def sweep(rules: Rules, rank: IntArray, below: FloatArray,
          at: FloatArray) -> tuple[FloatArray, FloatArray] | None:
    """What :func:`~shutthebox.solver.round_kernels.sweep` gives, by numpy: for each of the
    best ``len(at)`` ranks ``b`` and each lane ``w``, the chances that optimal play for the
    objective (``below[r]`` for a rank ``r < b``, ``at[b, w]`` for rank ``b``, 0 for worse;
    higher is better) ends the turn on rank ``b``, and on a worse rank; ``None`` where the
    masks cannot be solved rank by rank (:func:`rank_steps`).

    >>> from shutthebox.rules import Rules
    >>> rank = np.array([0, 1, 2, 3])   # 2 tiles, sum scoring: 0, 1, 2, 3
    >>> tie, worse = sweep(Rules(tiles=2), rank, np.ones(4), np.full((4, 1), 0.5))
    >>> [round(float(p), 4) for p in tie[:, 0]], [round(float(p), 4) for p in worse[:, 0]]
    ([0.0556, 0.0278, 0.0, 0.9167], [0.9444, 0.9167, 0.9167, 0.0])
    """
    steps = rank_steps(rules, rank)
    if steps is None:
        return None
    ranks, lanes = at.shape
    size = len(rank)
    below = np.asarray(below, dtype=np.float64)
    at = np.asarray(at, dtype=np.float64)
    # Column j < ranks: the best rank posted is j; column ``ranks``: none worse than every
    # final (each worth ``below``), what a mask plays for every b past its own rank.
    columns = ranks + 1
    values = np.zeros((size, columns, lanes))
    chances = np.zeros((size, columns, lanes, 2))   # the tie, then a worse end
    # Each (tie, worse) pair read as one 16-byte item: one gather fetches both.
    pairs = chances.reshape(-1).view(np.complex128)
    lane = np.arange(lanes)
    row = columns * lanes                           # a successor's first pair, flat
    final, ending = _endings(rank[:1], columns, below, at)
    values[0], chances[0] = final[0], ending[0]
    for step in steps:
        width = min(step.rank + 1, ranks) + 1
        by_value = np.empty((step.groups, width, lanes))
        by_chance = np.empty((step.groups, width, lanes, 2))
        if step.moves:
            # The best successor of each (mask, group), then the first in stable order
            # within the tolerance of it: the k-th moves of the groups that have k moves
            # or more, a prefix (most moves first). A group of one move has nothing to choose.
            after = [values[succ, :width] for succ in step.moves]
            best = after[0].copy()
            for k in range(1, len(after)):
                np.maximum(best[:len(after[k])], after[k], out=best[:len(after[k])])
            several = len(after[1]) if len(after) > 1 else 0
            # (each chosen successor held as the flat index of its row's first pair, so
            # that one addition of each (column, lane) offset makes the gather's indices)
            flat = np.empty((several, width, lanes), dtype=np.int64)
            floor = np.abs(best[:several])
            np.maximum(floor, 1.0, out=floor)
            floor *= EPSILON
            np.subtract(best[:several], floor, out=floor)
            for k in range(len(after) - 1, -1, -1):   # the earliest move written last
                n = min(len(after[k]), several)
                np.copyto(flat[:n], (step.moves[k][:n] * row)[:, None, None],
                          where=after[k][:n] >= floor[:n])
            flat += np.arange(width)[:, None] * lanes + lane
            p = step.moving_probability[:, None, None]
            by_value[step.moving] = p * best
            by_chance[step.moving[:several]] = \
                p[:several, ..., None] * np.take(pairs, flat).view(np.float64).reshape(
                    several, width, lanes, 2)
            by_chance[step.moving[several:]] = \
                p[several:, ..., None] * chances[step.moves[0][several:], :width]
        if len(step.stuck):   # no move: the turn ends on this rank
            final, ending = _endings(step.stuck_ranks, width, below, at)
            p = step.stuck_probability[:, None, None]
            by_value[step.stuck] = p * final[step.stuck_which]
            by_chance[step.stuck] = p[..., None] * ending[step.stuck_which]
        # Each mask's groups of a dice count added in their order, as the compiled sweep
        # adds them.
        value = np.add.reduceat(by_value, step.runs, axis=0)
        chance = np.add.reduceat(by_chance, step.runs, axis=0)
        one_value, two_value = value[step.one_run], value[step.two_run]
        codes = step.codes[:, None, None]
        one = (codes == 1) | ((codes == 3) & (one_value > two_value + EPSILON
                                               * np.maximum(1.0, np.abs(two_value))))
        values[step.masks, :width] = np.where(one, one_value, two_value)
        values[step.masks, width:] = values[step.masks, width - 1:width]
        chances[step.masks, :width] = np.where(one[..., None], chance[step.one_run],
                                               chance[step.two_run])
    return chances[size - 1, :ranks, :, 0].copy(), chances[size - 1, :ranks, :, 1].copy()


def _endings(rank: IntArray, width: int, below: FloatArray,
             at: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The value of a turn ending on each of these ranks and its chances (a tie, a worse
    end), for each of the first ``width`` columns (best rank ``j`` posted; the last,
    ``len(at)``: none) and lane."""
    ranks, lanes = at.shape
    column = np.arange(width)[None, :]
    ends = rank[:, None]
    worse = (column < ends) & (column < ranks)
    tie = (column == ends) & (column < ranks)
    final = np.where(worse, 0.0, below[rank][:, None])[..., None].repeat(lanes, axis=2)
    rows, columns = np.nonzero(tie)
    final[rows, columns] = at[rank[rows]]
    return final, np.stack(np.broadcast_arrays(tie[..., None], worse[..., None]), axis=-1) * 1.0
