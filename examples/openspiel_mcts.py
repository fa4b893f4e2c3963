"""OpenSpiel's MCTS plays Shut the Box, measured against the exact optimum. Needs the
``openspiel`` extra: ``pip install 'shutthebox[openspiel]'``.

The game is OpenSpiel's ``python_shutthebox_turn`` (registered by importing
:mod:`shutthebox.envs.openspiel`): one turn whose reward is 1 for a score under a target. MCTS
with random rollouts plays ``--turns`` turns; its win rate (with the half width of its 95 %
interval) is printed beside the exact chance of optimal play from the solver, the regret.

    python examples/openspiel_mcts.py [--rules classic] [--reward beat:10] [--turns 30]
                                      [--simulations 200] [--seed 0]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from shutthebox.envs import openspiel
from shutthebox.solver import solve


def play(game: pyspiel.Game, turns: int, simulations: int, seed: int) -> list[float]:
    """The returns of ``turns`` turns played by MCTS, the dice drawn from their chances."""
    bot = mcts.MCTSBot(game, uct_c=1.4, max_simulations=simulations,
                       evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
                       random_state=np.random.RandomState(seed + 1))
    dice = np.random.RandomState(seed + 2)
    returns = []
    for _ in range(turns):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, chances = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(dice.choice(outcomes, p=chances)))
            else:
                state.apply_action(bot.step(state))
        returns.append(state.returns()[0])
    return returns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--reward", default="beat:10")
    parser.add_argument("--turns", type=int, default=30)
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = pyspiel.load_game(openspiel.TURN_GAME, {"rules": args.rules, "reward": args.reward})
    began = time.perf_counter()
    returns = np.array(play(game, args.turns, args.simulations, args.seed))
    optimum = float(solve(game.rules, game.objective).value())
    half = 1.96 * returns.std() / np.sqrt(len(returns))
    print(f"MCTS ({args.simulations} simulations a move, random rollouts), {args.turns} turns "
          f"of {args.rules} with reward {args.reward} in {time.perf_counter() - began:.0f} s")
    print(f"MCTS average return: {returns.mean():.3f} ± {half:.3f}")
    print(f"exact optimum:       {optimum:.3f}; regret {optimum - returns.mean():.3f}")


if __name__ == "__main__":
    main()
