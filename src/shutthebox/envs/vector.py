"""N games of one turn at once, in compiled code: Gymnasium's ``VectorEnv`` API.

``gymnasium.make_vec("shutthebox/ShutTheBox-v0", num_envs=N, ...)`` builds it (the
registered ``vector_entry_point``); it takes the single environment's keyword arguments. Each
game is :class:`~shutthebox.envs.single.ShutTheBoxEnv` step for step: the same actions,
observations (batched), rewards and ``info`` arrays (``action_mask`` of shape
``(N, actions)``, ``optimal_value`` and ``score`` of shape ``(N,)``), and the same dice: game
``i`` of ``reset(seed=s)`` plays the games of a single env reset with ``seed=s + i`` and
then reset without a seed after each episode (:mod:`shutthebox.envs.streams`).

Finished games restart on the next step (``AutoresetMode.NEXT_STEP``, Gymnasium's default):
that step ignores the game's action and returns its new start with reward 0.
``reset(options={"reset_mask": m})`` restarts the games where ``m`` is true.
:meth:`ShutTheBoxVectorEnv.action_masks` returns the masks (for ``MaskablePPO``) and
:meth:`ShutTheBoxVectorEnv.sample_legal` draws a random legal action for every game.

>>> import gymnasium
>>> import shutthebox.envs
>>> envs = gymnasium.make_vec("shutthebox/ShutTheBox-v0", num_envs=3, rules="classic")
>>> observations, infos = envs.reset(seed=1)
>>> observations["open"].shape, infos["action_mask"].shape
((3, 9), (3, 514))
>>> observations, rewards, terminated, truncated, infos = envs.step(envs.sample_legal())
>>> observations["phase"].tolist()
[1, 1, 1]
"""

from __future__ import annotations

from functools import cache
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from shutthebox.dice import roll_outcomes
from shutthebox.envs.single import (
    COVERED_SUM,
    IllegalActionError,
    RewardError,
    ShutTheBoxEnv,
    make_rules,
    reward_objective,
)
from shutthebox.envs.streams import draw_stream
from shutthebox.rules import Rules
from shutthebox.simulate.fast import splitmix, two_dice_index
from shutthebox.solver import solve
from shutthebox.solver.compiled import compiled
from shutthebox.solver.solve import dice_choice_codes, roll_groups
from shutthebox.tiles import tile_sum

CHOOSE_DICE, ROLL, SHUT, OVER = 0, 1, 2, 3
"""The phases of a game, as the compiled code stores them."""

Int64s = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]


class Tables(NamedTuple):
    """Everything the compiled step needs to know about the rules and the reward."""

    tiles: int
    one_die: int
    """The action that rolls one die (``2**tiles``); the next rolls two."""
    score_reward: bool
    """``score`` pays the tiles shut at each step; the others pay ``final_reward`` at the end."""
    codes: npt.NDArray[np.int8]
    """Per mask: 2 two dice only, 1 one die only, 3 a choice."""
    group_of_roll: Int64s
    """``group_of_roll[d - 1, i]``: the move group of the ``i``-th roll of ``d`` dice."""
    two_dice_index: Int64s
    """``two_dice_index[a - 1, b - 1]``: the position of (a, b) among the rolls of 2 dice."""
    move_start: Int64s
    moves: Int64s
    """The moves of group ``g`` in stable order: ``moves[move_start[g]:move_start[g + 1]]``."""
    tile_sums: Int64s
    scores: Int64s
    final_reward: Floats
    before_roll_value: Floats
    """The optimal return still to come before a roll (or dice choice), per mask."""
    after_roll_value: Floats
    """``after_roll_value[mask, d - 1, i]``: the same after the ``i``-th roll of ``d`` dice."""


class Games(NamedTuple):
    """The state of the N games and the arrays each step writes."""

    open_tiles: Int64s
    phase: npt.NDArray[np.int8]
    stream: npt.NDArray[np.uint64]
    episode: npt.NDArray[np.uint64]
    key: npt.NDArray[np.uint64]
    rolls: npt.NDArray[np.uint64]
    restart: npt.NDArray[np.bool_]
    """Finished games waiting for their next step to restart them."""
    mask: npt.NDArray[np.int8]
    legal: Int64s
    """The legal actions of each game (``legal_count`` of them), to clear the mask quickly."""
    legal_count: Int64s
    observed_open: npt.NDArray[np.int8]
    observed_roll: Int64s
    observed_phase: Int64s
    observed_choice: Int64s
    reward: Floats
    terminated: npt.NDArray[np.bool_]
    illegal: npt.NDArray[np.bool_]
    optimal_value: Floats
    score: Int64s


# --- the compiled game -----------------------------------------------------------------------

@compiled()
def _allow(i: int, action: int, g: Games) -> None:  # pragma: no cover - compiled
    g.mask[i, action] = 1
    g.legal[i, g.legal_count[i]] = action
    g.legal_count[i] += 1


@compiled()
def _clear(i: int, g: Games) -> None:  # pragma: no cover - compiled
    for k in range(g.legal_count[i]):
        g.mask[i, g.legal[i, k]] = 0
    g.legal_count[i] = 0
    g.observed_roll[i, 0] = 0
    g.observed_roll[i, 1] = 0
    g.observed_phase[i] = 0
    g.observed_choice[i] = 0


@compiled()
def _before_roll(i: int, t: Tables, g: Games) -> bool:  # pragma: no cover - compiled
    """Set game ``i`` before its next roll (or over, when the box is shut); true if over."""
    _clear(i, g)
    open_tiles = g.open_tiles[i]
    if open_tiles == 0:
        g.phase[i] = OVER
        g.optimal_value[i] = 0.0
        return True
    code = t.codes[open_tiles]
    if code == 3:
        g.phase[i] = CHOOSE_DICE
        g.observed_choice[i] = 1
        _allow(i, t.one_die, g)
        _allow(i, t.one_die + 1, g)
    else:
        g.phase[i] = ROLL
        _allow(i, t.one_die + code - 1, g)
    g.optimal_value[i] = t.before_roll_value[open_tiles]
    return False


@compiled()
def _show_open(i: int, t: Tables, g: Games) -> None:  # pragma: no cover - compiled
    for tile in range(t.tiles):
        g.observed_open[i, tile] = (g.open_tiles[i] >> tile) & 1


@compiled()
def _start(i: int, t: Tables, g: Games) -> None:  # pragma: no cover - compiled
    """Start episode ``g.episode[i]`` of game ``i``."""
    g.key[i] = splitmix(g.stream[i] + splitmix(g.episode[i]))
    g.rolls[i] = np.uint64(0)
    g.open_tiles[i] = (1 << t.tiles) - 1
    g.restart[i] = False
    _show_open(i, t, g)
    _before_roll(i, t, g)


@compiled()
def _start_all(which: npt.NDArray[np.bool_], t: Tables, g: Games) -> None:  # pragma: no cover
    for i in range(len(which)):
        g.reward[i] = 0.0
        g.terminated[i] = False
        g.illegal[i] = False
        if which[i]:
            _start(i, t, g)
        g.score[i] = t.scores[g.open_tiles[i]]


@compiled()
def _roll(i: int, dice: int, t: Tables, g: Games) -> bool:  # pragma: no cover - compiled
    """Roll for game ``i``; true if the roll allows no move (the turn is over)."""
    bits = splitmix(g.key[i] + g.rolls[i])
    g.rolls[i] += np.uint64(1)
    low = int(bits % np.uint64(6)) + 1
    high = 0
    if dice == 1:
        index = low - 1
    else:
        high = int((bits >> np.uint64(32)) % np.uint64(6)) + 1
        if high < low:
            low, high = high, low
        index = t.two_dice_index[low - 1, high - 1]
    group = t.group_of_roll[dice - 1, index]
    _clear(i, g)
    open_tiles = g.open_tiles[i]
    for j in range(t.move_start[group], t.move_start[group + 1]):
        move = t.moves[j]
        if move & open_tiles == move:
            _allow(i, move, g)
    if g.legal_count[i] == 0:
        g.phase[i] = OVER
        g.optimal_value[i] = 0.0
        return True
    g.phase[i] = SHUT
    g.observed_phase[i] = 1
    g.observed_roll[i, 0] = low
    g.observed_roll[i, 1] = high
    g.optimal_value[i] = t.after_roll_value[open_tiles, dice - 1, index]
    return False


@compiled()
def _step_all(actions: Int64s, t: Tables, g: Games) -> None:  # pragma: no cover - compiled
    actions_count = g.mask.shape[1]
    for i in range(len(actions)):
        g.reward[i] = 0.0
        g.terminated[i] = False
        g.illegal[i] = False
        if g.restart[i]:
            g.episode[i] += np.uint64(1)
            _start(i, t, g)
            g.score[i] = t.scores[g.open_tiles[i]]
            continue
        action = actions[i]
        if action < 0 or action >= actions_count or g.mask[i, action] == 0:
            _clear(i, g)
            g.phase[i] = OVER
            g.optimal_value[i] = 0.0
            g.illegal[i] = True
            over = True
        elif action >= t.one_die:
            over = _roll(i, action - t.one_die + 1, t, g)
            if over and not t.score_reward:
                g.reward[i] = t.final_reward[g.open_tiles[i]]
        else:
            g.open_tiles[i] &= ~action
            _show_open(i, t, g)
            if t.score_reward:
                g.reward[i] = t.tile_sums[action]
            over = _before_roll(i, t, g)
            if over and not t.score_reward:
                g.reward[i] = t.final_reward[g.open_tiles[i]]
        g.terminated[i] = over
        g.restart[i] = over
        g.score[i] = t.scores[g.open_tiles[i]]


@compiled()
def _sample(legal: Int64s, legal_count: Int64s, uniforms: Floats) -> Int64s:  # pragma: no cover
    chosen = np.zeros(len(legal_count), dtype=np.int64)
    for i in range(len(legal_count)):
        if legal_count[i] > 0:
            chosen[i] = legal[i, np.int64(uniforms[i] * legal_count[i])]
    return chosen


# --- the tables ------------------------------------------------------------------------------

@cache
def tables(rules: Rules, reward: str) -> Tables:
    """The compiled step's tables for some rules and reward (cached)."""
    objective = reward_objective(reward)
    solution = solve(rules, objective)
    size = 1 << rules.tiles
    masks = np.arange(size, dtype=np.int64)
    tile_sums = np.array([tile_sum(m) for m in range(size)], dtype=np.int64)
    covered = (tile_sums[size - 1] - tile_sums).astype(np.float64)
    offset = covered if objective is COVERED_SUM else np.zeros(size)
    values = np.array([float(solution.value(m)) for m in range(size)])
    finals = np.array([float(solution.final_value(m)) for m in range(size)])
    _, best_moves = solution.policy_tables()
    after = np.zeros((size, 2, 21))
    group_of_roll = np.zeros((2, 21), dtype=np.int64)
    move_start: list[int] = [0]
    moves: list[int] = []
    for d in (1, 2):
        groups = roll_groups(rules, d)
        first = len(move_start) - 1
        for group in groups:
            moves.extend(group.moves)
            move_start.append(len(moves))
        for i, (roll, _) in enumerate(roll_outcomes(d)):
            group_of_roll[d - 1, i] = first + next(
                k for k, group in enumerate(groups) if roll in group.rolls)
        best = best_moves[d].astype(np.int64)
        after[:, d - 1, :best.shape[1]] = np.where(
            best != 0, values[masks[:, None] & ~best], finals[:, None]) - offset[:, None]
    final_reward = np.array([float(objective.final_value(rules, m)) for m in range(size)])
    return Tables(rules.tiles, size, reward == "score", dice_choice_codes(rules),
                  group_of_roll, two_dice_index(), np.array(move_start, dtype=np.int64),
                  np.array(moves, dtype=np.int64), tile_sums,
                  np.array([rules.score(m) for m in range(size)], dtype=np.int64),
                  final_reward, values - offset, after)


def _most_moves(t: Tables) -> int:
    return int(max(np.diff(t.move_start).max(), 2))


# --- the Gymnasium interface -----------------------------------------------------------------

class ShutTheBoxVectorEnv(VectorEnv[dict[str, Any], npt.NDArray[np.int64],
                                    npt.NDArray[Any]]):
    """``num_envs`` turns of Shut the Box stepped together; the keyword arguments are those of
    :class:`~shutthebox.envs.single.ShutTheBoxEnv`. ``copy=False`` returns the env's own
    arrays (valid until the next step) instead of copies."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - Gymnasium's
        "autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 1, rules: Rules | str | None = None,
                 reward: str = "score", on_illegal: str = "end", copy: bool = True,
                 render_mode: str | None = None, **rule_fields: Any) -> None:
        if not isinstance(num_envs, int) or num_envs < 1:
            raise RewardError(f"num_envs must be a whole number of 1 or more, not {num_envs!r}")
        if on_illegal not in ("raise", "end"):
            raise RewardError(f"on_illegal must be 'raise' or 'end', not {on_illegal!r}")
        template = ShutTheBoxEnv(rules=make_rules(rules, rule_fields), reward=reward)
        self.rules = template.rules
        self.reward_name = reward
        self.on_illegal = on_illegal
        self.copy = copy
        self.render_mode = render_mode
        self.num_envs = num_envs
        self.actions = template.actions
        self.single_observation_space = template.observation_space
        self.single_action_space = spaces.Discrete(self.actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._tables = tables(self.rules, reward)
        n, size = num_envs, self.rules.tiles
        self._games = Games(
            open_tiles=np.zeros(n, dtype=np.int64), phase=np.zeros(n, dtype=np.int8),
            stream=np.zeros(n, dtype=np.uint64), episode=np.zeros(n, dtype=np.uint64),
            key=np.zeros(n, dtype=np.uint64), rolls=np.zeros(n, dtype=np.uint64),
            restart=np.zeros(n, dtype=np.bool_),
            mask=np.zeros((n, self.actions), dtype=np.int8),
            legal=np.zeros((n, _most_moves(self._tables)), dtype=np.int64),
            legal_count=np.zeros(n, dtype=np.int64),
            observed_open=np.zeros((n, size), dtype=np.int8),
            observed_roll=np.zeros((n, 2), dtype=np.int64),
            observed_phase=np.zeros(n, dtype=np.int64),
            observed_choice=np.zeros(n, dtype=np.int64),
            reward=np.zeros(n), terminated=np.zeros(n, dtype=np.bool_),
            illegal=np.zeros(n, dtype=np.bool_), optimal_value=np.zeros(n),
            score=np.zeros(n, dtype=np.int64))
        self._seeded = False

    # --- what the agents see ---------------------------------------------------------------

    def _out(self, array: npt.NDArray[Any]) -> npt.NDArray[Any]:
        return array.copy() if self.copy else array

    def _observations(self) -> dict[str, Any]:
        g = self._games
        return {"open": self._out(g.observed_open), "roll": self._out(g.observed_roll),
                "phase": self._out(g.observed_phase),
                "dice_choice": self._out(g.observed_choice)}

    def _infos(self) -> dict[str, Any]:
        g = self._games
        everyone = np.ones(self.num_envs, dtype=np.bool_)
        infos = {"action_mask": self._out(g.mask), "_action_mask": everyone,
                 "optimal_value": self._out(g.optimal_value), "_optimal_value": everyone,
                 "score": self._out(g.score), "_score": everyone}
        if g.illegal.any():
            infos["illegal_action"] = g.illegal.copy()
            infos["_illegal_action"] = g.illegal.copy()
        return infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of every game, ``(num_envs, actions)``."""
        return self._games.mask.astype(np.bool_)

    def sample_legal(self, rng: np.random.Generator | None = None) -> npt.NDArray[np.int64]:
        """A uniformly random legal action for every game (any action for a game about to
        restart), drawn with ``rng`` (by default the env's ``np_random``)."""
        uniforms = (rng or self.np_random).random(self.num_envs)
        return _sample(self._games.legal, self._games.legal_count, uniforms)

    # --- the Gymnasium interface -----------------------------------------------------------

    def reset(self, *, seed: int | list[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start every game (or those of ``options["reset_mask"]``). ``seed=s`` gives game
        ``i`` the dice of a single env seeded with ``s + i``; a list seeds each game."""
        if seed is not None and not isinstance(seed, list):
            self._np_random, self._np_random_seed = seeding.np_random(seed)
        which = np.ones(self.num_envs, dtype=np.bool_)
        if options is not None and "reset_mask" in options:
            which = np.asarray(options["reset_mask"], dtype=np.bool_)
            if which.shape != (self.num_envs,):
                raise RewardError(f"reset_mask must have shape ({self.num_envs},), "
                                  f"not {which.shape}")
        seeds = self._seeds(seed)
        g = self._games
        for i in np.flatnonzero(which):
            if seeds[i] is not None or not self._seeded:
                generator = seeding.np_random(seeds[i])[0] if seeds[i] is not None \
                    else self.np_random
                g.stream[i], g.episode[i] = draw_stream(generator), 0
            else:
                g.episode[i] += 1
        self._seeded = True
        _start_all(which, self._tables, g)
        return self._observations(), self._infos()

    def _seeds(self, seed: int | list[int | None] | None) -> list[int | None]:
        if isinstance(seed, list):
            if len(seed) != self.num_envs:
                raise RewardError(f"{len(seed)} seeds for {self.num_envs} games: give one "
                                  f"seed, or a list of one per game")
            return seed
        if seed is None:
            return [None] * self.num_envs
        return [seed + i for i in range(self.num_envs)]

    def step(self, actions: Any) -> tuple[dict[str, Any], Floats, npt.NDArray[np.bool_],
                                          npt.NDArray[np.bool_], dict[str, Any]]:
        if not self._seeded:
            raise IllegalActionError("call reset() before step()")
        chosen = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)
        g = self._games
        if self.on_illegal == "raise":
            self._check(chosen)
        _step_all(chosen, self._tables, g)
        return (self._observations(), self._out(g.reward), self._out(g.terminated),
                np.zeros(self.num_envs, dtype=np.bool_), self._infos())

    def _check(self, actions: Int64s) -> None:
        g = self._games
        inside = (actions >= 0) & (actions < self.actions)
        legal = inside & (g.mask[np.arange(self.num_envs), np.where(inside, actions, 0)] == 1)
        wrong = np.flatnonzero(~legal & ~g.restart)
        if len(wrong):
            i = int(wrong[0])
            raise IllegalActionError(
                f"action {int(actions[i])} is not legal in game {i} now "
                f"(legal: {np.flatnonzero(g.mask[i]).tolist()})")

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the games live in arrays."""

