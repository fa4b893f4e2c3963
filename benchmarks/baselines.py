"""The task suite's baselines: for every task (:mod:`shutthebox.envs.tasks`), the exact optimum
and the regret of the random policy, of the best simple player (highest-first or fewest-tiles)
and of short MaskablePPO runs (sb3-contrib, the ``rl`` extra: the mean over ``--seeds``, with
the range, the steps and the minutes a run).

Turn tasks and the matches :func:`shutthebox.envs.evaluate` takes within ``--match-positions``
(the deciding rounds, the battle) are evaluated exactly; the longer matches by playing ``--matches``
matches against the optimal player (the regret is then the optimum less the win rate, ± the
half width of its 95 % interval). A task is recommended where the best simple player's regret
is at least 5 % of the optimum's size: the headroom a learner can show. The learner runs are
short and the machine shared: the learner's figures are indicative, not the best a learner can
do. Prints the table; ``--markdown`` writes it into the manual (docs/environments.md, between
its ``baselines:table`` markers), with the command that made it. ``--fast`` is a smoke test
(a few steps, one seed, a few matches) whose figures mean nothing and are never written.

    python benchmarks/baselines.py [--markdown] [--fast] [--turn-steps 60000]
        [--twelve-steps 20000] [--match-steps 30000] [--seeds 0 1 2] [--matches 2000]
        [--match-positions 2000] [--tasks ID ...]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from report import machine, write_between

import shutthebox.envs
from shutthebox.envs import TASKS, Task, evaluate, uniform_random
from shutthebox.envs.evaluation import PolicyError
from shutthebox.envs.match_evaluation import MAX_POSITIONS
from shutthebox.players.base import Situation
from shutthebox.players.simple import FewestTilesStrategy, HighestFirstStrategy
from shutthebox.turn import Phase

PAGE = Path(__file__).resolve().parent.parent / "docs" / "environments.md"
HEADROOM = 0.05
"""A task is recommended when the best simple player leaves this share of the optimum."""
FAST = {"turn_steps": 2048, "twelve_steps": 2048, "match_steps": 1024, "seeds": [0],
        "matches": 20}
"""The smoke test's settings (``--fast``): one short rollout of each learner."""
SIMPLE = {"highest-first": HighestFirstStrategy(), "fewest-tiles": FewestTilesStrategy()}


@dataclass
class Row:
    task: Task
    optimum: float
    random: str
    heuristic: str
    heuristic_regret: float
    learner: str
    seconds: float

    @property
    def headroom(self) -> float:
        return self.heuristic_regret / max(abs(self.optimum), 1e-12)


def fmt(value: float, optimum: float) -> str:
    """A return in the task's units: whole points for digits scores, three decimals for
    other points, four for chances."""
    if abs(optimum) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.3f}" if abs(optimum) >= 1 else f"{value:.4f}"


def played_regret(task: Task, policy: Any, matches: int, seed: int) -> tuple[float, float]:
    """The regret of a policy of the agent (a player, or a model) measured by playing: the
    optimum less the win rate, and the half width of its 95 % interval."""
    env = task.make(baseline=False)
    bare: Any = env.unwrapped
    rng = np.random.default_rng(seed)
    wins = []
    for match in range(matches):
        observation, info = env.reset(seed=seed + match)
        done, reward = False, 0.0
        step: Any
        while not done:
            mask = info["action_mask"]
            turn = bare.match.pending.turn
            if policy is None:
                action = int(rng.choice(np.flatnonzero(mask)))
            elif hasattr(policy, "choose") and turn is not None and not bare._over_at_reset \
                    and turn.phase is not Phase.ROLL:
                action = policy.choose(turn, Situation())
                action = action if turn.phase is Phase.SHUT else bare.actions - 3 + action
            elif hasattr(policy, "predict"):
                action = int(policy.predict(observation, deterministic=True,
                                            action_masks=mask)[0])
            else:
                action = int(np.flatnonzero(mask)[-1])
            observation, step, done, _, info = env.step(action)
            reward = float(step)
        wins.append(reward)
    rate = float(np.mean(wins))
    return task.optimum() - rate, 1.96 * float(np.std(wins)) / np.sqrt(matches)


def train_turn(task: Task, steps: int, seed: int) -> Any:
    """MaskablePPO on the compiled vector environment of a turn task."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecNormalize

    from shutthebox.envs.sb3 import StableBaselinesVecEnv
    from shutthebox.envs.vector import ShutTheBoxVectorEnv

    torch.set_num_threads(1)
    games = 64 if steps > 20_000 else 16      # fewer games a rollout on a short run
    venv: Any = StableBaselinesVecEnv(ShutTheBoxVectorEnv(num_envs=games, rules=task.rules,
                                                          reward=task.reward))
    venv.seed(seed)
    if abs(task.optimum()) > 1000:     # digits scores: rewards in the tens of thousands
        venv = VecNormalize(venv, norm_obs=False, norm_reward=True, gamma=1.0)
    model = MaskablePPO("MultiInputPolicy", venv, n_steps=128, batch_size=1024, n_epochs=4,
                        learning_rate=3e-4, gamma=1.0, gae_lambda=0.95, ent_coef=0.001,
                        seed=seed, device="cpu", verbose=0,
                        policy_kwargs={"net_arch": [128, 128]})
    model.learn(total_timesteps=steps)
    return model


def train_match(task: Task, steps: int, seed: int) -> Any:
    """MaskablePPO on four match environments against the optimal player."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(1)
    venv = DummyVecEnv([lambda: task.make(baseline=False)] * 4)
    venv.seed(seed)
    model = MaskablePPO("MlpPolicy", venv, n_steps=256, batch_size=256, n_epochs=4,
                        learning_rate=3e-4, gamma=1.0, seed=seed, device="cpu", verbose=0,
                        policy_kwargs={"net_arch": [128, 128]})
    model.learn(total_timesteps=steps)
    return model


def measure(task: Task, args: argparse.Namespace) -> Row:
    """A task's row: the exact optimum and the regrets; the learner's is the mean over its
    seeds (exact, or by play on the longer matches)."""
    seeds, matches, seed = args.seeds, args.matches, args.seeds[0]
    began = time.perf_counter()
    optimum = task.optimum()
    exact = True
    positions = args.match_positions
    try:
        random_regret = evaluate(uniform_random, task.id, max_positions=positions).regret
        random_text = fmt(random_regret, optimum)
        simple = {name: evaluate(player, task.id, max_positions=positions).regret
                  for name, player in SIMPLE.items()}
        best = min(simple, key=lambda name: simple[name])
        heuristic_text = f"{fmt(simple[best], optimum)} ({best})"
    except PolicyError:          # a longer match: played
        exact = False
        regret, half = played_regret(task, None, matches, seed)
        random_text = f"{regret:.3f} ± {half:.3f}"
        played = {name: played_regret(task, player, matches, seed)
                  for name, player in SIMPLE.items()}
        best = min(played, key=lambda name: played[name][0])
        # headroom only as far as the play measured it: the regret less its half width
        simple = {name: value - half for name, (value, half) in played.items()}
        heuristic_text = f"{played[best][0]:.3f} ± {played[best][1]:.3f} ({best})"
    bare: Any = task.make().unwrapped
    twelve = not task.is_match and bare.rules.tiles > 9
    steps = (args.match_steps if task.is_match else args.twelve_steps if twelve
             else args.turn_steps)
    regrets, minutes = [], 0.0
    for seed in seeds:
        trained = time.perf_counter()
        model = (train_match if task.is_match else train_turn)(task, steps, seed)
        minutes += (time.perf_counter() - trained) / 60 / len(seeds)
        regrets.append(evaluate(model, task.id, max_positions=positions).regret if exact
                       else played_regret(task, model, matches, seed)[0])
    learner_text = fmt(float(np.mean(regrets)), optimum)
    if len(seeds) > 1:
        learner_text += (f" ({fmt(min(regrets), optimum)} to {fmt(max(regrets), optimum)}"
                         f" over seeds {', '.join(map(str, seeds))}")
    else:
        learner_text += f" (seed {seeds[0]}"
    learner_text += f"; {steps:,} steps, {minutes:.1f} min a run)"
    if not exact:
        learner_text += ", by play"
    return Row(task, optimum, random_text, heuristic_text, min(simple.values()), learner_text,
               time.perf_counter() - began)


def table(rows: list[Row], command: str, loads: list[float]) -> str:
    lines = [f"Measured {time.strftime('%Y-%m-%d')} by `{command}`. Machine: {machine()}; its "
             f"cores are shared with other work (load averages "
             f"{', '.join(f'{load:.1f}' for load in loads)}). Regrets are the optimum less "
             f"the policy's expected return (the share of the win, for a match), exact unless "
             f"given with ± (then measured by play, 95 % interval) or said to be by play "
             f"(the learner's mean over its seeds). Recommended: the best "
             f"simple player leaves at least {HEADROOM:.0%} of the optimum.",
             "",
             "| task | optimum | random | best simple player | MaskablePPO, mean (range) | "
             "headroom |",
             "|---|---|---|---|---|---|"]
    for row in rows:
        mark = " (recommended)" if row.headroom >= HEADROOM else ""
        lines.append(f"| `{row.task.id}`{mark} | {fmt(row.optimum, row.optimum)} | "
                     f"{row.random} | {row.heuristic} | {row.learner} | "
                     f"{row.headroom:.1%} |")
    return "\n".join(lines) + "\n"


class HelpFormatter(argparse.RawDescriptionHelpFormatter,
                    argparse.ArgumentDefaultsHelpFormatter):
    """The module's description as written, and every option's default."""


def parser() -> argparse.ArgumentParser:
    parsing = argparse.ArgumentParser(
        prog="python benchmarks/baselines.py", description=__doc__.split("\n    python")[0],
        formatter_class=HelpFormatter)
    parsing.add_argument("--markdown", action="store_true",
                         help="write the table into docs/environments.md (between its "
                              "baselines:table markers)")
    parsing.add_argument("--fast", action="store_true",
                         help=f"a smoke test: {FAST['turn_steps']:,} learner steps on a turn "
                              f"(12 tiles too), {FAST['match_steps']:,} on a match, seed 0, "
                              f"{FAST['matches']} matches by play; overrides those options, "
                              f"and is never written into the manual")
    parsing.add_argument("--turn-steps", type=int, default=60_000,
                         help="MaskablePPO's steps on a turn task of 9 tiles")
    parsing.add_argument("--twelve-steps", type=int, default=20_000,
                         help="MaskablePPO's steps on a turn task of 12 tiles (4,098 actions "
                              "make each step costly)")
    parsing.add_argument("--match-steps", type=int, default=30_000,
                         help="MaskablePPO's steps on a match task")
    parsing.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2],
                         help="the learner's seeds (its regret is their mean); the first "
                              "also seeds the matches played")
    parsing.add_argument("--matches", type=int, default=2000,
                         help="matches played per policy on a match evaluate() refuses")
    parsing.add_argument("--match-positions", type=int, default=MAX_POSITIONS,
                         help="the most positions a match is evaluated exactly at "
                              "(evaluate's max_positions); beyond, it is measured by play")
    parsing.add_argument("--tasks", nargs="+", default=argparse.SUPPRESS, metavar="ID",
                         help="the tasks to measure (default: the whole suite)")
    return parsing


def main() -> None:
    parsing = parser()
    args = parsing.parse_args()
    if args.fast:
        if args.markdown:
            parsing.error("--fast measures nothing worth writing: leave out --markdown")
        for name, value in FAST.items():
            setattr(args, name, value)
    if "tasks" not in args:
        args.tasks = [task.id for task in shutthebox.envs.SUITE]
    unknown = [task_id for task_id in args.tasks if task_id not in TASKS]
    if unknown:
        parsing.error(f"unknown task {unknown[0]!r}: known are {', '.join(TASKS)}")
    rows, loads = [], []
    for task_id in args.tasks:
        loads.append(os.getloadavg()[0])
        row = measure(TASKS[task_id], args)
        rows.append(row)
        print(f"{task_id}: optimum {fmt(row.optimum, row.optimum)}, random {row.random}, "
              f"best simple {row.heuristic}, MaskablePPO {row.learner} "
              f"[{row.seconds:.0f} s]", flush=True)
        if (row.headroom >= HEADROOM) != TASKS[task_id].recommended:
            print(f"  note: measured headroom {row.headroom:.1%} disagrees with the suite's "
                  f"recommendation ({TASKS[task_id].recommended})")
    command = " ".join(["python3 benchmarks/baselines.py", *sys.argv[1:]])
    markdown = table(rows, command, loads)
    print()
    print(markdown)
    if args.markdown:
        write_between(PAGE, "baselines:table", markdown)
        print(f"written into {PAGE}")


if __name__ == "__main__":
    main()
