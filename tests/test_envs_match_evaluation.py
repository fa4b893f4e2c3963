"""Exact evaluation of a match policy against the optimal player, two players, in every
format of turns: checked against the deciding round's own evaluation, the match tables'
values of optimal play, and play."""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from shutthebox.envs import ShutTheBoxMatchEnv, evaluate, uniform_random
from shutthebox.envs.evaluation import PolicyError, _deciding_round
from shutthebox.envs.match_evaluation import MatchTooLargeToEvaluateError, evaluate_match
from shutthebox.envs.multi import total_scale
from shutthebox.players.base import Role, Situation
from shutthebox.solver import solve
from shutthebox.solver.matchplay import MatchPosition
from shutthebox.strategies import make_strategy
from shutthebox.turn import Phase, TurnState


def match_optimal(env: ShutTheBoxMatchEnv) -> Any:
    """The match tables' play, read from the observation alone: the totals and the score
    posted this round (a match to a threshold does not depend on the round)."""
    rules, n, seat = env.rules, env.rules.tiles, env.seat
    solution = env.baseline.solution
    scale = total_scale(rules, env.config.format)

    solved: dict[MatchPosition, Any] = {}   # (the positions recur over many calls)

    def act(observations: npt.NDArray[np.float64], masks: npt.NDArray[np.int8]) -> Any:
        actions = []
        opened = (observations[:, :n].astype(np.int64) @ (1 << np.arange(n))).tolist()
        owns = np.rint(observations[:, n + 3 + 4 + seat] * scale).astype(int).tolist()
        others = np.rint(observations[:, n + 3 + 4 + 1 - seat] * scale).astype(int).tolist()
        seconds = (observations[:, n + 3 + 1 - seat] != 0).tolist()  # we are second
        rolling = (observations[:, n + 2] != 0).tolist()
        dice = np.rint(observations[:, n:n + 2] * 6).astype(int).tolist()
        for open_tiles, own, other, second, rolled, faces in zip(
                opened, owns, others, seconds, rolling, dice, strict=True):
            position = (MatchPosition((other, own), 1) if second
                        else MatchPosition((own, other), 0))
            if position not in solved:
                solved[position] = solve(rules, solution.turn_objective(position))
            turn = solved[position]
            if rolled:
                actions.append(turn.best_move(open_tiles, tuple(f for f in faces if f)))
            else:
                actions.append((1 << n) + turn.best_dice(open_tiles) - 1)
        return np.array(actions)
    return act


@pytest.mark.parametrize("seat", [0, 1])
def test_the_match_tables_value_a_deciding_round_as_the_round_solver_does(seat: int) -> None:
    """Two independent ways to one number: the deciding round's objectives, and the match
    tables' positions."""
    env = ShutTheBoxMatchEnv(format="single", seat=seat)
    by_round = _deciding_round(uniform_random, env, "single", 4096)
    by_match = evaluate_match(uniform_random, env, "single", 4096)
    assert by_match.expected_return == pytest.approx(by_round.expected_return, abs=1e-12)
    assert by_match.optimum == pytest.approx(by_round.optimum, abs=1e-12)
    assert 0.1 < by_match.regret < 0.4


def reads_the_other_total(observations: npt.NDArray[np.float64],
                          masks: npt.NDArray[np.int8]) -> Any:
    """Plays the largest legal action while seat 0's total is low, else the smallest: a
    policy whose value depends on the match columns of the observation."""
    high = observations[:, -2] > 0.2
    legal = [np.flatnonzero(row) for row in masks]
    return np.array([row[0] if up else row[-1] for row, up in zip(legal, high, strict=True)])


def test_a_deciding_round_shows_the_policy_what_the_environment_shows() -> None:
    """Second to play, the policy sees seat 0's posted score and its total, as the
    environment shows them: both evaluations agree, and play agrees with them."""
    env = ShutTheBoxMatchEnv(tiles=6, format="single", seat=1)
    by_round = _deciding_round(reads_the_other_total, env, "single", 4096)
    by_match = evaluate_match(reads_the_other_total, env, "single", 4096)
    assert by_match.expected_return == pytest.approx(by_round.expected_return, abs=1e-12)
    matches, won = 3000, 0.0
    for game in range(matches):
        observation, info = env.reset(seed=game)
        done = False
        while not done:
            action = int(reads_the_other_total(observation[None, :],
                                               info["action_mask"][None, :])[0])
            observation, reward, done, _, info = env.step(action)
        won += float(reward)
    exact = by_round.expected_return
    assert abs(won / matches - exact) < 4.5 * math.sqrt(exact * (1 - exact) / matches)


@pytest.mark.parametrize(("rules", "fmt", "seat"), [
    ("classic", "elimination:16", 0), ("classic", "loser-at:12", 1),
    ("covered", "race:12", 0), ("covered", "race:12", 1)])
def test_the_optimal_match_player_has_no_regret_in_a_match_to_a_threshold(
        rules: str, fmt: str, seat: int) -> None:
    """``covered`` rolls off for the first turn (the policy is evaluated in both orders)
    and can score 0, which returns a round to the totals it started from."""
    env = ShutTheBoxMatchEnv(rules=rules, tiles=4, format=fmt, seat=seat)
    result = evaluate(match_optimal(env), env)
    assert result.optimum == pytest.approx(env.baseline.solution.win[seat], abs=1e-12)
    assert abs(result.regret) < 1e-9
    assert evaluate(uniform_random, env).regret > 0.005       # random play is told apart


def played_wins(env: ShutTheBoxMatchEnv, matches: int) -> float:
    """The share of the win of uniformly random legal play, by playing."""
    rng = np.random.default_rng(11)
    won = 0.0
    for game in range(matches):
        _, info = env.reset(seed=game)
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, reward, done, _, info = env.step(action)
        won += float(reward)
    return won / matches


@pytest.mark.parametrize(("fmt", "seat"), [("rounds:2", 0), ("rounds:2", 1),
                                           ("elimination:10", 1)])
def test_a_random_policys_exact_chance_is_what_play_measures(fmt: str, seat: int) -> None:
    env = ShutTheBoxMatchEnv(tiles=4, format=fmt, seat=seat)
    result = evaluate(uniform_random, env, max_positions=5000)
    exact = result.expected_return
    matches = 3000
    played = played_wins(env, matches)
    assert abs(played - exact) < 4.5 * math.sqrt(exact * (1 - exact) / matches)
    assert result.regret > 0.005                 # random play is told apart from optimal


def test_what_the_match_evaluation_cannot_do_is_refused_in_words() -> None:
    with pytest.raises(MatchTooLargeToEvaluateError,
                       match=r"cannot evaluate a policy on shutthebox/Match-Classic-Rounds3-v0 "
                             r"exactly: it would be shown more than 2,000 positions of "
                             r"rounds:3 .* first to play; give max_positions="):
        evaluate(uniform_random, "shutthebox/Match-Classic-Rounds3-v0")
    with pytest.raises(MatchTooLargeToEvaluateError, match="more than 10 positions of rounds:2"):
        evaluate(uniform_random, ShutTheBoxMatchEnv(tiles=4, format="rounds:2"),
                 max_positions=10)
    with pytest.raises(MatchTooLargeToEvaluateError,
                       match=r"a battle of 12 tiles has 8,192 boxes to solve at once \(at most "
                             r"10 tiles\); measure it by play"):
        evaluate(uniform_random, ShutTheBoxMatchEnv(rules="box-12", format="battle"))
    with pytest.raises(PolicyError, match="against one optimal player, not against "
                                          "highest-first"):
        evaluate(uniform_random, ShutTheBoxMatchEnv(opponents="highest-first",
                                                    format="rounds:2"))


def battle_optimal(env: ShutTheBoxMatchEnv) -> Any:
    """The optimal battle player of the agent's role, read from the observation: the box
    (the stander works on the tiles it does not show), the roll and the phase."""
    rules, n = env.rules, env.rules.tiles
    role = Role.KNOCK if env.seat == 0 else Role.STAND
    player = make_strategy("optimal", rules, random.Random(0))
    situation = Situation(format=env.config.format, role=role)

    def act(observations: npt.NDArray[np.float64], masks: npt.NDArray[np.int8]) -> Any:
        actions = []
        for row in observations:
            box = int(row[:n].astype(np.int64) @ (1 << np.arange(n)))
            tiles = box if role is Role.KNOCK else rules.full & ~box
            if row[n + 2]:
                roll = tuple(round(float(f) * 6) for f in row[n:n + 2] if f)
                state = TurnState(rules, tiles, Phase.SHUT, dice=len(roll), roll=roll)
                actions.append(player.choose(state, situation))
            else:
                state = TurnState.before_roll(rules, tiles)
                actions.append((1 << n) + player.choose(state, situation) - 1)
        return np.array(actions)
    return act


@pytest.mark.parametrize("fmt", ["battle:turns", "battle:rolls"])
@pytest.mark.parametrize("seat", [0, 1])
def test_the_optimal_battle_player_has_no_regret_and_random_play_is_what_play_measures(
        fmt: str, seat: int) -> None:
    env = ShutTheBoxMatchEnv(tiles=5, format=fmt, seat=seat)
    result = evaluate(battle_optimal(env), env)
    assert result.optimum == pytest.approx(env.baseline.solution.win[seat], abs=1e-12)
    assert abs(result.regret) < 1e-9
    randomly = evaluate(uniform_random, env)
    matches = 2000
    played = played_wins(env, matches)
    exact = randomly.expected_return
    assert abs(played - exact) < 4.5 * math.sqrt(exact * (1 - exact) / matches)
    assert randomly.regret > 0.002                  # random play is told apart
