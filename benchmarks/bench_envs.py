"""Environment speed: the compiled vector env against Gymnasium's SyncVectorEnv over the
single env, in the same run, with random legal actions (9 tiles, ``score`` reward, one core);
and the time of an exact evaluation of a whole policy (:func:`shutthebox.envs.evaluate`) on 9
and 12 tiles, for a MaskablePPO network (untrained: its cost does not depend on its weights),
a simple player and the random policy, and of a match policy against the optimal player
(the deciding round, ``rounds:2`` and the battle).

Goals: at least 1 M env steps/s with N = 4096, and at least 100 times SyncVectorEnv; an exact
evaluation of a network policy within 10 s on 12 tiles (cheap beside a training epoch). An env
step is one game's step; with next-step autoreset, one step in every episode restarts a
finished game (the figure of moves alone is printed too). Prints figures; asserts nothing.

    python benchmarks/bench_envs.py [--games 4096] [--seconds 5] [--runs 2] [--markdown]
"""

from __future__ import annotations

import argparse
import time
from functools import partial
from typing import Any

import gymnasium
import numpy as np
from report import Figures, add_arguments

import shutthebox.envs
from shutthebox.envs import (
    ShutTheBoxEnv,
    ShutTheBoxMatchEnv,
    ShutTheBoxVectorEnv,
    evaluate,
    uniform_random,
)
from shutthebox.envs.sb3 import StableBaselinesVecEnv
from shutthebox.players.simple import FewestTilesStrategy
from shutthebox.solver.evaluate import decision_nodes


def vector_rate(games: int, seconds: float, copy: bool) -> tuple[float, float]:
    """Env steps per second of the compiled vector env, and the share that were moves."""
    envs = gymnasium.make_vec(shutthebox.envs.ENV_ID, num_envs=games, copy=copy)
    assert isinstance(envs, ShutTheBoxVectorEnv)
    rng = np.random.default_rng(1)
    envs.reset(seed=0)
    for _ in range(20):                                      # warm up
        envs.step(envs.sample_legal(rng))
    steps = restarts = 0
    terminated = np.zeros(games, dtype=bool)
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        for _ in range(50):
            restarts += int(terminated.sum())
            _, _, terminated, _, _ = envs.step(envs.sample_legal(rng))
            steps += games
    elapsed = time.perf_counter() - began
    return steps / elapsed, 1 - restarts / steps


def sync_rate(games: int, vector_steps: int) -> float:
    """Env steps per second of SyncVectorEnv over the single env, random legal actions
    drawn from the batched masks in numpy."""
    envs = gymnasium.vector.SyncVectorEnv([ShutTheBoxEnv for _ in range(games)])
    rng = np.random.default_rng(1)
    _, infos = envs.reset(seed=0)
    began = time.perf_counter()
    for _ in range(vector_steps):
        actions = np.argmax(rng.random(infos["action_mask"].shape) * infos["action_mask"], 1)
        _, _, _, _, infos = envs.step(actions)
    return games * vector_steps / (time.perf_counter() - began)


def evaluation_seconds(task_id: str, rules: str, figures: Figures) -> None:
    """How long an exact evaluation of a whole policy takes on a task, by kind of policy."""
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    decision_nodes.cache_clear()
    began = time.perf_counter()
    nodes = decision_nodes(ShutTheBoxEnv(rules=rules).rules)
    listing = time.perf_counter() - began
    venv = StableBaselinesVecEnv(ShutTheBoxVectorEnv(num_envs=4, rules=rules))
    model = MaskablePPO("MultiInputPolicy", venv, seed=0, device="cpu",
                        policy_kwargs={"net_arch": [128, 128]})
    label = f"{rules} ({nodes.count:,} decision nodes)"
    figures.add(f"listing the decision nodes, {label}, once", listing, "s", "", 2)
    print(f"{label}: listing the nodes {listing:.2f} s (once per rules)")
    for name, policy in (("MaskablePPO network [128, 128]", model),
                         ("fewest-tiles player", FewestTilesStrategy()),
                         ("random policy", uniform_random)):
        began = time.perf_counter()
        result = evaluate(policy, task_id)
        seconds = time.perf_counter() - began
        goal = "10 s" if name.startswith("MaskablePPO") and "12" in task_id else ""
        figures.add(f"exact evaluation, {name}, {label}", seconds, "s", goal, 2)
        print(f"  exact evaluation of the {name}: {seconds:.2f} s "
              f"(regret {result.regret:.4f})")


def match_evaluation_seconds(figures: Figures) -> None:
    """How long an exact evaluation of a match policy against the optimal player takes: the
    deciding round in either seat, two rounds first to play (1,849 positions) and the battle,
    for the random policy (shown every position), a simple player (shown its turn once) and,
    but on the 1,849 positions, a MaskablePPO network."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(1)
    for label, env in (
            ("deciding round, first", ShutTheBoxMatchEnv(format="single")),
            ("deciding round, second", ShutTheBoxMatchEnv(format="single", seat=1)),
            ("rounds:2, first", ShutTheBoxMatchEnv(format="rounds:2")),
            ("battle, knocker", ShutTheBoxMatchEnv(format="battle"))):
        env.baseline.solution  # noqa: B018 - the match tables are solved once, not timed
        policies: list[tuple[str, Any]] = [("random policy", uniform_random),
                                           ("fewest-tiles player", FewestTilesStrategy())]
        if not label.startswith("rounds"):
            spaces = partial(ShutTheBoxMatchEnv, format=str(env.config.format), seat=env.seat)
            network = MaskablePPO("MlpPolicy", DummyVecEnv([spaces]), seed=0, device="cpu",
                                  policy_kwargs={"net_arch": [128, 128]})
            policies.insert(0, ("MaskablePPO network [128, 128]", network))
        for name, policy in policies:
            began = time.perf_counter()
            result = evaluate(policy, env)
            seconds = time.perf_counter() - began
            figures.add(f"exact match evaluation, {name}, classic {label}", seconds, "s", "", 2)
            print(f"  exact match evaluation of the {name}, classic {label}: {seconds:.2f} s "
                  f"(regret {result.regret:.4f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4096)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--sync-steps", type=int, default=10)
    add_arguments(parser)
    args = parser.parse_args()
    figures = Figures("bench_envs", "python3 benchmarks/bench_envs.py --markdown")
    for _ in range(args.runs):
        figures.begin_run()
        measure(args.games, args.seconds, args.sync_steps, figures)
        evaluation_seconds("shutthebox/Turn-Classic-Score-v0", "classic", figures)
        evaluation_seconds("shutthebox/Turn-Box12-Score-v0", "box-12", figures)
        match_evaluation_seconds(figures)
    figures.finish(args.markdown)


def measure(games: int, seconds: float, sync_steps: int, figures: Figures) -> None:
    began = time.perf_counter()
    ShutTheBoxVectorEnv(num_envs=1).reset(seed=0)
    print(f"first vector env (numba compile or cache load, solve): "
          f"{time.perf_counter() - began:.2f} s")
    baseline = sync_rate(games, sync_steps)
    print(f"SyncVectorEnv over ShutTheBoxEnv, N = {games}: {baseline / 1e3:,.1f} k env "
          f"steps/s")
    figures.add(f"SyncVectorEnv over the single env, N = {games}", baseline / 1e3,
                "k env steps/s")
    for copy in (True, False):
        rate, moves = vector_rate(games, seconds, copy)
        figures.add(f"ShutTheBoxVectorEnv, N = {games}, copy={copy}", rate / 1e6,
                    "M env steps/s", "1 M", 2)
        figures.add(f"the same, against SyncVectorEnv (copy={copy})", rate / baseline, "times",
                    "100 times", 0)
        print(f"ShutTheBoxVectorEnv, N = {games}, copy={copy}: {rate / 1e6:.2f} M env "
              f"steps/s ({rate * moves / 1e6:.2f} M moves/s; goal 1 M: {rate / 1e6:.2f}x; "
              f"{rate / baseline:,.0f}x SyncVectorEnv, goal 100x)")


if __name__ == "__main__":
    main()
