"""The exact solver: optimal play for any rules and objective, hints and review.

- :func:`solve` (floats, cached), :func:`solve_many` (several objectives in one pass) and
  :func:`solve_exact` (fractions) return a :class:`Solution`: the value of every open-tile
  mask, of each dice choice and of each move, the best dice and moves (ties: the stable move
  order, then two dice), the score distribution, ``p_shut``, ``expected_score`` and numpy
  policy tables (:meth:`Solution.policy_tables`).
- Objectives (:func:`parse_objective`): ``score``, ``shut``, ``beat:T``, ``reach:T``, a
  :func:`custom` value of the final tiles, or a plain function of the final open tiles.
- :func:`solve_match` solves a two-player match of any format exactly
  (:mod:`shutthebox.solver.matchplay`): each seat's chance to win and the tables that play
  every turn for the match.
- :mod:`shutthebox.solver.advice` ranks moves and dice (hints) and reviews saved games;
  :mod:`shutthebox.solver.players` holds the ``optimal`` computer player, which plays to win
  against posted scores in a single round.

>>> from shutthebox.rules import Rules
>>> solution = solve(Rules(), "score")
>>> round(solution.expected_score, 4) == round(solution.value(), 4)
True
"""

from shutthebox.solver.matchplay import MatchPosition, MatchSolution, solve_match
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
    "MatchPosition",
    "MatchSolution",
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
    "solve_match",
]
