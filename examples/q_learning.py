"""Tabular Q-learning on the 9-tile game, measured against the exact optimum.

One episode is one turn; the reward is the tiles shut (so the return is the covered sum, and
the best policy is the one with the lowest expected score). The environment's
``info["optimal_value"]`` gives the exact optimal return, so the regret is one subtraction.

    python examples/q_learning.py [--episodes 300000] [--seed 0]
"""

from __future__ import annotations

import argparse
from collections import defaultdict

import numpy as np

from shutthebox.envs import ShutTheBoxEnv


def key(observation: dict[str, object]) -> tuple[int, ...]:
    open_bits = np.asarray(observation["open"])
    roll = np.asarray(observation["roll"])
    return (int(open_bits @ (1 << np.arange(len(open_bits)))), *map(int, roll),
            int(observation["phase"]))  # type: ignore[call-overload]


def optimistic(state: tuple[int, ...]) -> float:
    """The most any action can still earn: the sum of the open tiles (drives exploration)."""
    return float(sum(i + 1 for i in range(12) if state[0] >> i & 1))


def value(q: dict[tuple[int, ...], dict[int, float]], state: tuple[int, ...], action: int) -> float:
    return q[state].get(action, optimistic(state))


def greedy(q: dict[tuple[int, ...], dict[int, float]], state: tuple[int, ...],
           legal: np.ndarray) -> int:
    return int(max(legal, key=lambda a: value(q, state, int(a))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=300_000)
    parser.add_argument("--evaluate", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    env = ShutTheBoxEnv(rules="classic", reward="score")
    rng = np.random.default_rng(args.seed)
    q: dict[tuple[int, ...], dict[int, float]] = defaultdict(dict)
    alpha, epsilon = 0.05, 0.05
    observation, info = env.reset(seed=args.seed)
    optimum = info["optimal_value"]
    for episode in range(args.episodes):
        observation, info = env.reset()
        done = False
        while not done:
            state, legal = key(observation), np.flatnonzero(info["action_mask"])
            action = int(rng.choice(legal)) if rng.random() < epsilon else greedy(q, state, legal)
            observation, reward, done, _, info = env.step(action)
            future = 0.0
            if not done:
                following = key(observation)
                future = max(value(q, following, int(a))
                             for a in np.flatnonzero(info["action_mask"]))
            old = value(q, state, action)
            q[state][action] = old + alpha * (float(reward) + future - old)
        if (episode + 1) % 100_000 == 0:
            print(f"  {episode + 1:,} episodes, {len(q):,} states seen")

    returns = []
    for _ in range(args.evaluate):
        observation, info = env.reset()
        total, done = 0.0, False
        while not done:
            action = greedy(q, key(observation), np.flatnonzero(info["action_mask"]))
            observation, reward, done, _, info = env.step(action)
            total += float(reward)
        returns.append(total)
    mean = float(np.mean(returns))
    se = float(np.std(returns) / np.sqrt(len(returns)))
    print(f"greedy Q-learning policy: average return {mean:.3f} ± {1.96 * se:.3f} "
          f"(expected score {45 - mean:.3f})")
    print(f"exact optimum:            average return {optimum:.3f} "
          f"(expected score {45 - optimum:.3f}); regret {optimum - mean:.3f}")


if __name__ == "__main__":
    main()
