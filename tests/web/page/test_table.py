"""Friends who come and go, in the page, as three friends would, each in a browser of their
own: Ann makes a game with a turn clock and two seats for friends, Bo and Cy join by their
links, and every board shows who is at the table; Bo closes his page mid-game, every board
marks him gone, his clock runs out three times and the computer plays his seat; he opens
the game again and takes his seat back; Ann pauses the clock with her host's button, and
Bo plays his move himself. Only Ann, the host, has the host's controls. Screenshots go to
the folder named by $SHUTTHEBOX_SCREENSHOTS (table-presence, table-friend-left,
table-seat-to-computer,
table-friend-back, table-bo-plays-again, table-host-360).
"""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import Browser, Page

from tests.web.legal import first_legal
from tests.web.page.browsing import NEXT_ACTION, join_by_invite, open_page, shot, tokens_of
from tests.web.webserver import Server

CLOCK = 3
"""Seconds a decision: short, so that the test waits little for three timeouts."""


def drive(server: Server, game: str, tokens: dict[int, str], done: Any,
          seconds: float = 90) -> dict[str, Any]:
    """The seats of ``tokens`` play their first legal moves (through the API, as fast as a
    page would) until ``done(state)``; the pages follow live."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        state: dict[str, Any] = server.get(f"/api/games/{game}").json()
        if done(state):
            return state
        pending = state["pending"]
        if state["status"] == "playing" and pending["human"] and pending["seat"] in tokens:
            path, body = first_legal(state)
            moved = server.post(path, body, token=tokens[pending["seat"]])
            assert moved.status_code in (200, 409), moved.text
            continue
        time.sleep(0.05)
    raise AssertionError("not reached in time")


def start_game(page: Page, players: list[tuple[str, str]]) -> str:
    """Fills the rest of the new-game form already open (three rounds) and starts."""
    seats = page.locator("#seats li")
    while seats.count() < len(players):
        page.click("#add-seat")
    for row, (name, kind) in enumerate(players):
        seats.nth(row).locator(".seat-name").fill(name)
        seats.nth(row).locator(".seat-kind").select_option(kind)
    page.select_option("#format", "rounds")
    page.fill("#format-number", "3")
    page.click("#start")
    page.wait_for_url("**/games/*")
    page.wait_for_selector("#tiles .tile")
    return str(page.evaluate("location.pathname")).rsplit("/", 1)[-1]


def marks(page: Page) -> dict[int, str]:
    """Each seat's presence mark on the board: online, gone (or hidden)."""
    found: dict[int, str] = {}
    for mark in page.query_selector_all("#players .presence"):
        seat = int(mark.get_attribute("data-seat") or -1)
        classes = mark.get_attribute("class") or ""
        found[seat] = "online" if "online" in classes else "gone" if "gone" in classes \
            else "hidden"
    return found


def test_a_friend_leaves_the_clock_hands_his_seat_to_the_computer_and_he_takes_it_back(
        browser: Browser, server: Server) -> None:
    ann, ann_errors = open_page(browser)
    ann.goto(server.url)
    ann.wait_for_selector("#clock option", state="attached")
    ann.click("#more-options > summary")
    offered = ann.eval_on_selector_all("#clock option", "(options) => options.map(o => o.value)")
    assert offered[0] == "0" and len(offered) >= 3          # off, or seconds a move
    # a clock shorter than the form offers, for a test that waits for three timeouts
    ann.evaluate(f"document.getElementById('clock').add(new Option('{CLOCK} s', '{CLOCK}'))")
    ann.select_option("#clock", str(CLOCK))
    game = start_game(ann, [("Ann", "here"), ("Friend", "open"), ("Friend 2", "open")])
    links = [ann.input_value(f"#share .invite:nth-of-type({n}) .share-link") for n in (1, 2)]
    joined = []
    for name, link in (("Bo", links[0]), ("Cy", links[1])):
        page, errors = open_page(browser)
        join_by_invite(page, link, name, game)
        joined.append((page, errors))
    (bo, bo_errors), (cy, cy_errors) = joined
    tokens = {0: tokens_of(ann, game)["0"], 1: tokens_of(bo, game)["1"],
              2: tokens_of(cy, game)["2"]}

    # Every board shows the three friends at the table; only the host has the controls.
    for page in (ann, bo, cy):
        page.wait_for_function("() => document.querySelectorAll("
                               "'#players .presence.online').length === 3")
    assert ann.is_visible("#host-controls") and not cy.is_visible("#host-controls")
    assert not bo.is_visible("#host-controls")
    ann.wait_for_selector("#clock-left:not([hidden])")
    shot(ann, "table-presence")

    # Ann and Cy play; Bo closes his page when his turn comes.
    drive(server, game, {0: tokens[0], 2: tokens[2]},
          lambda s: s["pending"]["seat"] == 1 and s["pending"]["human"])
    bo.context.close()
    assert bo_errors == []
    ann.wait_for_function("() => document.getElementById('table-news').textContent"
                          " === 'Bo left'")
    assert marks(ann)[1] == "gone" and marks(cy)[1] == "gone"
    shot(ann, "table-friend-left")

    # His clock runs out three times: the computer plays his seat, every board says so.
    away = drive(server, game, {0: tokens[0], 2: tokens[2]},
                 lambda s: 1 in s["table"]["away"] or s["status"] == "over")
    assert away["status"] == "playing", "the game ended before Bo's third timeout"
    for page in (ann, cy):
        page.wait_for_function(
            "() => [...document.querySelectorAll('#log li')].some(li => li.textContent"
            ".startsWith('Bo missed 3 turns in a row'))")
        page.wait_for_selector("#players .presence[data-seat='1'] >> text=the computer plays")
    shot(cy, "table-seat-to-computer")

    # Bo opens the game again (the same browser's tokens): his seat is his again.
    back, back_errors = open_page(browser)
    back.goto(server.url)
    back.evaluate("([g, t]) => localStorage.setItem('shutthebox.tokens', "
                  "JSON.stringify({[g]: {1: t}}))", [game, tokens[1]])
    back.goto(f"{server.url}/games/{game}")
    for page in (ann, cy, back):
        page.wait_for_function(
            "() => [...document.querySelectorAll('#log li')].some(li => li.textContent"
            " === 'Bo is back and plays again')")
        page.wait_for_function("() => document.querySelectorAll("
                               "'#players .presence.online').length === 3")
    shot(ann, "table-friend-back")

    # The host pauses the clock (her board's button), and Bo plays his next move himself,
    # on his own board, whatever the load of the machine running this test.
    ann.click("#clock-pause")
    drive(server, game, {}, lambda s: s["table"]["paused"], seconds=10)
    ann.wait_for_selector("#clock-resume:not([hidden])")
    drive(server, game, {0: tokens[0], 2: tokens[2]},
          lambda s: s["status"] == "over" or (s["pending"]["seat"] == 1
                                              and s["pending"]["human"]))
    if server.get(f"/api/games/{game}").json()["status"] == "playing":
        action = back.wait_for_function(NEXT_ACTION).json_value()
        now = server.get(f"/api/games/{game}").json()
        before = now["event_count"]
        assert action in ("roll", "two-dice", "shut")
        assert back.text_content("#clock-left") == "The clock is paused"
        if action == "shut":
            for tile in now["pending"]["legal"][0]:
                back.click(f"#tiles .tile[data-tile='{tile}']")
        back.click(f"#{action}")
        after = drive(server, game, {}, lambda s: s["event_count"] > before, seconds=10)
        mine = [e for e in after["events"][before:] if e.get("seat") == 1]
        assert mine and all(e["type"] != "timeout" for e in after["events"][before:])
        shot(back, "table-bo-plays-again")
    # The host's board holds on a small phone: no sideways scrolling at 360 px.
    ann.set_viewport_size({"width": 360, "height": 740})
    ann.wait_for_timeout(300)
    assert ann.evaluate("document.documentElement.scrollWidth") <= 360
    shot(ann, "table-host-360", full_page=True)
    for page in (ann, cy, back):
        page.context.close()
    assert ann_errors == [] and cy_errors == [] and back_errors == []


SEEN = """
document.addEventListener("DOMContentLoaded", () => {
  window.seen = [];
  const look = () => {
    const players = document.getElementById("players");
    const news = document.getElementById("table-news");
    window.seen.push([players ? players.innerText : "", news ? news.textContent : ""]);
  };
  new MutationObserver(look).observe(document.body,
    { subtree: true, childList: true, characterData: true, attributes: true });
});
"""
"""Records what the players' table and the table's news say after each change of the page."""


def test_a_page_never_says_its_own_player_left_or_came(browser: Browser,
                                                        server: Server) -> None:
    """As a game opens (before the page's own live feed is counted) and after a reload, the
    host's row says she is at the table, and the news never tells her she arrived."""
    ann, errors = open_page(browser)
    ann.add_init_script(SEEN)
    ann.goto(server.url)
    ann.wait_for_selector("#preset option", state="attached")
    ann.click("#more-options > summary")
    seats = ann.locator("#seats li")
    while seats.count() < 2:
        ann.click("#add-seat")
    for row, (name, kind) in enumerate([("Ann", "here"), ("Friend", "open")]):
        seats.nth(row).locator(".seat-name").fill(name)
        seats.nth(row).locator(".seat-kind").select_option(kind)
    ann.click("#start")
    ann.wait_for_url("**/games/*")
    for _ in range(2):                  # the game as it opens, then reloaded
        ann.wait_for_function("() => document.querySelector('#players .presence.online')")
        time.sleep(1.0)                 # presence news arrives meanwhile
        seen = ann.evaluate("window.seen")
        rows = [players for players, _ in seen if "Ann" in players]
        assert rows and not any("left" in players for players in rows), rows
        assert not any("Ann" in news for _, news in seen), seen
        ann.reload()
    assert errors == []
