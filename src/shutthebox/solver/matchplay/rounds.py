"""Match play over a fixed number of rounds (``single``, ``rounds:R``), solved round by round
from the last, by the difference of the totals: the only thing the winner depends on."""

from __future__ import annotations

from typing import Any

import numpy as np

from shutthebox.errors import ShutTheBoxError
from shutthebox.formats import GameFormat
from shutthebox.rules import Rules
from shutthebox.solver.matchplay.scores import FloatArray, IntArray, Progress, compare, finals

MAX_POSITIONS = 2_000_000
"""Beyond this many match positions a table is refused (digit scoring over many rounds)."""
MAX_SUMS = 32 * MAX_POSITIONS
"""The most sums of totals and scores formed at once (8 bytes each) while the positions of
a round are counted: beyond it the positions could not be fewer than :data:`MAX_POSITIONS`
without an array of gigabytes first."""


class MatchTooLargeError(ShutTheBoxError):
    """A match whose exact table would be too large to compute."""


def first_vectors(rules: Rules, fmt: GameFormat, tables: dict[str, Any], scores: IntArray,
                  a: IntArray, b: IntArray, round_: int) -> FloatArray:
    """The first player's chance (rows: positions) for each score of its turn."""
    instant = fmt.shut_box_wins(rules) & (scores == rules.best_score)
    d_second, v_second = tables[f"second_d{round_}"], tables[f"second_v{round_}"]
    after = (a - b)[:, None] + scores[None, :]
    return np.where(instant[None, :], 1.0, v_second[np.searchsorted(d_second, after)])


def second_vectors(rules: Rules, fmt: GameFormat, tables: dict[str, Any], scores: IntArray,
                   a: IntArray, b: IntArray, round_: int) -> FloatArray:
    """The first player's chance (rows: positions with the second to play) for each score of
    the second player's turn."""
    instant = fmt.shut_box_wins(rules) & (scores == rules.best_score)
    after = (a - b)[:, None] - scores[None, :]
    if round_ + 1 >= (fmt.rounds or 1):
        vectors = compare(rules, after, 0)
    else:
        d_first, v_first = tables[f"first_d{round_ + 1}"], tables[f"first_v{round_ + 1}"]
        vectors = v_first[np.searchsorted(d_first, after)]
    return np.where(instant[None, :], 0.0, vectors)


def _check_sums(rules: Rules, fmt: GameFormat, sums: int, round_: int) -> None:
    if sums > MAX_SUMS:
        raise MatchTooLargeError(
            f"{fmt} with {rules.scoring.value} scoring is too large to solve exactly: its "
            f"round {round_} has up to {sums:,} positions")


def solve(rules: Rules, fmt: GameFormat, scores: IntArray,
          progress: Progress | None) -> tuple[float, dict[str, Any]]:
    """The first player's chance to win and the tables of every round: for each difference
    of the totals met, the first's chance before its turn and after it.

    :raises MatchTooLargeError: the rounds meet more positions than a table may hold.
    """
    from shutthebox.solver.match_kernels import start_values

    rounds = fmt.rounds or 1
    starts = [np.zeros(1, dtype=np.int64)]
    steps = np.unique(scores[:, None] - scores[None, :])
    for _ in range(rounds - 1):
        _check_sums(rules, fmt, len(starts[-1]) * len(steps), len(starts) + 1)
        starts.append(np.unique(starts[-1][:, None] + steps[None, :]))
        if len(starts[-1]) > MAX_POSITIONS:
            raise MatchTooLargeError(
                f"{fmt} with {rules.scoring.value} scoring has more than {MAX_POSITIONS:,} "
                f"positions by round {len(starts)}: too many to solve exactly")
    tables: dict[str, Any] = {}
    for r in range(rounds - 1, -1, -1):
        _check_sums(rules, fmt, len(starts[r]) * len(scores), r + 1)
        second_d = np.unique(starts[r][:, None] + scores[None, :])
        vectors = second_vectors(rules, fmt, tables, scores, second_d, np.zeros_like(second_d), r)
        value, _ = start_values(rules, finals(rules, 1.0 - vectors))
        tables[f"second_d{r}"], tables[f"second_v{r}"] = second_d, 1.0 - value
        first_d = starts[r]
        vectors = first_vectors(rules, fmt, tables, scores, first_d, np.zeros_like(first_d), r)
        value, _ = start_values(rules, finals(rules, vectors))
        tables[f"first_d{r}"], tables[f"first_v{r}"] = first_d, value
        if progress is not None:
            progress((rounds - r) / rounds)
    return float(tables["first_v0"][0]), tables
