"""Shut the Box: every rule variant, exact optimal play, fast simulation, and play.

>>> from shutthebox import Rules, TurnState
>>> TurnState.start(Rules(tiles=12)).open_tiles == (1 << 12) - 1
True
>>> import shutthebox
>>> round(shutthebox.solve(Rules(), "shut").p_shut, 4)
0.0714
"""

from shutthebox.dice import Roll, roll_outcomes
from shutthebox.errors import (
    FormatError,
    IllegalMoveError,
    LogError,
    RulesError,
    ShutTheBoxError,
    TilesError,
    UnknownPresetError,
)
from shutthebox.rules import PRESETS, FirstPlayer, MoveRule, OneDie, Rules, Scoring, preset
from shutthebox.tiles import Tiles, format_tiles, mask_of, tiles_of
from shutthebox.turn import Phase, TurnState, legal_moves

__all__ = [
    "PRESETS",
    "FirstPlayer",
    "FormatError",
    "IllegalMoveError",
    "LogError",
    "MoveRule",
    "OneDie",
    "Phase",
    "Roll",
    "Rules",
    "RulesError",
    "Scoring",
    "ShutTheBoxError",
    "Tiles",
    "TilesError",
    "TurnState",
    "UnknownPresetError",
    "format_tiles",
    "legal_moves",
    "mask_of",
    "preset",
    "roll_outcomes",
    "tiles_of",
]

__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    """``shutthebox.solve``, ``solve_exact`` and ``solve_many`` load the solver (and numpy)
    only when first used."""
    if name in ("solve", "solve_exact", "solve_many"):
        from shutthebox import solver

        return getattr(solver, name)
    raise AttributeError(f"module 'shutthebox' has no attribute {name!r}")
