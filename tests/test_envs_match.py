"""The match environment: a whole match of any format against computer players."""

from __future__ import annotations

import gc
import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import shutthebox.envs
from shutthebox.envs import IllegalActionError, RewardError, ShutTheBoxAEC, ShutTheBoxMatchEnv


@pytest.mark.parametrize(("fmt", "opponents", "preset"), [
    ("single", ("optimal",), "classic"), ("rounds:3", ("highest-first", "random"), "pub"),
    ("battle", ("highest-first",), "classic"), ("race:100", ("random",), "covered")])
def test_gymnasium_checker_passes_the_match_env(fmt: str, opponents: tuple[str, ...],
                                                preset: str) -> None:
    env = gymnasium.make(shutthebox.envs.MATCH_ENV_ID, opponents=opponents, format=fmt,
                         rules=preset)
    gc.collect()   # what earlier tests left behind warns now, not as the checker's warning
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    # A ResourceWarning is the garbage collector's report on some earlier object (a web
    # test's database connection), whenever it happens to run, never the checker's.
    assert [str(w.message) for w in caught if w.category is not ResourceWarning] == []


@pytest.mark.parametrize(("fmt", "seat"), [("single", 1), ("elimination:45", 0),
                                           ("battle", 1)])
def test_a_match_is_one_episode_paying_the_agent_its_share_of_the_win(fmt: str,
                                                                      seat: int) -> None:
    env = ShutTheBoxMatchEnv(opponents="highest-first", format=fmt, seat=seat, baseline=False)
    rng = np.random.default_rng(1)
    rewards = []
    for episode in range(60):
        _, info = env.reset(seed=episode)
        assert "optimal_value" not in info       # baseline=False
        done, steps = False, 0
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            assert len(legal) >= 1 and np.array_equal(info["action_mask"], env.action_masks())
            _, reward, done, truncated, info = env.step(int(rng.choice(legal)))
            assert not truncated and (done or reward == 0)
            steps += 1
        assert env.match.is_over
        share = 1 / len(env.match.winners) if seat in env.match.winners else 0.0
        assert reward == share
        rewards.append(float(reward))
    assert 0 < sum(rewards) < 60      # a random agent wins some and loses some


def test_the_match_ends_before_the_agent_acts_in_one_step() -> None:
    env = ShutTheBoxMatchEnv(opponents="optimal", format="single", seat=1)
    for seed in range(400):
        _, info = env.reset(seed=seed)
        if env.match.is_over:
            break
    else:
        pytest.fail("the first player never shut the box in 400 matches")
    assert np.flatnonzero(info["action_mask"]).tolist() == [env.actions - 1]
    _, reward, done, _, _ = env.step(env.actions - 1)
    assert done and reward == 0.0


def test_illegal_actions_forfeit_by_default_and_raise_on_request() -> None:
    env = ShutTheBoxMatchEnv(opponents="random", format="rounds:2")
    env.reset(seed=0)
    _, reward, done, _, info = env.step(3)
    assert (reward, done, info["illegal_action"]) == (0.0, True, True)
    assert not info["action_mask"].any()
    strict = ShutTheBoxMatchEnv(opponents="random", format="rounds:2", on_illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError, match=r"action 3 is not legal now \(legal: \[513\]\)"):
        strict.step(3)


def test_bad_seats_and_unknown_opponents_are_refused() -> None:
    with pytest.raises(RewardError, match="seat must be a whole number from 0 to 1, not 2"):
        ShutTheBoxMatchEnv(opponents="random", seat=2)
    with pytest.raises(ValueError, match="unknown strategy 'grandmaster'"):
        ShutTheBoxMatchEnv(opponents="grandmaster")


def test_the_baseline_at_the_start_is_the_solvers_match_value() -> None:
    from shutthebox.solver.matchplay import solve_match

    env = ShutTheBoxMatchEnv(opponents="optimal", format="rounds:2", tiles=6)
    _, info = env.reset(seed=0)
    assert info["optimal_value"] == pytest.approx(
        solve_match(env.rules, "rounds:2").win[0], abs=1e-12)
    second = ShutTheBoxMatchEnv(opponents="random", format="single", seat=1)
    for seed in range(10):
        _, info = second.reset(seed=seed)
        if not second.match.is_over:
            assert 0 < info["optimal_value"] < 1
            break
    _, _, done, _, info = second.step(int(np.flatnonzero(info["action_mask"])[0]))
    while not done:
        _, _, done, _, info = second.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert info["optimal_value"] == 0.0


@pytest.mark.parametrize(("fmt", "rule_fields"), [
    ("rounds:2", {"tiles": 5}), ("battle", {"tiles": 4}), ("battle:rolls", {"tiles": 4})])
def test_exact_play_on_both_sides_wins_as_often_as_the_baseline_says(
        fmt: str, rule_fields: dict[str, Any]) -> None:
    """Calibration: one position per match, drawn at a random step; in the positions where
    the baseline gives player_0 the lesser chances it wins that much, and in the others the
    greater (in rounds, where they differ widely, a swapped seat would miss)."""
    env = ShutTheBoxAEC(players=2, format=fmt, action_mask_in="info", **rule_fields)
    env.reset(seed=11)
    rng = np.random.default_rng(2)
    sampled: list[tuple[float, float]] = []
    for _ in range(600):
        env.reset()
        values = [env.infos[a]["optimal_value"] for a in env.possible_agents]
        assert sum(values) == pytest.approx(1.0)
        chosen, value, outcome = int(rng.integers(0, 12)), values[0], 0.0
        for step, agent in enumerate(env.agent_iter()):
            _, reward, terminated, truncated, _ = env.last()
            if terminated or truncated:
                outcome += float(reward) if agent == "player_0" else 0.0
                env.step(None)
                continue
            if step == chosen:
                value = env.infos["player_0"]["optimal_value"]
            env.step(env.baseline.best_action(env.match))
        sampled.append((value, outcome))
    values_seen, outcomes = np.array(sampled).T
    low = values_seen <= np.median(values_seen)
    standard_error = np.sqrt(0.25 / min(low.sum(), (~low).sum()))
    if fmt == "rounds:2":     # battles stay close to even: there the check has less power
        assert values_seen[~low].mean() - values_seen[low].mean() > 8 * standard_error
    for half in (low, ~low):
        assert abs(outcomes[half].mean() - values_seen[half].mean()) < 4 * standard_error


def test_several_opponents_of_one_kind_sit_under_names_of_their_own() -> None:
    env = ShutTheBoxMatchEnv(opponents=("random", "highest-first", "random"), seat=1,
                             baseline=False)
    assert env.config.players == ("random 1", "agent", "highest-first", "random 2")
    assert [type(env.opponents[s]).__name__ for s in (0, 2, 3)] == [
        "RandomStrategy", "HighestFirstStrategy", "RandomStrategy"]
    _, info = env.reset(seed=5)
    done = False
    while not done:
        _, _, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert env.match.is_over
