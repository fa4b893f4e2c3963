"""The fast path: single turns of a table strategy, compiled with numba, in chunks.

A table strategy is ``dice[open]`` (dice to roll) and ``moves[d][open, i]`` (tiles to shut
after the ``i``-th roll of ``roll_outcomes(d)``, 0 for none). Every roll is drawn from a
counter-based generator (splitmix64 of the seed, the game's number and the roll's number),
so a result depends only on the seed and the number of games: not on the chunk size, nor on
how many threads run.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import prange

from shutthebox.dice import roll_outcomes
from shutthebox.solver.compiled import compiled
from shutthebox.solver.kernels import PARALLEL_LAUNCH

_MASK64 = np.uint64(0xFFFFFFFFFFFFFFFF)


def two_dice_index() -> npt.NDArray[np.int64]:
    """``index[a - 1, b - 1]``: the position of the roll (a, b) in ``roll_outcomes(2)``."""
    index = np.zeros((6, 6), dtype=np.int64)
    for i, (roll, _) in enumerate(roll_outcomes(2)):
        a, b = roll
        index[a - 1, b - 1] = index[b - 1, a - 1] = i
    return index


@compiled()
def splitmix(x: np.uint64) -> np.uint64:  # pragma: no cover - compiled
    """splitmix64's mix of one word: the step of the counter-based generator that the turn
    and round simulators share, so a seed means the same rolls in both."""
    x = x + np.uint64(0x9E3779B97F4A7C15)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@compiled()
def play_turn(table: np.int64, start: np.int64, key: np.uint64,  # pragma: no cover - compiled
              dice: npt.NDArray[np.int8], moves1: npt.NDArray[np.int16],
              moves2: npt.NDArray[np.int16], index2: npt.NDArray[np.int64]) -> np.int64:
    """One turn from ``start`` with the policy ``table`` of stacked tables; the final tiles."""
    open_tiles = start
    step = np.uint64(0)
    while open_tiles != 0:
        bits = splitmix(key + step)
        step += np.uint64(1)
        a = np.int64(bits % np.uint64(6))
        if dice[table, open_tiles] == 1:
            move = moves1[table, open_tiles, a]
        else:
            b = np.int64((bits >> np.uint64(32)) % np.uint64(6))
            move = moves2[table, open_tiles, index2[a, b]]
        if move == 0:
            break
        open_tiles &= ~np.int64(move)
    return open_tiles


@compiled(parallel=True)
def _play_chunk(first: np.int64, count: np.int64, seed: np.uint64,  # pragma: no cover
                start: np.int64, dice: npt.NDArray[np.int8],
                moves1: npt.NDArray[np.int16], moves2: npt.NDArray[np.int16],
                index2: npt.NDArray[np.int64], out: npt.NDArray[np.int16]) -> None:
    base = splitmix(seed)
    for i in prange(count):
        key = splitmix(base ^ np.uint64(first + i)) << np.uint64(8)
        out[i] = play_turn(np.int64(0), start, key, dice, moves1, moves2, index2)


def play_turns(first: int, count: int, seed: int, start: int, dice: npt.NDArray[np.int8],
               moves: dict[int, npt.NDArray[np.int16]],
               out: npt.NDArray[np.int16] | None = None) -> npt.NDArray[np.int16]:
    """Play games ``first .. first + count - 1``; return each game's final open tiles."""
    if out is None or len(out) < count:
        out = np.empty(count, dtype=np.int16)
    with PARALLEL_LAUNCH:
        _play_chunk(np.int64(first), np.int64(count), np.uint64(seed & 0xFFFFFFFFFFFFFFFF),
                    np.int64(start), dice[None], moves[1][None], moves[2][None],
                    two_dice_index(), out)
    return out[:count]
