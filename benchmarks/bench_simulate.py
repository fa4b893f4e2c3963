"""Single-turn simulation speed: optimal play on 9 and 12 tiles, one core and both cores,
each beside a plain Python loop playing the same strategy in the same run.

Goals on the two-core machine: 9 tiles at least 25 M turns/s on both cores and 10 M on
one; 12 tiles at least half that. Prints figures; asserts nothing.

    python benchmarks/bench_simulate.py [--runs 2] [--markdown]
"""

from __future__ import annotations

import random
import time

import numba
from report import Figures, run

from shutthebox.rules import Rules, preset
from shutthebox.simulate import simulate
from shutthebox.solver import solve
from shutthebox.turn import TurnState


def python_loop(rules: Rules, games: int) -> float:
    """Turns per second of a plain Python loop over the turn machine (optimal play)."""
    solution = solve(rules, "score")
    rng = random.Random(1)
    began = time.perf_counter()
    for _ in range(games):
        state = TurnState.start(rules)
        while not state.is_over:
            if state.is_chance:
                state = state.roll_with(rng)
            elif state.roll is None or state.phase.value == "choose-dice":
                state = state.choose_dice(solution.best_dice(state.open_tiles))
            else:
                state = state.shut(solution.best_move(state.open_tiles, state.roll))
    return games / (time.perf_counter() - began)


def main(figures: Figures) -> None:
    began = time.perf_counter()
    simulate(Rules(), "optimal", 10, seed=0, exact=False)
    print(f"numba compile and first call: {time.perf_counter() - began:.2f} s "
          "(cached on disk afterwards)")
    threads_available = numba.get_num_threads()
    for name, rules, goal_two, goal_one in [("9 tiles", Rules(), 25e6, 10e6),
                                             ("12 tiles", preset("box-12"), 12.5e6, 5e6)]:
        baseline = python_loop(rules, 20_000)
        for threads, goal in ((1, goal_one), (threads_available, goal_two)):
            numba.set_num_threads(threads)
            simulate(rules, "optimal", 1000, seed=1, exact=False)
            result = simulate(rules, "optimal", 20_000_000, seed=2, exact=False)
            rate = result.turns_per_second
            figures.add(f"{name}, optimal play, {threads} core{'s' * (threads > 1)}", rate / 1e6,
                        "M turns/s", f"{goal / 1e6:g} M")
            print(f"{name}, optimal, {threads} thread(s): {rate / 1e6:6.1f} M turns/s "
                  f"(goal {goal / 1e6:.1f} M: {rate / goal:.2f}x; "
                  f"plain Python loop {baseline / 1e3:.1f} k turns/s: {rate / baseline:,.0f}x)")


def rounds(figures: Figures, players: int = 4) -> None:
    """Single-round games where every seat plays the posted-score-aware optimal player."""
    from shutthebox.match import GameFormat, Match, MatchConfig, play_out
    from shutthebox.simulate.rounds import RoundTables, play_rounds
    from shutthebox.strategies import make_strategy

    rules = Rules()
    began = time.perf_counter()
    tables = RoundTables.build(rules, players)
    print(f"{players}-player single rounds: {len(tables.dice)} policy tables built in "
          f"{time.perf_counter() - began:.1f} s")
    seats = {s: make_strategy("optimal", rules, random.Random(s)) for s in range(players)}
    rng = random.Random(1)
    names = tuple(f"P{s}" for s in range(players))
    began = time.perf_counter()
    for _ in range(2000):
        play_out(Match(MatchConfig(rules, GameFormat.parse("single"), names)), seats, rng)
    baseline = 2000 / (time.perf_counter() - began)
    play_rounds(tables, 1000, seed=1)
    for threads in (1, numba.get_num_threads()):
        numba.set_num_threads(threads)
        began = time.perf_counter()
        play_rounds(tables, 10_000_000, seed=2)
        rate = 10_000_000 / (time.perf_counter() - began)
        figures.add(f"{players}-player single rounds, every seat posted-score aware, {threads} "
                    f"core{'s' * (threads > 1)}", rate / 1e6, "M games/s", "1 M", 2)
        print(f"{players}-player single rounds, {threads} thread(s): {rate / 1e6:5.2f} M games/s "
              f"(goal 1 M: {rate / 1e6:.2f}x; match engine in Python {baseline:,.0f} games/s: "
              f"{rate / baseline:,.0f}x)")


def turns_and_rounds(figures: Figures) -> None:
    main(figures)
    rounds(figures)


if __name__ == "__main__":
    run("bench_simulate", __doc__.splitlines()[0], turns_and_rounds)
