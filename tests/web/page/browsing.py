"""What the browser tests of the page share: Debian's chromium and how it is started, the
sizes of a desktop and a phone, and the steps a player takes in the page (a new game, a move,
an invite), besides a seat played through the API and axe-core's serious findings.

The fixtures that start chromium and the server are in the conftest files
(``tests/conftest.py``'s ``browser``, ``tests/web/page/conftest.py``'s ``server`` and
``page``); this module is not a test module, so tests import from it."""

from __future__ import annotations

import os
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, ViewportSize

from tests.web.webserver import PLAIN, Server

CHROMIUM = Path("/usr/bin/chromium")
SHOTS_VARIABLE = "SHUTTHEBOX_SCREENSHOTS"     # a folder to keep the screenshots in, if set
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
# A reader who chose to play without a name of their own: the first screen does not ask.
PLAYS_UNNAMED = ("try { localStorage.setItem('shutthebox.player-skipped', '1'); }"
                 " catch (e) { /* a page with no storage of its own */ }")
PHONE: ViewportSize = {"width": 390, "height": 844}

# The control the page offers for the next action, or "over"; false while it is busy.
NEXT_ACTION = """() => {
  const view = document.getElementById('view-game');
  if (view.hidden || view.dataset.busy !== 'false') return false;
  if (view.dataset.kind === 'over') return 'over';
  for (const id of ['roll', 'two-dice', 'shut']) {
    if (!document.getElementById(id).hidden) return id;
  }
  return false;
}"""


def watch_console(page: Page) -> list[str]:
    """Collects console errors and uncaught exceptions of the page."""
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def open_page(browser: Browser, viewport: ViewportSize | None = None, asked: bool = False,
              **options: Any) -> tuple[Page, list[str]]:
    """A page in a fresh browser context (a device of its own), with its console watched.
    Its reader has chosen to play without a name unless ``asked``: then the first screen
    asks them for one, as it asks a new player."""
    context = browser.new_context(viewport=viewport or DESKTOP, **options)
    if not asked:
        context.add_init_script(PLAYS_UNNAMED)
    page = context.new_page()
    page.set_default_timeout(30_000)
    return page, watch_console(page)


def join_by_invite(page: Page, link: str, name: str, game: str) -> None:
    """A friend takes a seat on their own page: the invite link, a name (unless they have
    one on the server), Join, the game."""
    page.goto(link)
    page.wait_for_selector("#join-form:not([hidden])")
    if page.is_visible("#join-name"):
        page.fill("#join-name", name)
    page.click("#join-button")
    page.wait_for_url(f"**/games/{game}")


def tokens_of(page: Page, game: str) -> dict[str, str]:
    """The seat tokens the page keeps on its device for the game, by seat."""
    found: dict[str, str] = page.evaluate(
        "(g) => (JSON.parse(localStorage.getItem('shutthebox.tokens') || '{}')[g] || {})",
        game)
    return found


def shot(page: Page, name: str, full_page: bool = False, folder: Path | None = None) -> None:
    """A screenshot of the page into ``folder`` (the test's temporary folder) and, when the
    environment variable ``SHUTTHEBOX_SCREENSHOTS`` names a folder, there too; never into
    the repository."""
    kept = os.environ.get(SHOTS_VARIABLE)
    folders = [f for f in (folder, Path(kept) if kept else None) if f is not None]
    if not folders:
        return
    page.wait_for_timeout(400)                 # let the tiles' flip finish
    picture = page.screenshot(full_page=full_page)
    for where in folders:
        where.mkdir(parents=True, exist_ok=True)
        (where / f"{name}.png").write_bytes(picture)


def new_game(page: Page, server: Server, players: list[tuple[str, str]],
             game_format: str = "single", preset: str | None = None,
             format_number: int | None = None) -> str:
    """Fills the new-game form (players as (name, kind)) and starts; returns the game id."""
    page.goto(server.url)
    page.wait_for_selector("#preset option", state="attached")
    if page.is_visible("#player-dialog"):           # a new player is asked for a name
        page.click("#player-skip")
    if not page.locator("#more-options").evaluate("d => d.open"):
        page.click("#more-options > summary")       # the full form is behind More options
    seats = page.locator("#seats li")
    while seats.count() < len(players):
        page.click("#add-seat")
    while seats.count() > len(players):
        seats.last.locator(".remove").click()
    for row, (name, kind) in enumerate(players):
        seats.nth(row).locator(".seat-name").fill(name)
        seats.nth(row).locator(".seat-kind").select_option(kind)
    if preset:
        page.select_option("#preset", preset)
    page.select_option("#format", game_format)
    if format_number is not None:
        page.fill("#format-number", str(format_number))
    page.click("#start")
    page.wait_for_url("**/games/*")
    page.wait_for_selector("#tiles .tile")
    return game_id(page)


def game_id(page: Page) -> str:
    return str(page.evaluate("location.pathname")).rsplit("/", 1)[-1]


def events(page: Page) -> int:
    return int(page.get_attribute("#view-game", "data-events") or 0)


def wait_for_more_events(page: Page, count: int) -> None:
    page.wait_for_function(
        f"() => Number(document.getElementById('view-game').dataset.events) > {count}")


def next_action(page: Page, timeout: float = 60_000) -> str:
    return str(page.wait_for_function(NEXT_ACTION, timeout=timeout).json_value())


def first_legal_move(server: Server, game: str) -> list[int]:
    legal: list[list[int]] = server.get(f"/api/games/{game}").json()["pending"]["legal"]
    return legal[0]


def click_move(page: Page, server: Server, game: str, action: str,
               check_sum: bool = False) -> int:
    """Clicks the next action (after the tiles of the first legal move, for a shut) and waits
    for its events; answers the event count from before."""
    before = events(page)
    if action == "shut":
        move = first_legal_move(server, game)
        for tile in move:
            page.click(f'.tile[data-tile="{tile}"]')
        if check_sum:        # the server's sentence, the page fills in the tiles and sum
            picked = server.get("/api/choices").json()["sentences"]["picked_legal"]
            assert picked.format(tiles=" + ".join(map(str, sorted(move))), sum=sum(move)) \
                in page.inner_text("#status")
    page.click(f"#{action}")
    wait_for_more_events(page, before)
    return before


def act(server: Server, game: str, token: str, path: str, body: dict[str, Any]) -> Any:
    answer = httpx.post(f"{server.url}/api/games/{game}/{path}", json=body, timeout=30,
                        verify=PLAIN,
                        headers={"Authorization": f"Bearer {token}",
                                 "Idempotency-Key": uuid.uuid4().hex})
    assert answer.status_code == 200, answer.text
    return answer.json()


def play_seat(server: Server, game: str, token: str, seat: int, until_shut: bool) -> None:
    """Plays one seat through the API (first legal move), waiting out the computers."""
    for _ in range(500):
        state = server.get(f"/api/games/{game}").json()
        pending = state["pending"]
        if state["status"] == "over" or (until_shut and pending["kind"] == "shut"):
            return
        if pending["seat"] != seat:
            time.sleep(0.05)
            continue
        if pending["kind"] == "roll":
            act(server, game, token, "roll", {"event": state["event_count"]})
        elif pending["kind"] == "choose-dice":
            act(server, game, token, "dice", {"dice": 2, "event": state["event_count"]})
        elif pending["kind"] == "shut":
            act(server, game, token, "shut", {"tiles": pending["legal"][0],
                                              "event": state["event_count"]})
    raise AssertionError("the game did not end")


def serious(page: Page) -> list[str]:
    results = Axe().run(page)
    assert results.response["passes"], "axe-core did not run"
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:4]}"
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
