"""`shutthebox play` driven through standard input, as a person at a terminal would."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from shutthebox.cli import main
from shutthebox.coach import analyse
from shutthebox.match import GameFormat, Match, MatchConfig, load_log, replay
from shutthebox.rules import Rules
from shutthebox.tiles import format_tiles


def run(args: list[str], home: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SHUTTHEBOX_HOME": str(home), "COLUMNS": "100"}
    return subprocess.run([sys.executable, "-m", "shutthebox", "play", *args], input=stdin,
                          capture_output=True, text=True, timeout=120, env=env)


def answers_shutting_first_moves(match: Match, rng: random.Random) -> list[str]:
    """Play the match out, shutting the first legal move each time; answer what a player
    types for those moves."""
    answers = []
    while not match.is_over:
        if match.pending.is_chance:
            match.roll(rng)
        else:
            turn = match.pending.turn
            assert turn is not None
            move = turn.legal_actions()[0]
            answers.append(format_tiles(move))
            match.decide(move)
    return answers


def planned_answers(seed: int) -> tuple[list[str], int]:
    """The answers a player shutting the first legal move gives, and the final score,
    found by playing the same seeded game through the engine."""
    match = Match(MatchConfig(Rules(), GameFormat.parse("solo"), ("Ann",)))
    answers = answers_shutting_first_moves(match, random.Random(seed))
    return answers, match.round_scores[0]


def test_a_whole_human_game_through_standard_input(tmp_path: Path) -> None:
    answers, score = planned_answers(seed=5)
    typed = ["13", "9 9", "?", "h", *answers]
    result = run(["--players", "Ann", "--seed", "5"], tmp_path, "\n".join(typed) + "\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Shut the Box · Solo game" in out
    assert "tile 13 is not in this box: its tiles go from 1 to 9" in out
    assert "tile 9 is named twice" in out
    assert "legal:" in out and "hint: every legal move ranked" in out
    assert "Hint (expected score), best first" in out
    assert f"score {score}" in out
    saved = [line for line in out.splitlines() if line.startswith("game saved to ")]
    assert len(saved) == 1
    log = load_log(Path(saved[0].removeprefix("game saved to ")))
    assert replay(log).round_scores == {0: score}
    assert Path(saved[0].removeprefix("game saved to ")).parent == tmp_path / "games"
    lessons = analyse(log).summary(["Ann"])
    assert lessons and lessons[0].startswith("Ann: accuracy ")
    for line in lessons:   # the coach's own sentences, as the console wrapped them
        assert line in " ".join(out.split())


def test_a_game_of_computers_ends_without_lessons(tmp_path: Path) -> None:
    result = run(["--players", "cpu:random,cpu", "--seed", "3", "--fast"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert "wins!" in result.stdout and "accuracy" not in result.stdout


def test_quitting_asks_first_and_saves_the_game_unfinished(tmp_path: Path) -> None:
    result = run(["--players", "Ann,Bob", "--seed", "1"], tmp_path, "q\nn\nq\ny\n")
    assert result.returncode == 0
    assert result.stdout.count("Quit? The game is saved") == 2
    assert "game saved unfinished to" in result.stdout
    logs = list((tmp_path / "games").glob("*.json"))
    assert len(logs) == 1 and not replay(load_log(logs[0])).is_over


def test_computer_players_play_a_whole_game_without_input(tmp_path: Path) -> None:
    result = run(["--players", "cpu,cpu", "--seed", "7"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert "CPU 1 (hard) wins!" in result.stdout or "CPU 2 (hard) wins!" in result.stdout
    again = run(["--players", "cpu,cpu", "--seed", "7", "--json"], tmp_path)
    data = json.loads(again.stdout)
    assert data["finished"] is True and data["winners"]
    assert data["winners"][0] in result.stdout
    assert replay(load_log(Path(data["log"]))).is_over


def test_betting_session_prints_the_ledger(tmp_path: Path) -> None:
    result = run(["--players", "cpu:random,cpu:highest-first", "--stake", "0.50",
                  "--games", "3", "--seed", "2", "--fast"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Ledger after 3 games" in result.stdout
    assert "pot: 1.00" in result.stdout


@pytest.mark.parametrize(("fmt", "extra"), [
    ("rounds:2", []), ("elimination:45", []), ("loser-at:60", []),
    ("race:100", ["--scoring", "covered"]), ("battle", [])])
def test_every_format_runs_with_computer_players(
        fmt: str, extra: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("SHUTTHEBOX_HOME", str(tmp_path))
    main(["play", "--players", "cpu:random,cpu:heuristic", "--format", fmt, "--seed", "4",
          "--json", *extra])
    result = json.loads(capsys.readouterr().out)
    assert result["winners"] and result["finished"], fmt
    assert replay(load_log(Path(result["log"]))).is_over
