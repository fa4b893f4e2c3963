"""Exact match play for two players: every format, every rule set.

A two-player match between turns is a few numbers: the totals, the round, and whether the
first or the second player is to play (the second knows the first's score this round). Each
player maximises their own chance to win the match (a tie is worth half), so a turn is an
ordinary turn whose final value is the mover's chance to win the match from where its score
leads. :func:`solve_match` tabulates those chances backwards, by the family that the format
names (:attr:`~shutthebox.formats.GameFormat.family`), one module each:

- :mod:`~shutthebox.solver.matchplay.rounds`: ``single`` and ``rounds:R``, round by round
  from the last, by the difference of the totals (the only thing the winner depends on);
- :mod:`~shutthebox.solver.matchplay.threshold`: ``elimination:L``, ``loser-at:L`` (the same
  game for two players: the round in which a total reaches ``L`` ends it, the lower total
  wins) and ``race:T`` (the higher total wins), by totals ``(a, b)`` below the limit, a
  round that returns to the same totals solved as its fixed point;
- :mod:`~shutthebox.solver.matchplay.battle`: the battle (``battle:rolls`` one roll at a
  time, ``battle:turns`` a whole turn at a time), which can return to any board it has
  left, solved as the stochastic game it is by value iteration.

The solution and its reading are in :mod:`~shutthebox.solver.matchplay.solution`; tables are
kept in memory and on disk (:mod:`~shutthebox.solver.matchplay.tables`), so a rule set and
format is solved once per machine; :mod:`~shutthebox.solver.matchplay.evaluate` plays the
match player against a fixed one, exactly.

>>> from shutthebox.rules import Rules
>>> solution = solve_match(Rules(), "single")
>>> [round(w, 10) for w in solution.win]
[0.5005353268, 0.4994646732]
>>> solution = solve_match(Rules(tiles=4), "rounds:2")
>>> round(sum(solution.win), 12)
1.0
>>> position = MatchPosition(totals=(3, 0), mover=1)     # the first scored 3 in round 1
>>> chances = solution.turn_chances(position)            # the second's chance by score
>>> bool(chances[0] > chances[3] > chances[4])   # scores 0, 3, 4: lower is better
True
"""

from shutthebox.solver.matchplay.battle import BATTLE_TOLERANCE
from shutthebox.solver.matchplay.battle import tiles_after as match_tiles_after
from shutthebox.solver.matchplay.evaluate import against_score_player, match_play_chances
from shutthebox.solver.matchplay.rounds import MAX_POSITIONS, MAX_SUMS, MatchTooLargeError
from shutthebox.solver.matchplay.scores import FloatArray, IntArray, Progress
from shutthebox.solver.matchplay.solution import MatchPosition, MatchSolution, compute
from shutthebox.solver.matchplay.tables import (
    TABLE_VERSION,
    cache_path,
    is_cached,
    solve_match,
    table_needed,
)
from shutthebox.solver.matchplay.threshold import LOOP_TOLERANCE

__all__ = [
    "BATTLE_TOLERANCE",
    "LOOP_TOLERANCE",
    "MAX_POSITIONS",
    "MAX_SUMS",
    "TABLE_VERSION",
    "FloatArray",
    "IntArray",
    "MatchPosition",
    "MatchSolution",
    "MatchTooLargeError",
    "Progress",
    "against_score_player",
    "cache_path",
    "compute",
    "is_cached",
    "match_play_chances",
    "match_tiles_after",
    "solve_match",
    "table_needed",
]
