"""The computer players by name: the registry the interfaces, the tournament and the
environments read, above both the simple players (:mod:`shutthebox.players.simple`) and the
solver's optimal player (:mod:`shutthebox.solver.players`), which it names and which do not
name it. The strategy interface is :mod:`shutthebox.players.base`.

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

from shutthebox.errors import ShutTheBoxError
from shutthebox.language import _
from shutthebox.players.base import Situation, Strategy
from shutthebox.players.simple import FewestTilesStrategy, HighestFirstStrategy, RandomStrategy
from shutthebox.rules import Rules
from shutthebox.tiles import Tiles, format_tiles
from shutthebox.turn import Phase, TurnState

# The interface and the simple players are also named here: the registry's callers (the
# manual's figures, the web's computer players) take a player and its type from one place.
__all__ = [
    "STRENGTHS",
    "FewestTilesStrategy",
    "HighestFirstStrategy",
    "RandomStrategy",
    "Situation",
    "Strategy",
    "StrategyFactory",
    "UnknownStrategyError",
    "check_strategy",
    "describe_move",
    "format_move",
    "make_strategy",
    "strategy_names",
]


class UnknownStrategyError(ShutTheBoxError):
    """A strategy name that does not exist."""


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
        from shutthebox.solver.players import make_optimal  # solves only when asked for

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
    """A move's tiles lowest first, the one order of tiles everywhere (the log, the
    terminal, the hint, the review, the manual), as the box reads and :func:`format_tiles`
    writes open tiles: ``'1 7'``.

    >>> format_move(0b1000001)
    '1 7'
    """
    return format_tiles(move)


def describe_move(state: TurnState, action: int) -> str:
    """An action in words, a move lowest first: ``'roll 1 die'`` or ``'shut 3 5'``."""
    if state.phase is Phase.CHOOSE_DICE:
        return _("roll 1 die") if action == 1 else _("roll 2 dice")
    return _("shut {tiles}").format(tiles=format_move(action))
