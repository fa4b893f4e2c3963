"""A Gymnasium environment of a whole match against computer players, over :class:`Match`.

One episode is one match of any format (``single``, ``rounds:R``, ``elimination:L``,
``loser-at:L``, ``race:T``, ``battle``...). The agent sits in ``seat`` (0 by default) and the
``opponents`` (computer player names, as ``shutthebox play`` takes them: ``optimal``,
``highest-first``, ``random``, ``cpu:hard``...) fill the other seats in order. Every chance
node and every opponent decision is played out by the environment between the agent's
actions, so each step is one decision (or roll) of the agent.

Actions are those of :class:`~shutthebox.envs.single.ShutTheBoxEnv` (a tile mask, or
``2**N`` / ``2**N + 1`` to roll one or two dice); ``info["action_mask"]`` and
:meth:`ShutTheBoxMatchEnv.action_masks` mark the legal ones. The observation is the
PettingZoo environment's vector of numbers from 0 to 1
(:func:`~shutthebox.envs.multi.observation_vector`: the box, the roll, the phase, and each
seat's posted score and total, each over its scale;
:func:`~shutthebox.envs.multi.observation_meaning` names every index). The reward is paid
at the end:
1 for a win, ``1/k`` for a k-way shared win, 0 otherwise. Where the solver knows the match
(two players), ``info["optimal_value"]`` is the agent's exact chance to win from here if both
players play optimally (0 once the match is over): the baseline a learner is measured by
(``baseline=False`` leaves it out; see :mod:`shutthebox.envs.baseline`).

If the match ends before the agent's first action (a player before it shuts the box, which
wins at once), the episode still has one step: the only legal action is then ``2**N + 1``,
which ends it (reward 0), so no episode is over at ``reset()``.

An illegal action ends the episode with reward 0 by default (``on_illegal="end"``,
``info["illegal_action"]``); ``on_illegal="raise"`` raises :class:`IllegalActionError`.

>>> env = ShutTheBoxMatchEnv(opponents=("highest-first",), format="rounds:2")
>>> observation, info = env.reset(seed=2)
>>> observation.shape, int(info["action_mask"].sum())
((18,), 1)
"""

from __future__ import annotations

import random
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
import numpy.typing as npt

from shutthebox.envs.baseline import MatchBaseline
from shutthebox.envs.multi import (
    act,
    legal_mask,
    observation_box,
    observation_vector,
    render_match,
)
from shutthebox.envs.single import (
    IllegalActionError,
    LegalActions,
    RewardError,
    Travelling,
    make_rules,
)
from shutthebox.match import GameFormat, Match, MatchConfig, PendingKind
from shutthebox.players.base import Strategy
from shutthebox.strategies import make_strategy

AGENT = "agent"
"""The agent's name in the match."""


class ShutTheBoxMatchEnv(Travelling, gym.Env[npt.NDArray[np.float64], int]):
    """A whole match of Shut the Box against computer players."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}  # noqa: RUF012

    def __init__(self, opponents: tuple[str, ...] | list[str] | str = ("optimal",),
                 format: str = "single", rules: Any = None, seat: int = 0,
                 on_illegal: str = "end", render_mode: str | None = None,
                 baseline: bool = True, **rule_fields: Any) -> None:
        if on_illegal not in ("raise", "end"):
            raise RewardError(f"on_illegal must be 'raise' or 'end', not {on_illegal!r}")
        names = [opponents] if isinstance(opponents, str) else list(opponents)
        players = len(names) + 1
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise RewardError(f"seat must be a whole number from 0 to {players - 1}, "
                              f"not {seat!r}")
        self.on_illegal = on_illegal
        self.render_mode = render_mode
        self.rules = make_rules(rules, rule_fields)
        self.seat = seat
        self.opponent_names = tuple(names)
        self.strategies = list(names)
        """The computer player of each seat by name (the agent's seat holds ``agent``)."""
        self.strategies.insert(seat, AGENT)
        seats = [name if self.strategies.count(name) == 1
                 else f"{name} {self.strategies[:s + 1].count(name)}"
                 for s, name in enumerate(self.strategies)]   # names in a match differ
        self.config = MatchConfig(self.rules, GameFormat.parse(format), tuple(seats))
        self._rng = random.Random()
        self._seeded = False
        self.opponents = self._make_opponents()
        self.actions = (1 << self.rules.tiles) + 2
        self.action_space = LegalActions(  # type: ignore[assignment]
            self.actions, self.action_masks)
        self.observation_space = observation_box(self.rules.tiles, players)  # type: ignore[assignment]
        self.baseline = MatchBaseline(self.config, baseline)
        self.match = Match(self.config)
        self._forfeit = False
        self._over_at_reset = False

    def _make_opponents(self) -> dict[int, Strategy]:
        """The computer players by seat, drawing their chances from the environment's
        generator."""
        return {s: make_strategy(name, self.rules, self._rng)
                for s, name in enumerate(self.strategies) if s != self.seat}

    _rebuilt = ("opponents",)

    def _rebuild(self) -> None:
        self.opponents = self._make_opponents()
        self.action_space = LegalActions(  # type: ignore[assignment]
            self.actions, self.action_masks)

    # --- what the agent sees -------------------------------------------------------------

    def action_masks(self) -> npt.NDArray[np.int8]:
        """1 for every legal action of the agent now."""
        if self._forfeit:
            return np.zeros(self.actions, dtype=np.int8)
        if self._over_at_reset:
            mask = np.zeros(self.actions, dtype=np.int8)
            mask[self.actions - 1] = 1
            return mask
        return legal_mask(self.match, self.seat)

    def optimal_value(self) -> float | None:
        """The agent's exact chance to win from here under optimal play, where known."""
        if self._forfeit:
            return 0.0 if self.baseline.available else None
        return self.baseline.value(self.match, self.seat)

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.action_masks()}
        value = self.optimal_value()
        if value is not None:
            info["optimal_value"] = value
        return info

    def _reward(self) -> float:
        winners = self.match.winners
        return 1.0 / len(winners) if self.match.is_over and self.seat in winners else 0.0

    # --- the Gymnasium interface ---------------------------------------------------------

    def _play_others(self) -> None:
        """Roll and let the computer players decide until the agent acts or the match ends."""
        while not self.match.is_over:
            pending = self.match.pending
            if pending.kind is PendingKind.ROLL_OFF or (pending.is_chance
                                                        and pending.seat != self.seat):
                self.match.roll(self._rng)
            elif pending.seat != self.seat:
                assert pending.seat is not None and pending.turn is not None
                choice = self.opponents[pending.seat].choose(pending.turn,
                                                             self.match.situation())
                self.match.decide(choice)
            else:
                return

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None,
              ) -> tuple[npt.NDArray[np.float64], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None or not self._seeded:
            self._rng.seed(int(self.np_random.integers(0, 1 << 63)))
            self._seeded = True
        self.match = Match(self.config)
        self._forfeit = False
        self._over_at_reset = False
        self._play_others()
        self._over_at_reset = self.match.is_over
        return observation_vector(self.match), self._info()

    def step(self, action: int) -> tuple[npt.NDArray[np.float64], SupportsFloat, bool, bool,
                                         dict[str, Any]]:
        if (self.match.is_over and not self._over_at_reset) or self._forfeit:
            raise IllegalActionError("the match is over: call reset() before step()")
        action = int(action)
        if not 0 <= action < self.actions or not self.action_masks()[action]:
            if self.on_illegal == "raise":
                raise IllegalActionError(
                    f"action {action} is not legal now (legal: "
                    f"{np.flatnonzero(self.action_masks()).tolist()})")
            self._forfeit = True
            return observation_vector(self.match), 0.0, True, False, {
                **self._info(), "illegal_action": True}
        if self._over_at_reset:
            self._over_at_reset = False
            return observation_vector(self.match), self._reward(), True, False, self._info()
        act(self.match, action, self._rng)
        self._play_others()
        return (observation_vector(self.match), self._reward(), self.match.is_over, False,
                self._info())

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The match in words (``ansi``) or the box as an image (``rgb_array``)."""
        return render_match(self.match, self.render_mode, f"seat {self.match.pending.seat}")
