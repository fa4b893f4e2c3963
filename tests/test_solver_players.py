"""Computer players built on the solver: ``optimal`` for one objective, and the player who
knows the posted scores of a single round and plays to win."""

from __future__ import annotations

import pickle
import random

import pytest

from shutthebox.errors import ShutTheBoxError
from shutthebox.players.base import Situation
from shutthebox.rules import OneDie, Rules, Scoring
from shutthebox.solver import ObjectiveError, custom, solve, solve_exact
from shutthebox.solver.players import (
    _later_odds,
    _later_odds_table,
    make_optimal,
    round_objective,
    win_share,
    win_solution,
    win_solutions,
)
from shutthebox.strategies import make_strategy
from shutthebox.tiles import mask_of
from shutthebox.turn import Phase, TurnState


def decision_states(rules: Rules, count: int, seed: int) -> list[TurnState]:
    """Decision nodes met in random turns."""
    rng = random.Random(seed)
    states: list[TurnState] = []
    while len(states) < count:
        state = TurnState.start(rules)
        while not state.is_over:
            if state.is_chance:
                state = state.roll_with(rng)
                continue
            states.append(state)
            state = state.apply(rng.choice(state.legal_actions()))
    return states


@pytest.mark.parametrize("rules", [Rules(), Rules(one_die=OneDie.LOW_SUM)], ids=repr)
def test_optimal_with_nobody_else_plays_the_expected_score(rules: Rules) -> None:
    player = make_strategy("optimal", rules, random.Random(0))
    assert player.name == "optimal"
    solution = solve(rules, "score")
    for state in decision_states(rules, 300, 1):
        expected = solution.best_dice(state.open_tiles) if state.phase is Phase.CHOOSE_DICE \
            else solution.best_move(state.open_tiles, state.roll or ())
        assert player.choose(state, Situation()) == expected


def test_optimal_with_an_objective_plays_that_objective_whatever_is_posted() -> None:
    rules = Rules()
    player = make_optimal("shut", rules)
    assert player.name == "optimal:shut"
    shut = solve(rules, "shut")
    situation = Situation(posted=(3,), still_to_play=2, decisive=True)
    for state in decision_states(rules, 100, 2):
        if state.phase is Phase.SHUT:
            assert state.roll is not None
            assert player.choose(state, situation) == shut.best_move(state.open_tiles,
                                                                     state.roll)


def test_an_unreadable_objective_for_optimal_is_refused() -> None:
    with pytest.raises(ObjectiveError, match="'beat:x'"):
        make_optimal("beat:x", Rules())
    with pytest.raises(ShutTheBoxError, match="unknown objective 'win'"):
        make_strategy("optimal:win", Rules(), random.Random(0))


def test_a_round_that_does_not_decide_the_game_is_played_for_the_score() -> None:
    rules = Rules()
    player = make_optimal("", rules)
    situation = Situation(posted=(2,), still_to_play=1, decisive=False)
    assert player.solution_for(situation) is solve(rules, "score")


def test_posted_scores_make_the_player_play_to_win() -> None:
    rules = Rules()
    player = make_optimal("", rules)
    situation = Situation(posted=(12, 7), still_to_play=1, decisive=True)
    solution = player.solution_for(situation)
    assert solution is win_solution(rules, (7, 12), 1)
    better, tie = _later_odds(rules, 6)
    assert solution.final_value(mask_of([1, 5])) == pytest.approx(1.0 - better - tie / 2)
    assert solution.final_value(mask_of([8])) == 0.0   # 8 loses to the posted 7


def test_a_win_is_shared_between_tied_players() -> None:
    rules = Rules()
    assert win_share(rules, 7, (7, 7, 9), 0) == pytest.approx(1 / 3)
    assert win_share(rules, 6, (7, 7, 9), 0) == 1.0
    assert win_share(rules, 8, (7,), 0) == 0.0


def test_a_shut_box_wins_at_once_unless_the_rules_say_otherwise() -> None:
    assert win_share(Rules(), 0, (), 3) == 1.0
    gentle = Rules(instant_win=False)
    assert win_share(gentle, 0, (0,), 0) == 0.5
    better, tie = _later_odds(gentle, 0)
    assert better == 0.0 and tie > 0.0
    assert win_share(gentle, 0, (), 1) == pytest.approx(1 - tie / 2)


def test_covered_scoring_wins_with_the_highest_score() -> None:
    rules = Rules(scoring=Scoring.COVERED)
    assert win_share(rules, 40, (35,), 0) == 1.0
    assert win_share(rules, 30, (35,), 0) == 0.0


@pytest.mark.parametrize("rules", [Rules(), Rules(tiles=8, scoring=Scoring.DIGITS),
                                   Rules(scoring=Scoring.COVERED, one_die=OneDie.HIGH_SHUT)],
                         ids=repr)
@pytest.mark.parametrize("target_rank", [0, 3, 10])
def test_later_players_odds_are_those_of_their_own_solution(rules: Rules,
                                                            target_rank: int) -> None:
    best_first = sorted({rules.score(m) for m in range(1 << rules.tiles)},
                        reverse=not rules.lower_is_better)
    target = best_first[target_rank]
    contest = custom(f"test-contest:{target}", lambda r, t: 1.0 if r.better(r.score(t), target)
                     else 0.5 if r.score(t) == target else 0.0)
    distribution = solve(rules, contest).distribution
    better = sum(p for s, p in distribution.items() if rules.better(s, target))
    tie = distribution.get(target, 0.0)
    assert _later_odds(rules, target) == pytest.approx((better, tie), abs=1e-12)


def test_one_later_player_shares_a_tie_and_loses_to_a_better_score() -> None:
    rules = Rules()
    better, tie = _later_odds(rules, 9)
    assert win_share(rules, 9, (11,), 1) == pytest.approx((1 - better - tie) + tie / 2)
    assert win_share(rules, 9, (9,), 1) == pytest.approx((1 - better - tie) / 2 + tie / 3)


@pytest.mark.parametrize(("posted", "still"), [((2,), 0), ((), 2), ((10, 14), 1), ((6,), 2)])
def test_playing_to_win_wins_at_least_as_often_as_playing_for_the_score(
        posted: tuple[int, ...], still: int) -> None:
    rules = Rules()
    aware = win_solution(rules, posted, still)
    plain = solve(rules, "score")
    objective = round_objective(rules, posted, still)
    plain_share = sum(p * float(objective.final_value(rules, tiles))
                      for tiles, p in plain.final_distribution.items())
    aware_share = sum(p * float(objective.final_value(rules, tiles))
                      for tiles, p in aware.final_distribution.items())
    assert aware_share == pytest.approx(aware.value(), abs=1e-12)
    assert aware_share >= plain_share - 1e-12
    if posted == (2,):
        assert aware_share > plain_share + 0.005   # needing 0 or 1, it plays for the box


def test_win_objectives_solved_side_by_side_equal_each_solved_alone() -> None:
    rules = Rules(tiles=8)
    situations = [((5,), 0), ((), 2), ((9, 9), 1)]
    together = win_solutions(rules, situations)
    for (posted, still), solution in zip(situations, together, strict=True):
        def share(r: Rules, t: int, p: tuple[int, ...] = posted, k: int = still) -> float:
            return float(round_objective(r, p, k).final_value(r, t))

        alone = solve_exact(rules, custom(f"alone:{posted}:{still}", share))
        assert solution is win_solution(rules, posted, still)
        for open_tiles in range(1 << rules.tiles):
            assert solution.value(open_tiles) == pytest.approx(float(alone.value(open_tiles)),
                                                               abs=1e-12)


@pytest.mark.parametrize("rules", [Rules(tiles=7, one_die=OneDie.LOW_SUM),
                                   Rules(tiles=8, scoring=Scoring.DIGITS, max_tiles=2),
                                   Rules(tiles=7, scoring=Scoring.COVERED,
                                         one_die=OneDie.HIGH_SHUT, one_die_forced=True)],
                         ids=repr)
def test_the_compiled_odds_are_the_numpy_odds(rules: Rules) -> None:
    compiled = _later_odds_table(rules, compiled=True)
    plain = _later_odds_table(rules, compiled=False)
    assert compiled.keys() == plain.keys()
    for target, (better, tie) in plain.items():
        assert compiled[target] == pytest.approx((better, tie), abs=1e-12)


def test_a_target_no_turn_can_score_has_no_ties() -> None:
    rules = Rules(scoring=Scoring.DIGITS)
    possible = {rules.score(m) for m in range(1 << rules.tiles)}
    assert 9 in possible and 10 not in possible and 11 not in possible   # no tile 0, one 1
    better, tie = _later_odds(rules, 11)
    assert tie == 0.0
    assert better == pytest.approx(solve(rules, "reach:9").value())
    assert 0.0 < win_share(rules, 11, (), 1) < 1.0


def test_every_objective_the_players_build_pickles_with_its_values() -> None:
    """Objectives hold no closures, so players and environments holding one can be pickled
    (sent to a worker process, copied with their environment)."""
    from shutthebox.formats import GameFormat
    from shutthebox.players.base import Role
    from shutthebox.solver.matchplay import MatchPosition, solve_match
    from shutthebox.solver.objectives import SCORE, SHUT, beat, reach
    from shutthebox.solver.players import match_objective, win_objective

    rules = Rules(tiles=5)
    battle = GameFormat.parse("battle")
    objectives = [
        SCORE, SHUT, beat(10), reach(10), win_objective((7, 9), 1),
        round_objective(rules, (6,), 1),
        solve_match(rules, "rounds:2", disk=False).turn_objective(MatchPosition((3, 0), 1)),
        match_objective(rules, Situation(format=battle, role=Role.STAND)),
        match_objective(rules, Situation(totals=(4, 9), format=GameFormat.parse("rounds:2")))]
    for objective in objectives:
        assert objective is not None
        copy = pickle.loads(pickle.dumps(objective))
        assert copy.name == objective.name and copy.cache_key() == objective.cache_key()
        assert [copy.final_value(rules, m) for m in range(32)] == \
            [objective.final_value(rules, m) for m in range(32)]
        if objective.of_scores is not None:
            assert copy.final_values(rules).tolist() == objective.final_values(rules).tolist()
    player = make_optimal("", rules)
    situation = Situation(posted=(5,), still_to_play=1, decisive=True)
    state = TurnState.start(rules).apply_roll((2, 3))
    assert pickle.loads(pickle.dumps(player)).choose(state, situation) == \
        player.choose(state, situation)
