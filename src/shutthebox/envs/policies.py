"""A policy of any kind read as a function of a batch of decision nodes, and the chance it
plays each action at every node of a turn: what the exact evaluation of a turn task
(:mod:`shutthebox.envs.evaluation`) and of a match (:mod:`shutthebox.envs.match_evaluation`)
both read, with what they answer (:class:`Evaluation`) and refuse (:class:`PolicyError`).

A policy is any of:

- a function ``policy(observations, masks)`` of a batch: ``observations`` is the
  environment's observation dict with a leading batch axis, ``masks`` the ``np.int8`` action
  masks ``[batch, actions]``; it returns the actions ``[batch]`` (a deterministic policy) or
  their probabilities ``[batch, actions]`` (a stochastic one);
- a model with Stable-Baselines3's ``predict``: its greedy play among the legal actions (for
  an actor-critic policy, the best legal logit read from the network; otherwise ``predict``
  with the masks where it takes them, as sb3-contrib's ``MaskablePPO`` does);
- a computer player with ``choose(state, situation)`` (:mod:`shutthebox.players.simple`).

:func:`uniform_random` is the policy of the random agent.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from shutthebox.errors import ShutTheBoxError
from shutthebox.players.base import Situation
from shutthebox.rules import Rules
from shutthebox.solver.evaluate import DecisionNodes
from shutthebox.turn import Phase, TurnState

Observations = dict[str, npt.NDArray[Any]]
BatchPolicy = Callable[[Observations, npt.NDArray[np.int8]], npt.NDArray[Any]]
"""A policy of a batch: actions ``[batch]`` or action probabilities ``[batch, actions]``."""

class PolicyError(ShutTheBoxError):
    """A policy :func:`~shutthebox.envs.evaluation.evaluate` cannot read, or an answer of
    the wrong shape."""


@dataclass(frozen=True)
class Evaluation:
    """A policy's exact expected return on a task beside the exact optimum."""

    task: str
    expected_return: float
    optimum: float
    nodes: int
    """How many decision nodes the policy was shown."""

    @property
    def regret(self) -> float:
        """The expected return the policy leaves on the table."""
        return self.optimum - self.expected_return


def uniform_random(observations: Observations,
                   masks: npt.NDArray[np.int8]) -> npt.NDArray[np.float64]:
    """Every legal action alike: the random agent's probabilities."""
    weights = masks.astype(np.float64)
    chances: npt.NDArray[np.float64] = weights / weights.sum(axis=1, keepdims=True)
    return chances


def as_batch_policy(policy: Any, rules: Rules) -> BatchPolicy:
    """A policy of any kind :func:`~shutthebox.envs.evaluation.evaluate` takes, as a function
    of a batch.

    Raises:
        PolicyError: it is neither a function, a model with ``predict`` nor a player.
    """
    if hasattr(policy, "predict"):
        return _model_policy(policy)
    if hasattr(policy, "choose"):
        return player_policy(policy, rules)
    if callable(policy):
        return policy  # type: ignore[no-any-return]
    raise PolicyError(f"cannot evaluate {policy!r}: give a function of (observations, "
                      f"masks), a model with predict(), or a player with choose()")


def _model_policy(model: Any) -> BatchPolicy:
    policy = getattr(model, "policy", None)
    if all(hasattr(policy, name) for name in ("obs_to_tensor", "extract_features",
                                                "mlp_extractor", "action_net")):
        return _actor_critic_policy(policy)

    def act(observations: Observations, masks: npt.NDArray[np.int8]) -> npt.NDArray[Any]:
        try:
            actions, _ = model.predict(observations, deterministic=True, action_masks=masks)
        except TypeError:        # a model without masks (DQN, say)
            actions, _ = model.predict(observations, deterministic=True)
        return np.asarray(actions)
    return act


def _actor_critic_policy(policy: Any) -> BatchPolicy:
    """The greedy action of a Stable-Baselines3 actor-critic policy (PPO, A2C, MaskablePPO):
    the best legal logit, read from the network without building the distributions
    ``predict`` builds (most of its time on thousands of actions). When the last layer is
    linear, only the legal actions' logits are computed: a few per node, of thousands. It is
    the action ``predict(..., deterministic=True)`` takes with the masks, but where two
    logits are nearly equal: ``predict`` compares them after normalising in single
    precision, which can make them tie."""
    import torch

    def act(observations: Observations, masks: npt.NDArray[np.int8]) -> npt.NDArray[Any]:
        with torch.no_grad():
            tensor, _ = policy.obs_to_tensor(observations)
            features = policy.extract_features(tensor, policy.pi_features_extractor)
            latent = policy.mlp_extractor.forward_actor(features)
            layer = policy.action_net
            if not isinstance(layer, torch.nn.Linear):
                logits = layer(latent)
                logits[torch.as_tensor(masks == 0)] = -torch.inf
                return np.asarray(logits.argmax(dim=1).cpu().numpy())
            rows, columns = np.nonzero(masks)
            at_rows, at_columns = torch.as_tensor(rows), torch.as_tensor(columns)
            legal = (latent[at_rows] * layer.weight[at_columns]).sum(dim=1)
            if layer.bias is not None:
                legal += layer.bias[at_columns]
            values = legal.cpu().numpy()
        best_first = np.lexsort((columns, -values, rows))  # ties: the lowest action
        actions = np.zeros(len(masks), dtype=np.int64)
        chosen_rows, first = np.unique(rows[best_first], return_index=True)
        actions[chosen_rows] = columns[best_first][first]
        return actions
    return act


def player_policy(player: Any, rules: Rules, situation: Situation | None = None) -> BatchPolicy:
    """A computer player as a policy of a batch: it reads each node's turn (the open tiles
    of the observation are its tiles) in ``situation`` (none by default)."""
    one_die = 1 << rules.tiles
    where = situation if situation is not None else Situation()

    def act(observations: Observations, masks: npt.NDArray[np.int8]) -> npt.NDArray[Any]:
        weights = 1 << np.arange(rules.tiles)
        open_masks = observations["open"].astype(np.int64) @ weights
        actions = np.zeros(len(masks), dtype=np.int64)
        for i, open_tiles in enumerate(open_masks.tolist()):
            if observations["dice_choice"][i]:
                state = TurnState.before_roll(rules, open_tiles)
                actions[i] = one_die + player.choose(state, where) - 1
            else:
                faces = tuple(int(f) for f in observations["roll"][i] if f)
                state = TurnState(rules, open_tiles, Phase.SHUT, dice=len(faces), roll=faces)
                actions[i] = player.choose(state, where)
        return actions
    return act


def node_observations(nodes: DecisionNodes, start: int, stop: int,
                      actions: int) -> tuple[Observations, npt.NDArray[np.int8]]:
    """The observations and masks of decision nodes ``start .. stop - 1`` (the dice choices
    first, then the moves), as the single environment shows them."""
    rules = nodes.rules
    choices = len(nodes.choice_masks)
    chosen = nodes.choice_masks[start:min(stop, choices)]
    shut = slice(max(start - choices, 0), max(stop - choices, 0))
    open_masks = np.concatenate([chosen, nodes.shut_masks[shut]])
    count = len(open_masks)
    roll = np.zeros((count, 2), dtype=np.int64)
    roll[len(chosen):] = nodes.shut_faces[shut]
    phase = np.zeros(count, dtype=np.int64)
    phase[len(chosen):] = 1
    observations: Observations = {
        "open": ((open_masks[:, None] >> np.arange(rules.tiles)) & 1).astype(np.int8),
        "roll": roll, "phase": phase, "dice_choice": 1 - phase}
    masks = np.zeros((count, actions), dtype=np.int8)
    masks[:len(chosen), actions - 2:] = 1
    lo, hi = np.searchsorted(nodes.edge_node, [shut.start, shut.stop])
    masks[nodes.edge_node[lo:hi] - shut.start + len(chosen), nodes.edge_move[lo:hi]] = 1
    return observations, masks


@cache
def forced_dice(rules: Rules) -> npt.NDArray[np.float64]:
    """``[dice - 1, open tiles]``: 1 where the rules allow only that many dice."""
    size = 1 << rules.tiles
    forced = np.zeros((2, size))
    for d in (1, 2):
        forced[d - 1] = [float(rules.dice_choices(m) == (d,)) for m in range(size)]
    return forced


def match_view(seats: list[float]) -> Callable[[Observations], npt.NDArray[np.float64]]:
    """What the match environment shows where the seats stand so
    (:func:`~shutthebox.envs.multi.seat_features`), made of the turn environment's
    observations of the decision nodes."""
    columns = np.array(seats)

    def show(observations: Observations) -> npt.NDArray[np.float64]:
        count = len(observations["phase"])
        return np.hstack([observations["open"], observations["roll"] / 6,
                          observations["phase"][:, None], np.tile(columns, (count, 1))])
    return show


def policy_chances(act: BatchPolicy, nodes: DecisionNodes, actions: int, batch: int,
                   show: Callable[[Observations], Any] | None = None,
                   ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The chance that the policy rolls one or two dice at every mask (``[2, masks]``; the
    rules' only choice where there is none) and takes every legal move (``[edges]``), asking
    it a batch of nodes at a time; ``show`` turns the turn environment's observations into
    the ones the policy reads.

    Raises:
        PolicyError: an answer is neither actions nor probabilities of the batch.
    """
    rules = nodes.rules
    choices = len(nodes.choice_masks)
    one_die = actions - 2
    dice_chance = forced_dice(rules).copy()
    move_chance = np.zeros(len(nodes.edge_node))
    for start in range(0, nodes.count, batch):
        stop = min(start + batch, nodes.count)
        observations, masks = node_observations(nodes, start, stop, actions)
        answer = np.asarray(act(show(observations) if show else observations, masks))
        chosen = nodes.choice_masks[start:min(stop, choices)]
        first, last = max(start - choices, 0), max(stop - choices, 0)
        lo, hi = np.searchsorted(nodes.edge_node, [first, last])
        rows = nodes.edge_node[lo:hi] - first + len(chosen)
        if answer.shape == (len(masks),):          # one action a node
            for d in (1, 2):
                dice_chance[d - 1, chosen] = answer[:len(chosen)] == one_die + d - 1
            move_chance[lo:hi] = answer[rows] == nodes.edge_move[lo:hi]
        elif answer.shape == masks.shape:          # the chance of every action
            dice_chance[:, chosen] = answer[:len(chosen), one_die:].T
            move_chance[lo:hi] = answer[rows, nodes.edge_move[lo:hi]]
        else:
            raise PolicyError(f"a policy shown {len(masks)} nodes answered with shape "
                              f"{answer.shape}: give {len(masks)} actions or a "
                              f"({len(masks)}, {actions}) array of probabilities")
    return dice_chance, move_chance
