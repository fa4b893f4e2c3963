"""A PettingZoo AEC environment of a whole match, a thin adapter over :class:`Match`.

Agents ``player_0 .. player_{n-1}`` sit in that order. Actions are those of
:class:`~shutthebox.envs.single.ShutTheBoxEnv`: a tile bitmask to shut, or ``2**N`` /
``2**N + 1`` to roll one or two dice (each roll is the acting agent's own action). Roll-offs
are rolled by the environment. ``observe(agent)`` returns ``{"observation", "action_mask"}``
as PettingZoo's classic games do (``action_mask_in="info"``: the observation array alone, the
mask in ``infos[agent]["action_mask"]``, where it always is too); the observation is numbers
from 0 to 1 (:func:`observation_meaning` names every index): the open tiles (N), the roll
(2 faces over 6, 0 for none), the phase (0: roll, 1: shut), then for every seat whether it has
posted a score this round, that score over the largest turn score, and its match total over
the format's scale (:func:`total_scale`, at most 1). ``action_space(agent).sample()`` draws
among that agent's legal actions now. At the end the winners share a reward of 1 (a k-way tie
gives 1/k each).

A player makes several decisions in a row (it rolls, shuts, rolls again...), so agents are not
asked in turn. ``max_cycles=K`` counts cycles as PettingZoo's other games do, one in which
every agent is asked once: the match is truncated after ``K`` decisions, and the AEC
environment then asks the agents who are not to act to wait, each once before every decision
(``waits``: their only legal action is :func:`wait_action`, ``2**N + 2``; ``waits=False``
leaves them out, and the match is still truncated after ``K`` decisions). The parallel
environment asks every agent at every step anyway, so a step there is a cycle and it has no
wait action. Where the solver knows the match
(two players), ``infos[agent]["optimal_value"]`` is the agent's exact chance to win from here
under optimal play (:mod:`shutthebox.envs.baseline`; ``baseline=False`` leaves it out).

:func:`env` (with PettingZoo's illegal-move, bounds and order wrappers: an illegal action
loses at once with reward -1), :func:`raw_env` and :func:`parallel_env` (PettingZoo's
parallel API over the same match, one action of the agent to act a step) are the factories,
as in ``pettingzoo.classic``; :mod:`shutthebox.envs.shutthebox_v0` is the module to import.

>>> env = ShutTheBoxAEC(players=2, rules="classic")
>>> env.reset(seed=1)
>>> env.agent_selection
'player_0'
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from shutthebox.dice import format_roll
from shutthebox.envs.baseline import MatchBaseline
from shutthebox.envs.single import (
    IllegalActionError,
    LegalActions,
    RewardError,
    Travelling,
    make_rules,
)
from shutthebox.formats import FormatKind
from shutthebox.match import GameFormat, Match, MatchConfig, PendingKind
from shutthebox.rules import Rules
from shutthebox.tiles import format_tiles
from shutthebox.turn import Phase


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


def score_scale(rules: Rules) -> int:
    """The largest score a turn can have: the scale of the posted scores."""
    return max(abs(rules.best_score), abs(rules.worst_score), 1)


def total_scale(rules: Rules, game_format: GameFormat) -> int:
    """The scale of the match totals, the largest a total can be: the largest score over all
    the rounds, a race's target (or an elimination's or a losing limit) with one turn's
    largest score (the turn that reaches it can pass it, and the player after needs to know
    by how much), or one turn's largest score."""
    if game_format.kind is FormatKind.ROUNDS:
        return score_scale(rules) * (game_format.limit or 1)
    if game_format.limit is not None:
        return game_format.limit + score_scale(rules)
    return score_scale(rules)


def observation_meaning(tiles: int, players: int) -> list[str]:
    """What each index of :func:`observation_vector` holds, in words.

    >>> observation_meaning(2, 2)[2:4]
    ['first die / 6 (0: none)', 'second die / 6 (0: none)']
    >>> observation_meaning(2, 2)[-1]
    "seat 1's match total / the format's scale (at most 1)"
    """
    meaning = [f"tile {t} open (1) or shut (0)" for t in range(1, tiles + 1)]
    meaning += ["first die / 6 (0: none)", "second die / 6 (0: none)",
                "phase: 1 when tiles are to be shut, 0 when the dice are to be rolled"]
    meaning += [f"seat {s} has posted a score this round (1) or not (0)" for s in range(players)]
    meaning += [f"seat {s}'s score this round / the largest turn score" for s in range(players)]
    meaning += [f"seat {s}'s match total / the format's scale (at most 1)"
                for s in range(players)]
    return meaning


def seat_features(rules: Rules, game_format: GameFormat, round_scores: Mapping[int, int],
                  totals: Sequence[int]) -> list[float]:
    """The seats' part of the observation: for every seat whether it has posted a score this
    round, that score and its match total, each over its scale."""
    seats = range(len(totals))
    posted = [float(s in round_scores) for s in seats]
    scale = score_scale(rules)
    scores = [min(abs(round_scores.get(s, 0)) / scale, 1.0) for s in seats]
    totals_over = total_scale(rules, game_format)
    return posted + scores + [min(abs(t) / totals_over, 1.0) for t in totals]


def observation_vector(match: Match) -> npt.NDArray[np.float64]:
    """The match as numbers from 0 to 1, index by index as :func:`observation_meaning` says:
    the open tiles, the roll, the phase, then :func:`seat_features`."""
    rules = match.rules
    n = rules.tiles
    board = match.board
    turn = match.pending.turn
    phase = int(turn is not None and turn.phase is Phase.SHUT)
    faces = [f / 6 for f in (turn.roll or ())] if phase and turn is not None else []
    seats = seat_features(rules, match.config.format, match.round_scores, match.totals)
    return np.array([(board >> i) & 1 for i in range(n)] + ([*faces, 0, 0])[:2]
                    + [phase] + seats, dtype=np.float64)


def observation_box(tiles: int, players: int) -> spaces.Box:
    """The space of :func:`observation_vector`."""
    return spaces.Box(0.0, 1.0, shape=(tiles + 3 + 3 * players,), dtype=np.float64)


def render_match(match: Match, mode: str | None,
                 who: str) -> str | npt.NDArray[np.uint8] | None:
    """The match as a line of text (``ansi``: what is pending, for whom, the open tiles and
    the totals) or the box as an image (``rgb_array``); ``None`` for another mode."""
    turn = match.pending.turn
    roll = turn.roll if turn is not None and turn.phase is Phase.SHUT else None
    if mode == "rgb_array":
        from shutthebox.envs.render import draw_box

        return draw_box(match.rules.tiles, match.board, roll)
    if mode != "ansi":
        return None
    rolled = f", roll {format_roll(roll)}" if roll else ""
    return (f"{match.pending.kind} for {who}, open: {format_tiles(match.board)}{rolled}, "
            f"totals {list(match.totals)}")


def wait_action(rules: Rules) -> int:
    """The action of an agent asked while another decides (AEC environments with ``waits``):
    the one after the two rolls."""
    return (1 << rules.tiles) + 2


def act(match: Match, action: int, rng: random.Random) -> None:
    """Apply an environment action (a tile mask, or a roll of one or two dice) to the match."""
    one_die = 1 << match.rules.tiles
    if action >= one_die:
        if match.pending.kind is PendingKind.CHOOSE_DICE:
            match.decide(action - one_die + 1)
        match.roll(rng)
    else:
        match.decide(action)


class ShutTheBoxAEC(Travelling, AECEnv[str, dict[str, Any], int | None]):  # type: ignore[misc]
    """A match of Shut the Box for two or more agents, in any format."""

    metadata: ClassVar[dict[str, Any]] = {"name": "shutthebox_v0",
                                          "render_modes": ["ansi", "rgb_array"],
                                          "is_parallelizable": False}

    def __init__(self, players: int = 2, rules: Any = None, format: str = "single",
                 render_mode: str | None = None, action_mask_in: str = "observation",
                 baseline: bool = True, max_cycles: int | None = None,
                 waits: bool | None = None, **rule_fields: Any) -> None:
        super().__init__()
        if max_cycles is not None and (isinstance(max_cycles, bool)
                                       or not isinstance(max_cycles, int) or max_cycles < 1):
            raise RewardError(f"max_cycles must be a whole number of at least 1, "
                              f"not {max_cycles!r}")
        if waits is not None and not isinstance(waits, bool):
            raise RewardError(f"waits must be True, False or None, not {waits!r}")
        self.max_cycles = max_cycles
        self.waits = max_cycles is not None if waits is None else waits
        """Whether the agents not to act are asked to wait, once before each decision."""
        self._decisions = 0
        self._to_wait: list[str] = []
        """The agents still to wait before the coming decision."""
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
        self.actions = (1 << n) + 2 + int(self.waits)
        mask_space = spaces.Box(0, 1, shape=(self.actions,), dtype=np.int8)
        self._observation_space: spaces.Space[Any] = observation_box(n, players)
        if action_mask_in == "observation":
            self._observation_space = spaces.Dict({"observation": self._observation_space,
                                                   "action_mask": mask_space})
        self._rng = random.Random()
        self.match = Match(self.config)
        self.baseline = MatchBaseline(self.config, baseline)
        self._rebuild()

    def _rebuild(self) -> None:
        self._action_spaces = {agent: LegalActions(self.actions, partial(self._mask, agent))
                               for agent in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    # --- seeing ------------------------------------------------------------------------

    def _mask(self, agent: str) -> npt.NDArray[np.int8]:
        seat = self.possible_agents.index(agent)
        mask = legal_mask(self.match, seat)
        if not self.waits:
            return mask
        waiting = not self.match.is_over and self.match.pending.seat != seat
        return np.append(mask, np.int8(waiting))

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
        self._decisions = 0
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
            self._to_wait = []
            self.agent_selection = self.agents[0]
            self._inform()
            return
        to_act = self.match.pending.seat
        assert to_act is not None
        deciding = self.possible_agents[to_act]
        self._to_wait = [a for a in self.agents if a != deciding] if self.waits else []
        self.agent_selection = self._to_wait[0] if self._to_wait else deciding
        self._inform()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        if action is None or not 0 <= int(action) < self.actions \
                or not self._mask(agent)[int(action)]:
            raise IllegalActionError(f"action {action!r} is not legal for {agent} now")
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self._to_wait:               # a wait: the next agent is asked
            self._to_wait.pop(0)
            pending = self.match.pending.seat
            assert pending is not None
            self.agent_selection = (self._to_wait[0] if self._to_wait
                                    else self.possible_agents[pending])
            return
        act(self.match, int(action), self._rng)
        self._decisions += 1
        self._settle()
        if self.max_cycles is not None and self._decisions >= self.max_cycles \
                and not self.match.is_over:
            self.truncations = dict.fromkeys(self.agents, True)
            self._to_wait = []
            self.agent_selection = self.agents[0]

    def close(self) -> None:
        """Nothing to release: the match lives in memory."""

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The match in words (``ansi``) or the box as an image (``rgb_array``)."""
        return render_match(self.match, self.render_mode, self.agent_selection)


def raw_env(**kwargs: Any) -> ShutTheBoxAEC:
    """The bare environment (keyword arguments of :class:`ShutTheBoxAEC`)."""
    return ShutTheBoxAEC(**kwargs)


def parallel_env(**kwargs: Any) -> ParallelEnv[str, Any, int | None]:
    """The match under PettingZoo's parallel API (keyword arguments of
    :class:`ShutTheBoxAEC`, but ``waits``): each step takes the action of the agent to act
    (the others' are not read: they wait), as ``pettingzoo.utils.turn_based_aec_to_parallel``
    makes of a turn-based game, so a step is a cycle and ``max_cycles`` counts them."""
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel

    parallel: ParallelEnv[str, Any, int | None] = turn_based_aec_to_parallel(
        raw_env(**{**kwargs, "waits": False}))
    return parallel


def env(**kwargs: Any) -> AECEnv[str, Any, int | None]:
    """The environment with PettingZoo's usual wrappers: an illegal action ends the match
    with reward -1 for the agent that took it; actions outside the space and calls out of
    order are refused."""
    from pettingzoo.utils import wrappers

    wrapped: AECEnv[str, Any, int | None] = wrappers.TerminateIllegalWrapper(
        raw_env(**kwargs), illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
