"""Reinforcement-learning environments: Gymnasium (one turn) and PettingZoo (a match).

Importing this module registers ``shutthebox/ShutTheBox-v0``:

>>> import gymnasium
>>> import shutthebox.envs
>>> env = gymnasium.make("shutthebox/ShutTheBox-v0", rules="family-12", reward="beat:10")
>>> int(env.action_space.n)
4098
"""

import gymnasium

from shutthebox.envs.multi import ShutTheBoxAEC
from shutthebox.envs.single import IllegalActionError, RewardError, ShutTheBoxEnv

ENV_ID = "shutthebox/ShutTheBox-v0"

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="shutthebox.envs.single:ShutTheBoxEnv")

__all__ = ["ENV_ID", "IllegalActionError", "RewardError", "ShutTheBoxAEC", "ShutTheBoxEnv"]
