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

It also holds the one fixture that tests at two levels share: ``browser``, Debian's chromium
for the page's tests (``tests/web/page/``) and for the README's pictures
(``tests/test_docs_pictures.py``). Fixtures of a part of the package live in the
``conftest.py`` of its folder (``tests/web/conftest.py``, ``tests/web/page/conftest.py``);
no test module imports another.
"""

from __future__ import annotations

import gc
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from shutthebox.paths import data_home

if TYPE_CHECKING:
    from playwright.sync_api import Browser

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


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    # imported here: a run of tests that need no browser does not load Playwright
    from playwright.sync_api import sync_playwright

    from tests.web.page.browsing import ARGS, CHROMIUM

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the run if it changed the user's data folder; remove the process's folder;
    collect the garbage now (:func:`collect_garbage_now`)."""
    shutil.rmtree(PROCESS_DATA, ignore_errors=True)
    if folder_state(USER_DATA) != USER_DATA_BEFORE:
        print(f"\nthe test run changed the user's data folder {USER_DATA}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    collect_garbage_now()


def collect_garbage_now() -> None:
    """Collect the garbage, then freeze what is left (``gc.freeze``), so that the
    collections pytest makes after the session are quick.

    Under pytest-xdist a worker that has said it finished is given 5 seconds to end, after
    which execnet sends it SIGINT. pytest's last act is five full collections (to report
    unraisable exceptions), and a worker's heap holds the solver's tables, which take
    seconds to walk: the SIGINT then landed in a collection, inside hypothesis's
    garbage-collector callback, and printed a KeyboardInterrupt traceback although every
    test passed. The same collections made here, before the worker says it finished, still
    report what they find (pytest's hook is in place until the end); pytest's then walk
    only what was made since.
    """
    for _ in range(5):
        if gc.collect() == 0:
            break
    gc.freeze()



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


@pytest.fixture
def shutthebox(
        capsys: pytest.CaptureFixture[str]) -> Callable[..., subprocess.CompletedProcess[str]]:
    """``shutthebox ARGUMENTS`` run in this process (faster than a subprocess, and its
    errors caught the way a user meets them): exit status, standard output and error."""
    from shutthebox.cli import main

    def run(*arguments: str) -> subprocess.CompletedProcess[str]:
        try:
            main(list(arguments))
            status = 0
        except SystemExit as stopped:
            status = int(stopped.code or 0)
        out, err = capsys.readouterr()
        return subprocess.CompletedProcess(list(arguments), status, out, err)

    return run
