"""Accessibility and layout of every page: axe-core (through axe-playwright-python) finds no
serious or critical violation on desktop and phone, in the light and the dark theme, and no
page scrolls sideways at 360 px, even with a 40-character name.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, ViewportSize

from tests.web.page.browsing import PLAYS_UNNAMED, play_seat, serious, shot
from tests.web.webserver import Server

LONG_NAME = "Wolfeschlegelsteinhausenbergerdorff Sr.."  # 40 characters, one long word
assert len(LONG_NAME) == 40
SLASHED = "Al/Bo"
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
NARROW: ViewportSize = {"width": 360, "height": 740}

# Each page, and what shows that it has finished drawing (the first screen of a first visit,
# "new", with the dialog asking for a name).
READY = {
    "new": "#preset option >> nth=0",
    "join": "#join-form:not([hidden])",
    "board": "#view-game[data-busy=false][data-kind=shut]",
    "over": "#moment.final h2",
    "review": "#review table.review",
    "history": "#history .card",
    "stats": "#stats svg.chart",
}


@pytest.fixture(scope="module")
def games(server: Server) -> dict[str, Any]:
    """A finished game against a computer named with a slash (and a solo game of the
    player of that name, claimed as the 40-character one is), a game waiting for its roll to
    be shut, and an open invite; every here-seat has the 40-character name."""
    long_name = server.post("/api/players", {"name": LONG_NAME}).json()["token"]
    slashed = server.post("/api/players", {"name": SLASHED}).json()["token"]
    finished = server.post("/api/games", {
        "players": [{"name": LONG_NAME, "kind": "here"},
                    {"name": SLASHED, "kind": "computer", "computer": "medium"}],
        "format": "rounds:2", "pace": "instant"}, player=long_name).json()
    play_seat(server, finished["id"], finished["tokens"]["0"], 0, until_shut=False)
    playing = server.post("/api/games", {"players": [{"name": LONG_NAME, "kind": "here"}],
                                         "preset": "box-12"}, player=long_name).json()
    play_seat(server, playing["id"], playing["tokens"]["0"], 0, until_shut=True)
    for token in (long_name, slashed):          # the statistics count claimed players
        solo = server.post("/api/games", {"players": [{"name": "You", "kind": "here"}],
                                          "format": "solo"}, player=token).json()
        play_seat(server, solo["id"], solo["tokens"]["0"], 0, until_shut=False)
    invited = server.post("/api/games", {"players": [{"name": LONG_NAME, "kind": "here"},
                                                     {"name": "Friend", "kind": "open"}]},
                          player=long_name).json()
    tokens = {g["id"]: g["tokens"] for g in (finished, playing, invited)}
    return {"finished": finished["id"], "playing": playing["id"],
            "code": invited["invites"][0]["code"], "tokens": tokens}


def address(page: str, games: dict[str, Any]) -> str:
    return {"new": "/", "join": f"/join/{games['code']}", "board": f"/games/{games['playing']}",
            "over": f"/games/{games['finished']}", "review": f"/review/{games['finished']}",
            "history": "/history",
            "stats": f"/stats?player={httpx.QueryParams({'player': LONG_NAME})['player']}",
            }[page]


@pytest.fixture(params=["desktop", "phone", "dark"])
def look(request: pytest.FixtureRequest, browser: Browser,
         games: dict[str, Any]) -> Iterator[tuple[str, Page, list[str]]]:
    viewport = NARROW if request.param == "phone" else DESKTOP
    context = browser.new_context(viewport=viewport,
                                  color_scheme="dark" if request.param == "dark" else "light",
                                  is_mobile=request.param == "phone")
    stored = json.dumps(games["tokens"])
    context.add_init_script(f"localStorage.setItem('shutthebox.tokens', {json.dumps(stored)})")
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield request.param, page, errors
    context.close()
    assert errors == []


def open_view(page: Page, server: Server, games: dict[str, Any], view: str) -> None:
    page.goto(server.url + address(view, games))
    page.wait_for_selector(READY[view], state="attached")
    page.wait_for_timeout(100)                  # let the last animation frame settle


def test_no_serious_accessibility_violation_on_any_page(
        look: tuple[str, Page, list[str]], server: Server, games: dict[str, Any]) -> None:
    name, page, _ = look
    found = {}
    for view in READY:
        open_view(page, server, games, view)
        problems = serious(page)
        if problems:
            found[view] = problems
        if view in ("board", "stats", "over", "history"):
            shot(page, f"{name}-{view}", full_page=True)
    assert found == {}


def test_no_page_scrolls_sideways_at_360_px(browser: Browser, server: Server,
                                           games: dict[str, Any]) -> None:
    context = browser.new_context(viewport=NARROW, is_mobile=True, has_touch=True)
    context.add_init_script("localStorage.setItem('shutthebox.tokens', "
                            f"{json.dumps(json.dumps(games['tokens']))}); {PLAYS_UNNAMED}")
    page = context.new_page()
    wide = {}
    for view in READY:
        open_view(page, server, games, view)
        width = page.evaluate("[document.documentElement.scrollWidth, "
                              "document.documentElement.clientWidth]")
        if width[0] > width[1]:
            wide[view] = width
    page.goto(server.url)
    page.wait_for_selector(READY["new"], state="attached")
    page.click("#more-options > summary")
    page.locator("#seats li .seat-name").first.fill(LONG_NAME)
    page.click("#add-seat")
    width = page.evaluate("[document.documentElement.scrollWidth, "
                          "document.documentElement.clientWidth]")
    if width[0] > width[1]:
        wide["new, filled"] = width
    context.close()
    assert wide == {}


def test_statistics_list_every_player_and_find_slashed_names(
        browser: Browser, server: Server, games: dict[str, Any]) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(f"{server.url}/stats")
    page.wait_for_selector("#stats-players .chip")
    names = page.locator("#stats-players .chip .name").all_inner_texts()
    assert LONG_NAME in names and SLASHED in names
    page.click(f"#stats-players .chip:has-text('{SLASHED}')")
    page.wait_for_selector("#stats svg.chart")
    assert SLASHED in page.inner_text("#stats h2")
    axis = page.locator("#stats svg.chart .axis-title").all_text_contents()
    assert axis == ["Score of a turn", "Share of turns"]
    assert page.locator("#stats svg.chart .tick").count() > 6
    page.click(f"#stats-players .chip:has-text('{LONG_NAME[:20]}')")
    page.wait_for_selector("#solo-title")
    assert "Personal best" in page.inner_text("#stats")
    context.close()


def test_friendly_empty_states(browser: Browser, server: Server,
                               games: dict[str, Any]) -> None:
    """A browser without games; a name without finished games (while others have some)."""
    context = browser.new_context(viewport=NARROW)
    page = context.new_page()
    page.goto(f"{server.url}/history")
    page.wait_for_selector("#history .empty")
    assert "No games yet" in page.inner_text("#history")
    page.click("#history .empty a")
    page.wait_for_selector("#view-new:not([hidden])")
    page.goto(f"{server.url}/stats?player=Nobody%20at%20all")
    page.wait_for_selector("#stats .empty")
    assert "No finished games for “Nobody at all”" in page.inner_text("#stats")
    context.close()
