"""What a decision is judged by (:class:`Aim`): what the optimal player aims at in a position,
the expected score alone or the chance to win the round, the match or the battle with others.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from shutthebox.dice import Roll
from shutthebox.errors import ShutTheBoxError
from shutthebox.language import N_, _
from shutthebox.players.base import Situation
from shutthebox.rules import Rules
from shutthebox.tiles import Tiles
from shutthebox.turn import Phase, TurnState

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from shutthebox.solver.objectives import ObjectiveLike
    from shutthebox.solver.solve import Solution

EXPECTED_SCORE = N_("expected score")
CHANCE_TO_WIN = N_("chance to win")


class NoDecisionError(ShutTheBoxError):
    """The match waits for something other than a decision (a roll, or nothing: it is over),
    so there is nothing to rank."""


@dataclass(frozen=True)
class Aim:
    """What a decision is judged by: the value of each choice for the player to move.

    ``solution`` is the turn solver's solution of the objective followed; a battle read by
    rolls has none (each roll is its own decision): ``situation`` then says which battle and
    role, and the values are :func:`~shutthebox.solver.players.battle_roll_values`.
    """

    rules: Rules
    measure: str
    """``'expected score'``, ``'chance to win'``, or for an objective asked for by name
    ``'chance (NAME)'`` (a chance to shut, to beat or reach a score)."""
    name: str
    """The objective's name (``score``, ``match:rounds:3``, ``battle:rolls:knock``...)."""
    solution: Solution | None = None
    situation: Situation | None = None

    @property
    def is_score(self) -> bool:
        """Whether values are expected scores (else chances, from 0 to 1)."""
        return self.measure == EXPECTED_SCORE

    def ranked(self, state: TurnState) -> list[tuple[int, float]]:
        """Every legal action of a decision with its value, best first (the first is what
        the optimal player plays; ties keep the stable move order, then two dice).

        :raises NoDecisionError: the state is not a decision.
        """
        if not state.is_decision:
            raise NoDecisionError(_("no decision to rank: the turn is at {value!r}").format(
                                    value=state.phase.value))
        if self.solution is None:
            return self._battle_ranked(state)
        if state.phase is Phase.CHOOSE_DICE:
            return [(d, float(v)) for d, v in self.solution.ranked_dice(state.open_tiles)]
        assert state.roll is not None
        return [(m, float(v)) for m, v in self.solution.ranked_moves(state.open_tiles,
                                                                     state.roll)]

    def _battle_ranked(self, state: TurnState) -> list[tuple[int, float]]:
        from shutthebox.solver.players import battle_roll_choice, battle_roll_values

        assert self.situation is not None
        if not state.legal_actions():
            return []
        values = battle_roll_values(self.rules, state, self.situation)
        best = battle_roll_choice(self.rules, state, self.situation)
        rest = sorted((a for a in values if a != best), key=lambda a: -values[a])
        return [(best, values[best]), *((a, values[a]) for a in rest)]

    def roll_value(self, open_tiles: Tiles, roll: Roll) -> float:
        """The value of a roll with these tiles open: its best move's, or (a roll that allows
        no move) the value of the turn ending there."""
        state = TurnState(self.rules, open_tiles, Phase.SHUT, dice=len(roll),
                          roll=tuple(sorted(roll)))
        ranked = self.ranked(state)
        if ranked:
            return ranked[0][1]
        if self.solution is not None:
            return float(self.solution.final_value(open_tiles))
        return float(self._battle_after()[open_tiles])

    def _battle_after(self) -> npt.NDArray[np.float64]:
        from shutthebox.solver.matchplay import solve_match

        assert self.situation is not None
        assert self.situation.format is not None
        table = solve_match(self.rules, self.situation.format)
        return table.battle_after(self.situation.role)


def aim(rules: Rules, situation: Situation | None = None, objective: ObjectiveLike | None = None,
        *, match_tables: bool = True) -> Aim:
    """What the optimal player aims at in ``situation`` (by default a turn alone), or the
    ``objective`` asked for instead.

    ``match_tables=False`` says the two-player match tables may not be computed (they would
    take too long here): the multi-round formats and the battle are then judged by the
    expected score, as the optimal player plays while its table is missing.

    :raises ObjectiveError: ``objective`` cannot be read.
    :raises FormatError: the situation's format cannot be read or does not fit the rules.
    """
    from shutthebox.solver.objectives import SCORE, parse_objective
    from shutthebox.solver.players import OptimalStrategy
    from shutthebox.solver.solve import solve

    if objective is not None:
        chosen = parse_objective(objective)
        solution = solve(rules, chosen)
        measure = EXPECTED_SCORE if chosen.is_score else f"chance ({chosen})"
        return Aim(rules, measure, str(chosen), solution)
    situation = situation or Situation()
    if match_tables and situation.by_rolls:
        return Aim(rules, CHANCE_TO_WIN, f"{situation.format}:{situation.role}",
                   situation=situation)
    solution = OptimalStrategy(rules, SCORE, match_play=match_tables).solution_for(situation)
    measure = EXPECTED_SCORE if solution.objective.is_score else CHANCE_TO_WIN
    return Aim(rules, measure, str(solution.objective), solution, situation)
