"""Computer players built on the solver.

``optimal`` plays one objective perfectly. In a single round (where the round decides the
game: :attr:`~shutthebox.strategies.Situation.decisive`) that it shares with others, knowing
the scores already posted and how many play after it, it plays to *win*: it
maximises its share of the win (a k-way tie is worth 1/k; a shut box wins at once when the
rules say so), assuming each player still to come plays to beat or tie the best score before
them (a tie counted half).

>>> import random
>>> from shutthebox.rules import Rules
>>> from shutthebox.strategies import Situation
>>> from shutthebox.turn import TurnState
>>> player = make_optimal("", Rules())
>>> state = TurnState.start(Rules()).apply_roll((4, 5))
>>> best = solve(Rules(), "score").best_move(state.open_tiles, (4, 5))
>>> player.choose(state, Situation()) == best
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from math import comb

import numpy as np
import numpy.typing as npt

from shutthebox.rules import Rules
from shutthebox.solver.objectives import Objective, beat, parse_objective, score_array
from shutthebox.solver.solve import Solution, forward, solve, solve_batch, solve_many
from shutthebox.strategies import Situation
from shutthebox.turn import Phase, TurnState

CONTEST_BATCH = 256
"""Targets solved side by side in one pass when tabulating the later players' odds."""

COMPILED_WORK = 1 << 20
"""Beyond this many (target, mask) pairs (digit scoring on 11 and 12 tiles) the compiled
kernel tabulates the odds: numba's start-up then costs less than numpy's calls."""


def _contest_ended(rules: Rules, finals: npt.NDArray[np.float64],
                   compiled: bool) -> npt.NDArray[np.float64]:
    if compiled:
        from shutthebox.solver.kernels import ended_many  # numba: only where it pays

        return ended_many(rules, finals)
    batch = solve_batch(rules, finals)
    return forward(rules, batch.dice_table, batch.group_moves)


@cache
def _later_odds_table(rules: Rules, compiled: bool | None = None) -> dict[int, tuple[float, float]]:
    """For every possible score ``T``: (P better, P tie) of a later player who plays to beat
    ``T``, a tie counted half, all targets solved in batches (compiled when there are many,
    unless ``compiled`` says otherwise)."""
    scores = score_array(rules)
    targets = np.unique(scores)
    if compiled is None:
        compiled = len(targets) * len(scores) > COMPILED_WORK
    odds: dict[int, tuple[float, float]] = {}
    for start in range(0, len(targets), CONTEST_BATCH):
        chunk = targets[start:start + CONTEST_BATCH]
        better = (scores[:, None] < chunk) if rules.lower_is_better else (scores[:, None] > chunk)
        tie = scores[:, None] == chunk
        ended = _contest_ended(rules, better + 0.5 * tie, compiled)
        for k, target in enumerate(chunk.tolist()):
            odds[target] = (float(ended[better[:, k], k].sum()), float(ended[tie[:, k], k].sum()))
    return odds


def _later_odds(rules: Rules, target: int) -> tuple[float, float]:
    """(P better, P tie) of a later player who plays to beat ``target``, a tie counted half."""
    odds = _later_odds_table(rules).get(target)
    if odds is None:   # no final position scores exactly the target: nobody can tie it
        return float(solve(rules, beat(target)).value()), 0.0
    return odds


def win_share(rules: Rules, score: int, posted: tuple[int, ...], still_to_play: int) -> float:
    """The expected share of the win of a turn ending with ``score``.

    >>> from shutthebox.rules import Rules
    >>> win_share(Rules(), 5, (7, 9), 0)
    1.0
    >>> win_share(Rules(), 7, (7, 9), 0)
    0.5
    """
    if rules.instant_win and score == rules.best_score:
        return 1.0
    best = min(posted, default=None) if rules.lower_is_better else max(posted, default=None)
    if best is not None and rules.better(best, score):
        return 0.0
    tied = sum(1 for s in posted if s == score)
    if still_to_play == 0:
        return 1.0 / (1 + tied)
    better, tie = _later_odds(rules, score)
    survive = 1.0 - better
    if survive <= 0.0:
        return 0.0
    q = tie / survive
    share = sum(comb(still_to_play, j) * q**j * (1 - q) ** (still_to_play - j) / (1 + tied + j)
                for j in range(still_to_play + 1))
    return survive**still_to_play * share


def _win_shares(rules: Rules, scores: npt.NDArray[np.int64], posted: tuple[int, ...],
                still_to_play: int) -> npt.NDArray[np.float64]:
    distinct, where = np.unique(scores, return_inverse=True)
    shares = np.array([win_share(rules, int(s), posted, still_to_play) for s in distinct])
    return shares[where]


def win_objective(posted: tuple[int, ...], still_to_play: int) -> Objective:
    """The share of the win, with these scores posted and this many players still to play.

    >>> from shutthebox.rules import Rules
    >>> win_objective((7, 9), 0).final_value(Rules(), 0b1000000)   # only tile 7 open: a tie
    0.5
    """
    ordered = tuple(sorted(posted))
    return Objective(
        f"win:{','.join(map(str, ordered))}:{still_to_play}",
        lambda r, tiles: win_share(r, r.score(tiles), ordered, still_to_play),
        key=("win", ordered, still_to_play),
        of_scores=lambda r, scores: _win_shares(r, scores, ordered, still_to_play))


def deciding_posted(rules: Rules, posted: tuple[int, ...]) -> tuple[int, ...]:
    """The posted scores that matter to the win: the best one, once per player who posted it
    (a worse score can neither tie nor beat the turn that wins).

    >>> from shutthebox.rules import Rules
    >>> deciding_posted(Rules(), (12, 7, 30, 7))
    (7, 7)
    """
    if not posted:
        return ()
    best = min(posted) if rules.lower_is_better else max(posted)
    return (best,) * posted.count(best)


def win_solutions(rules: Rules,
                  situations: Sequence[tuple[tuple[int, ...], int]]) -> list[Solution]:
    """The solutions that maximise the share of the win in each situation ``(posted,
    still_to_play)``, solved side by side (for tables of every situation of a round)."""
    return solve_many(rules, [win_objective(deciding_posted(rules, posted), still)
                              for posted, still in situations])


def win_solution(rules: Rules, posted: tuple[int, ...], still_to_play: int) -> Solution:
    """The solution that maximises the share of the win in this situation."""
    return win_solutions(rules, [(posted, still_to_play)])[0]


@dataclass
class OptimalStrategy:
    """Plays the solver's optimal policy for an objective, or to win when others are in the
    round (unless ``aware`` is off)."""

    rules: Rules
    objective: Objective
    aware: bool = True
    name: str = "optimal"

    def solution_for(self, situation: Situation) -> Solution:
        """The solution this player follows in a situation."""
        if self.aware and situation.decisive and (situation.posted or situation.still_to_play):
            return win_solution(self.rules, tuple(sorted(situation.posted)),
                                situation.still_to_play)
        return solve(self.rules, self.objective)

    def choose(self, state: TurnState, situation: Situation) -> int:
        solution = self.solution_for(situation)
        if state.phase is Phase.CHOOSE_DICE:
            return solution.best_dice(state.open_tiles)
        assert state.roll is not None
        return solution.best_move(state.open_tiles, state.roll)


def make_optimal(spec: str, rules: Rules) -> OptimalStrategy:
    """``optimal`` (expected score, or to win in a round with others) or
    ``optimal:OBJECTIVE`` (that objective always, e.g. ``optimal:shut``)."""
    if not spec:
        return OptimalStrategy(rules, parse_objective("score"))
    return OptimalStrategy(rules, parse_objective(spec), aware=False, name=f"optimal:{spec}")

