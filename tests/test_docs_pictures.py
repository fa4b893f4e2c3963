"""The README's pictures, made by playing: the web board in Debian's chromium against a real
server, and the terminal game through Textual's own harness.

A normal run makes each picture in a temporary folder and checks it is a small PNG, so that
a change that breaks them shows. ``SHUTTHEBOX_WRITE_PICTURES=1`` writes them over the
committed ones in ``docs/images/`` instead.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import Browser

from shutthebox.match import GameFormat, MatchConfig
from shutthebox.rules import Rules
from shutthebox.terminal.app import ShutTheBoxApp
from shutthebox.terminal.session import GameSession
from tests.web.page.browsing import CHROMIUM, new_game, next_action
from tests.web.webserver import Server

IMAGES = Path(__file__).resolve().parent.parent / "docs" / "images"
LARGEST = 120_000
"""Bytes: the README's pictures are for a glance, not for zooming."""

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")


@pytest.fixture
def pictures(tmp_path: Path) -> Path:
    """Where the pictures go: the committed folder only when asked to."""
    return IMAGES if os.environ.get("SHUTTHEBOX_WRITE_PICTURES") == "1" else tmp_path


def shrink(png: Path) -> None:
    """Keep a screenshot small: a palette of 64 colours loses nothing a reader sees in flat
    user-interface colours."""
    with Image.open(png) as shot:
        small = shot.convert("RGB").quantize(colors=64, method=Image.Quantize.MEDIANCUT)
    small.save(png, optimize=True)


def check(png: Path) -> None:
    with Image.open(png) as shot:
        assert shot.format == "PNG" and shot.width >= 600
    assert png.stat().st_size < LARGEST, f"{png.name} is {png.stat().st_size:,} bytes"


@pytest.mark.browser
def test_the_web_board_picture(browser: Browser, pictures: Path, tmp_path: Path) -> None:
    server = Server(tmp_path).start()
    try:
        context = browser.new_context(viewport={"width": 760, "height": 620})
        page = context.new_page()
        page.set_default_timeout(30_000)
        new_game(page, server, [("Ann", "here"), ("Computer", "computer:hard")])
        next_action(page)
        page.click("#roll")
        page.wait_for_selector("#dice svg.die")
        next_action(page)
        page.wait_for_timeout(400)                 # let the tiles' flip finish
        page.screenshot(path=str(pictures / "web-board.png"))
        context.close()
    finally:
        server.kill()
    shrink(pictures / "web-board.png")
    check(pictures / "web-board.png")


def terminal_svg() -> str:
    """The terminal game at 80x24 after the first roll, with the hint panel open."""
    config = MatchConfig(Rules(), GameFormat.parse("single"), ("You", "CPU 1"))
    session = GameSession(config, {1: "hard"}, random.Random(3), 3, 1)
    app = ShutTheBoxApp(session, fast=True)

    async def play() -> str:
        async with app.run_test(size=(80, 24)) as pilot:
            while not session.human_to_act:
                await pilot.pause(0.02)
            if session.match.pending.kind == "choose-dice":
                await pilot.press("2")
            await pilot.press("h")
            await pilot.pause(0.3)
            return app.export_screenshot()

    # Playwright's sync API holds an event loop in this thread: the app runs in another.
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, play()).result()


@pytest.mark.browser
def test_the_terminal_game_picture(browser: Browser, pictures: Path, tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHUTTHEBOX_HOME", str(tmp_path))
    svg = terminal_svg()
    # Textual's SVG asks a font server for Fira Code; the picture uses the local monospace.
    svg = re.sub(r"@font-face\s*\{[^}]*\}", "", svg)
    page = browser.new_page(viewport={"width": 1000, "height": 700})
    page.set_content(f"<body style='margin:0;background:#fff'>{svg}</body>")
    page.locator("svg").first.screenshot(path=str(pictures / "terminal-game.png"))
    page.close()
    shrink(pictures / "terminal-game.png")
    check(pictures / "terminal-game.png")
