"""A PettingZoo AEC environment of a whole match, a thin adapter over :class:`Match`.

Agents ``player_0 .. player_{n-1}`` sit in that order. Actions are those of
:class:`~shutthebox.envs.single.ShutTheBoxEnv`: a tile bitmask to shut, or ``2**N`` /
``2**N + 1`` to roll one or two dice (each roll is the acting agent's own action). Roll-offs
are rolled by the environment. ``observe(agent)`` returns ``{"observation", "action_mask"}``
as PettingZoo's classic games do (``action_mask_in="info"``: the observation array alone, the
mask in ``infos[agent]["action_mask"]``, where it always is too); the observation is the open
tiles (N), the roll (2 faces, 0 for none), the phase (0: roll, 1: shut), then for every seat
whether it has posted a score this round, that score, and its match total. At the end the
winners share a reward of 1 (a k-way tie gives 1/k each). Where the solver knows the match
(two players), ``infos[agent]["optimal_value"]`` is the agent's exact chance to win from here
under optimal play (:mod:`shutthebox.envs.baseline`; ``baseline=False`` leaves it out).

:func:`env` (with PettingZoo's illegal-move, bounds and order wrappers: an illegal action
loses at once with reward -1) and :func:`raw_env` are the factories, as in
``pettingzoo.classic``; :mod:`shutthebox.envs.shutthebox_v0` is the module to import.

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

from shutthebox.envs.baseline import MatchBaseline
from shutthebox.envs.single import IllegalActionError, RewardError, make_rules
from shutthebox.match import GameFormat, Match, MatchConfig, PendingKind
from shutthebox.turn import Phase

SCORE_CAP = 10**9
"""Scores and totals are shown up to this (a race or a long match stays in the box)."""


def legal_mask(match: Match, seat: int) -> npt.NDArray[np.int8]:
    """The legal actions of ``seat`` now (all zero when it is not its turn to act)."""
    one_die = 1 << match.rules.tiles
    mask = np.zeros(one_die + 2, dtype=np.int8)
    pending = match.pending
    if match.is_over or pending.seat != seat or pending.kind is PendingKind.ROLL_OFF:
        return mask
    turn = pending.turn
    assert turn is not None
    if pending.kind is PendingKind.SHUT:
        mask[list(turn.legal_actions())] = 1
    elif pending.kind is PendingKind.CHOOSE_DICE:
        for dice in turn.legal_actions():
            mask[one_die + dice - 1] = 1
    else:
        mask[one_die + turn.dice - 1] = 1
    return mask


def observation_vector(match: Match) -> npt.NDArray[np.float64]:
    """The open tiles, the roll, the phase, then per seat: posted this round, that score and
    the match total."""
    n = match.rules.tiles
    board = match.board
    turn = match.pending.turn
    phase = int(turn is not None and turn.phase is Phase.SHUT)
    faces = list(turn.roll or ()) if phase and turn is not None else []
    seats = range(len(match.players))
    posted = [float(s in match.round_scores) for s in seats]
    scores = [float(min(match.round_scores.get(s, 0), SCORE_CAP)) for s in seats]
    totals = [float(min(t, SCORE_CAP)) for t in match.totals]
    return np.array([(board >> i) & 1 for i in range(n)] + ([*faces, 0, 0])[:2]
                    + [phase] + posted + scores + totals, dtype=np.float64)


def observation_box(tiles: int, players: int) -> spaces.Box:
    """The space of :func:`observation_vector`."""
    high = np.array([1] * tiles + [6, 6, 1] + [1] * players + [SCORE_CAP] * (2 * players),
                    dtype=np.float64)
    return spaces.Box(0, high, shape=(tiles + 3 + 3 * players,), dtype=np.float64)


def act(match: Match, action: int, rng: random.Random) -> None:
    """Apply an environment action (a tile mask, or a roll of one or two dice) to the match."""
    one_die = 1 << match.rules.tiles
    if action >= one_die:
        if match.pending.kind is PendingKind.CHOOSE_DICE:
            match.decide(action - one_die + 1)
        match.roll(rng)
    else:
        match.decide(action)


class ShutTheBoxAEC(AECEnv[str, dict[str, Any], int | None]):  # type: ignore[misc]
    """A match of Shut the Box for two or more agents, in any format."""

    metadata: ClassVar[dict[str, Any]] = {"name": "shutthebox_v0", "render_modes": ["ansi"],
                                          "is_parallelizable": False}

    def __init__(self, players: int = 2, rules: Any = None, format: str = "single",
                 render_mode: str | None = None, action_mask_in: str = "observation",
                 baseline: bool = True, **rule_fields: Any) -> None:
        super().__init__()
        if action_mask_in not in ("observation", "info"):
            raise RewardError(f"action_mask_in must be 'observation' or 'info', "
                              f"not {action_mask_in!r}")
        self.action_mask_in = action_mask_in
        self.rules = make_rules(rules, rule_fields)
        self.game_format = GameFormat.parse(format)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.config = MatchConfig(self.rules, self.game_format, tuple(self.possible_agents))
        self.render_mode = render_mode
        n = self.rules.tiles
        self.one_die = 1 << n
        mask_space = spaces.Box(0, 1, shape=((1 << n) + 2,), dtype=np.int8)
        self._observation_space: spaces.Space[Any] = observation_box(n, players)
        if action_mask_in == "observation":
            self._observation_space = spaces.Dict({"observation": self._observation_space,
                                                   "action_mask": mask_space})
        self._action_space = spaces.Discrete((1 << n) + 2)
        self._rng = random.Random()
        self.match = Match(self.config)
        self.baseline = MatchBaseline(self.config, baseline)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    # --- seeing ------------------------------------------------------------------------

    def _mask(self, agent: str) -> npt.NDArray[np.int8]:
        return legal_mask(self.match, self.possible_agents.index(agent))

    def observe(self, agent: str) -> Any:
        observation = observation_vector(self.match)
        if self.action_mask_in == "info":
            return observation
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

    def _inform(self) -> None:
        """Each agent's mask and, where the exact match value is known, its chance to win."""
        for seat, agent in enumerate(self.possible_agents):
            info: dict[str, Any] = {"action_mask": self._mask(agent)}
            value = self.baseline.value(self.match, seat)
            if value is not None:
                info["optimal_value"] = value
            self.infos[agent] = info

    def _settle(self) -> None:
        """Roll roll-offs, then point at the agent to act (or end the match)."""
        while self.match.pending.kind is PendingKind.ROLL_OFF:
            self.match.roll(self._rng)
        if self.match.is_over:
            for seat, agent in enumerate(self.possible_agents):
                share = 1.0 / len(self.match.winners) if seat in self.match.winners else 0.0
                self.rewards[agent] = share
                self.terminations[agent] = True
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
            self._inform()
            return
        to_act = self.match.pending.seat
        assert to_act is not None
        self.agent_selection = self.possible_agents[to_act]
        self._inform()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        if action is None or not 0 <= int(action) < len(self._mask(agent)) \
                or not self._mask(agent)[int(action)]:
            raise IllegalActionError(f"action {action!r} is not legal for {agent} now")
        self.rewards = dict.fromkeys(self.agents, 0.0)
        act(self.match, int(action), self._rng)
        self._settle()

    def close(self) -> None:
        """Nothing to release: the match lives in memory."""

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return f"{self.match.pending.kind} for {self.agent_selection}, board {self.match.board}"


def raw_env(**kwargs: Any) -> ShutTheBoxAEC:
    """The bare environment (keyword arguments of :class:`ShutTheBoxAEC`)."""
    return ShutTheBoxAEC(**kwargs)


def env(**kwargs: Any) -> AECEnv[str, Any, int | None]:
    """The environment with PettingZoo's usual wrappers: an illegal action ends the match
    with reward -1 for the agent that took it; actions outside the space and calls out of
    order are refused."""
    from pettingzoo.utils import wrappers

    wrapped: AECEnv[str, Any, int | None] = wrappers.TerminateIllegalWrapper(
        raw_env(**kwargs), illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
