"""Shut the Box: every rule variant, exact optimal play, fast simulation, and play.

>>> from shutthebox import Rules, TurnState
>>> TurnState.start(Rules(tiles=12)).open_tiles == (1 << 12) - 1
True
>>> import shutthebox
>>> round(shutthebox.solve(Rules(), "shut").p_shut, 4)
0.0714
>>> [round(w, 4) for w in shutthebox.solve_match(Rules(), "elimination:45").win]
[0.499, 0.501]
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:   # at run time each name is loaded on first use (see __getattr__)
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
    from shutthebox.solver import solve as solve
    from shutthebox.solver import solve_exact as solve_exact
    from shutthebox.solver import solve_many as solve_many
    from shutthebox.solver import solve_match as solve_match
    from shutthebox.solver.rounds import solve_round as solve_round
    from shutthebox.tiles import Tiles, format_tiles, mask_of, tiles_of
    from shutthebox.turn import Phase, TurnState, legal_moves

_HOMES = {
    "shutthebox.dice": ("Roll", "roll_outcomes"),
    "shutthebox.errors": ("FormatError", "IllegalMoveError", "LogError", "RulesError",
                          "ShutTheBoxError", "TilesError", "UnknownPresetError"),
    "shutthebox.rules": ("PRESETS", "FirstPlayer", "MoveRule", "OneDie", "Rules", "Scoring",
                         "preset"),
    "shutthebox.tiles": ("Tiles", "format_tiles", "mask_of", "tiles_of"),
    "shutthebox.turn": ("Phase", "TurnState", "legal_moves"),
    "shutthebox.solver": ("solve", "solve_exact", "solve_many", "solve_match"),
    "shutthebox.solver.rounds": ("solve_round",),
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}

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

__version__ = "0.2.0"


def __getattr__(name: str) -> object:
    """Each public name is loaded on first use, so that ``import shutthebox.cli`` (and
    ``shutthebox --help``) loads none of the game, and ``solve`` and its kin load the solver
    (and numpy) only when first called."""
    module = _HOME_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'shutthebox' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
