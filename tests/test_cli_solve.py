"""`shutthebox solve`, `hint` and `review` beyond the basics: every figure they print is the
library's, and every bad input is a one-line error."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from shutthebox.cli import app
from shutthebox.match import GameFormat, Match, MatchConfig, play_out, replay_decisions, save_match
from shutthebox.players.simple import RandomStrategy
from shutthebox.rules import OneDie, Rules, preset
from shutthebox.solver import solve
from shutthebox.strategies import make_strategy
from shutthebox.tiles import mask_of
from shutthebox.turn import Phase

runner = CliRunner()


def invoke(*args: str) -> str:
    result = runner.invoke(app, list(args), env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    return result.output


def fails(*args: str) -> str:
    result = subprocess.run([sys.executable, "-m", "shutthebox", *args], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    return result.stderr


@pytest.mark.parametrize("objective", ["score", "shut", "beat:10", "reach:3"])
def test_solve_json_is_the_library_s_solution(objective: str) -> None:
    data = json.loads(invoke("solve", "--preset", "pub", "-o", objective, "--json"))
    solution = solve(preset("pub"), objective)
    assert data["objective"] == objective
    assert data["rules"] == preset("pub").to_dict()
    assert data["value"] == pytest.approx(solution.value())
    assert data["p_shut"] == pytest.approx(solution.p_shut)
    assert data["expected_score"] == pytest.approx(solution.expected_score)
    assert {int(s): p for s, p in data["distribution"].items()} == pytest.approx(
        solution.distribution)


def test_solve_table_for_covered_scoring_counts_up() -> None:
    out = invoke("solve", "--preset", "covered")
    assert "expected score" in out and "Score distribution" in out
    assert "45" in out   # a shut box scores every tile


def test_hint_values_and_losses_are_the_solver_s() -> None:
    rules = Rules(tiles=12, one_die=OneDie.LOW_SUM)
    moves = json.loads(invoke("hint", "--tiles", "12", "--one-die", "low-sum", "--open",
                              "1,2,4,7,8,11", "--roll", "5,6", "-o", "shut", "--json"))
    ranked = solve(rules, "shut").ranked_moves(mask_of([1, 2, 4, 7, 8, 11]), (5, 6))
    assert [mask_of(m["tiles"]) for m in moves] == [m for m, _ in ranked]
    assert [m["value"] for m in moves] == pytest.approx([v for _, v in ranked])
    assert all(m["loss"] == pytest.approx(moves[0]["value"] - m["value"]) for m in moves)


def test_hint_for_a_roll_with_no_move_says_the_turn_ends() -> None:
    out = invoke("hint", "--open", "9", "--roll", "1,2")
    assert "allows no move" in out and "score 9" in out
    assert json.loads(invoke("hint", "--open", "9", "--roll", "1,2", "--json")) == []


def test_hint_without_a_choice_shows_each_roll_s_best_move() -> None:
    out = invoke("hint", "--open", "1,2,4,7,8")
    assert "No dice choice" in out and "Each roll" in out
    assert "no move: the turn ends" in invoke("hint", "--open", "9")


def test_hint_ranks_the_dice_choice_best_first() -> None:
    choices = json.loads(invoke("hint", "--preset", "pub", "--open", "1,2", "--json"))
    solution = solve(preset("pub"), "score")
    assert [c["dice"] for c in choices] == [d for d, _ in solution.ranked_dice(mask_of([1, 2]))]
    assert choices[0]["loss"] == 0


def test_hint_with_one_die_forced_takes_a_single_face() -> None:
    moves = json.loads(invoke("hint", "--preset", "encyclopedia", "--open", "1,2,3",
                              "--roll", "3", "--json"))
    assert [m["tiles"] for m in moves] == [[3], [1, 2]]


@pytest.mark.parametrize(("args", "message"), [
    (["hint", "--open", "1,2,3", "--preset", "encyclopedia", "--roll", "1,2"],
     "is a roll of 2 dice, but with 1 2 3 open the rules roll 1"),
    (["hint", "--open", "1,13"], "tile 13 is not a tile"),
    (["hint", "--open", "1,1"], "tile 1 is named twice"),
    (["hint", "--roll", "0,3"], "cannot read the roll '0,3'"),
    (["hint", "--tiles", "6", "--open", "7"], "names tile 7, but the box has tiles 1 to 6"),
    (["hint", "-o", "reach:"], "cannot read objective 'reach:'"),
    (["solve", "-o", "beat:1.5"], "cannot read objective 'beat:1.5'"),
])
def test_bad_input_quotes_what_was_wrong(args: list[str], message: str) -> None:
    assert message in fails(*args)


def logged_game(tmp_path: Path, rules: Rules) -> Path:
    match = Match(MatchConfig(rules, GameFormat.parse("single"), ("Rand", "Opt", "Heur")))
    play_out(match, {0: RandomStrategy(random.Random(1)),
                     1: make_strategy("optimal", rules, random.Random(0)),
                     2: make_strategy("highest-first", rules, random.Random(0))},
             random.Random(11))
    return save_match(match, tmp_path / "game.json")


def test_review_costs_are_the_solver_s_losses(tmp_path: Path) -> None:
    rules = preset("pub")
    path = logged_game(tmp_path, rules)
    data = json.loads(invoke("review", str(path), "-o", "shut", "--json"))
    solution = solve(rules, "shut")
    decisions = replay_decisions(json.loads(path.read_text()))
    assert len(data["decisions"]) == len(decisions)
    for shown, decision in zip(data["decisions"], decisions, strict=True):
        state = decision.state
        if state.phase is Phase.CHOOSE_DICE:
            played = solution.dice_value(state.open_tiles, decision.action)
            best = solution.value(state.open_tiles)
        else:
            assert state.roll is not None
            played = solution.after_move(state.open_tiles, decision.action)
            best = solution.after_roll(state.open_tiles, state.roll)
        assert shown["cost"] == pytest.approx(best - played, abs=1e-12)
        assert shown["player"] == decision.player
    totals = data["total_cost"]
    assert totals["Rand"] > 0.0 and set(totals) <= {"Rand", "Opt", "Heur"}
    assert sum(totals.values()) == pytest.approx(sum(d["cost"] for d in data["decisions"]))


def test_review_of_the_optimal_player_costs_nothing(tmp_path: Path) -> None:
    path = logged_game(tmp_path, Rules())
    data = json.loads(invoke("review", str(path), "--json"))
    assert data["total_cost"].get("Opt", 0.0) == pytest.approx(0.0, abs=1e-12)
    assert "Opt: no mistakes." in data["verdicts"]
    out = invoke("review", str(path))
    assert "Review of game.json" in out
    for line in data["verdicts"]:
        assert line in " ".join(out.split())


def test_review_refuses_a_log_that_does_not_replay(tmp_path: Path) -> None:
    path = logged_game(tmp_path, Rules())
    log = json.loads(path.read_text())
    shut = next(e for e in log["events"] if e["type"] == "shut")
    shut["tiles"] = [1, 2, 3, 4, 5, 6, 7, 8, 9]
    path.write_text(json.dumps(log))
    assert "does not replay" in fails("review", str(path))
