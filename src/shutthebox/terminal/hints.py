"""The hint for the decision a match waits for: every legal choice ranked by the exact solver.

The ranking is by what the optimal player aims at there: against others the chance to win
(the round, or the whole match), alone the expected score. Each row also gives the chance to
shut the box.
The solver (and numba) is imported on the first hint.
"""

from __future__ import annotations

from dataclasses import dataclass

from shutthebox.match import Match
from shutthebox.strategies import format_move


@dataclass(frozen=True)
class Hint:
    """A ranked table: the choices, best first, with their value and chance to shut."""

    unit: str
    """``'expected score'`` or ``'chance to win'``."""
    choice: str
    """``'shut'`` or ``'dice'``."""
    rows: tuple[tuple[str, str, str], ...]

    @property
    def title(self) -> str:
        return f"Hint ({self.unit}), best first"

    @property
    def columns(self) -> tuple[str, str, str]:
        return (self.choice, self.unit, "chance to shut")


def _percent(value: float) -> str:
    return f"{value * 100:.2f} %"


def hint_for(match: Match) -> Hint:
    """Rank the choices of the pending decision (a dice choice or the tiles to shut)."""
    from shutthebox.solver.advice import rank_dice, rank_moves
    from shutthebox.solver.objectives import SCORE
    from shutthebox.solver.players import OptimalStrategy

    pending = match.pending
    turn = pending.turn
    if turn is None or not pending.is_decision:
        raise ValueError(f"no decision to hint: the match waits for {pending.kind!r}")
    rules = match.rules
    situation = match.situation() if pending.role == "turn" else None
    objective = SCORE if situation is None else \
        OptimalStrategy(rules, SCORE).solution_for(situation).objective
    to_win = objective is not SCORE
    unit = "chance to win" if to_win else "expected score"

    def shown(value: float) -> str:
        return _percent(value) if to_win else f"{value:.2f}"

    if pending.kind == "choose-dice":
        shut = {d.dice: d.value for d in rank_dice(rules, "shut", turn.open_tiles)}
        rows = tuple((f"{d.dice} di{'e' if d.dice == 1 else 'ce'}", shown(d.value),
                      _percent(shut[d.dice]))
                     for d in rank_dice(rules, objective, turn.open_tiles))
        return Hint(unit, "dice", rows)
    assert turn.roll is not None
    shut = {m.tiles: m.value for m in rank_moves(rules, "shut", turn.open_tiles, turn.roll)}
    rows = tuple((format_move(m.tiles), shown(m.value), _percent(shut[m.tiles]))
                 for m in rank_moves(rules, objective, turn.open_tiles, turn.roll))
    return Hint(unit, "shut", rows)
