"""Every test runs with a data folder of its own, never the user's.

The package keeps its saved games and its solved match tables in a per-user data folder
(:func:`shutthebox.paths.data_home`). A test run must leave the user's untouched, so this
file points ``SHUTTHEBOX_HOME`` at a temporary folder:

- as soon as it is imported, for the whole process: the doctests under ``src/`` and the
  servers and commands the tests start as subprocesses (they inherit the environment) are
  covered too, since every file is collected before the first test runs;
- for each test, a fresh folder of its own (saved games never leak from one test into the
  next); its ``match`` folder is the process's, so a match table is solved once per process,
  as on a user's machine.

At the end of the run the user's folder is compared with what it was at the start, and a
change fails the run.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from shutthebox.paths import data_home

USER_DATA = data_home()
"""The user's own data folder, as the environment named it before the tests."""


def folder_state(folder: Path) -> list[tuple[str, int, int]]:
    """Each file under ``folder`` with its size and time: what a run must not change."""
    if not folder.exists():
        return []
    return sorted((str(path.relative_to(folder)), path.lstat().st_size,
                   path.lstat().st_mtime_ns) for path in folder.rglob("*"))


USER_DATA_BEFORE = folder_state(USER_DATA)
PROCESS_DATA = Path(tempfile.mkdtemp(prefix="shutthebox-tests-"))
"""This process's data folder: the match tables, and every test that does not name one."""
(PROCESS_DATA / "match").mkdir()
os.environ["SHUTTHEBOX_HOME"] = str(PROCESS_DATA)
os.environ.pop("XDG_DATA_HOME", None)


@pytest.fixture(autouse=True)
def data_folder_of_its_own(tmp_path_factory: pytest.TempPathFactory,
                           monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh data folder for the test, sharing the process's solved match tables."""
    folder = tmp_path_factory.mktemp("data")
    (folder / "match").symlink_to(PROCESS_DATA / "match", target_is_directory=True)
    monkeypatch.setenv("SHUTTHEBOX_HOME", str(folder))
    yield folder


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the run if it changed the user's data folder; remove the process's folder."""
    shutil.rmtree(PROCESS_DATA, ignore_errors=True)
    if folder_state(USER_DATA) != USER_DATA_BEFORE:
        print(f"\nthe test run changed the user's data folder {USER_DATA}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(scope="session")
def game_of_the_reader() -> Callable[[Path], Path]:
    """Write, at a path, the log of a finished single round (six tiles) between the reader
    (the player named ``You``, playing at random) and the optimal player ``Ann``."""
    import json
    import random

    from shutthebox.match import GameFormat, Match, MatchConfig
    from shutthebox.rules import Rules
    from shutthebox.strategies import make_strategy

    def write(path: Path) -> Path:
        rules = Rules(tiles=6)
        match = Match(MatchConfig(rules, GameFormat.parse("single"), ("You", "Ann")))
        players = [make_strategy("random", rules, random.Random(1)),
                   make_strategy("optimal", rules, random.Random(2))]
        rng = random.Random(3)
        while not match.is_over:
            pending = match.pending
            if pending.is_chance:
                match.roll(rng)
            else:
                assert pending.seat is not None and pending.turn is not None
                match.decide(players[pending.seat].choose(pending.turn, match.situation()))
        path.write_text(json.dumps(match.to_log()))
        return path

    return write
