"""MaskablePPO (sb3-contrib) on the compiled vector environment, measured against the exact
optimum. Needs the ``rl`` extra: ``pip install 'shutthebox[rl]'`` (CPU torch is enough).

One episode is one turn of the 9-tile game; the reward is the tiles shut, so the return is the
covered sum and the best policy has the lowest expected score. The environment's
``info["optimal_value"]`` at the start of a turn is the exact optimal return, so the regret is
one subtraction.

    python examples/maskable_ppo.py [--steps 300000] [--games 64] [--seed 0]
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from shutthebox.envs.regret import Regret
from shutthebox.envs.sb3 import StableBaselinesVecEnv
from shutthebox.envs.vector import ShutTheBoxVectorEnv


def train(steps: int, games: int = 64, seed: int = 0, n_steps: int = 128,
          rules: str = "classic") -> Any:
    """A MaskablePPO model trained for ``steps`` environment steps on ``games`` games."""
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    venv = StableBaselinesVecEnv(ShutTheBoxVectorEnv(num_envs=games, rules=rules))
    venv.seed(seed)
    model = MaskablePPO("MultiInputPolicy", venv, n_steps=n_steps,
                        batch_size=min(1024, n_steps * games),
                        n_epochs=4, learning_rate=3e-4, gamma=1.0, gae_lambda=0.95,
                        ent_coef=0.001, seed=seed, device="cpu", verbose=0,
                        policy_kwargs={"net_arch": [128, 128]})
    model.learn(total_timesteps=steps)
    return model


def evaluate(model: Any, episodes: int = 20_000, games: int = 1000, seed: int = 10**6,
             rules: str = "classic") -> tuple[float, float, float]:
    """The greedy policy's average return over ``episodes`` turns, the half width of its
    95 % interval, and the exact optimal return. The games raise on an illegal action: the
    masks must reach the policy."""
    envs = ShutTheBoxVectorEnv(num_envs=games, rules=rules, on_illegal="raise")
    observations, infos = envs.reset(seed=seed)
    optimum = float(infos["optimal_value"][0])
    returns: list[float] = []
    running = np.zeros(games)
    while len(returns) < episodes:
        actions, _ = model.predict(observations, deterministic=True,
                                   action_masks=envs.action_masks())
        observations, rewards, terminated, _, infos = envs.step(actions)
        running += rewards
        returns.extend(running[terminated].tolist())
        running[terminated] = 0.0
    sample = np.array(returns[:episodes])
    return float(sample.mean()), float(1.96 * sample.std() / np.sqrt(len(sample))), optimum


def run(steps: int, games: int = 64, seed: int = 0, episodes: int = 20_000) -> Regret:
    """Train, evaluate and time."""
    began = time.perf_counter()
    model = train(steps, games, seed)
    minutes = (time.perf_counter() - began) / 60
    mean, half_width, optimum = evaluate(model, episodes)
    return Regret("MaskablePPO (one core)", steps, minutes, mean, half_width, optimum)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=300_000)
    parser.add_argument("--games", type=int, default=64)
    parser.add_argument("--evaluate", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(run(args.steps, args.games, args.seed, args.evaluate).report(total=45))


if __name__ == "__main__":
    main()
