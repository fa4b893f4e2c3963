"""Single-round games of several players who all play the posted-score-aware optimal
strategy, on the compiled fast path.

Before a turn, such a player's policy depends only on the best score posted so far, how many
players posted it, and how many play after: one policy table per situation, from the solver.
Games are played in the seat order (every seat plays the same strategy, so no rotation is
needed); a shut box wins at once when the rules say so.

>>> from shutthebox.rules import Rules
>>> tables = RoundTables.build(Rules(tiles=4), players=2)
>>> shares = play_rounds(tables, games=20_000, seed=1)
>>> round(float(shares.sum()), 6)
20000.0
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from numba import prange

from shutthebox.rules import Rules
from shutthebox.simulate.fast import play_turn, splitmix, two_dice_index
from shutthebox.solver.compiled import compiled
from shutthebox.solver.kernels import PARALLEL_LAUNCH
from shutthebox.solver.players import win_solutions


@dataclass(frozen=True)
class RoundTables:
    """Policy tables for every situation of a single round of ``players`` players."""

    rules: Rules
    players: int
    score_rank: npt.NDArray[np.int64]
    """For each final mask, the rank of its score among all scores (0 = best)."""
    table_of: npt.NDArray[np.int64]
    """``table_of[seat, best_rank, tied]``: the table index (seat 0 uses ``[0, 0, 0]``)."""
    dice: npt.NDArray[np.int8]
    moves1: npt.NDArray[np.int16]
    moves2: npt.NDArray[np.int16]

    @classmethod
    def build(cls, rules: Rules, players: int) -> RoundTables:
        size = 1 << rules.tiles
        scores = sorted({rules.score(m) for m in range(size)},
                        reverse=not rules.lower_is_better)
        rank = {score: i for i, score in enumerate(scores)}
        score_rank = np.array([rank[rules.score(m)] for m in range(size)], dtype=np.int64)
        table_of = np.full((players, len(scores), players), -1, dtype=np.int64)
        situations: list[tuple[tuple[int, ...], int]] = [((), players - 1)]
        table_of[0, 0, 0] = 0
        for seat in range(1, players):
            for score in scores:
                for tied in range(1, seat + 1):
                    table_of[seat, rank[score], tied] = len(situations)
                    situations.append(((score,) * tied, players - 1 - seat))
        tables = [solution.policy_tables() for solution in win_solutions(rules, situations)]
        dice = [d for d, _ in tables]
        moves1 = [m[1] for _, m in tables]
        moves2 = [m[2] for _, m in tables]
        return cls(rules, players, score_rank, table_of, np.stack(dice), np.stack(moves1),
                   np.stack(moves2))


@compiled(parallel=True)
def _rounds(count: np.int64, seed: np.uint64, players: np.int64,  # pragma: no cover
            start: np.int64, instant_win: bool, score_rank: npt.NDArray[np.int64],
            table_of: npt.NDArray[np.int64], dice: npt.NDArray[np.int8],
            moves1: npt.NDArray[np.int16], moves2: npt.NDArray[np.int16],
            index2: npt.NDArray[np.int64], winners: npt.NDArray[np.int64]) -> None:
    base = splitmix(seed)
    for game in prange(count):
        best, tied, won = np.int64(-1), np.int64(0), np.int64(0)
        for seat in range(players):
            table = table_of[0, 0, 0] if seat == 0 else table_of[seat, best, tied]
            key = splitmix(base ^ np.uint64(game * 16 + seat)) << np.uint64(8)
            final = play_turn(table, start, key, dice, moves1, moves2, index2)
            rank = score_rank[final]
            if final == 0 and instant_win:
                won = np.int64(1) << seat
                break
            if best < 0 or rank < best:
                best, tied, won = rank, np.int64(1), np.int64(1) << seat
            elif rank == best:
                tied += 1
                won |= np.int64(1) << seat
        winners[game] = won


def play_rounds(tables: RoundTables, games: int, seed: int) -> npt.NDArray[np.float64]:
    """Each seat's total share of the wins over ``games`` single rounds (ties share)."""
    winners = np.empty(games, dtype=np.int64)
    with PARALLEL_LAUNCH:
        _rounds(np.int64(games), np.uint64(seed & 0xFFFFFFFFFFFFFFFF),
                np.int64(tables.players), np.int64(tables.rules.full),
                tables.rules.shut_box_wins(multi_round=False), tables.score_rank,
                tables.table_of, tables.dice, tables.moves1, tables.moves2, two_dice_index(),
                winners)
    shares = np.zeros(tables.players)
    counts = np.array([int(w).bit_count() for w in range(1 << tables.players)])
    histogram = np.bincount(winners, minlength=1 << tables.players)
    for mask, times in enumerate(histogram):
        if times:
            for seat in range(tables.players):
                if mask >> seat & 1:
                    shares[seat] += times / counts[mask]
    return shares
