"""The terminal game as a player reads it (issue 24): each sentence and panel follows the game,
fits the terminal, and a demo of computers ends by itself. The full-screen game is driven by
Textual's own pilot; the terminal checks run the real command in a pseudo-terminal."""

from __future__ import annotations

import asyncio
import io
import os
import pty
import random
import select
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rich.console import Console

from shutthebox.cli.play import _wizard
from shutthebox.match import GameFormat, Match, MatchConfig, load_log, replay
from shutthebox.rules import Rules
from shutthebox.terminal.app import Display, ShutTheBoxApp
from shutthebox.terminal.board import scores_table
from shutthebox.terminal.game import Outcome
from shutthebox.terminal.panels import selection_text
from shutthebox.terminal.session import GameSession
from shutthebox.terminal.words import narrate
from shutthebox.tiles import tile_bit, tiles_of
from tests.test_play_cli import answers_shutting_first_moves
from tests.test_terminal_app import KEY_OF, flat, screen_text, session_of, settle


def test_your_turn_reads_you_are_playing() -> None:
    session = session_of(("You", "CPU 1 (hard)"), {1: "hard"}, seed=1)
    app = ShutTheBoxApp(session, fast=True)
    assert session.match.pending.is_chance and session.match.pending.seat == 0
    assert str(selection_text(session, app.selection, app.message, app.save_problem,
                              thinking=False)) == "You are playing (space skips)"


def test_a_shut_tile_cannot_be_selected() -> None:
    async def play() -> None:
        session = session_of(("Ann",), {}, game_format="solo", seed=5)
        app = ShutTheBoxApp(session, fast=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            turn = session.match.pending.turn
            assert turn is not None
            move = turn.legal_actions()[0]
            for tile in tiles_of(move):
                await pilot.press(KEY_OF[tile])
            await pilot.press("enter")
            await settle(app, pilot)
            if session.match.is_over:
                return
            shut = tiles_of(move)[0]
            await pilot.press(KEY_OF[shut])
            assert app.selection == 0
            assert f"tile {shut} is shut already" in screen_text(app, "#selection")
            await pilot.click(f"#tile-{shut}")
            assert not app.selection & tile_bit(shut)

    asyncio.run(play())


def test_the_hint_panel_follows_the_game_and_closes_at_the_end() -> None:
    async def play() -> None:
        session = session_of(("You", "CPU 1 (hard)"), {1: "hard"}, seed=2)
        app = ShutTheBoxApp(session)   # at the pace a person follows: the panel can be read
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await pilot.press("h")
            seen_waiting = False
            while not session.match.is_over:
                if session.human_to_act:
                    turn = session.match.pending.turn
                    assert turn is not None
                    if session.match.pending.kind == "choose-dice":
                        await pilot.press("2")
                    else:
                        for tile in tiles_of(turn.legal_actions()[0]):
                            await pilot.press(KEY_OF[tile])
                        await pilot.press("enter")
                    await pilot.pause(0.05)
                    continue
                if session.match.pending.is_decision:   # the computer decides
                    shown = str(app.query_one("#hint", Display).render())
                    assert shown in ("…", "The hint ranks your choices when it is your turn.")
                    seen_waiting = seen_waiting or "your turn" in shown
                await pilot.pause(0.05)
            await settle(app, pilot)
            assert seen_waiting
            assert not app.hint_shown
            assert "shown" not in app.query_one("#hint").classes

    asyncio.run(play())


def test_a_terminal_too_small_for_the_box_says_so() -> None:
    async def play() -> None:
        session = session_of(("Ann",), {}, game_format="solo", seed=5)
        app = ShutTheBoxApp(session, fast=True)
        async with app.run_test(size=(40, 10)) as pilot:
            await pilot.pause()
            words = flat(app, "#too-small")
            assert "This terminal is 40x10: the box needs 60x16" in words, words
            assert not app.query_one("#board").display or "cramped" in app.screen.classes
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            assert "cramped" not in app.screen.classes

    asyncio.run(play())


def test_the_players_table_keeps_names_whole_on_one_line() -> None:
    long_name = "A" * 40
    match = Match(MatchConfig(Rules(), GameFormat.parse("single"),
                              (long_name, "CPU 1 (hard)", "CPU 2 (medium)")))
    answers_shutting_first_moves(match, random.Random(1))      # played out
    console = Console(file=io.StringIO(), width=52 - 4)
    console.print(scores_table(match))
    text = console.file.getvalue()   # type: ignore[attr-defined]
    lines = text.splitlines()
    assert len(lines) == 4, text   # the header and one line per player
    assert long_name in text and "(hard)" in lines[2] and "★" in text


def test_the_setup_questions_fit_80_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []

    def answer(prompt: str = "") -> str:
        asked.append(prompt)
        return ""

    monkeypatch.setattr("builtins.input", answer)
    console = Console(file=io.StringIO(), width=200)
    session = _wizard(Rules(), None, 1, 1, console)
    session.close()
    printed = console.file.getvalue().splitlines()   # type: ignore[attr-defined]
    assert any(question.startswith("Format") for question in asked)
    assert all(len(line) <= 80 for line in [*asked, *printed]), [*asked, *printed]


def test_a_battle_says_how_it_is_won() -> None:
    config = MatchConfig(Rules(), GameFormat.parse("battle"), ("You", "Ann"))
    match = Match(config)
    first = next(e for e in match.events if e["type"] == "first")
    said = narrate(first, match)
    assert said is not None
    assert "You knock first" in said
    assert "the knocker wins by shutting every tile, the stander by standing every tile up " \
           "again" in said

    async def play() -> None:
        session = GameSession(config, {1: "hard"}, random.Random(1), 1)
        app = ShutTheBoxApp(session, fast=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert "To win: the knocker wins by shutting every tile" in flat(app, "#players")
            await pilot.press("q")

    asyncio.run(play())


def test_a_demo_of_computers_ends_by_itself() -> None:
    async def play() -> None:
        session = session_of(("CPU 1 (hard)", "CPU 2 (hard)"), {0: "hard", 1: "hard"}, seed=7)
        app = ShutTheBoxApp(session, fast=True)
        async with app.run_test(size=(80, 24)) as pilot:
            deadline = time.monotonic() + 60
            while app.is_running:
                assert time.monotonic() < deadline, "the demo waited for a key"
                await pilot.pause(0.05)
        assert app.return_value is Outcome.FINISHED
        assert session.path is not None
        assert replay(load_log(session.path)).is_over

    asyncio.run(play())


def in_a_terminal(args: list[str], home: Path, term: str, size: tuple[int, int] = (24, 80),
                  seconds: float = 120, keys: bytes = b"", after: str = "") -> tuple[int, str]:
    """Run ``shutthebox ARGS`` in a pseudo-terminal of ``size`` (rows, columns); its exit
    status and everything it wrote. ``keys`` are typed once the output shows ``after``."""
    import fcntl
    import termios

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", size[0], size[1], 0, 0))
    env = {**os.environ, "SHUTTHEBOX_HOME": str(home), "TERM": term}
    game = subprocess.Popen([sys.executable, "-m", "shutthebox", *args], stdin=follower,
                            stdout=follower, stderr=follower, env=env, close_fds=True)
    os.close(follower)
    out = b""
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([leader], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(leader, 65536)
                except OSError:   # the terminal's other end closed
                    break
                if not chunk:
                    break
                out += chunk
                if keys and after.encode() in out:
                    time.sleep(0.5)
                    os.write(leader, keys)
                    keys = b""
            elif game.poll() is not None:
                break
        status = game.wait(timeout=10)
    finally:
        game.kill()
        os.close(leader)
    return status, out.decode("utf-8", "replace")


def test_term_dumb_plays_in_lines(tmp_path: Path) -> None:
    status, out = in_a_terminal(["play", "--players", "cpu,cpu", "--seed", "7"], tmp_path,
                                term="dumb")
    assert status == 0, out
    assert "\x1b[?1049h" not in out   # no full screen
    assert "\x1b[38;2;" not in out    # no 24-bit colour
    assert "game saved to" in out and "Traceback" not in out


def test_a_full_screen_demo_ends_by_itself(tmp_path: Path) -> None:
    status, out = in_a_terminal(["play", "--players", "cpu,cpu", "--seed", "7", "--fast"],
                                tmp_path, term="xterm-256color")
    assert status == 0, out[-2000:]
    assert "game saved to" in out and "Traceback" not in out
    [saved] = list((tmp_path / "games").glob("*.json"))
    assert replay(load_log(saved)).is_over


def test_a_full_disk_in_the_full_screen_game_says_the_save_failed(tmp_path: Path) -> None:
    """It printed a 352-line traceback, then "game saved to ..." and exit 0 though the save
    failed: now the screen says "Not saved", the command line one line, exit 1, and the last
    good save is kept."""
    from tests.test_cli_machine import fill, game_files, tmpfs, unfinished_game

    with tmpfs(tmp_path / "home", "256k") as home:
        saved = unfinished_game(home)
        before = saved.read_bytes()
        fill(home)
        status, out = in_a_terminal(["play", "--resume", "saved"], home,
                                    term="xterm-256color", seconds=60, keys=b"q",
                                    after="Ann")
        assert status == 1, out[-2000:]
        assert "Traceback" not in out and "game saved to" not in out
        assert "no space left on the disk" in out
        assert saved.read_bytes() == before
        assert [p.name for p in game_files(home)] == ["saved.json"]
