"""What an exact match table costs to work out, known before any of it is worked out.

:func:`~shutthebox.solver.matchplay.solve_match` evaluates a whole turn (every set of open
tiles, ``2 ** tiles`` of them) once for every row of its tables, and the rows grow with the
format's number: a threshold format (``elimination``, ``loser-at``, ``race``) has one row per
pair of totals below the limit, so its cost grows as the limit squared; ``rounds:R`` has one
row per difference of totals a round can start from, which is small for sum scoring and
enormous for digit scoring. :func:`table_seconds` counts those rows from the rules and the
format alone (exactly where counting is cheap, else an upper bound) and prices each row by
the time one took on the reference machine (2 cores of an AMD EPYC, 2026-11-24; see the
manual's performance page). The estimate errs high (``benchmarks/bench_cost.py`` compares it with
real solves), so that a server that refuses what its budget cannot build never accepts a
table that takes hours.

>>> from shutthebox.rules import Rules
>>> table_seconds(Rules(), "single") < 0.1
True
>>> table_seconds(Rules(tiles=12), "loser-at:10000") > 3600     # hours: a server refuses it
True
>>> largest_limit(Rules(tiles=12), "loser-at", 60.0)
220
"""

from __future__ import annotations

import functools

import numpy as np
import numpy.typing as npt

from shutthebox.errors import FormatError
from shutthebox.formats import FormatKind, GameFormat, SolverFamily
from shutthebox.rules import Rules

OVERHEAD = 0.05
"""Seconds any table costs: setting up, the first compiled call."""
THRESHOLD_ROW = 300e-9
"""Seconds per row and set of open tiles in ``elimination`` and ``loser-at`` (a round that
scores 0 loops back to its own totals: two or three passes per row), measured 180-340 ns."""
RACE_ROW = 80e-9
"""The same in ``race``, whose rounds never loop (measured 50-55 ns)."""
ROUNDS_ROW = 40e-9
"""Seconds per row and set of open tiles in ``rounds`` and ``single`` (measured 26 ns)."""
BATTLE_ROLLS = 800e-9
"""Seconds per pair of boards in a battle read by rolls (value iteration over both
players' boards: measured 700-780 ns)."""
BATTLE_TURNS = 30e-9
"""The same in a battle read by turns, which converges in far fewer sweeps, after a fixed
:data:`BATTLE_TURNS_START` (measured 0.44-0.49 s on 9 and 12 tiles)."""
BATTLE_TURNS_START = 0.5
IntArray = npt.NDArray[np.int64]
EXACT_COUNT = 250_000
"""Sets of totals are counted exactly (with numpy) up to this many sums, else bounded by
the span they lie in (exact where the totals are every number of a span, as in sum
scoring)."""
MOST_ROUNDS = 100
"""The most rounds a ``rounds`` format takes."""


def table_seconds(rules: Rules, game_format: str | GameFormat) -> float:
    """The seconds :func:`~shutthebox.solver.matchplay.solve_match` would take (on the
    reference machine) to work out the table of a two-player match.

    :raises FormatError: the format cannot be read.
    """
    fmt = GameFormat.parse(game_format) if isinstance(game_format, str) else game_format
    boards = float(1 << rules.tiles)
    family = fmt.family
    if family is None:   # a game alone has no match table
        return 0.0
    if family is SolverFamily.BATTLE:
        if fmt.by_turns:
            return OVERHEAD + BATTLE_TURNS_START + boards * boards * BATTLE_TURNS
        return OVERHEAD + boards * boards * BATTLE_ROLLS
    if family is SolverFamily.ROUNDS:
        return OVERHEAD + _rounds_rows(rules, fmt.rounds or 1) * boards * ROUNDS_ROW
    limit = float(fmt.limit or 1)
    per_row = RACE_ROW if fmt.kind is FormatKind.RACE else THRESHOLD_ROW
    return OVERHEAD + limit * limit * boards * per_row


Counted = tuple[IntArray | None, float]
"""A set of totals: its values when they were counted exactly (else None), and its size."""


def _rounds_rows(rules: Rules, rounds: int) -> float:
    """The rows of a ``rounds`` table: for every round, the differences of totals it can
    start from and those its second player can face (as
    :func:`shutthebox.solver.matchplay.rounds.solve` makes them)."""
    return sum(_rows_by_round(rules)[:rounds])


@functools.lru_cache(maxsize=64)
def _rows_by_round(rules: Rules) -> tuple[float, ...]:
    """The rows of each round of the longest ``rounds`` match, once per rule set."""
    from shutthebox.solver.objectives import score_array

    values = np.unique(score_array(rules)).astype(np.int64)
    spread = int(values[-1] - values[0])
    scores: Counted = (values, float(len(values)))
    steps = _sum_set(scores, (-values, float(len(values))), 2 * spread + 1)
    starts: Counted = (np.zeros(1, dtype=np.int64), 1.0)
    rows = []
    for round_ in range(MOST_ROUNDS):
        span = 2 * spread * round_ + 1
        rows.append(starts[1] + _sum_set(starts, scores, span + spread)[1])
        starts = _sum_set(starts, steps, span + 2 * spread)
    return tuple(rows)


def _sum_set(a: Counted, b: Counted, span: int) -> Counted:
    """The distinct sums of a member of ``a`` and one of ``b``, which lie among ``span``
    whole numbers: counted exactly while that is cheap, else bounded."""
    (values_a, count_a), (values_b, count_b) = a, b
    if values_a is not None and values_b is not None and count_a * count_b <= EXACT_COUNT:
        found = np.unique(values_a[:, None] + values_b[None, :])
        return found, float(len(found))
    return None, min(count_a * count_b, float(span))


def largest_limit(rules: Rules, kind: str, budget: float) -> int | None:
    """The largest number of the format ``kind`` (``rounds``, ``elimination``, ``loser-at``,
    ``race``) whose table fits in ``budget`` seconds, or None if none does.

    :raises FormatError: ``kind`` is not a format that takes a number.
    """
    def fits(limit: int) -> bool:
        try:
            fmt = GameFormat.parse(f"{kind}:{limit}")
        except FormatError:
            return False
        return table_seconds(rules, fmt) <= budget

    GameFormat.parse(f"{kind}:1")          # a format that takes a number, or FormatError
    low, high = 0, 10_000
    while low < high:
        middle = (low + high + 1) // 2
        if fits(middle):
            low = middle
        else:
            high = middle - 1
    return low or None
