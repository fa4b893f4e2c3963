"""Environments that travel: every environment, with its default exact baseline, pickles,
deep-copies, and runs in worker processes (Gymnasium's ``AsyncVectorEnv`` through
``make_vec``, Stable-Baselines3's ``SubprocVecEnv``), as RLlib and Ray need."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pytest

import shutthebox.envs
from shutthebox.envs import ShutTheBoxAEC, ShutTheBoxEnv, ShutTheBoxMatchEnv, shutthebox_v0

GymFactory = Callable[[], gymnasium.Env[Any, int]]

GYM_ENVS: dict[str, GymFactory] = {
    "turn, score": lambda: ShutTheBoxEnv(rules="classic"),
    "turn, beat:10 on 12 tiles": lambda: ShutTheBoxEnv(rules="family-12", reward="beat:10"),
    "match against optimal": lambda: ShutTheBoxMatchEnv(),
    "three rounds against optimal": lambda: ShutTheBoxMatchEnv(format="rounds:3"),
    "battle against optimal": lambda: ShutTheBoxMatchEnv(format="battle"),
}


def _first_legal(info: dict[str, Any]) -> int:
    return int(np.flatnonzero(info["action_mask"])[-1])


def _play_on(env: gymnasium.Env[Any, int], info: dict[str, Any],
             steps: int) -> list[tuple[Any, ...]]:
    """What the environment shows over the next steps, always taking the last legal action."""
    seen: list[tuple[Any, ...]] = []
    for _ in range(steps):
        observation, reward, done, _, info = env.step(_first_legal(info))
        flat = (np.concatenate([np.ravel(v) for v in observation.values()])
                if isinstance(observation, dict) else observation)
        seen.append((flat.tolist(), float(reward), info.get("optimal_value")))
        if done:
            break
    return seen


@pytest.mark.parametrize("name", list(GYM_ENVS))
@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_a_gymnasium_env_copied_mid_episode_plays_on_as_the_original(name: str,
                                                                     how: str) -> None:
    env = GYM_ENVS[name]()
    _, info = env.reset(seed=7)
    _, _, _, _, info = env.step(_first_legal(info))
    assert "optimal_value" in info        # the baseline is there and has been used
    twin: Any = pickle.loads(pickle.dumps(env)) if how == "pickle" else copy.deepcopy(env)
    # the copy's action space samples legal actions of the copy, not of the original
    assert twin.action_masks()[twin.action_space.sample()] == 1
    assert _play_on(twin, dict(info), 40) == _play_on(env, info, 40)


@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
@pytest.mark.parametrize("factory", [
    lambda: ShutTheBoxAEC(players=2, format="rounds:2"), lambda: shutthebox_v0.env()],
    ids=["raw", "wrapped"])
def test_the_pettingzoo_env_copied_mid_match_plays_on_as_the_original(
        factory: Callable[[], Any], how: str) -> None:
    env = factory()
    env.reset(seed=3)
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    twin = pickle.loads(pickle.dumps(env)) if how == "pickle" else copy.deepcopy(env)

    def play(game: Any) -> list[Any]:
        seen = []
        for _ in range(30):
            agent = game.agent_selection
            observation, reward, terminated, truncated, info = game.last()
            seen.append((agent, observation["observation"].tolist(), reward,
                         info.get("optimal_value")))
            if terminated or truncated:
                break
            game.step(int(np.flatnonzero(observation["action_mask"])[0]))
        return seen

    assert play(twin) == play(env)
    assert any(value is not None for *_, value in play(twin))


@pytest.mark.parametrize("env_id", [shutthebox.envs.ENV_ID, shutthebox.envs.MATCH_ENV_ID])
def test_make_vec_runs_the_envs_in_worker_processes(env_id: str) -> None:
    envs = gymnasium.make_vec(env_id, num_envs=2, vectorization_mode="async")
    try:
        _, infos = envs.reset(seed=5)
        assert infos["optimal_value"].shape == (2,)
        for _ in range(6):
            actions = np.array([int(np.flatnonzero(mask)[-1])
                                for mask in infos["action_mask"]])
            _, _, _, _, infos = envs.step(actions)
        assert np.all(infos["optimal_value"] >= 0.0)
    finally:
        envs.close()


@pytest.mark.parametrize("name", ["turn, beat:10 on 12 tiles", "match against optimal"])
def test_stable_baselines_subprocess_workers_run_the_envs(name: str) -> None:
    from stable_baselines3.common.vec_env import SubprocVecEnv

    venv = SubprocVecEnv([GYM_ENVS[name]] * 2)
    try:
        venv.seed(11)
        venv.reset()
        for _ in range(6):
            masks = venv.env_method("action_masks")
            _, _, _, infos = venv.step(np.array([int(np.flatnonzero(m)[-1]) for m in masks]))
        assert all("optimal_value" in info for info in infos)
    finally:
        venv.close()
