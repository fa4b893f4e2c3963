"""The simulator against the exact values, and the tournament."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from shutthebox.rules import OneDie, Rules, Scoring, preset
from shutthebox.simulate import SimulationError, simulate, tournament
from shutthebox.simulate.turns import policy_tables
from shutthebox.solver import solve
from shutthebox.strategies import make_strategy


@pytest.mark.parametrize(("rules", "strategy"), [
    (Rules(), "optimal"),
    (Rules(), "optimal:shut"),
    (preset("family-12"), "optimal"),
    (preset("encyclopedia"), "highest-first"),
    (Rules(tiles=10, scoring=Scoring.DIGITS), "fewest-tiles"),
    (preset("covered"), "optimal"),
    (Rules(one_die=OneDie.LOW_SUM, max_tiles=2), "optimal:shut"),
], ids=str)
def test_simulated_figures_fall_within_a_few_standard_errors_of_the_exact(
        rules: Rules, strategy: str) -> None:
    result = simulate(rules, strategy, games=400_000, seed=11)
    assert result.path == "table"
    assert abs(result.mean_score - result.exact_mean_score) < 4 * result.mean_score_se
    assert abs(result.p_shut - result.exact_p_shut) < 4 * result.p_shut_se + 1e-9
    assert sum(result.distribution.values()) == pytest.approx(1.0)


def test_exact_figures_of_the_optimal_strategy_are_the_solver_s() -> None:
    result = simulate(Rules(), "optimal", games=1000, seed=1)
    solution = solve(Rules(), "score")
    assert result.exact_mean_score == pytest.approx(solution.expected_score)
    assert result.exact_p_shut == pytest.approx(solution.p_shut)


def test_the_same_seed_gives_the_same_result_and_chunks_do_not_matter() -> None:
    a = simulate(Rules(), "optimal", games=100_000, seed=5, exact=False)
    b = simulate(Rules(), "optimal", games=100_000, seed=5, exact=False, chunk=7_777)
    c = simulate(Rules(), "optimal", games=100_000, seed=6, exact=False)
    assert np.array_equal(a.finals, b.finals)
    assert not np.array_equal(a.finals, c.finals)


def test_table_path_and_general_path_agree() -> None:
    rules = Rules(tiles=7, one_die=OneDie.HIGH_SHUT)
    table = simulate(rules, "highest-first", games=60_000, seed=2, path="table")
    general = simulate(rules, "highest-first", games=60_000, seed=3, path="general")
    assert table.path == "table" and general.path == "general"
    se = (table.mean_score_se**2 + general.mean_score_se**2) ** 0.5
    assert abs(table.mean_score - general.mean_score) < 4 * se
    assert table.exact_mean_score == pytest.approx(general.exact_mean_score)


def test_random_player_runs_on_the_general_path_within_its_exact_value() -> None:
    result = simulate(Rules(tiles=6), "random", games=30_000, seed=4)
    assert result.path == "general"
    assert abs(result.mean_score - result.exact_mean_score) < 4 * result.mean_score_se


def test_policy_tables_of_a_heuristic_follow_its_choices() -> None:
    rules = Rules()
    tables = policy_tables(rules, make_strategy("highest-first", rules, random.Random(0)))
    assert tables is not None
    dice, moves = tables
    assert moves[2][rules.full, 20] == (1 << 8) | (1 << 2)   # a double six: shut 9 and 3
    assert set(np.unique(dice[1:])) == {2}


@pytest.mark.parametrize("strategy", ["optimal", "random"])
def test_progress_is_told_as_the_games_are_played(strategy: str) -> None:
    told: list[int] = []
    simulate(Rules(tiles=6), strategy, games=50_000, seed=1, chunk=20_000,
             progress=told.append)
    assert told == sorted(told) and told[-1] == 50_000 and len(told) >= 3


def test_tournament_progress_counts_every_match() -> None:
    told: list[int] = []
    tournament(Rules(tiles=6), ["highest-first", "random"], "single", matches=30, seed=1,
               progress=told.append)
    assert told == list(range(1, 31))


def test_bad_requests_are_refused() -> None:
    with pytest.raises(SimulationError, match="games must be at least 1"):
        simulate(Rules(), "optimal", games=0)
    with pytest.raises(SimulationError, match="cannot be written as a table"):
        simulate(Rules(), "random", games=10, path="table")


def test_tournament_rotates_seats_and_shares_ties() -> None:
    result = tournament(Rules(), ["optimal", "random"], "single", matches=200, seed=3, stake=100)
    assert sum(result.wins.values()) == pytest.approx(200)
    assert result.win_rate("optimal") > result.win_rate("random")
    assert result.mean_rounds == 1
    assert sum(result.winnings.values()) == 0   # money only changes hands


def test_a_strategy_may_take_several_seats() -> None:
    result = tournament(Rules(), ["optimal", "optimal", "random"], "single", matches=60, seed=2)
    assert result.players == ["optimal #1", "optimal #2", "random"]
    assert sum(result.wins.values()) == pytest.approx(60)
    assert result.win_rate("optimal #1") + result.win_rate("optimal #2") > \
        result.win_rate("random")


def test_tournament_of_a_multi_round_format() -> None:
    result = tournament(Rules(), ["highest-first", "fewest-tiles", "random"],
                        "elimination:45", matches=30, seed=1)
    assert result.mean_rounds > 1
    low, high = result.win_rate_ci("random")
    assert 0 <= low <= result.win_rate("random") <= high <= 1


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "shutthebox", *args], capture_output=True,
                          text=True, timeout=300)


def test_simulate_command_json_and_plot(tmp_path: Path) -> None:
    plot = tmp_path / "sim.svg"
    result = run("simulate", "--games", "200000", "--seed", "1", "--json", "--plot", str(plot))
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    for key in ("games", "mean_score", "mean_score_ci", "p_shut", "p_shut_ci", "distribution",
                "turns_per_second"):
        assert key in data
    assert data["games"] == 200000
    assert plot.read_text().startswith("<?xml")


def test_tournament_command_with_one_strategy_in_two_seats() -> None:
    result = run("tournament", "--players", "optimal,optimal", "--matches", "20")
    assert result.returncode == 0, result.stderr
    assert "optimal #1" in result.stdout and "optimal #2" in result.stdout


def test_tournament_command(tmp_path: Path) -> None:
    result = run("tournament", "--players", "optimal,highest-first", "--matches", "50",
                 "--json", "--plot", str(tmp_path / "t.png"))
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert [p["strategy"] for p in data["players"]] == ["optimal", "highest-first"]
    assert (tmp_path / "t.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(("args", "message"), [
    (["simulate", "--games", "0"], "--games must be at least 1"),
    (["simulate", "--strategy", "genius"], "unknown strategy 'genius'"),
    (["simulate", "--plot", "x.pdf"], "use a .png or .svg file"),
    (["tournament", "--format", "battle", "--players", "a,b,c"], "unknown strategy"),
])
def test_bad_input_is_a_one_line_error(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_fast_single_rounds_agree_with_the_match_engine() -> None:
    from shutthebox.match import GameFormat, Match, MatchConfig, play_out
    from shutthebox.simulate.rounds import RoundTables, play_rounds

    rules = Rules(tiles=5, one_die=OneDie.HIGH_SHUT)
    tables = RoundTables.build(rules, players=3)
    fast = play_rounds(tables, games=200_000, seed=9) / 200_000
    assert fast.sum() == pytest.approx(1.0)
    players = {seat: make_strategy("optimal", rules, random.Random(seat)) for seat in range(3)}
    rng = random.Random(4)
    shares = np.zeros(3)
    games = 3000
    for _ in range(games):
        match = Match(MatchConfig(rules, GameFormat.parse("single"), ("a", "b", "c")))
        play_out(match, players, rng)
        for seat in match.winners:
            shares[seat] += 1 / len(match.winners)
    slow = shares / games
    for seat in range(3):
        se = (slow[seat] * (1 - slow[seat]) / games) ** 0.5
        assert abs(slow[seat] - fast[seat]) < 4 * se
