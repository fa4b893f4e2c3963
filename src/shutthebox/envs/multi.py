"""A PettingZoo AEC environment of a whole match, a thin adapter over :class:`Match`.

Agents ``player_0 .. player_{n-1}`` sit in that order. Actions are those of
:class:`~shutthebox.envs.single.ShutTheBoxEnv`: a tile bitmask to shut, or ``2**N`` /
``2**N + 1`` to roll one or two dice (each roll is the acting agent's own action). Roll-offs
are rolled by the environment. ``observe(agent)`` returns ``{"observation", "action_mask"}``;
the observation is the open tiles (N), the roll (2 faces, 0 for none), the phase (0: roll,
1: shut), then for every seat whether it has posted a score this round, that score, and its
match total. At the end the winners share a reward of 1 (a k-way tie gives 1/k each).

>>> env = ShutTheBoxAEC(players=2, rules="classic")
>>> env.reset(seed=1)
>>> env.agent_selection
'player_0'
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from shutthebox.envs.single import IllegalActionError, make_rules
from shutthebox.match import GameFormat, Match, MatchConfig
from shutthebox.turn import Phase

SCORE_CAP = 10**9


class ShutTheBoxAEC(AECEnv[str, dict[str, Any], int | None]):  # type: ignore[misc]
    """A match of Shut the Box for two or more agents, in any format."""

    metadata: ClassVar[dict[str, Any]] = {"name": "shutthebox_v0", "render_modes": ["ansi"],
                                          "is_parallelizable": False}

    def __init__(self, players: int = 2, rules: Any = None, format: str = "single",
                 render_mode: str | None = None, **rule_fields: Any) -> None:
        super().__init__()
        self.rules = make_rules(rules, rule_fields)
        self.game_format = GameFormat.parse(format)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.config = MatchConfig(self.rules, self.game_format, tuple(self.possible_agents))
        self.render_mode = render_mode
        n = self.rules.tiles
        self.one_die = 1 << n
        size = n + 3 + 3 * players
        high = np.array([1] * n + [6, 6, 1] + [1] * players + [SCORE_CAP] * (2 * players),
                        dtype=np.float64)
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(0, high, shape=(size,), dtype=np.float64),
            "action_mask": spaces.Box(0, 1, shape=((1 << n) + 2,), dtype=np.int8),
        })
        self._action_space = spaces.Discrete((1 << n) + 2)
        self._rng = random.Random()
        self.match = Match(self.config)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    # --- seeing ------------------------------------------------------------------------

    def _mask(self, agent: str) -> npt.NDArray[np.int8]:
        mask = np.zeros((1 << self.rules.tiles) + 2, dtype=np.int8)
        pending = self.match.pending
        if self.match.is_over or pending.seat != self.possible_agents.index(agent):
            return mask
        turn = pending.turn
        assert turn is not None
        if pending.kind == "shut":
            mask[list(turn.legal_actions())] = 1
        elif pending.kind == "choose-dice":
            for dice in turn.legal_actions():
                mask[self.one_die + dice - 1] = 1
        else:
            mask[self.one_die + turn.dice - 1] = 1
        return mask

    def observe(self, agent: str) -> dict[str, Any]:
        n = self.rules.tiles
        board = self.match.board
        pending = self.match.pending
        turn = pending.turn
        phase = int(turn is not None and turn.phase is Phase.SHUT)
        faces = list(turn.roll or ()) if phase and turn is not None else []
        seats = range(len(self.possible_agents))
        posted = [float(s in self.match.round_scores) for s in seats]
        scores = [float(min(self.match.round_scores.get(s, 0), SCORE_CAP)) for s in seats]
        totals = [float(min(t, SCORE_CAP)) for t in self.match.totals]
        observation = np.array([(board >> i) & 1 for i in range(n)] + ([*faces, 0, 0])[:2]
                               + [phase] + posted + scores + totals, dtype=np.float64)
        return {"observation": observation, "action_mask": self._mask(agent)}

    # --- acting ------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.match = Match(self.config)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._settle()

    def _settle(self) -> None:
        """Roll roll-offs, then point at the agent to act (or end the match)."""
        while self.match.pending.kind == "roll-off":
            self.match.roll(self._rng)
        if self.match.is_over:
            for seat, agent in enumerate(self.possible_agents):
                share = 1.0 / len(self.match.winners) if seat in self.match.winners else 0.0
                self.rewards[agent] = share
                self.terminations[agent] = True
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
            return
        to_act = self.match.pending.seat
        assert to_act is not None
        self.agent_selection = self.possible_agents[to_act]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        if action is None or not 0 <= int(action) < len(self._mask(agent)) \
                or not self._mask(agent)[int(action)]:
            raise IllegalActionError(f"action {action!r} is not legal for {agent} now")
        chosen = int(action)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        pending = self.match.pending
        if chosen >= self.one_die:
            if pending.kind == "choose-dice":
                self.match.decide(chosen - self.one_die + 1)
            self.match.roll(self._rng)
        else:
            self.match.decide(chosen)
        self._settle()

    def close(self) -> None:
        """Nothing to release: the match lives in memory."""

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return f"{self.match.pending.kind} for {self.agent_selection}, board {self.match.board}"
