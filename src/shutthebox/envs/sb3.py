"""The compiled vector environment as a Stable-Baselines3 ``VecEnv`` (the ``rl`` extra).

Stable-Baselines3 has its own vector API: finished games restart in the same step, with the
last observation in ``infos[i]["terminal_observation"]``, and sb3-contrib's ``MaskablePPO``
asks ``env_method("action_masks")`` for the masks. This adapter gives it both over
:class:`~shutthebox.envs.vector.ShutTheBoxVectorEnv` (restarting the finished games with a
``reset_mask``), so learners train on the compiled games.

>>> from shutthebox.envs.vector import ShutTheBoxVectorEnv
>>> venv = StableBaselinesVecEnv(ShutTheBoxVectorEnv(num_envs=2, rules="classic"))
>>> venv.seed(0)
[None, None]
>>> sorted(venv.reset())
['dice_choice', 'open', 'phase', 'roll']
>>> venv.env_method("action_masks")[0].shape
(514,)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvObs, VecEnvStepReturn

from shutthebox.envs.vector import ShutTheBoxVectorEnv


class StableBaselinesVecEnv(VecEnv):
    """N compiled games behind Stable-Baselines3's ``VecEnv`` interface."""

    def __init__(self, games: ShutTheBoxVectorEnv) -> None:
        super().__init__(games.num_envs, games.single_observation_space,
                         games.single_action_space)
        self.games = games
        self._actions = np.zeros(games.num_envs, dtype=np.int64)
        self._seed: int | None = None
        self.episode_returns = np.zeros(games.num_envs)
        self.episode_lengths = np.zeros(games.num_envs, dtype=np.int64)

    def reset(self) -> VecEnvObs:
        observations, _ = self.games.reset(seed=self._seed)
        self._seed = None
        self.episode_returns[:] = 0.0
        self.episode_lengths[:] = 0
        return observations

    def step_async(self, actions: npt.NDArray[Any]) -> None:
        self._actions = np.asarray(actions, dtype=np.int64)

    def step_wait(self) -> VecEnvStepReturn:
        observations, rewards, terminated, truncated, _ = self.games.step(self._actions)
        done = terminated | truncated
        self.episode_returns += rewards
        self.episode_lengths += 1
        step_infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if done.any():
            for i in np.flatnonzero(done):
                step_infos[i] = {
                    "terminal_observation": {k: v[i] for k, v in observations.items()},
                    "episode": {"r": float(self.episode_returns[i]),
                                "l": int(self.episode_lengths[i])}}
            self.episode_returns[done] = 0.0
            self.episode_lengths[done] = 0
            observations, _ = self.games.reset(options={"reset_mask": done})
        return observations, rewards.astype(np.float32), done, step_infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Every game's legal actions."""
        return self.games.action_masks()

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Seed the next :meth:`reset` (game ``i`` gets ``seed + i``)."""
        self._seed = seed
        return [None] * self.num_envs

    def close(self) -> None:
        self.games.close()

    def _indices(self, indices: VecEnvIndices) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None,
                   **method_kwargs: Any) -> list[Any]:
        if method_name != "action_masks":
            raise AttributeError(f"the compiled games have no per-game method {method_name!r}")
        masks = self.action_masks()
        return [masks[i] for i in self._indices(indices)]

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks"

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        if attr_name == "render_mode":
            return [None for _ in self._indices(indices)]
        raise AttributeError(f"the compiled games have no per-game attribute {attr_name!r}")

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        raise AttributeError(f"the compiled games have no per-game attribute {attr_name!r}")

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper[Any, Any, Any, Any]],
                       indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def get_images(self) -> Sequence[npt.NDArray[Any] | None]:
        return [None for _ in range(self.num_envs)]

