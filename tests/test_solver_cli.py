"""`shutthebox solve`, `hint` and `review` as a user runs them."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from shutthebox.coach import review
from shutthebox.match import GameFormat, Match, MatchConfig, play_out, save_match
from shutthebox.players.simple import FewestTilesStrategy
from shutthebox.rules import Rules
from shutthebox.strategies import make_strategy


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "shutthebox", *args], capture_output=True,
                          text=True, timeout=120, env={**os.environ, "COLUMNS": "120"})


def test_solve_json_has_the_published_figure() -> None:
    result = run("solve", "--one-die", "low-sum", "--objective", "shut", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert round(data["value"] * 100, 4) == 9.7614
    assert data["p_shut"] == pytest.approx(data["value"])
    assert sum(data["distribution"].values()) == pytest.approx(1.0)
    assert data["rules"]["one_die"] == "low-sum" and "expected_score" in data


def test_solve_prints_a_table_and_writes_a_plot(tmp_path: Path) -> None:
    plot = tmp_path / "d.png"
    result = run("solve", "--preset", "family-12", "--plot", str(plot))
    assert result.returncode == 0, result.stderr
    assert "Score distribution under optimal play" in result.stdout
    assert plot.read_bytes()[:4] == b"\x89PNG"


def test_hint_ranks_every_move_best_first() -> None:
    result = run("hint", "--open", "1,2,3,4,5,7,8", "--roll", "3,5", "--json")
    moves = json.loads(result.stdout)
    assert [m["tiles"] for m in moves] == [[8], [3, 5], [1, 7], [1, 3, 4], [1, 2, 5]]
    assert moves[0]["loss"] == 0 and all(m["loss"] > 0 for m in moves[1:])
    table = run("hint", "--open", "1,2,3,4,5,7,8", "--roll", "3,5")
    assert "best" in table.stdout and "1 3 4" in table.stdout


def test_hint_without_a_roll_advises_the_dice() -> None:
    result = run("hint", "--open", "1,2,3", "--one-die", "low-sum", "-o", "shut", "--json")
    choices = json.loads(result.stdout)
    assert [c["dice"] for c in choices] == [1, 2]
    none = run("hint", "--open", "1,2,3")
    assert "No dice choice" in none.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["hint", "--open", "1,10", "--roll", "3,5"], "names tile 10, but the box has tiles 1 to 9"),
    (["hint", "--roll", "3,9"], "cannot read the roll '3,9'"),
    (["hint", "--open", "x"], "'x' in 'x' is not a tile number"),
    (["hint", "--open", "1,2", "--roll", "4"],
     "is a roll of 1 die, but with 1 2 open the rules roll 2"),
    (["solve", "-o", "beat:x"], "cannot read objective 'beat:x'"),
    (["solve", "-o", "win"], "unknown objective 'win'"),
    (["review", "nowhere.json"], "cannot read 'nowhere.json'"),
])
def test_bad_input_is_a_one_line_error(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def saved_game(tmp_path: Path) -> Path:
    rules = Rules()
    match = Match(MatchConfig(rules, GameFormat.parse("single"), ("Ann", "Bot")))
    play_out(match, {0: FewestTilesStrategy(),
                     1: make_strategy("optimal", rules, random.Random(0))}, random.Random(3))
    return save_match(match, tmp_path / "game.json")


def test_review_shows_every_decision_and_the_cost(tmp_path: Path) -> None:
    path = saved_game(tmp_path)
    result = run("review", str(path), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    decisions = data["decisions"]
    assert {d["player"] for d in decisions} == {"Ann", "Bot"}
    assert data["total_cost"]["Bot"] == pytest.approx(0.0, abs=1e-9)   # the optimal player
    assert all(d["cost"] >= 0 for d in decisions)
    assert all((d["cost"] > 1e-12) == (d["played"] != d["best"]) or d["cost"] < 1e-9
               for d in decisions)
    table = run("review", str(path))
    assert "total cost" in table.stdout


def test_review_matches_the_library(tmp_path: Path) -> None:
    path = saved_game(tmp_path)
    reviewed = review(json.loads(path.read_text()), "shut")
    assert len(reviewed) == sum(1 for e in json.loads(path.read_text())["events"]
                                if e["type"] in ("dice", "shut"))


def test_review_refuses_a_file_that_is_not_a_log(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    result = run("review", str(bad))
    assert result.returncode == 2 and "is not a shutthebox game log" in result.stderr
