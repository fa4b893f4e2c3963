"""`solve --format`, `hint` in a match position and `review` of bad logs, as a user runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from shutthebox.match import GameFormat, Match, MatchConfig
from shutthebox.rules import Rules


def run(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "shutthebox", *args], capture_output=True,
                          text=True, timeout=300,
                          env={**os.environ, "COLUMNS": "120", "SHUTTHEBOX_HOME": str(home)})


def test_solve_prints_the_match_beside_the_turn(tmp_path: Path) -> None:
    result = run("solve", "--format", "single", "--json", home=tmp_path)
    assert result.returncode == 0, result.stderr
    match = json.loads(result.stdout)["match"]
    assert match["format"] == "single" and match["players"] == 2
    assert match["win"][0] == pytest.approx(0.5005353268, abs=1e-10)
    assert sum(match["win"]) == pytest.approx(1.0)
    three = run("solve", "--tiles", "5", "--format", "single", "--players", "3", home=tmp_path)
    assert "chance to win seat 1" in three.stdout.replace("\n", " ")


def test_hint_in_a_match_ranks_by_the_chance_to_win(tmp_path: Path) -> None:
    result = run("hint", "--tiles", "6", "--format", "loser-at:30", "--totals", "20,25",
                 "--roll", "3,5", "--json", home=tmp_path)
    assert result.returncode == 0, result.stderr
    moves = json.loads(result.stdout)
    assert all(0.0 <= m["value"] <= 1.0 + 1e-9 and "expected_score" in m for m in moves)
    assert [m["value"] for m in moves] == sorted((m["value"] for m in moves), reverse=True)


def saved(tmp_path: Path, events: list[object]) -> Path:
    match = Match(MatchConfig(Rules(tiles=3), GameFormat.parse("single"), ("a", "b")))
    log = match.to_log()
    log["events"] = [*log["events"], *events]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log))
    return path


@pytest.mark.parametrize(("events", "message"), [
    ([{"type": "roll", "seat": 0, "roll": [True, 2]}], "whole numbers"),
    ([{"type": "roll", "seat": 0, "roll": [2.0, 1.0]}], "whole numbers"),
    ([{"type": "roll", "seat": 0, "roll": [1, 2]}, {"type": "shut", "seat": 0}],
     "'tiles' must be a list"),
    ([{"type": "roll", "seat": 0, "roll": [1, 2]}, {"type": "shut", "seat": 0, "tiles": ["a"]}],
     "'tiles' must be a list"),
    ([{"type": "roll", "seat": 0, "roll": [1, 2]}, {"type": "shut", "seat": 0, "tiles": [3]},
      {"type": "roll", "seat": 0, "roll": [1, 2]}, {"type": "shut", "seat": 0, "tiles": [1, 2]},
      {"type": "roll", "seat": 1, "roll": [1, 1]}], "it is over"),
])
def test_review_of_a_bad_log_is_one_line_and_exit_2(tmp_path: Path, events: list[object],
                                                     message: str) -> None:
    result = run("review", str(saved(tmp_path, events)), home=tmp_path)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and message in result.stderr
    assert "Traceback" not in result.stderr


def test_review_of_a_binary_file_and_a_bad_plot_path_are_one_line(tmp_path: Path) -> None:
    binary = tmp_path / "x.json"
    binary.write_bytes(bytes(range(256)))
    for args in (("review", str(binary)), ("solve", "--plot", "/proc/x.png"),
                 ("hint", "--open", "")):
        result = run(*args, home=tmp_path)
        assert result.returncode == 2, args
        assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
