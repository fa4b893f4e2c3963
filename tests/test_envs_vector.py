"""The compiled vector environment plays exactly the single environment's games."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest

import shutthebox.envs
from shutthebox.envs import IllegalActionError, ShutTheBoxEnv, ShutTheBoxVectorEnv


def assert_same_game(single: tuple[dict[str, Any], dict[str, Any]],
                     batch: tuple[dict[str, Any], dict[str, Any]], i: int) -> None:
    (observation, info), (observations, infos) = single, batch
    for name, value in observation.items():
        assert np.array_equal(np.asarray(value), observations[name][i]), name
    assert np.array_equal(info["action_mask"], infos["action_mask"][i])
    assert info["optimal_value"] == infos["optimal_value"][i]
    assert info["score"] == infos["score"][i]


@pytest.mark.parametrize(("preset", "reward_name"), [
    ("classic", "score"), ("pub", "shut"), ("encyclopedia", "beat:10"),
    ("family-12-faces", "score"), ("children-two-tiles", "beat:6"), ("covered", "score")])
def test_vector_env_equals_the_single_env_step_for_step(preset: str, reward_name: str) -> None:
    games, seed = 6, 40
    envs = gymnasium.make_vec(shutthebox.envs.ENV_ID, num_envs=games, rules=preset,
                              reward=reward_name)
    assert isinstance(envs, ShutTheBoxVectorEnv)
    singles = [ShutTheBoxEnv(rules=preset, reward=reward_name) for _ in range(games)]
    batch = envs.reset(seed=seed)
    for i, env in enumerate(singles):
        assert_same_game(env.reset(seed=seed + i), batch, i)
    rng = np.random.default_rng(5)
    finished = np.zeros(games, dtype=bool)
    episodes = 0
    for _ in range(300):
        actions = envs.sample_legal(rng)
        actions[rng.random(games) < 0.02] = 3     # now and then an illegal action (or not)
        observations, rewards, terminated, truncated, infos = envs.step(actions)
        assert not truncated.any()
        for i, env in enumerate(singles):
            if finished[i]:
                assert rewards[i] == 0 and not terminated[i]
                assert_same_game(env.reset(), (observations, infos), i)
                episodes += 1
                continue
            observation, reward, done, _, info = env.step(int(actions[i]))
            assert_same_game((observation, info), (observations, infos), i)
            assert reward == rewards[i] and done == terminated[i]
            assert info.get("illegal_action", False) == \
                bool(infos.get("illegal_action", np.zeros(games))[i])
        finished = terminated
    assert episodes > 20


def test_vector_env_reset_mask_restarts_only_the_marked_games() -> None:
    envs = ShutTheBoxVectorEnv(num_envs=3, rules="classic")
    envs.reset(seed=0)
    observations, *_ = envs.step(envs.sample_legal())
    assert (observations["phase"] == 1).all()
    observations, infos = envs.reset(options={"reset_mask": np.array([True, False, True])})
    assert observations["phase"].tolist() == [0, 1, 0]
    assert infos["optimal_value"][0] == infos["optimal_value"][2]


def test_vector_env_raises_on_illegal_actions_when_asked() -> None:
    envs = ShutTheBoxVectorEnv(num_envs=2, rules="classic", on_illegal="raise")
    envs.reset(seed=0)
    with pytest.raises(IllegalActionError, match=r"action 3 is not legal in game 0 now "
                                                 r"\(legal: \[513\]\)"):
        envs.step(np.array([3, 513]))


def test_vector_env_masks_are_what_maskable_ppo_reads() -> None:
    envs = ShutTheBoxVectorEnv(num_envs=4, rules="pub", reward="shut")
    _, infos = envs.reset(seed=2)
    masks = envs.action_masks()
    assert masks.dtype == np.bool_ and masks.shape == (4, 514)
    assert np.array_equal(masks, infos["action_mask"].astype(bool))
    assert envs.observation_space.contains(envs.reset(seed=3)[0])
