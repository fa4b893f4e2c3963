"""The exact expected return and regret of a whole policy on a turn task, or its exact share
of the win in a match against optimal players (a deciding round; for two players, every
format: :mod:`shutthebox.envs.match_evaluation`), in one call.

:func:`evaluate` shows the policy every decision node of the turn at once (the dice choices
and every roll that admits a move, from every set of open tiles, reachable or not), in the
single environment's observation layout and with its action masks, a batch at a time; then
one backward pass over the open tiles (:func:`~shutthebox.solver.evaluate.policy_values`)
gives the policy's exact expected return, with no sampling. The regret is the exact optimum
less that return.

A policy is a function of a batch, a model with Stable-Baselines3's ``predict`` or a
computer player (:mod:`shutthebox.envs.policies` says how each is read).

An illegal action ends the turn as the environment does (``on_illegal="end"``: nothing more is
paid). :func:`uniform_random` is the policy of the random agent.

>>> result = evaluate(uniform_random, "shutthebox/Turn-Classic-Score-v0")
>>> round(result.optimum, 4), round(result.expected_return, 4), round(result.regret, 4)
(33.8425, 24.5812, 9.2613)
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from shutthebox.envs.match_evaluation import MAX_POSITIONS, evaluate_match
from shutthebox.envs.matchplay import ShutTheBoxMatchEnv
from shutthebox.envs.multi import seat_features
from shutthebox.envs.policies import (
    BatchPolicy,
    Evaluation,
    Observations,
    PolicyError,
    as_batch_policy,
    match_view,
    player_policy,
    policy_chances,
    uniform_random,
)
from shutthebox.envs.single import COVERED_SUM, ShutTheBoxEnv
from shutthebox.formats import FormatKind
from shutthebox.solver import solve
from shutthebox.solver.evaluate import decision_nodes, policy_values
from shutthebox.solver.objectives import score_array

__all__ = ["BATCH", "BatchPolicy", "Evaluation", "Observations", "PolicyError", "evaluate",
           "player_policy", "uniform_random"]
"""(What a policy is and the answer's type live in :mod:`shutthebox.envs.policies`, which
the match's evaluation reads too; they are named here as well, where callers found them.)"""

BATCH = 4096
"""Decision nodes shown to the policy at once."""


def _environment(task: str | gymnasium.Env[Any, Any]) -> gymnasium.Env[Any, Any]:
    env = gymnasium.make(task) if isinstance(task, str) else task
    return env.unwrapped


def evaluate(policy: Any, task: str | gymnasium.Env[Any, Any], batch: int = BATCH,
             max_positions: int | None = None) -> Evaluation:
    """The exact expected return and regret of ``policy`` on a task (a registered id such as
    ``shutthebox/Turn-Classic-Score-v0``, or an environment): a turn of any rules and reward;
    a deciding round against optimal players (``shutthebox/Match-Classic-Single-v0``,
    either seat of two; ``shutthebox/Match-Classic-Single4-v0``, the agent first of four);
    or a two-player match of any other format against the optimal player (``rounds:R``,
    ``elimination:L``, ``loser-at:L``, ``race:T``, the battle: see
    :mod:`shutthebox.envs.match_evaluation`, which refuses a match that would show the
    policy more than ``max_positions`` positions), where the return is the share of the win
    (a k-way tie counted 1/k).

    Raises:
        PolicyError: a match of three or more other than a deciding round, other opponents
            than the optimal player, or a policy or answers that cannot be read.
        MatchTooLargeToEvaluateError: (a :class:`PolicyError`) a match with more positions
            than ``max_positions``, or a battle of more than 10 tiles.
    """
    env = _environment(task)
    name = env.spec.id if env.spec is not None else repr(env)
    if isinstance(env, ShutTheBoxMatchEnv):
        if env.spec is None:
            name = (f"ShutTheBoxMatchEnv(format={str(env.config.format)!r}, "
                    f"opponents={env.opponent_names!r}, seat={env.seat})")
        if env.config.format.kind is FormatKind.SINGLE or len(env.config.players) != 2:
            return _deciding_round(policy, env, name, batch)
        return evaluate_match(policy, env, name, batch, max_positions or MAX_POSITIONS)
    if not isinstance(env, ShutTheBoxEnv):
        raise PolicyError(f"cannot evaluate a policy on {name}: give a turn task "
                          f"(ShutTheBoxEnv) or a match (ShutTheBoxMatchEnv)")
    rules, objective = env.rules, env.objective
    nodes = decision_nodes(rules)
    dice_chance, move_chance = policy_chances(as_batch_policy(policy, rules), nodes,
                                              env.actions, batch)
    finals = objective.final_values(rules)
    forfeit = finals if objective is COVERED_SUM else np.zeros(len(finals))
    values = policy_values(nodes, finals, dice_chance, move_chance, forfeit)
    return Evaluation(name, float(values[rules.full]),
                      float(solve(rules, objective).value()), nodes.count)


def _deciding_round(policy: Any, env: ShutTheBoxMatchEnv, name: str,
                    batch: int) -> Evaluation:
    """A deciding round against optimal players: after the agent's turn, each later player
    plays to win (:func:`~shutthebox.solver.players.round_objective`); second of two, the
    agent sees the optimal player's score posted, one evaluation for each score it can post."""
    from shutthebox.solver.players import round_objective, win_solution
    from shutthebox.solver.rounds import solve_round

    rules = env.rules
    players = len(env.config.players)
    if env.config.format.kind is not FormatKind.SINGLE \
            or set(env.opponent_names) != {"optimal"} or (players > 2 and env.seat != 0):
        raise PolicyError(f"cannot evaluate a policy on {name} exactly: a match task is "
                          f"evaluated as a deciding round (format single) against optimal "
                          f"players, the agent first (or second of two), not "
                          f"{env.config.format} against {', '.join(env.opponent_names)} "
                          f"from seat {env.seat}")
    act = as_batch_policy(policy, rules)
    nodes = decision_nodes(rules)
    scores = score_array(rules)

    def turn_value(posted: tuple[int, ...]) -> float:
        # the optimal player, seat 0, may have posted its score, its total so far
        totals = [*posted, *[0] * (players - len(posted))]
        show = match_view(seat_features(rules, env.config.format, dict(enumerate(posted)),
                                        totals))
        reads_turns = hasattr(policy, "choose")     # a player reads the turn itself
        dice_chance, move_chance = policy_chances(act, nodes, env.actions, batch,
                                                  None if reads_turns else show)
        finals = round_objective(rules, posted, players - 1 - len(posted)).final_values(rules)
        values = policy_values(nodes, finals, dice_chance, move_chance,
                               np.zeros(len(finals)))
        return float(values[rules.full])

    if env.seat == 0:
        value = turn_value(())
    else:
        opening = win_solution(rules, (), 1).final_distribution
        ends_it = rules.shut_box_wins(multi_round=False)
        by_score: dict[int, float] = {}
        for m, p in opening.items():
            if not (ends_it and m == 0):    # a shut box has won before the agent plays
                by_score[int(scores[m])] = by_score.get(int(scores[m]), 0.0) + p
        value = sum(p * turn_value((score,)) for score, p in by_score.items())
    return Evaluation(name, value, float(solve_round(rules, players).win[env.seat]),
                      nodes.count)
