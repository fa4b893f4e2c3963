"""Properties of the solver on random rule sets: its value lies between the best and the worst
any fixed strategy can do, and its distributions are exact."""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from shutthebox.players.base import Situation, Strategy
from shutthebox.players.simple import FewestTilesStrategy, HighestFirstStrategy, RandomStrategy
from shutthebox.rules import MoveRule, OneDie, Rules, Scoring
from shutthebox.solver import custom, parse_objective, solve, solve_exact
from shutthebox.solver.evaluate import final_distribution, score_distribution
from shutthebox.turn import Phase, TurnState


@st.composite
def small_rules(draw: st.DrawFn, most_tiles: int = 7) -> Rules:
    tiles = draw(st.integers(2, most_tiles))
    one_die = draw(st.sampled_from(list(OneDie)))
    return Rules(tiles=tiles, one_die=one_die,
                 one_die_forced=one_die is not OneDie.NEVER and draw(st.booleans()),
                 moves=draw(st.sampled_from(list(MoveRule))),
                 max_tiles=draw(st.sampled_from([None, *range(1, tiles + 1)])),
                 scoring=draw(st.sampled_from(list(Scoring))))


OBJECTIVES = st.sampled_from(["score", "shut", "beat:5", "reach:12"])


def fixed_value(rules: Rules, objective: str, strategy: Strategy) -> Fraction:
    """The exact value of a fixed strategy, by a forward walk of the turn machine."""
    def policy(state: TurnState) -> Mapping[int, Any]:
        return {strategy.choose(state, Situation()): 1}

    chosen = parse_objective(objective)
    finals = final_distribution(rules, policy, exact=True)
    return sum((p * Fraction(chosen.final_value(rules, t)) for t, p in finals.items()),
               Fraction(0))


@settings(max_examples=40, deadline=None)
@given(rules=small_rules(), objective=OBJECTIVES, seed=st.integers(0, 2**16))
def test_the_optimum_is_at_least_any_fixed_strategy_and_the_pessimum_at_most(
        rules: Rules, objective: str, seed: int) -> None:
    best = solve_exact(rules, objective)
    chosen = parse_objective(objective)
    # The worst play is the optimum of the opposite objective.
    worst = solve_exact(rules, custom(f"opposite-{objective}", lambda r, t: -Fraction(
        chosen.final_value(r, t)) * (1 if chosen.maximise(r) else -1)))
    sign = 1 if chosen.maximise(rules) else -1
    worst_value = -sign * worst.value()

    class FrozenRandom:
        """A random strategy made a fixed function of the position."""

        name = "frozen-random"

        def choose(self, state: TurnState, situation: Situation) -> int:
            # Only ints in the seed: str and None hashes differ between processes.
            rng = random.Random(hash((seed, state.open_tiles, state.roll or (), state.dice,
                                      state.phase is Phase.SHUT)))
            return RandomStrategy(rng).choose(state, situation)

    for strategy in (HighestFirstStrategy(), FewestTilesStrategy(), FrozenRandom()):
        value = fixed_value(rules, objective, strategy)
        assert sign * best.value() >= sign * value >= sign * worst_value


@settings(max_examples=40, deadline=None)
@given(rules=small_rules(most_tiles=8), objective=OBJECTIVES)
def test_the_float_distribution_is_the_exact_one(rules: Rules, objective: str) -> None:
    fast, exact = solve(rules, objective), solve_exact(rules, objective)
    assert sum(exact.distribution.values()) == 1
    assert set(fast.distribution) == set(exact.distribution)
    for score, p in exact.distribution.items():
        assert abs(fast.distribution[score] - float(p)) < 1e-12
    assert abs(fast.expected_score - float(exact.expected_score)) < 1e-9 * max(
        1.0, float(exact.expected_score))
    assert exact.distribution == score_distribution(rules, exact.final_distribution)


@settings(max_examples=40, deadline=None)
@given(rules=small_rules(most_tiles=10))
def test_a_score_objective_s_value_is_its_expected_score(rules: Rules) -> None:
    solution = solve(rules, "score")
    assert abs(solution.value() - solution.expected_score) <= 1e-9 * max(
        1.0, abs(solution.expected_score))
    assert abs(sum(solution.distribution.values()) - 1.0) < 1e-12
    shut = solve(rules, "shut")
    assert solution.p_shut <= shut.value() + 1e-12
