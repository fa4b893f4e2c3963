"""The solver against the published figures, against itself in exact arithmetic, and
against fixed strategies."""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shutthebox.dice import roll_outcomes
from shutthebox.players.base import Situation, Strategy
from shutthebox.players.simple import FewestTilesStrategy, HighestFirstStrategy
from shutthebox.rules import MoveRule, OneDie, Rules, Scoring
from shutthebox.solver import ObjectiveError, custom, parse_objective, solve, solve_exact
from shutthebox.solver.players import make_optimal, win_share
from shutthebox.tiles import mask_of
from shutthebox.turn import TurnState, legal_moves


def test_published_max_chance_to_shut_two_dice_always() -> None:
    assert round(solve(Rules(), "shut").value() * 100, 4) == 7.1432


def test_published_chance_one_die_optional_low_sum_exactly() -> None:
    value = solve_exact(Rules(one_die=OneDie.LOW_SUM), "shut").value()
    assert value == Fraction(956177159, 9795520512)
    assert round(float(value) * 100, 4) == 9.7614


def test_published_chance_one_die_low_sum_at_most_two_tiles() -> None:
    assert round(solve(Rules(one_die=OneDie.LOW_SUM, max_tiles=2), "shut").value() * 100,
                 4) == 7.4194


AXES = [
    Rules(tiles=5),
    Rules(tiles=6, one_die=OneDie.LOW_SUM),
    Rules(tiles=6, one_die=OneDie.LOW_SUM, one_die_forced=True),
    Rules(tiles=7, one_die=OneDie.HIGH_SHUT),
    Rules(tiles=8, one_die=OneDie.HIGH_SHUT, one_die_forced=True),
    Rules(tiles=6, moves=MoveRule.DICE),
    Rules(tiles=7, max_tiles=2),
    Rules(tiles=6, scoring=Scoring.DIGITS),
    Rules(tiles=6, scoring=Scoring.COVERED),
    Rules(tiles=2),
]


@pytest.mark.parametrize("rules", AXES, ids=repr)
@pytest.mark.parametrize("objective", ["score", "shut", "beat:6", "reach:6"])
def test_float_solver_matches_the_exact_one_on_every_axis(rules: Rules, objective: str) -> None:
    fast, exact = solve(rules, objective), solve_exact(rules, objective)
    for open_tiles in range(1 << rules.tiles):
        assert fast.value(open_tiles) == pytest.approx(float(exact.value(open_tiles)), abs=1e-9)
    assert fast.p_shut == pytest.approx(float(exact.p_shut), abs=1e-9)
    assert fast.expected_score == pytest.approx(float(exact.expected_score), abs=1e-9)


def brute_force_value(rules: Rules, objective: str) -> Fraction:
    """An independent, plain recursive solver over TurnState for small boards."""
    chosen = parse_objective(objective)
    sign = 1 if chosen.maximise(rules) else -1

    @cache
    def value(open_tiles: int) -> Fraction:
        state = TurnState.before_roll(rules, open_tiles)
        if state.is_over:
            return sign * Fraction(chosen.final_value(rules, open_tiles))
        options = [state.choose_dice(d) for d in state.legal_actions()] if state.is_decision \
            else [state]
        best = None
        for option in options:
            total = Fraction(0)
            for roll, p in option.chance_outcomes():
                rolled = option.apply_roll(roll)
                if rolled.is_over:
                    total += p * sign * Fraction(chosen.final_value(rules, open_tiles))
                else:
                    total += p * max(value(rolled.shut(m).open_tiles)
                                     for m in rolled.legal_actions())
            best = total if best is None or total > best else best
        assert best is not None
        return best

    return sign * value(rules.full)


@pytest.mark.parametrize("rules", AXES[:6], ids=repr)
def test_exact_solver_matches_a_brute_force_walk_of_the_turn_machine(rules: Rules) -> None:
    for objective in ("score", "shut"):
        assert solve_exact(rules, objective).value() == brute_force_value(rules, objective)


def strategy_value(rules: Rules, objective: str, strategy: Strategy) -> float:
    """The exact value of a fixed strategy, by the same dynamic programming."""
    chosen = parse_objective(objective)

    @cache
    def value(open_tiles: int) -> float:
        state = TurnState.before_roll(rules, open_tiles)
        if state.is_over:
            return float(chosen.final_value(rules, open_tiles))
        if state.is_decision:
            state = state.choose_dice(strategy.choose(state, Situation()))
        total = 0.0
        for roll, p in state.chance_outcomes():
            rolled = state.apply_roll(roll)
            if rolled.is_over:
                total += float(p) * float(chosen.final_value(rules, open_tiles))
            else:
                total += float(p) * value(rolled.shut(strategy.choose(rolled,
                                                                      Situation())).open_tiles)
        return total

    return value(rules.full)


@settings(max_examples=25, deadline=None)
@given(tiles=st.integers(2, 8), one_die=st.sampled_from(list(OneDie)),
       forced=st.booleans(), moves=st.sampled_from(list(MoveRule)),
       scoring=st.sampled_from(list(Scoring)), objective=st.sampled_from(["score", "shut"]))
def test_optimal_value_is_never_worse_than_a_fixed_heuristic(
        tiles: int, one_die: OneDie, forced: bool, moves: MoveRule, scoring: Scoring,
        objective: str) -> None:
    rules = Rules(tiles=tiles, one_die=one_die, one_die_forced=forced and one_die is not
                  OneDie.NEVER, moves=moves, scoring=scoring)
    solution = solve(rules, objective)
    for heuristic in (HighestFirstStrategy(), FewestTilesStrategy()):
        fixed = strategy_value(rules, objective, heuristic)
        assert not solution.is_better(fixed, solution.value())


@settings(max_examples=25, deadline=None)
@given(tiles=st.integers(2, 10), one_die=st.sampled_from(list(OneDie)),
       scoring=st.sampled_from(list(Scoring)), max_tiles=st.sampled_from([None, 1, 2, 3]))
def test_score_distribution_sums_to_one_and_its_mean_is_the_expected_score(
        tiles: int, one_die: OneDie, scoring: Scoring, max_tiles: int | None) -> None:
    rules = Rules(tiles=tiles, one_die=one_die, scoring=scoring,
                  max_tiles=None if max_tiles is None else min(max_tiles, tiles))
    solution = solve(rules, "score")
    distribution = solution.distribution
    assert sum(distribution.values()) == pytest.approx(1.0)
    assert sum(s * p for s, p in distribution.items()) == pytest.approx(solution.value())
    assert all(p >= 0 for p in distribution.values())
    assert distribution.get(rules.best_score, 0.0) == pytest.approx(solution.p_shut)


def test_ranked_moves_are_best_first_with_ties_in_the_stable_order() -> None:
    rules = Rules()
    solution = solve(rules, "score")
    open_tiles = mask_of([1, 2, 3, 4, 5, 7, 8])
    ranked = solution.ranked_moves(open_tiles, (3, 5))
    values = [v for _, v in ranked]
    assert values == sorted(values)
    assert {m for m, _ in ranked} == set(legal_moves(rules, open_tiles, (3, 5)))
    assert ranked[0][0] == solution.best_move(open_tiles, (3, 5)) == mask_of([8])
    # A roll whose moves all lead to the same value keeps the stable order.
    flat = solve(rules, custom("flat", lambda r, t: 1))
    assert [m for m, _ in flat.ranked_moves(rules.full, (3, 5))] == list(
        legal_moves(rules, rules.full, (3, 5)))


def test_dice_choice_values_and_best_dice() -> None:
    rules = Rules(one_die=OneDie.LOW_SUM)
    solution = solve_exact(rules, "shut")
    open_tiles = mask_of([1, 2, 3])
    ranked = solution.ranked_dice(open_tiles)
    assert ranked[0] == (1, Fraction(1, 3))   # one die: 1/6 for each of 1, 2, 3 then more
    assert solution.value(open_tiles) == max(v for _, v in ranked)
    assert solution.best_dice(open_tiles) == 1


def test_beat_and_reach_targets() -> None:
    rules = Rules()
    beat_10, reach_10 = solve(rules, "beat:10"), solve(rules, "reach:10")
    distribution = solve(rules, "score").distribution
    assert beat_10.value() >= sum(p for s, p in distribution.items() if s < 10) - 1e-12
    assert reach_10.value() >= beat_10.value()
    assert solve(rules, "beat:0").value() == 0.0


def test_custom_objective_tie_worth_half() -> None:
    rules = Rules(tiles=4)
    half = custom("half-tie-vs-3", lambda r, t: 1.0 if r.score(t) < 3 else
                  0.5 if r.score(t) == 3 else 0.0)
    value = solve(rules, half).value()
    assert solve(rules, "beat:3").value() <= value <= solve(rules, "reach:3").value()


@pytest.mark.parametrize("text", ["win", "beat:x", "reach:", "score:3", ""])
def test_bad_objectives_are_refused_with_the_input_quoted(text: str) -> None:
    with pytest.raises(ObjectiveError, match=repr(text)[1:-1] or "objective"):
        parse_objective(text)


def test_solutions_are_cached_per_rules_and_objective() -> None:
    assert solve(Rules(tiles=7), "shut") is solve(Rules(tiles=7), "shut")
    assert solve(Rules(tiles=7), "shut") is not solve(Rules(tiles=7), "score")


def test_policy_tables_match_the_solution() -> None:
    rules = Rules(one_die=OneDie.HIGH_SHUT)
    solution = solve(rules, "score")
    dice, moves = solution.policy_tables()
    rng = random.Random(3)
    for _ in range(200):
        open_tiles = rng.randrange(1, 1 << rules.tiles)
        assert dice[open_tiles] == solution.best_dice(open_tiles)
        d = int(dice[open_tiles])
        index = rng.randrange(len(roll_outcomes(d)))
        roll = roll_outcomes(d)[index][0]
        assert moves[d][open_tiles, index] == solution.best_move(open_tiles, roll)


def test_win_aware_player_knows_a_beaten_score_is_lost() -> None:
    rules = Rules()
    assert win_share(rules, 12, (10,), 0) == 0.0
    assert win_share(rules, 9, (10,), 0) == 1.0
    assert win_share(rules, 10, (10,), 0) == 0.5
    assert 0.0 < win_share(rules, 9, (10,), 2) < 1.0
    assert win_share(rules, 0, (), 3) == 1.0   # a shut box wins at once


def test_win_aware_player_takes_risks_a_score_player_does_not() -> None:
    rules = Rules()
    aware, plain = make_optimal("", rules), make_optimal("score", rules)
    state = TurnState.start(rules, mask_of([1, 2, 3, 4, 9])).apply_roll((2, 5))
    # Needing to beat 2 posted, the aware player plays for the few lines that get there.
    situation = Situation(posted=(2,), still_to_play=0, decisive=True)
    aware_solution = aware.solution_for(situation)
    assert aware_solution.objective.name.startswith("win")
    best = aware.choose(state, situation)
    assert best in state.legal_actions()
    assert plain.choose(state, situation) == solve(rules, "score").best_move(
        state.open_tiles, (2, 5))
