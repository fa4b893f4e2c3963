"""Shut the Box as OpenSpiel games (the ``openspiel`` extra: ``pip install
'shutthebox[openspiel]'``), so OpenSpiel's MCTS, value iteration, CFR and AlphaZero run on
the exact game.

Importing this module registers two Python games with ``pyspiel``:

- ``python_shutthebox_turn``: one turn, one player. Parameters ``rules`` (a preset name,
  ``classic`` by default), ``tiles`` (0: the preset's) and ``reward`` (``score``,
  ``end-score``, ``shut`` or ``beat:T``, as the Gymnasium environment's, paid at the end).
- ``python_shutthebox_match``: a match of two players, each winning 1 (a tie 1/2 each).
  Parameters ``rules``, ``tiles`` and ``format`` (``single`` by default).

Dice rolls (and roll-offs) are chance nodes whose outcomes are the rolls of
:func:`~shutthebox.dice.roll_outcomes` with their exact chances (outcome ``i`` is the ``i``-th
roll); decisions are the environments' actions: a tile mask to shut, or ``2**N`` / ``2**N + 1``
to roll one or two dice, legal ones sorted. The observation tensor is the Gymnasium
environment's (the open tiles, the roll over 6, the phase, for a turn whether the dice are
to be chosen; for a match :func:`~shutthebox.envs.multi.observation_vector`).

>>> import pyspiel
>>> game = pyspiel.load_game("python_shutthebox_turn(rules=classic,reward=shut)")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 21)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from shutthebox.dice import format_roll, roll_outcomes
from shutthebox.envs.multi import legal_mask, observation_vector
from shutthebox.envs.single import encode_action, make_rules, reward_objective
from shutthebox.match import GameFormat, Match, MatchConfig
from shutthebox.rules import Rules
from shutthebox.tiles import format_tiles
from shutthebox.turn import Phase, TurnState

TURN_GAME = "python_shutthebox_turn"
MATCH_GAME = "python_shutthebox_match"
LONGEST_MATCH = 100_000
"""The length OpenSpiel is told a match can have at most (races and eliminations have no
fixed bound)."""


def _rules(params: dict[str, Any]) -> Rules:
    tiles = int(params.get("tiles", 0))
    return make_rules(str(params.get("rules", "classic")), {"tiles": tiles} if tiles else {})


def _roll(outcome: int, dice: int) -> tuple[int, ...]:
    return roll_outcomes(dice)[outcome][0]


def _chances(dice: int) -> list[tuple[int, float]]:
    return [(i, float(p)) for i, (_, p) in enumerate(roll_outcomes(dice))]


class _Observer:
    """The observation tensor and string of a state (a perfect-information game: the
    state itself)."""

    def __init__(self, size: int) -> None:
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: Any, player: int) -> None:
        self.tensor[:] = state.features()

    def string_from(self, state: Any, player: int) -> str:
        return str(state)


# --- one turn ----------------------------------------------------------------------------------

_TURN_TYPE = pyspiel.GameType(
    short_name=TURN_GAME, long_name="Shut the Box (one turn)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=1, min_num_players=1,
    provides_information_state_string=True, provides_information_state_tensor=True,
    provides_observation_string=True, provides_observation_tensor=True,
    parameter_specification={"rules": "classic", "tiles": 0, "reward": "score"})


class ShutTheBoxTurnGame(pyspiel.Game):  # type: ignore[misc]
    """One turn of Shut the Box for one player."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_TURN_TYPE.parameter_specification, **(params or {})}
        self.rules = _rules(params)
        self.objective = reward_objective(str(params["reward"]))
        finals = self.objective.final_values(self.rules)
        n = self.rules.tiles
        info = pyspiel.GameInfo(
            num_distinct_actions=(1 << n) + 2, max_chance_outcomes=21, num_players=1,
            min_utility=float(finals.min()), max_utility=float(finals.max()),
            utility_sum=None, max_game_length=2 * n)
        super().__init__(_TURN_TYPE, info, params)

    def new_initial_state(self) -> ShutTheBoxTurnState:
        return ShutTheBoxTurnState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        return _Observer(self.rules.tiles + 4)


class ShutTheBoxTurnState(pyspiel.State):  # type: ignore[misc]
    """A turn: a chance node before each roll, a decision for the dice and the tiles."""

    def __init__(self, game: ShutTheBoxTurnGame) -> None:
        super().__init__(game)
        self.rules, self.objective = game.rules, game.objective
        self.turn = TurnState.start(self.rules)

    def current_player(self) -> int:
        if self.turn.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(pyspiel.PlayerId.CHANCE) if self.turn.phase is Phase.ROLL else 0

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(encode_action(self.rules, self.turn, a) for a in self.turn.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return _chances(self.turn.dice)

    def _apply_action(self, action: int) -> None:
        if self.turn.phase is Phase.ROLL:
            self.turn = self.turn.apply_roll(_roll(action, self.turn.dice))
        elif self.turn.phase is Phase.CHOOSE_DICE:
            self.turn = self.turn.choose_dice(action - (1 << self.rules.tiles) + 1)
        else:
            self.turn = self.turn.shut(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"roll {format_roll(_roll(action, self.turn.dice))}"
        one_die = 1 << self.rules.tiles
        return f"roll {action - one_die + 1} dice" if action >= one_die \
            else f"shut {format_tiles(action)}"

    def is_terminal(self) -> bool:
        return self.turn.is_over

    def returns(self) -> list[float]:
        if not self.turn.is_over:
            return [0.0]
        return [float(self.objective.final_value(self.rules, self.turn.open_tiles))]

    def features(self) -> npt.NDArray[np.float64]:
        """The open tiles, the roll's faces over 6, the phase, whether dice are chosen."""
        n = self.rules.tiles
        faces = [f / 6 for f in (self.turn.roll or ())] if self.turn.phase is Phase.SHUT \
            else []
        return np.array([(self.turn.open_tiles >> i) & 1 for i in range(n)]
                        + ([*faces, 0, 0])[:2] + [int(self.turn.phase is Phase.SHUT),
                                                  int(self.turn.phase is Phase.CHOOSE_DICE)],
                        dtype=np.float64)

    def __str__(self) -> str:
        roll = f" roll {format_roll(self.turn.roll)}" if self.turn.roll else ""
        dice = f", {self.turn.dice} dice" if self.turn.phase is Phase.ROLL else ""
        return (f"open: {format_tiles(self.turn.open_tiles)}{roll} "
                f"({self.turn.phase.value}{dice})")


# --- a match of two ----------------------------------------------------------------------------

_MATCH_TYPE = pyspiel.GameType(
    short_name=MATCH_GAME, long_name="Shut the Box (a match of two)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2, min_num_players=2,
    provides_information_state_string=True, provides_information_state_tensor=True,
    provides_observation_string=True, provides_observation_tensor=True,
    parameter_specification={"rules": "classic", "tiles": 0, "format": "single"})


class ShutTheBoxMatchGame(pyspiel.Game):  # type: ignore[misc]
    """A match of Shut the Box for two players, in any format."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_MATCH_TYPE.parameter_specification, **(params or {})}
        self.rules = _rules(params)
        self.config = MatchConfig(self.rules, GameFormat.parse(str(params["format"])),
                                  ("player_0", "player_1"))
        info = pyspiel.GameInfo(
            num_distinct_actions=(1 << self.rules.tiles) + 2, max_chance_outcomes=21,
            num_players=2, min_utility=0.0, max_utility=1.0, utility_sum=1.0,
            max_game_length=LONGEST_MATCH)
        super().__init__(_MATCH_TYPE, info, params)

    def new_initial_state(self) -> ShutTheBoxMatchState:
        return ShutTheBoxMatchState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        return _Observer(self.rules.tiles + 3 + 3 * 2)


class ShutTheBoxMatchState(pyspiel.State):  # type: ignore[misc]
    """A match: roll-offs and dice rolls are chance nodes, dice choices and moves the
    players' decisions."""

    def __init__(self, game: ShutTheBoxMatchGame) -> None:
        super().__init__(game)
        self.rules = game.rules
        self.match = Match(game.config)

    def _dice(self) -> int:
        turn = self.match.pending.turn
        return 2 if turn is None else turn.dice

    def current_player(self) -> int:
        pending = self.match.pending
        if self.match.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if pending.is_chance:
            return int(pyspiel.PlayerId.CHANCE)
        assert pending.seat is not None
        return pending.seat

    def _legal_actions(self, player: int) -> list[int]:
        return [int(a) for a in np.flatnonzero(legal_mask(self.match, player))]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return _chances(self._dice())

    def _apply_action(self, action: int) -> None:
        if self.match.pending.is_chance:
            self.match.apply_roll(_roll(action, self._dice()))
        elif action >= 1 << self.rules.tiles:
            self.match.decide(action - (1 << self.rules.tiles) + 1)
        else:
            self.match.decide(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"roll {format_roll(_roll(action, self._dice()))}"
        one_die = 1 << self.rules.tiles
        return f"roll {action - one_die + 1} dice" if action >= one_die \
            else f"shut {format_tiles(action)}"

    def is_terminal(self) -> bool:
        return self.match.is_over

    def returns(self) -> list[float]:
        winners = self.match.winners if self.match.is_over else ()
        return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(2)]

    def features(self) -> npt.NDArray[np.float64]:
        """The match environment's observation."""
        return observation_vector(self.match)

    def __str__(self) -> str:
        pending = self.match.pending
        turn = pending.turn
        roll = f" roll {format_roll(turn.roll)}" if turn is not None and turn.roll else ""
        if turn is not None and turn.phase is Phase.ROLL:
            roll += f", {turn.dice} dice"
        return (f"round {self.match.round}, {pending.kind.value} for seat {pending.seat}, "
                f"role {pending.role.value}, "
                f"open: {format_tiles(self.match.board)}{roll}, totals "
                f"{list(self.match.totals)}, posted {dict(self.match.round_scores)}")


for _type, _game in ((_TURN_TYPE, ShutTheBoxTurnGame), (_MATCH_TYPE, ShutTheBoxMatchGame)):
    if _type.short_name not in pyspiel.registered_names():
        pyspiel.register_game(_type, _game)
