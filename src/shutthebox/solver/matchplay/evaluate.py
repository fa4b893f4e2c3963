"""Match play against a fixed player, exactly: how often the match player (``optimal``)
beats the score player (``optimal:score``), by the same backward induction as the tables
with the fixed player's score distribution in place of its optimal play.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from shutthebox.errors import FormatError
from shutthebox.formats import SolverFamily
from shutthebox.rules import Rules
from shutthebox.solver.matchplay.scores import (
    FloatArray,
    IntArray,
    compare,
    distinct_scores,
    finals,
    score_index,
)
from shutthebox.solver.matchplay.solution import MatchSolution
from shutthebox.solver.matchplay.tables import solve_match
from shutthebox.solver.matchplay.threshold import after_second
from shutthebox.solver.objectives import Objective


def _score_chances(rules: Rules, objective: Objective | str) -> FloatArray:
    """The distribution of a turn's score (by index in the distinct scores) under optimal play
    of a fixed objective."""
    from shutthebox.solver.solve import solve

    ended = np.zeros(1 << rules.tiles)
    for mask, p in solve(rules, objective).final_distribution.items():
        ended[mask] = p
    counts = np.bincount(score_index(rules), weights=ended,
                         minlength=len(distinct_scores(rules)))
    return np.asarray(counts, dtype=np.float64)


def _match_chances(solution: MatchSolution, vectors: FloatArray) -> FloatArray:
    """Per row of per-score chances (the mover's), the distribution of the turn's score under
    the mover's exact match play (the same tie rules as the player)."""
    from shutthebox.solver.solve import forward, solve_batch

    rules = solution.rules
    batch = solve_batch(rules, finals(rules, vectors).T.copy())
    ended = forward(rules, batch.dice_table, batch.group_moves)
    index = score_index(rules)
    m = len(solution.scores)
    return np.stack([np.bincount(index, weights=ended[:, k], minlength=m)
                     for k in range(ended.shape[1])])


def match_play_chances(solution: MatchSolution, mover: int, a: IntArray, b: IntArray,
                       round_: int) -> FloatArray:
    """The distribution of the mover's turn score (by index in ``solution.scores``) under
    exact match play, by position (rows: the totals ``a`` of the first player, including
    this round's score once it has played, and ``b`` of the second); ``mover`` is 0 for the
    first player and 1 for the second; for a policy's evaluation against the match player.

    >>> from shutthebox.rules import Rules
    >>> solution = solve_match(Rules(tiles=4), "rounds:2", disk=False)
    >>> chances = match_play_chances(solution, 1, np.array([3]), np.array([0]), 1)
    >>> chances.shape == (1, len(solution.scores)), round(float(chances.sum()), 12)
    (True, 1.0)
    """
    if mover == 0:
        return _match_chances(solution, solution.first_vectors(a, b, round_))
    return _match_chances(solution, 1.0 - solution.second_vectors(a, b, round_))


@dataclass
class _Against:
    """The match player's exact duel against the score player, seen from the first seat."""

    solution: MatchSolution
    match_first: bool
    """Whether the match player plays first."""
    plain: FloatArray
    """The score player's distribution of a turn's score."""

    def chances(self, mover: int, a: IntArray, b: IntArray, r: int) -> FloatArray:
        """The distribution of the mover's score, by position (rows)."""
        if (mover == 0) != self.match_first:
            return np.tile(self.plain, (len(a), 1))
        if mover == 0:
            return _match_chances(self.solution, self.solution.first_vectors(a, b, r))
        return _match_chances(self.solution, 1.0 - self.solution.second_vectors(a, b, r))

    @property
    def instant(self) -> npt.NDArray[np.bool_]:
        """The scores that win the match at once (a shut box, when the rules say so)."""
        rules, scores = self.solution.rules, self.solution.scores
        instant: npt.NDArray[np.bool_] = (self.solution.format.shut_box_wins(rules)
                                          & (scores == rules.best_score))
        return instant

    def first_wins_in_rounds(self) -> float:
        """The first player's chance in a match of a fixed number of rounds."""
        solution, instant = self.solution, self.instant
        rules, scores = solution.rules, solution.scores
        nxt: tuple[IntArray, FloatArray] | None = None
        for r in range((solution.format.rounds or 1) - 1, -1, -1):
            first_d = solution.tables[f"first_d{r}"]
            second_d = solution.tables[f"second_d{r}"]
            after = second_d[:, None] - scores[None, :]
            ends = (compare(rules, after, 0) if nxt is None
                    else nxt[1][np.searchsorted(nxt[0], after)])
            ends = np.where(instant[None, :], 0.0, ends)
            second_v = (self.chances(1, second_d, np.zeros_like(second_d), r) * ends).sum(axis=1)
            after = first_d[:, None] + scores[None, :]
            ends = np.where(instant[None, :], 1.0, second_v[np.searchsorted(second_d, after)])
            first_v = (self.chances(0, first_d, np.zeros_like(first_d), r) * ends).sum(axis=1)
            nxt = (first_d, first_v)
        assert nxt is not None
        return float(nxt[1][0])

    def first_wins_to_threshold(self) -> float:
        """The first player's chance in a match played until a total reaches the limit."""
        solution, instant = self.solution, self.instant
        rules, scores, limit = solution.rules, solution.scores, solution.format.threshold
        first = np.zeros((limit, limit))
        second = np.zeros((limit, limit))
        zero = int(np.searchsorted(scores, 0))
        loops = scores[zero] == 0 and not instant[zero]
        over_cache: dict[int, float] = {}

        def over_value(a2: int, b: int) -> float:
            """The first's chance once its total ``a2`` reached the limit and the second
            plays."""
            if a2 - b not in over_cache:
                ends = compare(rules, np.full(len(scores), a2), b + scores)
                ends = np.where(instant, 0.0, ends)
                p = self.chances(1, np.array([a2]), np.array([b]), 0)[0]
                over_cache[a2 - b] = float(p @ ends)
            return over_cache[a2 - b]

        for n in range(2 * limit - 2, -1, -1):
            a = np.arange(max(0, n - limit + 1), min(n, limit - 1) + 1)
            b = n - a
            first[a, b] = 0.0   # the loop's term is added once the rest is known
            p_second = self.chances(1, a, b, 0)
            ends_b = np.where(instant[None, :], 0.0,
                              after_second(rules, limit, first, a, b, scores))
            second[a, b] = (p_second * ends_b).sum(axis=1)
            p_first = self.chances(0, a, b, 0)
            a2 = a[:, None] + scores[None, :]
            ends_a = np.where(
                a2 >= limit,
                np.vectorize(over_value)(a2, np.broadcast_to(b[:, None], a2.shape)),
                second[np.minimum(a2, limit - 1), b[:, None]])
            ends_a = np.where(instant[None, :], 1.0, ends_a)
            rest = (p_first * ends_a).sum(axis=1)
            loop = p_first[:, zero] * p_second[:, zero] if loops else np.zeros(len(a))
            first[a, b] = rest / (1.0 - loop)
            if loops:
                second[a, b] += p_second[:, zero] * first[a, b]
        return float(first[0, 0])


def against_score_player(rules: Rules, game_format: str, match_first: bool) -> float:
    """The exact chance that the match player (``optimal``) wins a two-player match against
    the score player (``optimal:score``), playing first or second (turn formats only).

    >>> from shutthebox.rules import Rules
    >>> first = against_score_player(Rules(tiles=5), "rounds:2", True)
    >>> second = against_score_player(Rules(tiles=5), "rounds:2", False)
    >>> (first + second) / 2 > 0.5
    True

    :raises FormatError: the format cannot be read, does not fit the rules, or is a battle.
    """
    solution = solve_match(rules, game_format, disk=False)
    if solution.format.is_battle:
        raise FormatError("against_score_player is for the turn formats, not the battle")
    duel = _Against(solution, match_first, _score_chances(solution.rules, "score"))
    first_wins = (duel.first_wins_in_rounds() if solution.format.family is SolverFamily.ROUNDS
                  else duel.first_wins_to_threshold())
    return first_wins if match_first else 1.0 - first_wins
