"""The PettingZoo module of a Shut the Box match, as ``pettingzoo.classic`` names them.

>>> from shutthebox.envs import shutthebox_v0
>>> env = shutthebox_v0.env(players=2, rules="classic", format="single")
>>> env.reset(seed=0)
>>> env.agent_selection
'player_0'
"""

from shutthebox.envs.multi import env, parallel_env, raw_env

__all__ = ["env", "parallel_env", "raw_env"]
