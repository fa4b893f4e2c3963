"""Every legal move or dice choice ranked by one objective, with what each loses against the best.

The coach (:mod:`shutthebox.coach`) judges a match's decisions and reviews games by what the
optimal player aims at in each position; these rank by an objective given by name.

>>> from shutthebox.rules import Rules
>>> from shutthebox.strategies import format_move
>>> from shutthebox.tiles import mask_of
>>> hint = rank_moves(Rules(), "score", mask_of([1, 2, 3, 4, 5, 7, 8]), (3, 5))
>>> [(format_move(m.tiles), round(m.value, 3)) for m in hint]
[('8', 4.862), ('3 5', 8.836), ('1 7', 8.981), ('1 3 4', 14.535), ('1 2 5', 15.183)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shutthebox.dice import Roll
from shutthebox.rules import Rules
from shutthebox.solver.objectives import ObjectiveLike
from shutthebox.solver.solve import Solution, solve
from shutthebox.tiles import Tiles, tiles_of


@dataclass(frozen=True)
class RankedMove:
    """A legal move, the value it leads to, and how much it loses against the best."""

    tiles: Tiles
    value: float
    loss: float

    def to_dict(self) -> dict[str, Any]:
        return {"tiles": list(tiles_of(self.tiles)), "value": self.value, "loss": self.loss}


@dataclass(frozen=True)
class RankedDice:
    """A dice choice, its value, and how much it loses against the best."""

    dice: int
    value: float
    loss: float

    def to_dict(self) -> dict[str, Any]:
        return {"dice": self.dice, "value": self.value, "loss": self.loss}


def _loss(solution: Solution, best: float, value: float) -> float:
    return abs(float(best) - float(value))


def rank_moves(rules: Rules, objective: ObjectiveLike, open_tiles: Tiles,
               roll: Roll) -> list[RankedMove]:
    """Every legal move for the roll with its value, best first."""
    solution = solve(rules, objective)
    ranked = solution.ranked_moves(open_tiles, roll)
    if not ranked:
        return []
    best = ranked[0][1]
    return [RankedMove(m, float(v), _loss(solution, best, v)) for m, v in ranked]


def rank_dice(rules: Rules, objective: ObjectiveLike, open_tiles: Tiles) -> list[RankedDice]:
    """Each allowed dice count with its value, best first."""
    solution = solve(rules, objective)
    ranked = solution.ranked_dice(open_tiles)
    best = ranked[0][1]
    return [RankedDice(d, float(v), _loss(solution, best, v)) for d, v in ranked]
