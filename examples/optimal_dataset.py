"""A dataset of optimal play on a turn task, for imitation learning and offline RL, written to
one NumPy ``.npz`` file.

Each row is one step of the turn environment (``ShutTheBox-v0`` or a task of the suite):
what the agent saw, the legal actions, the action taken, the reward and the exact values. The
behaviour is the solver's optimal play; with ``--epsilon`` each decision is instead a uniformly
random legal action with that chance, for offline RL that needs actions off the optimal path
(the values stay those of optimal play from there).

Arrays (``S`` steps, ``N`` tiles, ``A = 2**N + 2`` actions):

- ``episode``, ``step`` (``int32``): the turn and the step within it;
- ``open`` (``int8 [S, N]``), ``roll`` (``int8 [S, 2]``), ``phase``, ``dice_choice`` (``int8``):
  the environment's observation;
- ``legal`` (``uint8 [S, ceil(A / 8)]``): the action mask, bit-packed
  (``np.unpackbits(legal, axis=1, count=A)``);
- ``action`` (``int32``), ``reward`` (``float64``), ``terminal`` (``bool``);
- ``value`` (``float64``): the exact optimal return still to come before acting
  (``info["optimal_value"]``); ``action_value``: the same after taking ``action`` and playing
  optimally afterwards (equal to ``value`` for an optimal action);
- ``task``, ``rules``, ``reward_name``, ``seed``, ``epsilon``: what made it.

    python examples/optimal_dataset.py [--task shutthebox/Turn-Digits-v0] [--episodes 10000]
                                       [--epsilon 0.0] [--seed 0] [--out optimal.npz]
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

import shutthebox.envs
from shutthebox.envs.single import COVERED_SUM, ShutTheBoxEnv
from shutthebox.solver import Solution, solve
from shutthebox.tiles import tile_sum
from shutthebox.turn import Phase


def action_value(env: ShutTheBoxEnv, solution: Solution, action: int) -> float:
    """The optimal return still to come after taking ``action`` now: the reward it pays, then
    optimal play."""
    state = env.state
    offset = tile_sum(env.rules.full & ~state.open_tiles) \
        if env.objective is COVERED_SUM else 0
    if action >= env.one_die:
        dice = action - env.one_die + 1
        value = solution.dice_value(state.open_tiles, dice) if state.phase is Phase.CHOOSE_DICE \
            else solution.value(state.open_tiles)
        return float(value) - offset
    return float(solution.after_move(state.open_tiles, action)) - offset


def collect(task_id: str, episodes: int, epsilon: float = 0.0,
            seed: int = 0) -> dict[str, Any]:
    """The dataset's arrays for ``episodes`` turns of a turn task."""
    env: Any = gymnasium.make(task_id).unwrapped
    if not isinstance(env, ShutTheBoxEnv):
        raise SystemExit(f"{task_id} is not a turn task: the dataset is of turns")
    solution = solve(env.rules, env.objective)
    rng = np.random.default_rng(seed)
    rows: dict[str, list[Any]] = {name: [] for name in (
        "episode", "step", "open", "roll", "phase", "dice_choice", "legal", "action", "reward",
        "terminal", "value", "action_value")}
    observation, info = env.reset(seed=seed)
    for episode in range(episodes):
        if episode:
            observation, info = env.reset()
        done, step = False, 0
        while not done:
            mask = info["action_mask"]
            legal = np.flatnonzero(mask)
            if epsilon and rng.random() < epsilon:
                action = int(rng.choice(legal))
            elif env.state.phase is Phase.SHUT:
                assert env.state.roll is not None
                action = solution.best_move(env.state.open_tiles, env.state.roll)
            elif env.state.phase is Phase.CHOOSE_DICE:
                action = env.one_die + solution.best_dice(env.state.open_tiles) - 1
            else:
                action = int(legal[0])
            for name, value in (("episode", episode), ("step", step),
                                ("open", observation["open"]), ("roll", observation["roll"]),
                                ("phase", observation["phase"]),
                                ("dice_choice", observation["dice_choice"]),
                                ("legal", np.packbits(mask)), ("action", action),
                                ("value", info["optimal_value"]),
                                ("action_value", action_value(env, solution, action))):
                rows[name].append(value)
            observation, reward, done, _, info = env.step(action)
            rows["reward"].append(float(reward))
            rows["terminal"].append(done)
            step += 1
    types = {"episode": np.int32, "step": np.int32, "open": np.int8, "roll": np.int8,
             "phase": np.int8, "dice_choice": np.int8, "legal": np.uint8, "action": np.int32,
             "reward": np.float64, "terminal": np.bool_, "value": np.float64,
             "action_value": np.float64}
    arrays: dict[str, Any] = {name: np.array(rows[name], dtype=types[name]) for name in rows}
    arrays.update(task=task_id, rules=repr(env.rules), reward_name=env.reward_name, seed=seed,
                  epsilon=epsilon)
    return arrays


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--task", default="shutthebox/Turn-Digits-v0",
                        choices=[t.id for t in shutthebox.envs.SUITE if not t.is_match])
    parser.add_argument("--episodes", type=int, default=10_000)
    parser.add_argument("--epsilon", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("optimal.npz"))
    args = parser.parse_args()
    if not 0.0 <= args.epsilon <= 1.0:
        parser.error(f"--epsilon must be from 0 to 1, not {args.epsilon}")
    arrays = collect(args.task, args.episodes, args.epsilon, args.seed)
    np.savez_compressed(args.out, **arrays)
    returns = np.bincount(arrays["episode"], weights=arrays["reward"])
    print(f"{len(arrays['action']):,} steps of {args.episodes:,} turns of {args.task} written "
          f"to {args.out}; average return {returns.mean():.4f}, exact optimum "
          f"{arrays['value'][0]:.4f}")


if __name__ == "__main__":
    main()
