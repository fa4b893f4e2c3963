"""Reinforcement-learning environments: Gymnasium (one turn; N turns at once; a whole match
against computer players) and PettingZoo (a match between agents).

Importing this module registers ``shutthebox/ShutTheBox-v0`` (with a compiled vector entry
point for ``gymnasium.make_vec``), ``shutthebox/ShutTheBoxMatch-v0`` and the task suite
(:mod:`shutthebox.envs.tasks`); :func:`evaluate` gives a policy's exact expected return and
regret on a turn task, or its exact chance to win a match against the optimal player
(:mod:`shutthebox.envs.evaluation`, :mod:`shutthebox.envs.match_evaluation`):

>>> import gymnasium
>>> import shutthebox.envs
>>> env = gymnasium.make("shutthebox/ShutTheBox-v0", rules="family-12", reward="beat:10")
>>> int(env.action_space.n)
4098
"""

from typing import Any

import gymnasium

from shutthebox.envs.evaluation import Evaluation, evaluate, uniform_random
from shutthebox.envs.matchplay import ShutTheBoxMatchEnv
from shutthebox.envs.multi import ShutTheBoxAEC
from shutthebox.envs.single import IllegalActionError, RewardError, ShutTheBoxEnv
from shutthebox.envs.tasks import SUITE, TASKS, Task, register_tasks

ENV_ID = "shutthebox/ShutTheBox-v0"
MATCH_ENV_ID = "shutthebox/ShutTheBoxMatch-v0"

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="shutthebox.envs.single:ShutTheBoxEnv",
                       vector_entry_point="shutthebox.envs.vector:ShutTheBoxVectorEnv")
if MATCH_ENV_ID not in gymnasium.registry:
    gymnasium.register(id=MATCH_ENV_ID,
                       entry_point="shutthebox.envs.matchplay:ShutTheBoxMatchEnv")
register_tasks()


def __getattr__(name: str) -> Any:
    """The compiled vector environment loads numba: only when it is asked for."""
    if name == "ShutTheBoxVectorEnv":
        from shutthebox.envs.vector import ShutTheBoxVectorEnv

        return ShutTheBoxVectorEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ENV_ID", "MATCH_ENV_ID", "SUITE", "TASKS", "Evaluation", "IllegalActionError",
           "RewardError", "ShutTheBoxAEC", "ShutTheBoxEnv", "ShutTheBoxMatchEnv",
           "ShutTheBoxVectorEnv", "Task", "evaluate", "uniform_random"]
