"""Hints that rank every legal move, and the review of a finished game.

>>> from shutthebox.rules import Rules
>>> from shutthebox.tiles import mask_of
>>> hint = rank_moves(Rules(), "score", mask_of([1, 2, 3, 4, 5, 7, 8]), (3, 5))
>>> [(format_move(m.tiles), round(m.value, 3)) for m in hint]
[('8', 4.862), ('5 3', 8.836), ('7 1', 8.981), ('4 3 1', 14.535), ('5 2 1', 15.183)]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from shutthebox.dice import Roll
from shutthebox.match import replay_decisions
from shutthebox.rules import Rules
from shutthebox.solver.objectives import ObjectiveLike, parse_objective
from shutthebox.solver.players import OptimalStrategy, battle_roll_choice, battle_roll_values
from shutthebox.solver.solve import Solution, solve
from shutthebox.strategies import format_move
from shutthebox.tiles import Tiles, tiles_of
from shutthebox.turn import Phase, TurnState


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


@dataclass(frozen=True)
class ReviewedDecision:
    """One decision of a game: what was played, what was best, and what it cost."""

    index: int
    seat: int
    player: str
    phase: str
    open_tiles: Tiles
    roll: Roll | None
    played: int
    best: int
    played_value: float
    best_value: float
    unit: str = "points"
    """``points`` (an expected score) or ``chance`` (a probability: to win, or of the
    objective)."""

    @property
    def cost(self) -> float:
        return abs(self.best_value - self.played_value)

    def describe(self, action: int) -> str:
        if self.phase == Phase.CHOOSE_DICE:
            return f"{action} di{'e' if action == 1 else 'ce'}"
        return format_move(action)

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "seat": self.seat, "player": self.player,
                "phase": self.phase, "open": list(tiles_of(self.open_tiles)),
                "roll": list(self.roll) if self.roll else None,
                "played": self.describe(self.played), "best": self.describe(self.best),
                "played_value": self.played_value, "best_value": self.best_value,
                "cost": self.cost, "unit": self.unit}


def _review_one(solution: Solution, state: TurnState, action: int) -> tuple[int, float, float]:
    open_tiles = state.open_tiles
    if state.phase is Phase.CHOOSE_DICE:
        best = solution.best_dice(open_tiles)
        return (best, float(solution.dice_value(open_tiles, action)),
                float(solution.dice_value(open_tiles, best)))
    assert state.roll is not None
    best = solution.best_move(open_tiles, state.roll)
    return (best, float(solution.after_move(open_tiles, action)),
            float(solution.after_move(open_tiles, best)))


def review(log: Mapping[str, Any], objective: str | None = None) -> list[ReviewedDecision]:
    """Every decision of a logged game against the optimal one.

    With no objective, each decision is judged the way the optimal computer player would
    play it: by the chance to win the match (exact for two players, and in a single round for
    any number), or by the expected score in a game alone. The cost is then in chance to win.
    """
    reviewed: list[ReviewedDecision] = []
    for decision in replay_decisions(log):
        rules = decision.state.rules
        situation = decision.situation
        if objective is None and situation.format.endswith(":rolls"):
            values = battle_roll_values(rules, decision.state, situation)
            best = battle_roll_choice(rules, decision.state, situation)
            played_value, best_value = values[decision.action], values[best]
            unit = "chance"
        else:
            solution = (solve(rules, parse_objective(objective)) if objective is not None else
                        OptimalStrategy(rules, parse_objective("score")).solution_for(situation))
            best, played_value, best_value = _review_one(solution, decision.state,
                                                         decision.action)
            unit = "points" if solution.objective.is_score else "chance"
        reviewed.append(ReviewedDecision(
            decision.index, decision.seat, decision.player, decision.state.phase.value,
            decision.state.open_tiles, decision.state.roll, decision.action, best,
            played_value, best_value, unit))
    return reviewed


def total_costs(reviewed: list[ReviewedDecision]) -> dict[str, float]:
    """The summed cost of each player's decisions."""
    totals: dict[str, float] = {}
    for r in reviewed:
        totals[r.player] = totals.get(r.player, 0.0) + r.cost
    return totals
