"""Who decides: the strategy interface and the built-in computer players.

A strategy sees the turn (a decision node of :class:`~shutthebox.turn.TurnState`) and the
:class:`Situation` around it, and returns an action: a dice count in ``CHOOSE_DICE``, a tile
mask in ``SHUT``.

>>> import random
>>> from shutthebox.rules import Rules
>>> player = make_strategy("highest-first", Rules(), random.Random(1))
>>> state = TurnState.start(Rules()).apply_roll((3, 5))
>>> format_move(player.choose(state, Situation()))
'8'
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from shutthebox.errors import ShutTheBoxError
from shutthebox.rules import LOW_SUM_LIMIT, Rules
from shutthebox.tiles import Tiles, tile_sum, tiles_of
from shutthebox.turn import Phase, TurnState


class UnknownStrategyError(ShutTheBoxError):
    """A strategy name that does not exist."""


@dataclass(frozen=True)
class Situation:
    """What a player knows beyond the box when deciding (used by score-aware players).

    ``posted`` are the scores already posted this round by players still in the game,
    ``still_to_play`` how many play after this player in this round, ``totals`` the match
    totals (this player's first; a player who has played this round has their score in
    it), ``round`` counts from 1, ``decisive`` says that this round's scores alone decide the
    game (a single round), ``format`` is the match's format as text (empty outside a match) and
    ``role`` is ``turn``, or ``knock`` / ``stand`` in a battle.
    """

    posted: tuple[int, ...] = ()
    still_to_play: int = 0
    totals: tuple[int, ...] = ()
    round: int = 1
    decisive: bool = False
    format: str = ""
    role: str = "turn"
    others_played: tuple[bool, ...] = ()
    """For each of the others in ``totals[1:]``, whether they have played this round."""


class Strategy(Protocol):
    """A computer player."""

    @property
    def name(self) -> str: ...

    def choose(self, state: TurnState, situation: Situation) -> int:
        """The action to take at a decision node."""
        ...


def _dice_by_sum(state: TurnState) -> int:
    """The simple dice rule people use: one die once the open tiles sum to 6 or less."""
    choices = state.legal_actions()
    return 1 if 1 in choices and tile_sum(state.open_tiles) <= LOW_SUM_LIMIT else choices[-1]


@dataclass
class RandomStrategy:
    """Picks uniformly among the legal actions."""

    rng: random.Random
    name: str = "random"

    def choose(self, state: TurnState, situation: Situation) -> int:
        return self.rng.choice(state.legal_actions())


@dataclass
class HighestFirstStrategy:
    """Shuts the move holding the highest tile (the first move in the stable order)."""

    name: str = "highest-first"

    def choose(self, state: TurnState, situation: Situation) -> int:
        if state.phase is Phase.CHOOSE_DICE:
            return _dice_by_sum(state)
        return state.legal_actions()[0]


@dataclass
class FewestTilesStrategy:
    """Shuts as few tiles as it can, the highest such move first."""

    name: str = "fewest-tiles"

    def choose(self, state: TurnState, situation: Situation) -> int:
        if state.phase is Phase.CHOOSE_DICE:
            return _dice_by_sum(state)
        return min(state.legal_actions(), key=lambda move: move.bit_count())


StrategyFactory = Callable[[str, Rules, random.Random], Strategy]

_SIMPLE: dict[str, StrategyFactory] = {
    "random": lambda spec, rules, rng: RandomStrategy(rng),
    "highest-first": lambda spec, rules, rng: HighestFirstStrategy(),
    "heuristic": lambda spec, rules, rng: HighestFirstStrategy(name="heuristic"),
    "fewest-tiles": lambda spec, rules, rng: FewestTilesStrategy(),
}

STRENGTHS = {"easy": "random", "medium": "highest-first", "hard": "optimal"}
"""Computer players by strength, as the interfaces offer them."""


def strategy_names() -> list[str]:
    """The names :func:`make_strategy` knows (``optimal`` also takes ``:OBJECTIVE``)."""
    return [*_SIMPLE, "optimal", *STRENGTHS]


def make_strategy(name: str, rules: Rules, rng: random.Random) -> Strategy:
    """A computer player by name: ``random``, ``highest-first``, ``fewest-tiles``,
    ``heuristic``, ``optimal`` or ``optimal:OBJECTIVE`` (see the solver), or a strength
    ``easy``, ``medium``, ``hard``.
    """
    head, _, spec = check_strategy(name).partition(":")
    if head == "optimal":
        from shutthebox.solver.players import make_optimal  # the solver reads rules and turn

        return make_optimal(spec, rules)
    return _SIMPLE[head](spec, rules, rng)


def check_strategy(name: str) -> str:
    """The full name of a computer player :func:`make_strategy` knows (a strength becomes
    its strategy), without making it: making the optimal player solves its tables.

    >>> check_strategy("hard"), check_strategy("optimal:shut")
    ('optimal', 'optimal:shut')
    """
    full = STRENGTHS.get(name, name)
    head, _, spec = full.partition(":")
    if head == "optimal":
        if spec and spec != "round":
            from shutthebox.solver.objectives import parse_objective

            parse_objective(spec)
        return full
    if head in _SIMPLE and not spec:
        return full
    raise UnknownStrategyError(
        f"unknown strategy {full!r}: known are {', '.join(strategy_names())}")


def format_move(move: Tiles) -> str:
    """A move's tiles highest first, the one order of moves in the log, the terminal, the
    hint and the review: ``'7 1'`` (open tiles are listed lowest first, as the box reads).

    >>> format_move(0b1000001)
    '7 1'
    """
    return " ".join(map(str, reversed(tiles_of(move)))) or "-"


def describe_move(state: TurnState, action: int) -> str:
    """An action in words, a move highest first: ``'roll 1 die'`` or ``'shut 5 3'``."""
    if state.phase is Phase.CHOOSE_DICE:
        return f"roll {action} di{'e' if action == 1 else 'ce'}"
    return f"shut {format_move(action)}"
