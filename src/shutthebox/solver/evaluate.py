"""The exact outcome of a turn played by any policy: where it ends, and its scores.

A policy gives, at each decision node, the probability of each action (one action with
probability 1 for a deterministic player). Probability mass flows from the full box down
through the masks in decreasing order, since shutting tiles only makes the mask smaller.

>>> from shutthebox.rules import Rules
>>> finals = final_distribution(Rules(tiles=2), lambda state: {state.legal_actions()[0]: 1})
>>> {score: round(p * 36, 6) for score, p in score_distribution(Rules(tiles=2), finals).items()}
{0: 2.0, 1: 1.0, 3: 33.0}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from shutthebox.rules import Rules
from shutthebox.tiles import Tiles
from shutthebox.turn import TurnState

Policy = Callable[[TurnState], Mapping[int, Any]]
"""The probability of each action a player takes at a decision node."""


def final_distribution(rules: Rules, policy: Policy, exact: bool = False) -> dict[Tiles, Any]:
    """The probability of ending the turn with each set of open tiles."""
    zero: Any = Fraction(0) if exact else 0.0
    mass: dict[Tiles, Any] = {rules.full: Fraction(1) if exact else 1.0}
    finals: dict[Tiles, Any] = {}
    for open_tiles in range(rules.full, 0, -1):
        here = mass.pop(open_tiles, zero)
        if not here:
            continue
        start = TurnState.before_roll(rules, open_tiles)
        choices = policy(start) if start.is_decision else {start.dice: 1}
        for dice, q in choices.items():
            rolling = start.choose_dice(dice) if start.is_decision else start
            for roll, p in rolling.chance_outcomes():
                share = here * q * (p if exact else float(p))
                rolled = rolling.apply_roll(roll)
                if rolled.is_over:
                    finals[open_tiles] = finals.get(open_tiles, zero) + share
                    continue
                for move, r in policy(rolled).items():
                    after = open_tiles & ~move
                    mass[after] = mass.get(after, zero) + share * r
    if mass.get(0):
        finals[0] = mass[0]
    return dict(sorted(finals.items()))


def score_distribution(rules: Rules, finals: Mapping[Tiles, Any]) -> dict[int, Any]:
    """The distribution of the turn's score, from the distribution of its final tiles."""
    scores: dict[int, Any] = {}
    for tiles, p in finals.items():
        score = rules.score(tiles)
        scores[score] = scores.get(score, 0) + p
    return dict(sorted(scores.items()))
