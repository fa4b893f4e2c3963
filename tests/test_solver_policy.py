"""The solver's policy: the float path picks the same moves and dice as the exact one, its
tables and distribution agree with independent walks of the turn machine, and many objectives
solved side by side equal each solved alone."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

import numpy as np
import pytest

from shutthebox.dice import roll_outcomes
from shutthebox.errors import IllegalMoveError, TilesError
from shutthebox.rules import OneDie, Rules, Scoring
from shutthebox.solver import (
    ObjectiveError,
    custom,
    parse_objective,
    solve,
    solve_exact,
    solve_many,
)
from shutthebox.solver.evaluate import final_distribution
from shutthebox.solver.objectives import score_array
from shutthebox.solver.solve import dice_choice_codes
from shutthebox.tiles import mask_of
from shutthebox.turn import Phase, TurnState, legal_moves
from tests.test_exact_solver import AXES as EVERY_AXIS

AXES = [*EVERY_AXIS, Rules(tiles=6, scoring=Scoring.COVERED, one_die=OneDie.HIGH_SHUT)]
OBJECTIVES = ["score", "shut", "beat:8", "reach:8"]


def every_roll() -> list[tuple[int, ...]]:
    return [roll for d in (1, 2) for roll, _ in roll_outcomes(d)]


@pytest.mark.parametrize("rules", AXES, ids=repr)
@pytest.mark.parametrize("objective", OBJECTIVES)
def test_float_policy_is_the_exact_policy_ties_included(rules: Rules, objective: str) -> None:
    fast, exact = solve(rules, objective), solve_exact(rules, objective)
    for open_tiles in range(1, 1 << rules.tiles):
        assert fast.best_dice(open_tiles) == exact.best_dice(open_tiles)
        assert [d for d, _ in fast.ranked_dice(open_tiles)] == [
            d for d, _ in exact.ranked_dice(open_tiles)]
        for d in (1, 2):
            assert fast.dice_value(open_tiles, d) == pytest.approx(
                float(exact.dice_value(open_tiles, d)), abs=1e-9)
        for roll in every_roll():
            assert fast.best_move(open_tiles, roll) == exact.best_move(open_tiles, roll)
            assert [m for m, _ in fast.ranked_moves(open_tiles, roll)] == [
                m for m, _ in exact.ranked_moves(open_tiles, roll)]


@pytest.mark.parametrize("rules", AXES, ids=repr)
def test_exact_ranking_is_best_first_and_ties_keep_the_stable_order(rules: Rules) -> None:
    solution = solve_exact(rules, "score")
    for open_tiles in range(1, 1 << rules.tiles):
        for roll in every_roll():
            ranked = solution.ranked_moves(open_tiles, roll)
            order = legal_moves(rules, open_tiles, roll)
            assert sorted(m for m, _ in ranked) == sorted(order)
            for (m, v), (n, w) in pairwise(ranked):
                assert not solution.is_better(w, v)
                if v == w:
                    assert order.index(m) < order.index(n)
            if ranked:
                assert ranked[0][0] == solution.best_move(open_tiles, roll)
                assert solution.after_roll(open_tiles, roll) == ranked[0][1]
            else:
                assert solution.best_move(open_tiles, roll) == 0
                assert solution.after_roll(open_tiles, roll) == solution.final_value(open_tiles)


def test_a_flat_objective_keeps_every_move_in_the_stable_order() -> None:
    rules = Rules()
    flat = solve(rules, custom("flat", lambda r, t: 1))
    for roll in [(3, 5), (6, 6), (1, 2)]:
        assert [m for m, _ in flat.ranked_moves(rules.full, roll)] == list(
            legal_moves(rules, rules.full, roll))
    assert flat.best_dice(mask_of([1, 2])) == 2


def test_a_dice_tie_goes_to_two_dice() -> None:
    # An objective indifferent to everything: every dice choice ties.
    rules = Rules(one_die=OneDie.LOW_SUM)
    flat = solve_exact(rules, custom("flat", lambda r, t: 1))
    assert [d for d, _ in flat.ranked_dice(mask_of([1, 2, 3]))] == [2, 1]


def test_one_die_is_chosen_when_it_is_better() -> None:
    rules = Rules(one_die=OneDie.LOW_SUM)
    solution = solve_exact(rules, "shut")
    # Only tile 1 open: one die shuts it with 1/6, two dice never.
    assert solution.dice_value(mask_of([1]), 1) == Fraction(1, 6)
    assert solution.dice_value(mask_of([1]), 2) == 0
    assert solution.best_dice(mask_of([1])) == 1
    assert solution.value(mask_of([1])) == Fraction(1, 6)


def test_forced_one_die_has_no_choice() -> None:
    rules = Rules(one_die=OneDie.HIGH_SHUT, one_die_forced=True)
    solution = solve_exact(rules, "shut")
    open_tiles = mask_of([1, 2, 3])
    assert [d for d, _ in solution.ranked_dice(open_tiles)] == [1]
    assert solution.value(open_tiles) == solution.dice_value(open_tiles, 1)


@pytest.mark.parametrize("rules", [AXES[1], AXES[3], AXES[5], AXES[7]], ids=repr)
def test_float_distribution_is_an_independent_walk_of_the_turn_machine(rules: Rules) -> None:
    solution = solve(rules, "score")

    def optimal(state: TurnState) -> dict[int, int]:
        if state.phase is Phase.CHOOSE_DICE:
            return {solution.best_dice(state.open_tiles): 1}
        assert state.roll is not None
        return {solution.best_move(state.open_tiles, state.roll): 1}

    walked = final_distribution(rules, optimal, exact=True)
    assert set(solution.final_distribution) == set(walked)
    for tiles, p in walked.items():
        assert solution.final_distribution[tiles] == pytest.approx(float(p), abs=1e-12)
    exact = solve_exact(rules, "score")
    assert exact.final_distribution == walked


@pytest.mark.parametrize("rules", AXES, ids=repr)
def test_exact_distribution_sums_to_exactly_one_with_the_expected_score_as_mean(
        rules: Rules) -> None:
    solution = solve_exact(rules, "score")
    distribution = solution.distribution
    assert sum(distribution.values()) == 1
    assert sum(s * p for s, p in distribution.items()) == solution.expected_score
    assert solution.expected_score == solution.value()
    assert distribution.get(rules.best_score, 0) == solution.p_shut


def test_the_shut_objective_value_is_the_chance_to_shut() -> None:
    solution = solve_exact(Rules(tiles=7, one_die=OneDie.HIGH_SHUT), "shut")
    assert solution.value() == solution.p_shut


@pytest.mark.parametrize("rules", [Rules(), Rules(tiles=10, scoring=Scoring.COVERED),
                                   Rules(tiles=8, scoring=Scoring.DIGITS)], ids=repr)
def test_the_fast_objective_values_are_the_objective_s_own(rules: Rules) -> None:
    scores = sorted(set(score_array(rules).tolist()))
    for text in ["score", "shut", *(f"{kind}:{t}" for kind in ("beat", "reach")
                                     for t in (scores[1], scores[len(scores) // 2], -1))]:
        objective = parse_objective(text)
        fast = objective.final_values(rules)
        assert fast.tolist() == [float(objective.final_value(rules, m))
                                 for m in range(1 << rules.tiles)]


def test_many_objectives_side_by_side_equal_each_solved_alone() -> None:
    rules = Rules(tiles=8, one_die=OneDie.LOW_SUM)
    objectives = ["beat:3", "reach:10", "shut", "score", "beat:3"]
    together = solve_many(rules, objectives)
    assert together[0] is together[4]
    for objective, solution in zip(objectives, together, strict=True):
        alone = solve_exact(rules, objective)
        assert solution.objective == parse_objective(objective)
        assert solution.value() == pytest.approx(float(alone.value()), abs=1e-12)
        assert solution.p_shut == pytest.approx(float(alone.p_shut), abs=1e-12)
        assert solution.expected_score == pytest.approx(float(alone.expected_score), abs=1e-9)
        dice, moves = solution.policy_tables()
        exact_dice, exact_moves = alone.policy_tables()
        assert np.array_equal(dice, exact_dice)
        assert all(np.array_equal(moves[d], exact_moves[d]) for d in (1, 2))
    assert solve(rules, "reach:10") is together[1]   # the batch filled the cache


def test_policy_tables_follow_the_documented_roll_indexing() -> None:
    rules = Rules(tiles=10, one_die=OneDie.HIGH_SHUT)
    solution = solve(rules, "score")
    dice, moves = solution.policy_tables()
    assert dice.shape == (1 << 10,) and dice[0] == 0
    assert moves[1].shape == (1 << 10, 6) and moves[2].shape == (1 << 10, 21)
    for open_tiles in range(1, 1 << rules.tiles):
        assert dice[open_tiles] == solution.best_dice(open_tiles)
        for d in (1, 2):
            for i, (roll, _) in enumerate(roll_outcomes(d)):
                expected = solution.best_move(open_tiles, roll) \
                    if d in rules.dice_choices(open_tiles) else 0
                assert moves[d][open_tiles, i] == expected
                if expected:
                    assert expected in legal_moves(rules, open_tiles, roll)


def test_float_ties_survive_large_digit_scores() -> None:
    # Nine tiles read as digits reach 10^8: the relative tie tolerance keeps the float policy
    # identical to the exact one where an absolute one would be swamped by rounding.
    rules = Rules(scoring=Scoring.DIGITS, one_die=OneDie.HIGH_SHUT)
    fast, exact = solve(rules, "score").policy_tables(), solve_exact(rules, "score").policy_tables()
    assert np.array_equal(fast[0], exact[0])
    assert all(np.array_equal(fast[1][d], exact[1][d]) for d in (1, 2))


def test_a_plain_function_of_the_open_tiles_is_an_objective() -> None:
    rules = Rules(tiles=7)

    def at_most_one_tile_open(open_tiles: int) -> int:
        return int(open_tiles.bit_count() <= 1)

    solution = solve(rules, at_most_one_tile_open)
    assert solution.objective.name == "at_most_one_tile_open"
    assert solution is solve(rules, at_most_one_tile_open)
    assert solve(rules, "shut").value() < solution.value() < 1
    exact = solve_exact(rules, at_most_one_tile_open)
    assert solution.value() == pytest.approx(float(exact.value()), abs=1e-12)


def test_something_that_is_not_an_objective_is_refused() -> None:
    with pytest.raises(ObjectiveError, match="cannot use 3 as an objective"):
        solve(Rules(), 3)  # type: ignore[arg-type]


@pytest.mark.parametrize("tiles", [2, 6, 7, 9, 12])
@pytest.mark.parametrize(("one_die", "forced"), [(OneDie.NEVER, False), (OneDie.LOW_SUM, False),
                                                 (OneDie.LOW_SUM, True),
                                                 (OneDie.HIGH_SHUT, False),
                                                 (OneDie.HIGH_SHUT, True)])
def test_the_solver_s_dice_choices_are_the_rules(tiles: int, one_die: OneDie,
                                                 forced: bool) -> None:
    rules = Rules(tiles=tiles, one_die=one_die, one_die_forced=forced)
    codes = dice_choice_codes(rules)
    as_codes = {(2,): 2, (1,): 1, (1, 2): 3}
    assert codes.tolist() == [as_codes[rules.dice_choices(m)] for m in range(1 << tiles)]


@pytest.mark.parametrize("tiles", [2, 6, 9, 10, 12])
@pytest.mark.parametrize("scoring", list(Scoring))
def test_the_solver_s_scores_are_the_rules(tiles: int, scoring: Scoring) -> None:
    rules = Rules(tiles=tiles, scoring=scoring)
    assert score_array(rules).tolist() == [rules.score(m) for m in range(1 << tiles)]


@pytest.mark.parametrize("roll", [(7,), (0, 3), (1, 2, 3), ()])
def test_a_roll_that_cannot_be_rolled_is_refused(roll: tuple[int, ...]) -> None:
    solution = solve(Rules(), "score")
    with pytest.raises(IllegalMoveError, match="is not a roll"):
        solution.best_move(Rules().full, roll)
    with pytest.raises(IllegalMoveError, match="is not a roll"):
        solution.ranked_moves(Rules().full, roll)


@pytest.mark.parametrize("open_tiles", [-1, 1 << 9, 1 << 12])
def test_open_tiles_outside_the_box_are_refused(open_tiles: int) -> None:
    solution = solve(Rules(), "score")
    for ask in (solution.value, solution.final_value, solution.best_dice,
                solution.ranked_dice, lambda t: solution.best_move(t, (3, 5)),
                lambda t: solution.dice_value(t, 2)):
        with pytest.raises(TilesError, match="not a set of tiles 1 to 9"):
            ask(open_tiles)
