"""The command line's words: the version, help that names what it means, one order for a
move's tiles, presets that are the same rules saying so, a review that numbers decisions one
way and names each error once, the reader spoken to; and games in a home that cannot be
written."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path

import pytest

from shutthebox.cli import main
from shutthebox.plots import moment_places
from shutthebox.rules import PRESETS, preset
from shutthebox.strategies import format_move
from shutthebox.tiles import mask_of


def run(*args: str, home: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SHUTTHEBOX_HOME": str(home), "COLUMNS": "120", "LANG": "C"}
    env.pop("LANGUAGE", None)
    env.pop("LC_ALL", None)
    return subprocess.run([sys.executable, "-m", "shutthebox", *args], input=stdin,
                          capture_output=True, text=True, timeout=120, env=env)


@pytest.fixture
def unwritable(tmp_path: Path) -> Path:
    """A data folder no one can create, root included: its path goes through a file."""
    (tmp_path / "file").write_text("")
    return tmp_path / "file" / "home"


# --- version and help ------------------------------------------------------------------

def test_version_prints_the_installed_version(tmp_path: Path) -> None:
    result = run("--version", home=tmp_path)
    assert result.returncode == 0
    assert result.stdout.strip() == f"shutthebox {version('shutthebox')}"


@pytest.mark.parametrize("command", [[], ["play"], ["hint"], ["review"], ["simulate"],
                                     ["games"], ["serve"], ["rules"], ["daily"]])
def test_no_flag_shows_a_bool_type_in_help(command: list[str], tmp_path: Path) -> None:
    result = run(*command, "--help", home=tmp_path)
    assert result.returncode == 0
    assert "--help" in result.stdout and "<bool>" not in result.stdout


def test_play_help_names_the_data_folder_it_means(tmp_path: Path) -> None:
    home = tmp_path / "somewhere"
    shown = " ".join(run("play", "--help", home=home).stdout.replace("│", " ").split())
    assert "README" not in shown
    assert f"{home / 'games'}" in shown and f"{home}" in shown
    assert "SHUTTHEBOX_HOME" in shown and "--no-save" in shown


# --- tiles and presets -----------------------------------------------------------------

def test_a_move_is_written_lowest_tile_first() -> None:
    assert format_move(mask_of([7, 1])) == "1 7"


def test_hint_writes_moves_lowest_tile_first(tmp_path: Path) -> None:
    out = run("hint", "--open", "1,2,3,4,5,7,8", "--roll", "3,5", home=tmp_path).stdout
    assert re.search(r"│\s+1 7 │", out) and not re.search(r"│\s+7 1 │", out)


def test_children_is_another_name_for_classic(tmp_path: Path) -> None:
    assert PRESETS["children"].alias_of == "classic"
    assert preset("children") == preset("classic")
    listed = {p["name"]: p for p in json.loads(run("rules", "--json", home=tmp_path).stdout)}
    assert listed["children"]["alias_of"] == "classic" and listed["classic"]["alias_of"] is None
    shown = run("rules", "children", home=tmp_path).stdout
    assert "another name for classic" in shown


def test_presets_with_the_same_rules_are_aliases() -> None:
    for name, entry in PRESETS.items():
        twins = [other for other, e in PRESETS.items() if other != name and e.rules == entry.rules]
        for twin in twins:
            assert entry.alias_of == twin or PRESETS[twin].alias_of == name, (name, twin)


# --- review ----------------------------------------------------------------------------

def test_review_numbers_decisions_the_same_in_its_table_chart_and_json(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        game_of_the_reader: Callable[[Path], Path]) -> None:
    game = game_of_the_reader(tmp_path / "game.json")
    main(["review", str(game), "--json"])
    data = json.loads(capsys.readouterr().out)
    numbers = [d["number"] for d in data["decisions"]]
    assert numbers == list(range(1, len(numbers) + 1))
    by_index = {d["index"]: d["number"] for d in data["decisions"]}
    assert all(mark["number"] == by_index[mark["index"]] for mark in data["marks"])
    decisions = [m for m in data["moments"] if m["kind"] == "decision"]
    assert [m["number"] for m in decisions] == numbers
    places = moment_places(data["moments"])
    assert [p for p, m in zip(places, data["moments"], strict=True)
            if m["kind"] == "decision"] == [float(n) for n in numbers]
    assert places == sorted(places)
    main(["review", str(game)])
    table = capsys.readouterr().out
    rows = re.findall(r"^│ (\d+)\s+│", table, re.MULTILINE)
    assert [int(n) for n in rows] == numbers
    for line in re.findall(r"^#(\d+): ", table, re.MULTILINE):
        assert int(line) in numbers


def test_review_names_each_error_once_and_calls_totals_totals(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        game_of_the_reader: Callable[[Path], Path]) -> None:
    game = game_of_the_reader(tmp_path / "game.json")
    main(["review", str(game)])
    out = " ".join(capsys.readouterr().out.split())
    assert "on average" not in out
    assert re.search(r"Your decisions cost [\d.]+ (percentage )?points.* in total", out)
    assert not re.search(r"\d+ mistakes? cost", out)   # the count by size is the accuracy's


def test_the_reader_is_spoken_to_never_named_you(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        game_of_the_reader: Callable[[Path], Path]) -> None:
    game = game_of_the_reader(tmp_path / "game.json")
    main(["review", str(game)])
    out = capsys.readouterr().out
    assert "You's" not in out and "You:" not in out.replace("You: started", "")
    assert "Your accuracy: " in out
    assert "Ann: accuracy" in out


def test_the_summary_at_a_games_end_says_your_costliest_mistake(
        tmp_path: Path, game_of_the_reader: Callable[[Path], Path]) -> None:
    from shutthebox.coach import analyse

    lines = analyse(json.loads(game_of_the_reader(tmp_path / "game.json").read_text())) \
        .summary(["You"])
    assert not any("You's" in line for line in lines)
    assert lines[0].startswith("Your accuracy: ")
    assert any(line.startswith("Your costliest mistake: ") for line in lines)


# --- a home that cannot be written ------------------------------------------------------

def test_computers_play_in_a_home_that_cannot_be_written(unwritable: Path) -> None:
    result = run("play", "--players", "cpu,cpu", "--seed", "3", "--json", home=unwritable)
    assert result.returncode == 0, result.stderr
    played = json.loads(result.stdout)
    assert played["finished"] and played["log"] is None
    assert result.stderr.count("\n") == 1 and "not saved" in result.stderr
    assert "SHUTTHEBOX_HOME" in result.stderr and "Traceback" not in result.stderr
    assert not unwritable.exists()


def test_no_save_plays_a_game_with_people_and_writes_nothing(unwritable: Path,
                                                              tmp_path: Path) -> None:
    answers = "\n".join(["1", "2", "3", "1 2", "4", "1 3"] * 20)
    result = run("play", "--players", "Ann", "--tiles", "4", "--seed", "1", "--plain",
                 "--no-save", home=unwritable, stdin=answers)
    assert result.returncode == 0, result.stderr
    assert "game saved" not in result.stdout and result.stderr == ""
    writable = tmp_path / "home"
    result = run("play", "--players", "cpu,cpu", "--no-save", "--json", home=writable)
    assert result.returncode == 0 and not writable.exists()


def test_a_game_that_must_be_saved_says_so_in_one_line(unwritable: Path) -> None:
    result = run("play", "--players", "Ann,cpu", "--plain", home=unwritable, stdin="8\n")
    assert result.returncode == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("shutthebox: error: ")
    assert "SHUTTHEBOX_HOME" in lines[0] and "--no-save" in lines[0]
    assert str(unwritable) in lines[0] and "Traceback" not in result.stderr


def test_resume_in_a_home_that_cannot_be_written_says_so_in_one_line(unwritable: Path) -> None:
    result = run("play", "--resume", home=unwritable)
    assert result.returncode != 0 and len(result.stderr.splitlines()) == 1
    assert "Traceback" not in result.stderr
