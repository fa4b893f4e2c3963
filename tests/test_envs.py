"""The environments pass the official checkers and play the exact optimum."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import shutthebox.envs
from shutthebox.envs import (
    IllegalActionError,
    RewardError,
    ShutTheBoxAEC,
    ShutTheBoxEnv,
    shutthebox_v0,
)
from shutthebox.rules import PRESETS
from shutthebox.solver import solve
from shutthebox.turn import Phase


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("reward", ["score", "shut", "beat:10"])
def test_gymnasium_checker_passes_on_every_preset_and_reward(preset: str, reward: str) -> None:
    env = gymnasium.make(shutthebox.envs.ENV_ID, rules=preset, reward=reward)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped)


def test_gymnasium_checker_passes_the_registered_id_as_made_by_default() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(gymnasium.make(shutthebox.envs.ENV_ID).unwrapped)
    assert [str(w.message) for w in caught] == []


def test_an_illegal_action_ends_the_episode_by_default_and_raises_on_request() -> None:
    env = ShutTheBoxEnv()
    _, info = env.reset(seed=0)
    _, reward, terminated, _, info = env.step(5)
    assert (reward, terminated, info["illegal_action"], info["optimal_value"]) == \
        (0.0, True, True, 0.0)
    strict = ShutTheBoxEnv(on_illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError, match=r"action 5 \(shut 1 3\) is not legal now"):
        strict.step(5)


@pytest.mark.parametrize("reward", ["score", "shut", "beat:45"])
def test_the_optimal_value_at_a_terminal_state_is_zero(reward: str) -> None:
    final_rewards = []
    env = ShutTheBoxEnv(rules="classic", reward=reward)
    for seed in range(1, 30):      # the first legal action to the end, as the issue played
        _, info = env.reset(seed=seed)
        done = False
        while not done:
            _, reward_now, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        assert info["optimal_value"] == 0.0
        final_rewards.append(float(reward_now))
    if reward == "beat:45":        # the return still to come is 0, not the reward just paid
        assert 1.0 in final_rewards


def test_action_masks_is_the_info_mask() -> None:
    env = ShutTheBoxEnv(rules="pub")
    _, info = env.reset(seed=4)
    for _ in range(3):
        assert np.array_equal(env.action_masks(), info["action_mask"])
        _, _, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
        if done:
            break


def test_rule_fields_as_keyword_arguments() -> None:
    env = ShutTheBoxEnv(tiles=6, one_die="low-sum", reward="shut")
    assert env.rules.tiles == 6 and env.actions == 66


def test_observation_mask_and_illegal_actions() -> None:
    env = ShutTheBoxEnv(rules="classic", on_illegal="raise")
    observation, info = env.reset(seed=2)
    assert observation["phase"] == 0 and list(observation["open"]) == [1] * 9
    assert observation["dice_choice"] == 0
    choosing = ShutTheBoxEnv(tiles=6, one_die="high-shut")
    assert choosing.reset(seed=1)[0]["dice_choice"] == 1
    mask = info["action_mask"]
    assert mask.dtype == np.int8 and np.flatnonzero(mask).tolist() == [env.two_dice]
    with pytest.raises(IllegalActionError, match=r"action 5 \(shut 1 3\) is not legal now"):
        env.step(5)
    observation, _, _, _, info = env.step(env.two_dice)
    assert observation["phase"] == 1 and sum(observation["roll"]) >= 2
    legal = np.flatnonzero(info["action_mask"])
    assert all(bin(int(a)).count("1") >= 1 for a in legal)
    observation, reward, _terminated, _truncated, info = env.step(int(legal[0]))
    assert reward == sum(i + 1 for i in range(9) if int(legal[0]) >> i & 1)


def test_unknown_reward_is_refused() -> None:
    with pytest.raises(RewardError, match="unknown reward 'win'"):
        ShutTheBoxEnv(reward="win")


@pytest.mark.parametrize(("preset", "reward"), [("classic", "score"), ("lever-9", "shut"),
                                                ("family-12", "beat:20")])
def test_optimal_policy_through_the_env_scores_the_exact_value(preset: str, reward: str) -> None:
    env = ShutTheBoxEnv(rules=preset, reward=reward)
    solution = solve(env.rules, env.objective)
    returns = []
    _, info = env.reset(seed=7)
    exact = info["optimal_value"]
    for _ in range(4000):
        _, info = env.reset()
        total, done = 0.0, False
        while not done:
            state = env.state
            if state.phase is Phase.SHUT:
                assert state.roll is not None
                action = solution.best_move(state.open_tiles, state.roll)
            else:
                action = env.one_die + solution.best_dice(state.open_tiles) - 1
            _, reward_now, done, _, info = env.step(action)
            total += float(reward_now)
        returns.append(total)
    mean, se = float(np.mean(returns)), float(np.std(returns) / np.sqrt(len(returns)))
    assert abs(mean - exact) < 4 * se + 1e-9


def test_optimal_value_is_regret_ready() -> None:
    env = ShutTheBoxEnv(rules="classic", reward="score")
    _, info = env.reset(seed=1)
    assert info["optimal_value"] == pytest.approx(45 - solve(env.rules, "score").value())


PETTINGZOO_NAME_LIST_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete"}
"""What api_test says of any dict observation whose env is not on its list of PettingZoo's
own games (the classic games' dicts are on it)."""

A_SHUT_BATTLE_BOX = {"Observation numpy array is all zeros."}
"""A battle whose knocker shut the box: no tile open, no roll, nothing posted (legitimate)."""


@pytest.mark.parametrize(("players", "fmt", "preset"), [
    (2, "single", "classic"), (3, "single", "lever-9"), (2, "elimination:45", "pub"),
    (2, "battle", "classic"), (2, "race:100", "covered")])
def test_pettingzoo_api_and_seed_tests(players: int, fmt: str, preset: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(shutthebox_v0.env(players=players, format=fmt, rules=preset,
                                   action_mask_in="info"), num_cycles=300)
        seed_test(lambda: shutthebox_v0.env(players=players, format=fmt, rules=preset),
                  num_cycles=100)
    assert {str(w.message) for w in caught} <= (A_SHUT_BATTLE_BOX if fmt == "battle" else set())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(shutthebox_v0.raw_env(players=players, format=fmt, rules=preset),
                 num_cycles=50)
    assert {str(w.message) for w in caught} <= PETTINGZOO_NAME_LIST_WARNINGS | A_SHUT_BATTLE_BOX


def test_pettingzoo_observations_are_numpy_with_the_mask_in_the_dict_or_the_info() -> None:
    env = shutthebox_v0.env(players=2, rules="classic")
    env.reset(seed=3)
    observation, _, _, _, info = env.last()
    assert isinstance(observation["observation"], np.ndarray)
    assert observation["action_mask"].dtype == np.int8
    assert np.array_equal(observation["action_mask"], info["action_mask"])
    assert np.flatnonzero(observation["action_mask"]).tolist() == [513]
    bare = shutthebox_v0.raw_env(players=2, rules="classic", action_mask_in="info")
    bare.reset(seed=3)
    assert isinstance(bare.observe("player_0"), np.ndarray)


def test_pettingzoo_env_ends_the_match_on_an_illegal_action_with_reward_minus_one() -> None:
    env = shutthebox_v0.env(players=2, rules="classic")
    env.reset(seed=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(5)
    assert env.rewards == {"player_0": -1.0, "player_1": 0.0}
    assert all(env.terminations.values())


def test_pettingzoo_rewards_go_to_the_winners_and_others_posted_scores_are_seen() -> None:
    env = ShutTheBoxAEC(players=3, rules="classic", instant_win=False)
    env.reset(seed=4)
    assert "optimal_value" not in env.infos["player_0"]   # the match solver is for two
    rng = np.random.default_rng(0)
    posted_seen = []
    final_rewards: dict[str, float] = {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            final_rewards[agent] = float(reward)
            env.step(None)
            continue
        posted_seen.append(int(observation["observation"][9 + 3:9 + 3 + 3].sum()))
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert max(posted_seen) == 2     # the last player sees both scores posted before it
    winners = env.match.winners
    assert set(final_rewards) == {"player_0", "player_1", "player_2"}
    assert sum(final_rewards.values()) == pytest.approx(1.0)
    for seat in winners:
        assert final_rewards[f"player_{seat}"] == pytest.approx(1 / len(winners))
