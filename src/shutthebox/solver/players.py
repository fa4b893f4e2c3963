"""Computer players built on the solver.

``optimal`` plays the match to win it:

- in a single round with others (:attr:`~shutthebox.players.base.Situation.decisive`), knowing
  the best score posted, how many hold it and how many play after it, it maximises its share
  of the win (a k-way tie is worth 1/k; a shut box wins at once when the rules say so), every
  later player doing the same: exact for any number of players
  (:func:`~shutthebox.solver.rounds.solve_round`);
- in every multi-round format and the battle with two players, it plays the exact two-player
  match (:func:`~shutthebox.solver.matchplay.solve_match`): each turn maximises the chance to
  win the match;
- with three or more players in a multi-round format it plays the two-player match against
  the best of the others (the lowest total, the highest with covered scoring), as if that
  player were its only opponent: the one it must beat to win. An approximation, measured in
  the README.

``optimal:round`` is the player of earlier versions (the expected score, and to win only in a
deciding single round); ``optimal:OBJECTIVE`` plays that objective always.

>>> import random
>>> from shutthebox.rules import Rules
>>> from shutthebox.players.base import Situation
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
from functools import cache, partial
from math import comb

import numpy as np
import numpy.typing as npt

from shutthebox.dice import roll_outcomes
from shutthebox.errors import FormatError
from shutthebox.players.base import Situation
from shutthebox.rules import Rules
from shutthebox.solver.matchplay import MatchPosition, solve_match
from shutthebox.solver.objectives import (
    MaskTable,
    Objective,
    beat,
    parse_objective,
    score_array,
)
from shutthebox.solver.rounds import COMPILED_WORK, ended_under_play, solve_round
from shutthebox.solver.solve import EPSILON, Solution, solve, solve_many
from shutthebox.turn import Phase, TurnState, legal_moves

CONTEST_BATCH = 256
"""Targets solved side by side in one pass when tabulating the later players' odds."""


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
        ended = ended_under_play(rules, better + 0.5 * tie, compiled)
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
    """The expected share of the win of a turn ending with ``score``, if each later player
    played to beat or tie the best score before them (a tie counted half): the model of
    earlier versions, exact when nobody plays after (the exact round is
    :func:`~shutthebox.solver.rounds.solve_round`).

    >>> from shutthebox.rules import Rules
    >>> win_share(Rules(), 5, (7, 9), 0)
    1.0
    >>> win_share(Rules(), 7, (7, 9), 0)
    0.5
    """
    if rules.shut_box_wins(multi_round=False) and score == rules.best_score:
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


def _win_share_of_tiles(rules: Rules, open_tiles: int, posted: tuple[int, ...],
                        still_to_play: int) -> float:
    return win_share(rules, rules.score(open_tiles), posted, still_to_play)


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
        partial(_win_share_of_tiles, posted=ordered, still_to_play=still_to_play),
        key=("win", ordered, still_to_play),
        of_scores=partial(_win_shares, posted=ordered, still_to_play=still_to_play))


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


def round_objective(rules: Rules, posted: tuple[int, ...], still_to_play: int) -> Objective:
    """The exact share of the win in a deciding single round, with these scores posted and
    this many players still to play, each of them playing to win too.

    >>> from shutthebox.rules import Rules
    >>> round_objective(Rules(), (7, 9), 0).final_value(Rules(), 0b1000000)   # 7: a tie
    0.5
    """
    holders = deciding_posted(rules, posted)
    if not holders:
        return solve_round(rules, still_to_play + 1).objective(0)
    count = len(holders)
    return solve_round(rules, still_to_play + 1 + count).objective(count, holders[0], count)


def win_solutions(rules: Rules,
                  situations: Sequence[tuple[tuple[int, ...], int]]) -> list[Solution]:
    """The solutions that maximise the share of the win in each situation ``(posted,
    still_to_play)`` of a deciding single round, exactly (:func:`round_objective`), solved
    side by side (for tables of every situation of a round)."""
    return solve_many(rules, [round_objective(rules, posted, still)
                              for posted, still in situations])


def win_solution(rules: Rules, posted: tuple[int, ...], still_to_play: int) -> Solution:
    """The solution that maximises the share of the win in this situation."""
    return win_solutions(rules, [(posted, still_to_play)])[0]


def match_objective(rules: Rules, situation: Situation) -> Objective | None:
    """The objective of exact (or, with three or more players, approximate) match play for
    the coming turn: the mover's chance to win the match by the turn's final tiles. ``None``
    outside a multi-round match or a battle read by turns (a single round is
    :func:`round_objective`; a battle read by rolls is decided roll by roll:
    :func:`battle_roll_choice`).
    """
    fmt = situation.format
    if fmt is None:
        return None
    if fmt.is_battle:
        if not fmt.by_turns or not situation.role.in_battle:
            return None
        after = solve_match(rules, fmt).battle_after(situation.role)
        return Objective(f"match:{fmt}:{situation.role}", MaskTable(after),
                         key=("battle", str(fmt), situation.role))
    if not fmt.multi_round or len(situation.totals) < 2:
        return None
    mine, others = situation.totals[0], situation.totals[1:]
    played = situation.others_played or (False,) * len(others)
    pick = min if rules.lower_is_better else max
    rival = pick(range(len(others)), key=lambda i: (others[i], not played[i]))
    if played[rival]:
        position = MatchPosition((others[rival], mine), 1, situation.round - 1)
    else:
        position = MatchPosition((mine, others[rival]), 0, situation.round - 1)
    return solve_match(rules, fmt).turn_objective(position)


def battle_roll_values(rules: Rules, state: TurnState, situation: Situation) -> dict[int, float]:
    """In a battle read by rolls: each legal action (dice count, or tiles to shut or stand)
    with the mover's chance to win the battle after it, playing on exactly.

    :raises FormatError: the situation is not a knocker's or a stander's in a battle.
    """
    fmt = situation.battle
    if fmt is None:
        raise FormatError(f"a battle's roll needs a battle and a role, not {situation!r}")
    after = solve_match(rules, fmt).battle_after(situation.role)
    tiles = state.open_tiles

    def roll_value(roll: tuple[int, ...]) -> float:
        moves = legal_moves(rules, tiles, roll)
        return max((float(after[tiles & ~m]) for m in moves), default=float(after[tiles]))

    if state.phase is Phase.CHOOSE_DICE:
        return {d: sum(float(p) * roll_value(roll) for roll, p in roll_outcomes(d))
                for d in state.legal_actions()}
    return {m: float(after[tiles & ~m]) for m in state.legal_actions()}


def battle_roll_choice(rules: Rules, state: TurnState, situation: Situation) -> int:
    """The exact decision of a battle read by rolls: the action with the best chance to win
    the battle (ties: the stable move order, then two dice)."""
    values = battle_roll_values(rules, state, situation)
    best = max(values.values())
    floor = best - EPSILON * max(1.0, abs(best))
    if state.phase is Phase.CHOOSE_DICE:
        return 2 if values.get(2, -1.0) >= floor else 1
    return next(m for m, v in values.items() if v >= floor)


@dataclass
class OptimalStrategy:
    """Plays the solver's optimal policy for an objective; unless ``aware`` is off, to win
    when others are in a deciding round, and (``match_play``, the default) to win the match
    in every other format."""

    rules: Rules
    objective: Objective
    aware: bool = True
    name: str = "optimal"
    match_play: bool = True

    def solution_for(self, situation: Situation) -> Solution:
        """The solution this player follows in a situation (in a battle read by rolls, the
        expected score of its tiles: its decisions are :func:`battle_roll_choice`)."""
        if self.aware and situation.decisive and (situation.posted or situation.still_to_play):
            return win_solution(self.rules, tuple(sorted(situation.posted)),
                                situation.still_to_play)
        if self.aware and self.match_play:
            objective = match_objective(self.rules, situation)
            if objective is not None:
                return solve(self.rules, objective)
        return solve(self.rules, self.objective)

    def _by_rolls(self, situation: Situation) -> bool:
        return self.aware and self.match_play and situation.by_rolls

    def choose(self, state: TurnState, situation: Situation) -> int:
        if self._by_rolls(situation):
            return battle_roll_choice(self.rules, state, situation)
        solution = self.solution_for(situation)
        if state.phase is Phase.CHOOSE_DICE:
            return solution.best_dice(state.open_tiles)
        assert state.roll is not None
        return solution.best_move(state.open_tiles, state.roll)


def make_optimal(spec: str, rules: Rules) -> OptimalStrategy:
    """``optimal`` (plays the match to win it), ``optimal:round`` (the expected score, and to
    win only in a deciding single round) or ``optimal:OBJECTIVE`` (that objective always, e.g.
    ``optimal:shut``)."""
    if not spec:
        return OptimalStrategy(rules, parse_objective("score"))
    if spec == "round":
        return OptimalStrategy(rules, parse_objective("score"), match_play=False,
                               name="optimal:round")
    return OptimalStrategy(rules, parse_objective(spec), aware=False, name=f"optimal:{spec}")

