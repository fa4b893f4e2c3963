"""Tabular Q-learning on the 9-tile game, measured against the exact optimum.

One episode is one turn; the reward is the tiles shut (so the return is the covered sum, and
the best policy is the one with the lowest expected score). The environment's
``info["optimal_value"]`` gives the exact optimal return, so the regret is one subtraction.

    python examples/q_learning.py [--episodes 300000] [--seed 0]
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict

import numpy as np

from shutthebox.envs import ShutTheBoxEnv
from shutthebox.envs.regret import Regret


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


def learn(episodes: int, seed: int = 0, report: int = 100_000,
          ) -> tuple[dict[tuple[int, ...], dict[int, float]], int]:
    """The Q table after ``episodes`` turns of epsilon-greedy play, and the steps taken."""
    env = ShutTheBoxEnv(rules="classic", reward="score")
    rng = np.random.default_rng(seed)
    q: dict[tuple[int, ...], dict[int, float]] = defaultdict(dict)
    alpha, epsilon = 0.05, 0.05
    env.reset(seed=seed)
    steps = 0
    for episode in range(episodes):
        observation, info = env.reset()
        done = False
        while not done:
            state, legal = key(observation), np.flatnonzero(info["action_mask"])
            action = int(rng.choice(legal)) if rng.random() < epsilon else greedy(q, state, legal)
            observation, reward, done, _, info = env.step(action)
            steps += 1
            future = 0.0
            if not done:
                following = key(observation)
                future = max(value(q, following, int(a))
                             for a in np.flatnonzero(info["action_mask"]))
            old = value(q, state, action)
            q[state][action] = old + alpha * (float(reward) + future - old)
        if (episode + 1) % report == 0:
            print(f"  {episode + 1:,} episodes, {len(q):,} states seen")
    return q, steps


def evaluate(q: dict[tuple[int, ...], dict[int, float]], episodes: int = 20_000,
             seed: int = 10**6) -> tuple[float, float, float]:
    """The greedy policy's average return over ``episodes`` turns, the half width of its
    95 % interval, and the exact optimal return (``info["optimal_value"]`` at the start)."""
    env = ShutTheBoxEnv(rules="classic", reward="score")
    _, info = env.reset(seed=seed)
    optimum = float(info["optimal_value"])
    returns = []
    for _ in range(episodes):
        observation, info = env.reset()
        total, done = 0.0, False
        while not done:
            action = greedy(q, key(observation), np.flatnonzero(info["action_mask"]))
            observation, reward, done, _, info = env.step(action)
            total += float(reward)
        returns.append(total)
    mean = float(np.mean(returns))
    return mean, float(1.96 * np.std(returns) / np.sqrt(len(returns))), optimum


def run(episodes: int, seed: int = 0, evaluation: int = 20_000) -> Regret:
    """Learn, time and evaluate."""
    began = time.perf_counter()
    q, steps = learn(episodes, seed)
    minutes = (time.perf_counter() - began) / 60
    mean, half_width, optimum = evaluate(q, evaluation)
    return Regret(f"Q-learning, {episodes:,} episodes", steps, minutes, mean, half_width,
                  optimum)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=300_000)
    parser.add_argument("--evaluate", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(run(args.episodes, args.seed, args.evaluate).report(total=45))


if __name__ == "__main__":
    main()
