"""The page in Debian's chromium, driven by Playwright, against a real server.

Screenshots of the board and the game-over page are saved under test-artifacts/screenshots/.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, sync_playwright

from tests.webserver import Server

CHROMIUM = Path("/usr/bin/chromium")
SHOTS = Path(__file__).resolve().parent.parent / "test-artifacts" / "screenshots"

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")]

@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path).start()
    yield running
    running.kill()


@pytest.fixture
def page(server: Server) -> Iterator[Page]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"])
        page = browser.new_page(viewport={"width": 1000, "height": 900})
        page.set_default_timeout(20_000)
        yield page
        browser.close()


def start_game(page: Page, server: Server, humans_only: bool) -> str:
    page.goto(server.url)
    page.wait_for_selector("#preset option", state="attached")
    if humans_only:
        page.click("#seats li:nth-child(2) .remove")
    page.click("#new-game button[type=submit]")
    page.wait_for_selector("#tiles .tile")
    return str(page.evaluate("location.hash")).removeprefix("#game/")


def play_until_over(page: Page, server: Server, game_id: str, limit: int = 60) -> None:
    """Click through the game: roll, and shut the first legal move by clicking its tiles."""
    for _ in range(limit):
        page.wait_for_function(
            "() => !busy && game && (game.status === 'over' || game.pending.human)")
        state = server.get(f"/api/games/{game_id}").json()
        if state["status"] == "over":
            page.wait_for_selector("#over h3")
            return
        kind = state["pending"]["kind"]
        if kind == "roll":
            page.click("#roll")
        elif kind == "choose-dice":
            page.click("#two-dice")
        else:
            for tile in state["pending"]["legal"][0]:
                page.click(f'.tile[data-tile="{tile}"]')
            assert "adds up" in page.inner_text("#status")
            page.click("#shut")
        page.wait_for_function(
            f"() => game && game.event_count > {state['event_count']}")
    raise AssertionError("the game did not end")


def test_a_whole_solo_game_by_clicking(page: Page, server: Server) -> None:
    game_id = start_game(page, server, humans_only=True)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "board.png"))
    play_until_over(page, server, game_id)
    assert "Your score" in page.inner_text("#over")
    assert page.locator("#over table tbody tr").count() >= 1
    page.screenshot(path=str(SHOTS / "game-over.png"), full_page=True)


def test_hot_seat_against_a_computer_with_a_hint(page: Page, server: Server) -> None:
    game_id = start_game(page, server, humans_only=False)
    state = server.get(f"/api/games/{game_id}").json()
    if state["status"] != "over":
        page.click("#roll")
        page.wait_for_function("() => game && game.pending.kind !== 'roll'")
        if page.is_visible("#hint"):
            page.click("#hint")
            page.wait_for_selector("#hint-panel table")
            rows = page.locator("#hint-panel tbody tr")
            legal = server.get(f"/api/games/{game_id}").json()["pending"]["legal"]
            assert rows.count() == len(legal)
            assert "★" in rows.first.inner_text()
            page.screenshot(path=str(SHOTS / "hint.png"))
    play_until_over(page, server, game_id)
    text = page.inner_text("#over")
    assert "Winner" in text
    assert "Computer" in page.inner_text("#players")


def test_kill_the_server_mid_game_and_resume_in_the_page(page: Page, server: Server) -> None:
    game_id = start_game(page, server, humans_only=True)
    page.click("#roll")
    page.wait_for_function("() => game && game.pending.kind !== 'roll'")
    before = server.get(f"/api/games/{game_id}").json()
    server.kill()
    server.start()
    page.goto(server.url)
    page.click("nav button[data-view=history]")
    page.click(f'button[data-game="{game_id}"]')
    page.wait_for_selector("#tiles .tile")
    page.wait_for_function("() => game && !busy")
    resumed = page.evaluate("game.pending")
    assert resumed == before["pending"]
    play_until_over(page, server, game_id)
