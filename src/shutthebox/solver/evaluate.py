"""The exact outcome of a turn played by any policy: where it ends, its scores, and the
value of a whole policy given as tables over every decision node (:func:`policy_values`).

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
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, partial
from typing import Any

import numpy as np
import numpy.typing as npt

from shutthebox.dice import roll_outcomes
from shutthebox.rules import Rules
from shutthebox.tiles import Tiles
from shutthebox.turn import TurnState, legal_moves

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

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


# --- the value of a whole policy, every decision node at once --------------------------------

@dataclass(frozen=True)
class DecisionNodes:
    """Every decision node of a turn under some rules, as arrays, a popcount layer of the open
    tiles after another (fewest open tiles first), so a policy's value is one backward pass.

    Dice choices come first (``choice_masks``: the open tiles where one die or two may be
    chosen), then the moves after a roll (``shut_*``, one row per reachable open-tile mask and
    roll that admits a move) with their legal moves as edges (``edge_*``)."""

    rules: Rules
    choice_masks: IntArray
    shut_masks: IntArray
    shut_dice: IntArray
    shut_faces: IntArray
    """``[node, 2]``, lowest face first; 0 where one die was rolled."""
    shut_chance: FloatArray
    """The chance of the node's roll among the rolls of its dice."""
    edge_node: IntArray
    edge_move: IntArray
    stuck_chance: FloatArray
    """``[dice - 1, open tiles]``: the chance that a roll of that many dice admits no move."""
    layer_nodes: IntArray
    """Where each popcount layer's shut nodes start (``tiles + 2`` bounds)."""
    layer_edges: IntArray

    @property
    def count(self) -> int:
        """How many decision nodes there are (dice choices and moves)."""
        return len(self.choice_masks) + len(self.shut_masks)


@cache
def decision_nodes(rules: Rules) -> DecisionNodes:
    """The decision nodes of a turn under ``rules`` (cached).

    >>> nodes = decision_nodes(Rules(tiles=9))
    >>> nodes.count, len(nodes.choice_masks)
    (7942, 0)
    """
    size = 1 << rules.tiles
    order = sorted(range(1, size), key=lambda m: (m.bit_count(), m))
    choice_masks = [m for m in order if len(rules.dice_choices(m)) == 2]
    masks: list[int] = []
    dice: list[int] = []
    faces: list[tuple[int, int]] = []
    chance: list[float] = []
    edge_node: list[int] = []
    edge_move: list[int] = []
    stuck = np.zeros((2, size))
    layer_nodes, layer_edges = [0, 0], [0, 0]
    for position, open_tiles in enumerate(order):
        for d in rules.dice_choices(open_tiles):
            for roll, p in roll_outcomes(d):
                moves = legal_moves(rules, open_tiles, roll)
                if not moves:
                    stuck[d - 1, open_tiles] += float(p)
                    continue
                edge_node.extend([len(masks)] * len(moves))
                edge_move.extend(moves)
                masks.append(open_tiles)
                dice.append(d)
                faces.append((roll[0], roll[1] if d == 2 else 0))
                chance.append(float(p))
        last = position + 1 == len(order) or order[position + 1].bit_count() \
            != open_tiles.bit_count()
        if last:
            layer_nodes.append(len(masks))
            layer_edges.append(len(edge_node))
    integers = partial(np.array, dtype=np.int64)
    return DecisionNodes(rules, integers(choice_masks), integers(masks), integers(dice),
                         integers(faces).reshape(-1, 2), np.array(chance),
                         integers(edge_node), integers(edge_move), stuck,
                         integers(layer_nodes), integers(layer_edges))


def policy_values(nodes: DecisionNodes, finals: FloatArray, dice_chance: FloatArray,
                  move_chance: FloatArray, forfeit: FloatArray) -> FloatArray:
    """The exact value before the roll of every open-tile mask under a policy.

    ``finals[mask]`` is the value of a turn that ends with ``mask`` open; ``dice_chance[d - 1,
    mask]`` the chance the policy rolls ``d`` dice there (where the rules allow only one
    choice, 1 for it); ``move_chance[edge]`` the chance it takes each legal move of
    ``nodes``. What the chances leave of 1 at a node is an illegal action, which ends the turn
    with ``forfeit[mask]``.
    """
    size = 1 << nodes.rules.tiles
    values = np.array(finals, dtype=np.float64)
    legal_mass = np.bincount(nodes.edge_node, weights=move_chance,
                             minlength=len(nodes.shut_masks))
    illegal_dice = 1.0 - dice_chance.sum(axis=0)
    layer_of = np.bitwise_count(np.arange(size))
    for layer in range(1, nodes.rules.tiles + 1):
        n0, n1 = nodes.layer_nodes[layer], nodes.layer_nodes[layer + 1]
        e0, e1 = nodes.layer_edges[layer], nodes.layer_edges[layer + 1]
        node_masks = nodes.shut_masks[n0:n1]
        edges = slice(e0, e1)
        after = values[nodes.shut_masks[nodes.edge_node[edges]] & ~nodes.edge_move[edges]]
        node_values: FloatArray = np.bincount(
            nodes.edge_node[edges] - n0, weights=move_chance[edges] * after,
            minlength=n1 - n0).astype(np.float64)
        node_values += (1.0 - legal_mass[n0:n1]) * forfeit[node_masks]
        weighted = nodes.shut_chance[n0:n1] * node_values
        total = illegal_dice * forfeit
        for d in (1, 2):
            rolled = nodes.shut_dice[n0:n1] == d
            expect = np.bincount(node_masks[rolled], weights=weighted[rolled], minlength=size)
            total += dice_chance[d - 1] * (expect + nodes.stuck_chance[d - 1] * finals)
        here = layer_of == layer
        values[here] = total[here]
    return values
