"""The exact match value as the environments' baseline: the chance that a seat wins the match
from where it stands when both players play optimally (a tie counts a half), read from the
solver's two-player match tables (:func:`~shutthebox.solver.matchplay.solve_match`).

Between turns it is the table's value of the match position; inside a turn, the value of the
turn state under the turn's exact match objective (the mover's chance to win by the score it
ends with), as the single environment's ``optimal_value`` is for a turn's own objective. In a
battle it is the knocker's or stander's table, a roll (``battle:rolls``) or a turn
(``battle:turns``) at a time. The other seat's value is one minus the mover's.

It exists where the solver has the match: two players. Elsewhere, or when the environment is
made with ``baseline=False``, :meth:`MatchBaseline.value` is ``None`` and the environments
leave ``info["optimal_value"]`` out. The match table is solved on first use (or read from
the solver's disk cache): seconds for the common formats, but digit scoring over many rounds
can take minutes, which ``baseline=False`` skips.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
from cachetools import FIFOCache

from shutthebox.envs.single import IllegalActionError
from shutthebox.formats import BattleReading
from shutthebox.match import FormatKind, Match, MatchConfig, PendingKind
from shutthebox.solver import Solution, custom, solve
from shutthebox.turn import Phase, TurnState

if TYPE_CHECKING:
    from shutthebox.solver.matchplay import MatchSolution

TURN_SOLUTIONS_KEPT = 256
"""The turn solutions a baseline keeps (one per match position met), the oldest dropped."""


def turn_value(solution: Solution, turn: TurnState) -> float:
    """The optimal value still to come of a turn state, for the solution's objective."""
    if turn.is_over:
        return float(solution.final_value(turn.open_tiles))
    if turn.phase is Phase.SHUT:
        assert turn.roll is not None
        return float(solution.after_roll(turn.open_tiles, turn.roll))
    return float(solution.value(turn.open_tiles))


class MatchBaseline:
    """The exact value of every position of one match configuration, for either seat."""

    def __init__(self, config: MatchConfig, wanted: bool = True) -> None:
        self.config = config
        self.available = wanted and len(config.players) == 2
        self._solution: MatchSolution | None = None
        self._turns: FIFOCache[Any, Solution] = FIFOCache(TURN_SOLUTIONS_KEPT)

    def __getstate__(self) -> dict[str, Any]:
        """The configuration alone: a copy or an unpickled baseline solves (or reads the
        solver's disk cache) again on first use, since the tables hold locks and local
        functions."""
        return {"config": self.config, "available": self.available}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.config, self.available = state["config"], state["available"]
        self._solution = None
        self._turns = FIFOCache(TURN_SOLUTIONS_KEPT)

    @property
    def solution(self) -> MatchSolution:
        """The solver's match tables (solved, or read from the disk cache, on first use)."""
        if self._solution is None:
            from shutthebox.solver.matchplay import solve_match

            self._solution = solve_match(self.config.rules, self.config.format)
        return self._solution

    def value(self, match: Match, seat: int) -> float | None:
        """The chance that ``seat`` wins from here under optimal play by both (0 once the
        match is over: nothing is still to come), or ``None`` where it is not known."""
        if not self.available:
            return None
        if match.is_over:
            return 0.0
        from shutthebox.solver.matchplay import MatchTooLargeError

        try:
            self.solution  # noqa: B018 - solved here so that a match too large is known
        except MatchTooLargeError:
            self.available = False
            return None
        pending = match.pending
        if pending.kind is PendingKind.ROLL_OFF:
            return self.solution.win[seat]
        assert pending.seat is not None and pending.turn is not None
        mover_value = self._mover_value(match, pending.turn, pending.role)
        return mover_value if seat == pending.seat else 1.0 - mover_value

    def best_action(self, match: Match) -> int:
        """The exact match play of the seat to act, as an environment action (a tile mask,
        or ``2**N`` / ``2**N + 1`` to roll one or two dice): an oracle for tests and
        imitation."""
        pending = match.pending
        turn = pending.turn
        if not self.available or turn is None or pending.kind is PendingKind.ROLL_OFF:
            raise IllegalActionError(f"no decision of a two-player match is pending "
                                     f"({pending.kind.value!r})")
        one_die = 1 << self.config.rules.tiles
        if turn.phase is Phase.ROLL:
            return one_die + turn.dice - 1
        solution = self._turn_solution(match, pending.role)
        if solution is None:         # one roll of a battle at a time
            after = self.solution.battle_after(pending.role)
            if turn.phase is Phase.SHUT:
                return max(turn.legal_actions(), key=lambda m: (after[turn.open_tiles & ~m],
                                                                -turn.legal_actions().index(m)))
            one, two = (_roll_value(after, turn.choose_dice(d)) for d in (1, 2))
            return one_die + (0 if one > two else 1)
        if turn.phase is Phase.SHUT:
            assert turn.roll is not None
            return solution.best_move(turn.open_tiles, turn.roll)
        return one_die + solution.best_dice(turn.open_tiles) - 1

    def _mover_value(self, match: Match, turn: TurnState, role: str) -> float:
        solution = self._turn_solution(match, role)
        if solution is not None:
            return turn_value(solution, turn)
        after = self.solution.battle_after(role)     # one roll of a battle at a time
        if turn.phase is Phase.SHUT:
            return float(max(after[turn.open_tiles & ~move] for move in turn.legal_actions()))
        if turn.is_over:
            return float(after[turn.open_tiles])
        return float(np.asarray(self.solution.battle_values(role))[turn.open_tiles])

    def _turn_solution(self, match: Match, role: str) -> Solution | None:
        """The exact play of the turn under way: the turn's match objective, or for a battle
        a turn at a time the knocker's or stander's table after the turn; ``None`` for a
        battle a roll at a time."""
        from shutthebox.solver.matchplay import MatchPosition

        tables = self.solution
        key: Any
        if self.config.format.kind is FormatKind.BATTLE:
            if self.config.format.reading is not BattleReading.TURNS:
                return None
            key = role
        else:
            first, second = match.order
            key = MatchPosition((match.totals[first], match.totals[second]),
                                match.order.index(match.pending.seat or 0), match.round - 1)
        solution = self._turns.get(key)
        if solution is None:
            if isinstance(key, MatchPosition):
                objective = tables.turn_objective(key)
            else:
                after = tables.battle_after(role)
                objective = custom(f"battle-{role}:{self.config.format}:{tables.rules!r}",
                                   lambda rules, tiles: float(after[tiles]))
            solution = self._turns[key] = solve(tables.rules, objective)
        return solution


def _roll_value(after: npt.NDArray[np.float64], rolling: TurnState) -> float:
    """The expected value of one roll about to be made, playing the best move."""
    total = 0.0
    for roll, probability in rolling.chance_outcomes():
        landed = rolling.apply_roll(roll)
        moves = landed.legal_actions()
        best = max((after[landed.open_tiles & ~m] for m in moves),
                   default=after[landed.open_tiles])
        total += float(probability) * float(best)
    return total
