"""Match play until a total reaches a threshold (``elimination:L``, ``loser-at:L``, the same
game for two players, and ``race:T``), solved by the totals ``(a, b)`` below the limit in
decreasing order of ``a + b``.

A round in which both score 0 (a shut box when it does not win at once, or nothing shut with
covered scoring) returns to the same totals: that position's value is the fixed point of its
round, found by Newton's method on the chance of the loop (exact after a step or two: the
round's value is piecewise linear in it), to :data:`LOOP_TOLERANCE`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from shutthebox.errors import ShutTheBoxError
from shutthebox.formats import GameFormat
from shutthebox.rules import Rules
from shutthebox.solver.matchplay.scores import (
    FloatArray,
    IntArray,
    Progress,
    compare,
    finals,
    shares,
)

LOOP_TOLERANCE = 1e-13
"""A round's fixed point is accepted when it moves the value by less than this."""


def after_second(rules: Rules, limit: int, first: FloatArray, a: IntArray, b: IntArray,
                 scores: IntArray) -> FloatArray:
    """After the second player's turn: the match ends when a total reaches the limit (the
    better total wins), else the next round starts from the new totals (``first``: the first
    player's chance before its turn, by totals)."""
    a2 = np.broadcast_to(a[:, None], (len(a), len(scores)))
    b2 = b[:, None] + scores[None, :]
    ended = (a2 >= limit) | (b2 >= limit)
    inside = np.where(ended, 0, np.minimum(a2, limit - 1) * limit + np.minimum(b2, limit - 1))
    return np.where(ended, compare(rules, a2, b2), first.ravel()[inside])


def after_first(limit: int, tables: dict[str, Any], a: IntArray, b: IntArray,
                scores: IntArray) -> FloatArray:
    """After the first player's turn: the second plays from the new totals, or against a
    total that has reached the limit."""
    a2 = a[:, None] + scores[None, :]
    b2 = np.broadcast_to(b[:, None], a2.shape)
    over = a2 >= limit
    inside = np.where(over, 0, np.minimum(a2, limit - 1) * limit + b2)
    classes = _difference_class(scores, np.where(over, a2 - b2, 0))
    vectors: FloatArray = np.where(over, tables["second_over"][classes],
                                   tables["second"].ravel()[inside])
    return vectors


def first_vectors(rules: Rules, fmt: GameFormat, tables: dict[str, Any], scores: IntArray,
                  a: IntArray, b: IntArray, round_: int) -> FloatArray:
    """The first player's chance (rows: positions) for each score of its turn."""
    instant = fmt.shut_box_wins(rules) & (scores == rules.best_score)
    vectors = after_first(fmt.threshold, tables, a, b, scores)
    return np.where(instant[None, :], 1.0, vectors)


def second_vectors(rules: Rules, fmt: GameFormat, tables: dict[str, Any], scores: IntArray,
                   a: IntArray, b: IntArray, round_: int) -> FloatArray:
    """The first player's chance (rows: positions with the second to play) for each score of
    the second player's turn."""
    instant = fmt.shut_box_wins(rules) & (scores == rules.best_score)
    vectors = after_second(rules, fmt.threshold, tables["first"], a, b, scores)
    return np.where(instant[None, :], 0.0, vectors)


def _difference_class(scores: IntArray, difference: Any) -> Any:
    """Differences that no score tells apart share a class: ``2 i`` strictly between
    ``scores[i - 1]`` and ``scores[i]``, ``2 i + 1`` equal to ``scores[i]``."""
    i = np.searchsorted(scores, difference)
    equal = (i < len(scores)) & (scores[np.minimum(i, len(scores) - 1)] == difference)
    return 2 * i + equal


def _over_vectors(rules: Rules, fmt: GameFormat, scores: IntArray) -> FloatArray:
    """The first player's chance for each score of the second's turn, for each difference
    class of ``a - b`` once the first's total ``a`` has reached the limit (``b`` has not)."""
    m = len(scores)
    classes = np.arange(2 * m + 1)
    i, equal = classes // 2, (classes % 2 == 1)
    j = np.arange(m)[None, :]
    # the second's total b + t against a: t above the difference means b + t > a
    above = j > i[:, None] - (~equal)[:, None]
    tie = equal[:, None] & (j == i[:, None])
    below = ~above & ~tie
    first_better = below if not rules.lower_is_better else above
    vectors = shares(first_better, tie)
    if fmt.shut_box_wins(rules):
        vectors[:, scores == rules.best_score] = 0.0
    return vectors


def _loop_mask(rules: Rules, fmt: GameFormat) -> FloatArray | None:
    """1 on the masks whose score (0) leaves the totals unchanged, unless a shut box wins at
    once there; ``None`` when no turn can score 0 without ending the match."""
    from shutthebox.solver.match_kernels import start_values
    from shutthebox.solver.objectives import score_array

    if fmt.shut_box_wins(rules) and rules.best_score == 0:
        return None
    loop = (score_array(rules) == 0).astype(np.float64)
    most, _ = start_values(rules, loop[None, :])   # the best chance any play has of looping
    return loop if most[0] > 0 else None


def solve(rules: Rules, fmt: GameFormat, scores: IntArray,
          progress: Progress | None) -> tuple[float, dict[str, Any]]:
    """The first player's chance to win and the tables by totals below the limit: the
    first's chance before its turn (``first``), the second's (``second``), and the second's
    once the first's total has reached the limit (``second_over``, by difference class)."""
    from shutthebox.solver.match_kernels import start_values

    limit = fmt.threshold
    instant = fmt.shut_box_wins(rules)
    over = _over_vectors(rules, fmt, scores)
    value, _ = start_values(rules, finals(rules, 1.0 - over))
    first = np.zeros((limit, limit))
    second = np.zeros((limit, limit))
    tables: dict[str, Any] = {"first": first, "second": second, "second_over": 1.0 - value}
    loop = _loop_mask(rules, fmt)
    levels = 2 * limit - 1
    for n in range(levels - 1, -1, -1):
        a = np.arange(max(0, n - limit + 1), min(n, limit - 1) + 1)
        b = n - a
        guess = first[a, np.minimum(b + 1, limit - 1)] if n < levels - 1 else np.full(len(a), .5)
        first[a, b] = guess
        settled = np.zeros(len(a), dtype=bool)
        for _ in range(100):   # only the positions whose fixed point has not settled
            ai, bi = a[~settled], b[~settled]
            x = first[ai, bi]
            vectors = after_second(rules, limit, first, ai, bi, scores)
            if instant:
                vectors[:, scores == rules.best_score] = 0.0
            value_b, loop_b = start_values(rules, finals(rules, 1.0 - vectors), loop)
            second[ai, bi] = 1.0 - value_b
            vectors = after_first(limit, tables, ai, bi, scores)
            if instant:
                vectors[:, scores == rules.best_score] = 1.0
            value_a, loop_a = start_values(rules, finals(rules, vectors), loop)
            step = value_a - x
            if loop is None:
                first[ai, bi] = value_a
                break
            done = np.abs(step) < LOOP_TOLERANCE
            first[ai, bi] = np.where(done, value_a, x + step / (1.0 - loop_a * loop_b))
            settled[np.flatnonzero(~settled)[done]] = True
            if settled.all():
                break
        else:  # pragma: no cover (a contraction converges long before)
            raise ShutTheBoxError(f"the round's fixed point did not converge at level {n}")
        if progress is not None:
            progress(1.0 - n / levels)
    return float(first[0, 0]), tables
