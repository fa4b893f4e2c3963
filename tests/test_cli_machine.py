"""The command line on a machine that refuses: one line on standard error, exit status 1 (2
for a bad argument), never a traceback, and the saved game where it was.

Each row runs the real ``shutthebox`` command in a subprocess. A read-only folder and a full
disk are real: a small tmpfs mounted for the test (skipped where mounting is not allowed);
an unreadable folder is real too: the command runs without the capabilities that let root
read anything (``setpriv``), or as an ordinary user.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from shutthebox.match import GameFormat, Match, MatchConfig, load_log, replay
from shutthebox.rules import Rules

DROP_OVERRIDE = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search",
                 "--inh-caps", "-dac_override,-dac_read_search"]


def run(args: list[str], home: Path, stdin: str | None = "", prefix: list[str] | None = None,
        env: dict[str, str] | None = None, timeout: float = 120
        ) -> subprocess.CompletedProcess[str]:
    """``shutthebox ARGS`` with ``home`` as its data folder; ``stdin=None`` closes it."""
    command = [*(prefix or []), sys.executable, "-m", "shutthebox", *args]
    environment = {**os.environ, "SHUTTHEBOX_HOME": str(home), "COLUMNS": "100",
                   **(env or {})}
    if stdin is None:
        return subprocess.run(["sh", "-c", 'exec "$@" <&-', "sh", *command],
                              capture_output=True, text=True, timeout=timeout,
                              env=environment)
    return subprocess.run(command, input=stdin, capture_output=True, text=True,
                          timeout=timeout, env=environment)


def one_line(result: subprocess.CompletedProcess[str], status: int, message: str) -> None:
    """The result is one error line with ``message`` and exit ``status``, no traceback."""
    assert "Traceback" not in result.stderr + result.stdout, result.stderr
    assert result.returncode == status, (result.returncode, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("shutthebox: error: "), lines[0]
    assert message in lines[0], lines[0]


def unfinished_game(home: Path, name: str = "saved") -> Path:
    """A saved game of Ann against a computer, Ann to shut tiles."""
    match = Match(MatchConfig(Rules(), GameFormat.parse("single"), ("Ann", "CPU 1 (hard)")))
    match.roll(random.Random(4))
    log = {**match.to_log(4), "computers": {"1": "hard"}}
    path = home / "games" / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(log, indent=1))
    return path


def game_files(home: Path) -> list[Path]:
    return sorted((home / "games").glob("*")) if (home / "games").exists() else []


@contextlib.contextmanager
def tmpfs(folder: Path, size: str) -> Iterator[Path]:
    """A small tmpfs at ``folder`` for the test (skipped where mounting is not allowed)."""
    folder.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs",
                              str(folder)], capture_output=True, text=True)
    if mounted.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def read_only(folder: Path) -> None:
    subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)


def fill(folder: Path) -> None:
    """Fill the file system of ``folder`` to the last byte."""
    with open(folder / "filler", "wb", buffering=0) as filler, contextlib.suppress(OSError):
        while True:
            filler.write(b"\0" * 4096)


def unreadable_prefix() -> list[str]:
    """How to run a command that a folder of mode 000 really refuses."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("root reads any folder, and setpriv is missing to drop that power")
    return DROP_OVERRIDE


# --- never a traceback: closed input, ASCII terminals, broken folders -----------------------


def test_closed_standard_input_refuses_a_game_with_people_and_writes_nothing(
        tmp_path: Path) -> None:
    result = run(["play"], tmp_path, stdin=None)
    one_line(result, 1, "standard input is closed, so nobody can type a move")
    assert game_files(tmp_path) == []


def test_closed_standard_input_still_plays_a_game_of_computers(tmp_path: Path) -> None:
    result = run(["play", "--players", "cpu,cpu", "--seed", "7"], tmp_path, stdin=None)
    assert result.returncode == 0, result.stderr
    assert replay(load_log(game_files(tmp_path)[0])).is_over


def test_an_ascii_terminal_gets_plain_characters_and_a_whole_game(tmp_path: Path) -> None:
    result = run(["play", "--players", "cpu,cpu", "--plain", "--seed", "3"], tmp_path,
                 env={"PYTHONIOENCODING": "ascii"})
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout.isascii()
    assert "game saved to" in result.stdout
    [saved] = game_files(tmp_path)
    assert replay(load_log(saved)).is_over


def test_a_crash_early_in_a_game_leaves_no_empty_file(tmp_path: Path) -> None:
    env = {**os.environ, "SHUTTHEBOX_HOME": str(tmp_path)}
    game = subprocess.Popen([sys.executable, "-m", "shutthebox", "play", "--plain",
                             "--players", "Ann,Bob"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert game.stdout is not None
    game.stdout.read(1)   # the game has started
    game.kill()
    game.communicate()
    assert all(path.stat().st_size for path in game_files(tmp_path))


def test_a_broken_pipe_early_in_a_game_is_quiet_and_leaves_no_empty_file(
        tmp_path: Path) -> None:
    env = {**os.environ, "SHUTTHEBOX_HOME": str(tmp_path)}
    result = subprocess.run(
        ["sh", "-c", f'"{sys.executable}" -m shutthebox play --plain --players cpu,cpu '
         '--format rounds:5 | head -c 10 >/dev/null; echo "$?"'],
        capture_output=True, text=True, timeout=120, env=env)
    assert "Traceback" not in result.stderr, result.stderr
    for path in game_files(tmp_path):
        assert path.suffix == ".json" and path.stat().st_size
        replay(load_log(path))


GAMES_FOLDER_CASES: dict[str, tuple[Callable[[Path], object], list[str], int, str]] = {
    "symlink loop": (lambda home: (home / "games" / "loop.json").symlink_to("loop.json"),
                     ["games"], 0, ""),
    "dangling symlink": (lambda home: (home / "games" / "gone.json").symlink_to("nowhere"),
                         ["games"], 0, ""),
    "games folder is a file, games": (
        lambda home: (home / "games").write_text("a file"), ["games"], 1,
        "cannot read the saved games in"),
    "games folder is a file, play": (
        lambda home: (home / "games").write_text("a file"),
        ["play", "--plain", "--players", "Ann,cpu"], 1,
        "a file (or a broken link) stands in its place"),
}


@pytest.mark.parametrize("case", GAMES_FOLDER_CASES)
def test_a_broken_games_folder(case: str, tmp_path: Path) -> None:
    setup, args, status, message = GAMES_FOLDER_CASES[case]
    home = tmp_path / "home"
    (home / "games").mkdir(parents=True)
    if "file" in case:
        (home / "games").rmdir()
    else:
        unfinished_game(home)
    setup(home)
    result = run(args, home)
    if status:
        one_line(result, status, message)
    else:
        assert result.returncode == 0, result.stderr
        assert "Traceback" not in result.stderr
        listed = result.stdout
        assert "saved  unfinished" in listed
        assert ("loop  unreadable" in listed) or ("gone  unreadable" in listed), listed


@pytest.mark.parametrize("args", [["games"], ["play", "--plain", "--players", "Ann,cpu"]])
def test_the_data_folder_is_a_file(args: list[str], tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.write_text("a file, not a folder")
    result = run(args, home)
    one_line(result, 1, str(home))


def test_games_names_escapes_instead_of_printing_them(tmp_path: Path) -> None:
    path = unfinished_game(tmp_path)
    log = json.loads(path.read_text())
    log["players"][0] = "Ann\x1b[2J"
    path.write_text(json.dumps(log))
    (tmp_path / "games" / "clear\x1b[2J.json").write_text(json.dumps(log))
    result = run(["games"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert "\x1b" not in result.stdout
    assert "unreadable: the file has a player name that cannot be shown" in result.stdout
    assert "clear\\x1b[2J" in result.stdout


# --- read-only, unreadable, full ---------------------------------------------------------


@pytest.mark.parametrize(("args", "status", "message"), [
    (["play", "--plain", "--players", "Ann,cpu"], 1, "the file system is read-only"),
    (["play", "--plain", "--resume", "saved"], 1, "the file system is read-only"),
    (["play", "--plain", "--players", "cpu,cpu"], 0, "the game is not saved"),
    (["games"], 0, ""),
])
def test_a_read_only_data_folder(args: list[str], status: int, message: str,
                                 tmp_path: Path) -> None:
    with tmpfs(tmp_path / "home", "1m") as home:
        saved = unfinished_game(home)
        before = saved.read_bytes()
        read_only(home)
        result = run(args, home, stdin="q\ny\n")
        if status:
            one_line(result, status, message)
        elif message:   # computers alone play on, unsaved, and say so in one line
            assert result.returncode == 0, result.stderr
            assert result.stderr.count("\n") == 1 and message in result.stderr
            assert "SHUTTHEBOX_HOME" in result.stderr
        else:
            assert result.returncode == 0, result.stderr
            assert "saved  unfinished: round 1, Ann to play" in result.stdout
        assert saved.read_bytes() == before
        assert [p.name for p in game_files(home)] == ["saved.json"]


@pytest.mark.parametrize(("args", "message"), [
    (["games"], "cannot read the saved games in"),
    (["play", "--plain", "--resume"], "cannot read the saved games in"),
    (["play", "--plain", "--players", "Ann,cpu"], "permission denied"),
])
def test_an_unreadable_data_folder_says_so(args: list[str], message: str,
                                           tmp_path: Path) -> None:
    prefix = unreadable_prefix()
    home = tmp_path / "home"
    unfinished_game(home)
    (home / "games").chmod(0)
    (home).chmod(0o500)
    try:
        result = run(args, home, prefix=prefix)
    finally:
        (home).chmod(0o700)
        (home / "games").chmod(0o700)
    one_line(result, 1, message)
    assert "No saved games" not in result.stdout


def test_a_full_disk_keeps_the_last_save_and_says_the_save_failed(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "home", "256k") as home:
        saved = unfinished_game(home)
        before = saved.read_bytes()
        fill(home)
        answers = "\n".join(["8", "7 1", "6 2", "5 3", "4 4", "9"] * 3) + "\nq\ny\n"
        result = run(["play", "--plain", "--resume", "saved"], home, stdin=answers)
        one_line(result, 1, "no space left on the disk")
        assert "cannot save the game to" in result.stderr
        assert "game saved" not in result.stdout
        assert saved.read_bytes() == before
        assert [p.name for p in game_files(home)] == ["saved.json"]   # no .part


# --- bounded ---------------------------------------------------------------------------


def test_review_of_a_fifo_does_not_wait_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "game.json"
    os.mkfifo(fifo)
    started = time.monotonic()
    one_line(run(["review", str(fifo)], tmp_path, timeout=60), 2, "not a regular file")
    assert time.monotonic() - started < 30


# --- one game, one writer ---------------------------------------------------------------


def test_a_second_window_on_a_game_is_refused_and_told_who_has_it(tmp_path: Path) -> None:
    saved = unfinished_game(tmp_path)
    env = {**os.environ, "SHUTTHEBOX_HOME": str(tmp_path)}
    first = subprocess.Popen([sys.executable, "-m", "shutthebox", "play", "--plain",
                              "--resume", "saved"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=env)
    try:
        assert first.stdout is not None
        assert "resuming saved" in first.stdout.readline()
        second = run(["play", "--plain", "--resume", "saved"], tmp_path, stdin="q\ny\n")
        one_line(second, 1, f"the game 'saved' is open in another window (pid {first.pid} ")
        _, err = first.communicate("q\ny\n", timeout=60)
    finally:
        first.kill()
    assert first.returncode == 0, err
    third = run(["play", "--plain", "--resume", "saved"], tmp_path, stdin="q\ny\n")
    assert third.returncode == 0, third.stderr   # the first window let go of it
    assert not replay(load_log(saved)).is_over


# --- the user's data folder ---------------------------------------------------------------


def test_a_test_run_leaves_the_user_data_folder_untouched(tmp_path: Path) -> None:
    """Tests that solve match tables (doctests under src/ among them) and play games, run
    with a home of their own: its data folder must still not exist afterwards."""
    user = tmp_path / "user"
    user.mkdir()
    env = {name: value for name, value in os.environ.items()
           if name not in ("SHUTTHEBOX_HOME", "XDG_DATA_HOME", "PYTEST_XDIST_WORKER")}
    root = Path(__file__).resolve().parent.parent
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
         "tests/test_cli_startup.py", "src/shutthebox/__init__.py",
         "src/shutthebox/solver/matchplay"],
        cwd=root, env={**env, "HOME": str(user)}, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:]
    assert not (user / ".local" / "share" / "shutthebox").exists()
