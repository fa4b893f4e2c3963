"""Online play in the page, as friends would: one browser creates a game with an open seat,
another joins by the link on a phone, both see each other's rolls live, a reload keeps the
seat, and a spectator sees the board without controls; as a game of friends ends, each page's
result over the board says its player's score against perfect play. Screenshots of the lobby,
the join page and both boards go to the folder named by $SHUTTHEBOX_SCREENSHOTS.
"""

from __future__ import annotations

import time

from playwright.sync_api import Browser, Page

from tests.web.page.browsing import (
    PHONE,
    act,
    click_move,
    events,
    join_by_invite,
    new_game,
    next_action,
    open_page,
    shot,
    tokens_of,
    wait_for_more_events,
)
from tests.web.webserver import Server


def test_two_friends_play_a_whole_game_live(browser: Browser, server: Server) -> None:
    ann, ann_errors = open_page(browser)
    # One round of a rounds match: a shut box does not end it, so Bo always gets a turn.
    game = new_game(ann, server, [("Ann", "here"), ("Friend", "open")],
                    game_format="rounds", format_number=1)
    ann.wait_for_function("() => { const qr = document.querySelector('#share img.qr');"
                          " return qr && qr.complete && qr.naturalWidth > 0; }")
    link = ann.input_value("#share .share-link")
    code = ann.inner_text("#share .code")
    assert link.endswith(f"/join/{code}")
    assert "Waiting for Friend" in ann.inner_text("#status")
    assert ann.locator("#roll").is_hidden()
    shot(ann, "friends-lobby")

    bo, bo_errors = open_page(browser, PHONE, is_mobile=True, has_touch=True)
    bo.goto(link)
    bo.wait_for_selector("#join-form:not([hidden])")
    assert "Ann" in bo.inner_text("#join-summary")
    shot(bo, "friends-join")
    bo.fill("#join-name", "Bo")
    bo.click("#join-button")
    bo.wait_for_url(f"**/games/{game}")
    ann.wait_for_selector("#share", state="hidden")       # Ann's page saw Bo arrive live
    assert "Bo" in ann.inner_text("#players")

    watcher, watcher_errors = open_page(browser)
    watcher.goto(f"{server.url}/games/{game}")
    watcher.wait_for_selector("#view-game[data-busy=false]")
    assert watcher.locator("#watching").is_visible()

    pages = {0: ann, 1: bo}
    reloaded = checked_live = False
    for _ in range(200):
        state = server.get(f"/api/games/{game}").json()
        if state["status"] == "over":
            break
        seat = state["pending"]["seat"]
        page, other = pages[seat], pages[1 - seat]
        action = next_action(page)
        if action == "over":
            break
        if seat == 1 and not reloaded:                    # a reload keeps Bo's seat
            bo.reload()
            action = next_action(bo)
            reloaded = True
        assert watcher.locator("#controls button:visible").count() == 0
        before = click_move(page, server, game, action)
        if action == "roll" and not checked_live:
            wait_for_more_events(other, before)           # the roll reached the other page
            roll_line = page.locator("#log li").last.text_content()
            assert other.locator("#log li").last.text_content() == roll_line
            shot(ann, "friends-board-ann")
            shot(bo, "friends-board-bo")
            checked_live = True
    for page in (ann, bo, watcher):
        page.wait_for_selector("#moment.final h2")
    assert reloaded and checked_live
    assert ann.inner_text("#moment h2") == bo.inner_text("#moment h2")
    shot(ann, "friends-over-ann", full_page=True)
    shot(bo, "friends-over-bo", full_page=True)
    shot(watcher, "friends-over-spectator", full_page=True)
    for page in (ann, bo, watcher):
        page.context.close()
    assert ann_errors == bo_errors == watcher_errors == []


def test_a_spectator_cannot_act(browser: Browser, server: Server) -> None:
    ann, ann_errors = open_page(browser)
    game = new_game(ann, server, [("Ann", "here"), ("Bo", "here")])
    next_action(ann)
    spectator: Page
    spectator, errors = open_page(browser)
    spectator.goto(f"{server.url}/games/{game}")
    spectator.wait_for_selector("#view-game[data-busy=false]")
    assert spectator.locator("#watching").is_visible()
    assert spectator.locator("#controls button:visible").count() == 0
    count = events(spectator)
    spectator.keyboard.press("Enter")
    spectator.keyboard.press("r")
    spectator.wait_for_timeout(300)
    assert server.get(f"/api/games/{game}").json()["event_count"] == count
    assert spectator.locator(".tile[aria-disabled=false]").count() == 0
    shot(spectator, "spectator-board")
    ann.context.close()
    spectator.context.close()
    assert ann_errors == errors == []


def test_every_friend_sees_the_score_against_perfect_play(browser: Browser,
                                                          server: Server) -> None:
    """Ann and Bo, each on a device of their own (one address, as at home), and a friend
    watching finish a game: each result over the board says the score against perfect play,
    the players' their own (all three pages ask for the review at once: the server works it
    out once for them)."""
    made = server.post("/api/games", {"players": [{"name": "Ann", "kind": "here"},
                                                  {"name": "Friend", "kind": "open"}],
                                      "rules": {"tiles": 4}}).json()
    game = made["id"]
    ann, ann_errors = open_page(browser)
    ann.goto(server.url)
    ann.evaluate("([g, tokens]) => localStorage.setItem('shutthebox.tokens', "
                 "JSON.stringify({[g]: tokens}))", [game, made["tokens"]])
    bo, bo_errors = open_page(browser, PHONE, is_mobile=True, has_touch=True)
    join_by_invite(bo, server.url + made["invites"][0]["link"], "Bo", game)
    ann.goto(f"{server.url}/games/{game}")
    watcher, watcher_errors = open_page(browser)
    watcher.goto(f"{server.url}/games/{game}")
    pages = (ann, bo, watcher)
    for page in pages:
        page.wait_for_selector("#view-game[data-busy=false]")
    tokens = {0: made["tokens"]["0"], 1: tokens_of(bo, game)["1"]}
    for _ in range(200):                     # the players' first legal moves, by the API
        state = server.get(f"/api/games/{game}").json()
        pending = state["pending"]
        if state["status"] == "over":
            break
        if not pending["human"]:
            time.sleep(0.05)
            continue
        path, body = (("roll", {}) if pending["kind"] == "roll" else
                      ("dice", {"dice": 2}) if pending["kind"] == "choose-dice" else
                      ("shut", {"tiles": pending["legal"][0]}))
        act(server, game, tokens[pending["seat"]], path,
            {**body, "event": state["event_count"]})
    assert state["status"] == "over"
    for page in pages:
        page.wait_for_selector("#moment.final.over-board h2")
        page.wait_for_function(
            "() => document.getElementById('against-perfect').textContent")
    review = server.get(f"/api/games/{game}/review").json()       # as the server keeps it
    for page, seat in ((ann, 0), (bo, 1)):          # each player's own, if they decided
        said = review["players"][seat]["verdict"] or review["verdict"]
        assert page.inner_text("#against-perfect") == said
    assert watcher.inner_text("#against-perfect") == review["verdict"]
    assert [p["verdict"] for p in review["players"]] == [
        next((v for v in review["verdicts"] if v.startswith(f"{name}: ")), None)
        for name in ("Ann", "Bo")]
    for page in pages:
        page.context.close()
    assert ann_errors == bo_errors == watcher_errors == []
