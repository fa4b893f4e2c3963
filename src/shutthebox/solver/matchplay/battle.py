"""The battle (``battle:rolls`` one roll at a time, ``battle:turns`` a whole turn at a time):
the knocker shuts open tiles, the stander stands shut ones up again, on one box. It can
return to any board it has left, so it is solved as the stochastic game it is: value
iteration on the knocker's and the stander's tables until a sweep changes no value by more
than :data:`BATTLE_TOLERANCE`."""

from __future__ import annotations

from typing import Any

import numpy as np

from shutthebox.formats import BattleReading, GameFormat
from shutthebox.players.base import Role
from shutthebox.rules import Rules
from shutthebox.solver.matchplay.scores import FloatArray, IntArray, Progress
from shutthebox.tiles import Tiles

BATTLE_TOLERANCE = 1e-15
"""Value iteration of a battle stops when a sweep changes no value by more than this."""


def solve(rules: Rules, fmt: GameFormat, scores: IntArray,
          progress: Progress | None) -> tuple[float, dict[str, Any]]:
    """The knocker's chance to win and the tables: the mover's chance before its roll (or
    turn) for each mask of the tiles it works on, the knocker's (``knock``) and the
    stander's (``stand``); a battle keeps no score, so ``scores`` is not read."""
    from shutthebox.solver.match_kernels import roll_values, turn_values

    size = 1 << rules.tiles
    full = size - 1
    complement = full & ~np.arange(size)
    knock = np.full(size, 0.5)
    stand = np.full(size, 0.5)

    def sweep(other: FloatArray) -> FloatArray:
        after = 1.0 - other[complement]
        after[0] = 1.0
        if fmt.reading is BattleReading.TURNS:
            return turn_values(rules, after)
        return roll_values(rules, after, after)

    for sweeps in range(1, 1_000_001):
        new_knock = sweep(stand)
        new_stand = sweep(new_knock)
        change = max(np.max(np.abs(new_knock - knock)), np.max(np.abs(new_stand - stand)))
        knock, stand = new_knock, new_stand
        if change <= BATTLE_TOLERANCE:
            break
        if progress is not None and sweeps % 64 == 0:
            progress(min(0.99, 1.0 / max(1.0, -np.log10(change / BATTLE_TOLERANCE))))
    knock[0] = stand[0] = 1.0
    if progress is not None:
        progress(1.0)
    return float(knock[full]), {"knock": knock, "stand": stand, "sweeps": sweeps}


def tiles_after(board: Tiles, move: Tiles, role: str) -> Tiles:
    """A battle's board after the knocker shuts or the stander stands ``move``."""
    return board | move if role == Role.STAND else board & ~move
