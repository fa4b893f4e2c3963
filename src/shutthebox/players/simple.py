"""The simple computer players: random, highest tile first, fewest tiles.

>>> from shutthebox.rules import Rules
>>> from shutthebox.turn import TurnState
>>> from shutthebox.players.base import Situation
>>> state = TurnState.start(Rules()).apply_roll((3, 5))
>>> bin(HighestFirstStrategy().choose(state, Situation()))
'0b10000000'
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from shutthebox.players.base import Situation
from shutthebox.rules import LOW_SUM_LIMIT
from shutthebox.tiles import tile_sum
from shutthebox.turn import Phase, TurnState


def dice_by_sum(state: TurnState) -> int:
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
            return dice_by_sum(state)
        return state.legal_actions()[0]


@dataclass
class FewestTilesStrategy:
    """Shuts as few tiles as it can, the highest such move first."""

    name: str = "fewest-tiles"

    def choose(self, state: TurnState, situation: Situation) -> int:
        if state.phase is Phase.CHOOSE_DICE:
            return dice_by_sum(state)
        return min(state.legal_actions(), key=lambda move: move.bit_count())
