"""The exact solver: optimal play for any rules and objective, hints and review.

>>> from shutthebox.rules import Rules
>>> solution = solve(Rules(), "score")
>>> round(solution.expected_score, 4) == round(solution.value(), 4)
True
"""

from shutthebox.solver.objectives import (
    SCORE,
    SHUT,
    Objective,
    ObjectiveError,
    beat,
    custom,
    parse_objective,
    reach,
)
from shutthebox.solver.solve import Solution, solve, solve_exact, solve_many

__all__ = [
    "SCORE",
    "SHUT",
    "Objective",
    "ObjectiveError",
    "Solution",
    "beat",
    "custom",
    "parse_objective",
    "reach",
    "solve",
    "solve_exact",
    "solve_many",
]
