"""The hint panel's table: the coach's ranking of the decision a match waits for, in words.

The ranking is by what the optimal player aims at there (:func:`shutthebox.coach.hint`):
against others the chance to win (the round, the match or the battle), alone the expected
score. Each row also gives the chance to shut the box.
The solver (and numba) is imported on the first hint.
"""

from __future__ import annotations

from dataclasses import dataclass

from shutthebox.coach import hint
from shutthebox.language import _
from shutthebox.match import Match
from shutthebox.turn import Phase


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
        return _("Hint ({unit}), best first").format(unit=_(self.unit))

    @property
    def columns(self) -> tuple[str, str, str]:
        return (_("dice") if self.choice == "dice" else _("shut"), _(self.unit),
                _("chance to shut"))


def _percent(value: float) -> str:
    return f"{value * 100:.2f} %"


def hint_for(match: Match) -> Hint:
    """Rank the choices of the pending decision (a dice choice or the tiles to shut).

    :raises NoDecisionError: the match waits for a roll, or is over.
    """
    ranked = hint(match)

    def shown(value: float) -> str:
        return f"{value:.2f}" if ranked.is_score else _percent(value)

    rows = tuple((ranked.describe(c), shown(c.value), _percent(c.p_shut))
                 for c in ranked.choices)
    return Hint(ranked.measure, "dice" if ranked.phase is Phase.CHOOSE_DICE else "shut", rows)
