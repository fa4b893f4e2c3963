"""A Gymnasium environment of one turn, a thin adapter over :class:`TurnState`.

Actions: ``0 .. 2**N - 1`` shut the tiles of that bitmask (bit ``i - 1`` is tile ``i``);
``2**N`` rolls one die and ``2**N + 1`` rolls two. Every roll is an action of its own (with a
single legal action where the rules give no choice), so no episode is ever over at reset.

Observation: ``open`` (``MultiBinary(N)``, 1 for an open tile), ``roll`` (the faces,
``MultiDiscrete([7, 7])``, 0 for no die), ``phase`` (0: the dice are to be rolled, 1: the
tiles are to be shut) and ``dice_choice`` (1 when the player may choose one die or two).
``info["action_mask"]`` (``np.int8``) marks the legal actions (``action_masks()`` returns
the same, the method sb3-contrib's ``MaskablePPO`` calls) and ``info["optimal_value"]`` is the
exact optimal return still to come from here for the chosen reward (0 once the turn is over),
so ``info["optimal_value"]`` at the start minus the return is the regret.

By default (``on_illegal="end"``) an illegal action ends the episode (reward 0,
``info["illegal_action"]``), the usual convention for agents that do not read the mask, and
what Gymnasium's checker needs: it steps an action sampled before ``reset()`` after it. With
``on_illegal="raise"`` an illegal action raises :class:`IllegalActionError` instead.

The dice come from a counter-based stream drawn from ``np_random`` at every seeded reset
(:mod:`shutthebox.envs.streams`), so the vector environment plays the same games.

>>> env = ShutTheBoxEnv(rules="classic", reward="shut")
>>> observation, info = env.reset(seed=3)
>>> int(info["action_mask"].sum()), round(info["optimal_value"], 6)
(1, 0.071432)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, SupportsFloat

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from shutthebox.dice import format_roll
from shutthebox.envs.streams import draw_stream, episode_key, roll_faces
from shutthebox.errors import IllegalMoveError, ShutTheBoxError
from shutthebox.rules import Rules, preset
from shutthebox.solver import Objective, custom, parse_objective, solve
from shutthebox.tiles import Tiles, format_tiles, tile_sum
from shutthebox.turn import Phase, TurnState


class IllegalActionError(IllegalMoveError):
    """An action that is not legal in the environment's current state."""


class RewardError(ShutTheBoxError):
    """A reward name the environment does not know."""


def _covered(rules: Rules, open_tiles: Tiles) -> int:
    return tile_sum(rules.full & ~open_tiles)


COVERED_SUM = custom("covered-sum", _covered)
"""The sum of the shut tiles at the end: the return of the ``score`` reward."""


def _signed_score(rules: Rules, open_tiles: Tiles) -> int:
    return -rules.score(open_tiles) if rules.lower_is_better else rules.score(open_tiles)


SIGNED_SCORE = custom("signed-score", _signed_score)
"""The turn's score, negated where lower scores win: the return of the ``end-score``
reward, which follows any scoring rule (``digits`` too)."""


def make_rules(rules: Rules | str | None, fields: dict[str, Any]) -> Rules:
    """Rules from a Rules value, a preset name, or rule fields."""
    base = rules if isinstance(rules, Rules) else preset(rules) if rules else Rules()
    return base.replace(**fields) if fields else base


def reward_objective(reward: str) -> Objective:
    """The solver objective whose value is the optimal return of a reward."""
    if reward == "score":
        return COVERED_SUM
    if reward == "end-score":
        return SIGNED_SCORE
    if reward == "shut" or reward.startswith("beat:"):
        return parse_objective(reward)
    raise RewardError(f"unknown reward {reward!r}: choose score, end-score, shut or beat:T")


def encode_action(rules: Rules, state: TurnState, action: int) -> int:
    """The environment's action number for an engine action (dice count or tile mask)."""
    return (1 << rules.tiles) + action - 1 if state.phase is Phase.CHOOSE_DICE \
        or state.phase is Phase.ROLL else action


class LegalActions(spaces.Discrete):
    """The action space; sampling it without a mask draws among the legal actions now
    (so random agents and the Gymnasium checker play legal moves)."""

    def __init__(self, n: int, legal: Callable[[], npt.NDArray[np.int8]] | None) -> None:
        super().__init__(n)
        self._legal = legal

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        if mask is None and probability is None and self._legal is not None:
            mask = self._legal()
        return super().sample(mask=mask, probability=probability)

    def __getstate__(self) -> dict[str, Any]:
        """The space without its environment: a space sent alone to another process (as
        ``AsyncVectorEnv`` sends it to check its workers) or copied is a plain ``Discrete``
        there; the environment links its own space again when it is itself unpickled."""
        return {**self.__dict__, "_legal": None}


class Travelling:
    """Pickles and copies of an environment carry its configuration and the game under way,
    without what :meth:`_rebuild` makes again from them: the solver's objects may hold local
    functions and locks."""

    _rebuilt: ClassVar[tuple[str, ...]] = ()
    """The attributes left out of a copy, then rebuilt."""

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k not in self._rebuilt}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._rebuild()

    def _rebuild(self) -> None:
        """Make the left-out attributes again, and link the action space to this copy."""


class ShutTheBoxEnv(Travelling, gym.Env[dict[str, Any], int]):
    """One turn of Shut the Box under any rules, with a ``score``, ``end-score``, ``shut`` or
    ``beat:T`` reward."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}  # noqa: RUF012

    def __init__(self, rules: Rules | str | None = None, reward: str = "score",
                 render_mode: str | None = None, on_illegal: str = "end",
                 **rule_fields: Any) -> None:
        if on_illegal not in ("raise", "end"):
            raise RewardError(f"on_illegal must be 'raise' or 'end', not {on_illegal!r}")
        self.on_illegal = on_illegal
        self.rules = make_rules(rules, rule_fields)
        self.reward_name = reward
        self.objective = reward_objective(reward)
        self.render_mode = render_mode
        n = self.rules.tiles
        self.one_die, self.two_dice = 1 << n, (1 << n) + 1
        self.actions = (1 << n) + 2
        """How many actions there are: every tile mask, then one die, then two dice."""
        self.action_space = LegalActions(  # type: ignore[assignment]
            self.actions, self.action_mask)
        self.observation_space = spaces.Dict({
            "open": spaces.MultiBinary(n),
            "roll": spaces.MultiDiscrete([7, 7]),
            "phase": spaces.Discrete(2),
            "dice_choice": spaces.Discrete(2),
        })
        self.state = TurnState.start(self.rules)
        self._stream: int | None = None
        self._episode = 0
        self._episode_key = 0
        self._rolls = 0

    _rebuilt = ("objective",)

    def _rebuild(self) -> None:
        self.objective = reward_objective(self.reward_name)
        self.action_space = LegalActions(  # type: ignore[assignment]
            self.actions, self.action_mask)

    # --- what the agent sees ---------------------------------------------------------------

    def _observation(self) -> dict[str, Any]:
        n = self.rules.tiles
        open_bits = np.array([(self.state.open_tiles >> i) & 1 for i in range(n)],
                             dtype=np.int8)
        roll = list(self.state.roll or ()) if self.state.phase is Phase.SHUT else []
        faces = np.array(([*roll, 0, 0])[:2], dtype=np.int64)
        return {"open": open_bits, "roll": faces,
                "phase": int(self.state.phase is Phase.SHUT),
                "dice_choice": int(self.state.phase is Phase.CHOOSE_DICE)}

    def action_mask(self) -> npt.NDArray[np.int8]:
        """1 for every legal action now."""
        mask = np.zeros(self.actions, dtype=np.int8)
        if self.state.phase is Phase.SHUT:
            mask[list(self.state.legal_actions())] = 1
        elif self.state.phase is Phase.CHOOSE_DICE:
            for dice in self.state.legal_actions():
                mask[self.one_die + dice - 1] = 1
        elif self.state.phase is Phase.ROLL:
            mask[self.one_die + self.state.dice - 1] = 1
        return mask

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The legal actions now, as sb3-contrib's ``MaskablePPO`` asks for them."""
        return self.action_mask()

    def optimal_value(self) -> float:
        """The exact optimal return still to come from the current state for this reward
        (0 once the turn is over: the return already paid is not to come)."""
        solution = solve(self.rules, self.objective)
        open_tiles = self.state.open_tiles
        if self.state.is_over:
            return 0.0
        if self.state.phase is Phase.SHUT:
            assert self.state.roll is not None
            value = float(solution.after_roll(open_tiles, self.state.roll))
        else:
            value = float(solution.value(open_tiles))
        if self.objective is COVERED_SUM:
            value -= _covered(self.rules, open_tiles)
        return value

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_mask(), "optimal_value": self.optimal_value(),
                "score": self.state.score}

    # --- the Gymnasium interface -----------------------------------------------------------

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None or self._stream is None:
            self._stream, self._episode = draw_stream(self.np_random), 0
        else:
            self._episode += 1
        self._episode_key, self._rolls = episode_key(self._stream, self._episode), 0
        self.state = TurnState.start(self.rules)
        return self._observation(), self._info()

    def step(self, action: int) -> tuple[dict[str, Any], SupportsFloat, bool, bool,
                                         dict[str, Any]]:
        action = int(action)
        if self.state.is_over:
            raise IllegalActionError("the turn is over: call reset() before step()")
        if not 0 <= action < self.actions or not self.action_mask()[action]:
            if self.on_illegal == "end":
                self.state = TurnState(self.rules, self.state.open_tiles, Phase.OVER,
                                       dice=self.state.dice, roll=self.state.roll)
                return self._observation(), 0.0, True, False, {**self._info(),
                                                               "illegal_action": True}
            raise IllegalActionError(
                f"action {action} ({self.describe(action)}) is not legal now "
                f"(open: {format_tiles(self.state.open_tiles)}, phase {self.state.phase.value})")
        reward = 0.0
        if action >= self.one_die:
            dice = action - self.one_die + 1
            rolling = self.state.choose_dice(dice) if self.state.is_decision else self.state
            self.state = rolling.apply_roll(roll_faces(self._episode_key, self._rolls, dice))
            self._rolls += 1
        else:
            self.state = self.state.shut(action)
            if self.reward_name == "score":
                reward = float(tile_sum(action))
        terminated = self.state.is_over
        if terminated and self.reward_name != "score":
            reward = float(self.objective.final_value(self.rules, self.state.open_tiles))
        return self._observation(), reward, terminated, False, self._info()

    def describe(self, action: int) -> str:
        """An action number in words."""
        if action == self.one_die:
            return "roll one die"
        if action == self.two_dice:
            return "roll two dice"
        if 0 < action < self.one_die:
            return f"shut {format_tiles(action)}"
        return "no such action"

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The box in words (``ansi``) or as an image (``rgb_array``)."""
        if self.render_mode == "rgb_array":
            from shutthebox.envs.render import draw_box

            return draw_box(self.rules.tiles, self.state.open_tiles, self.state.roll)
        if self.render_mode != "ansi":
            return None
        roll = f" roll {format_roll(self.state.roll)}" if self.state.roll else ""
        return f"open: {format_tiles(self.state.open_tiles)}{roll} ({self.state.phase.value})"
