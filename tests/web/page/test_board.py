"""The page in Debian's chromium, driven by Playwright, against a real server.

Whole games by mouse, by keyboard alone, a battle and a 12-tile game on a phone; a double
click rolls once; a server killed mid-game resumes with its log. Any console error fails the
test. Screenshots go to the folder named by $SHUTTHEBOX_SCREENSHOTS.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page

from tests.web.legal import first_legal
from tests.web.page.browsing import (
    CHROMIUM,
    PHONE,
    click_move,
    events,
    first_legal_move,
    game_id,
    new_game,
    next_action,
    open_page,
    shot,
    tokens_of,
    wait_for_more_events,
)
from tests.web.webserver import Server

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")]


def play_by_mouse(page: Page, server: Server, game: str, limit: int = 400) -> None:
    """Clicks through the game: roll (two dice when asked), and shut the first legal move
    by clicking its tiles."""
    for _ in range(limit):
        action = next_action(page)
        if action == "over":
            page.wait_for_selector("#moment.final h2")
            return
        click_move(page, server, game, action, check_sum=True)
    raise AssertionError("the game did not end")


KEY_OF_TILE = {10: "0", 11: "-", 12: "="}


def play_by_keyboard(page: Page, server: Server, game: str, limit: int = 200) -> None:
    """Plays with keys only: Enter rolls, digits pick tiles, Enter shuts; focus must already
    be where the next action is (no clicks, no focusing by the test)."""
    for _ in range(limit):
        action = next_action(page)
        if action == "over":
            page.wait_for_selector("#moment.final h2")
            return
        before = events(page)
        if action == "two-dice":
            page.keyboard.press("2")
        elif action == "roll":
            assert page.evaluate("document.activeElement.id") == "roll"
            page.keyboard.press("Enter")
        else:
            assert page.evaluate("document.activeElement.id") == "shut"
            for tile in first_legal_move(server, game):
                page.keyboard.press(KEY_OF_TILE.get(tile, str(tile)))
            assert page.evaluate("document.activeElement.id") == "shut"
            page.keyboard.press("Enter")
        wait_for_more_events(page, before)
    raise AssertionError("the game did not end")


ANNOUNCEMENTS = """() => {
  window.announced = [];
  const region = document.getElementById('announce');
  new MutationObserver(() => window.announced.push(region.textContent))
    .observe(region, {childList: true, characterData: true, subtree: true});
}"""


def test_a_whole_game_against_the_computer_by_mouse(page: Page, server: Server) -> None:
    game = new_game(page, server, [("Ann", "here"), ("Computer", "computer:hard")])
    assert page.inner_text("#game-title").startswith("One round")
    assert page.locator("#dice svg.die").count() == 0
    next_action(page)
    page.evaluate(ANNOUNCEMENTS)        # every sentence the live region says, kept in order
    page.click("#roll")
    page.wait_for_selector("#dice svg.die")
    assert page.locator("#dice svg.die circle.pip").count() >= 2
    page.wait_for_selector("#view-game[data-busy=false]")
    page.wait_for_function(        # (said, though another sentence may follow it at once)
        "() => window.announced.some((said) => said.includes('Ann rolls'))")
    assert page.locator("[aria-live]").count() == 1           # one region: what changed
    shot(page, "mouse-board-after-roll")
    page.keyboard.press("h")
    page.wait_for_selector("#hint-panel table")
    legal = server.get(f"/api/games/{game}").json()["pending"]["legal"]
    assert page.locator("#hint-panel tbody tr").count() == len(legal)
    assert "★" in page.locator("#hint-panel tbody tr").first.inner_text()
    sentences = server.get("/api/choices").json()["sentences"]     # the hint's own words
    assert page.inner_text("#hint-panel caption") in (sentences["hint_caption_score"],
                                                      sentences["hint_caption_chance"])
    assert sentences["hint_best"] in page.locator("#hint-panel tbody tr").first.inner_text()
    play_by_mouse(page, server, game)
    final = page.inner_text("#moment")
    assert "wins" in final or "share the win" in final
    assert page.locator("#moment table tbody tr").count() == 2
    log = page.text_content("#log") or ""
    assert "Ann rolls" in log      # and the computer's turn, unless Ann shut the box first
    assert "Computer rolls" in log or "Ann shuts the box!" in log
    shot(page, "mouse-game-over", full_page=True)
    page.click("#moment a[href^='/review/']")
    page.wait_for_selector("#review table.review")
    assert "Ann:" in page.inner_text("#review .verdicts")
    shot(page, "review", full_page=True)


def test_a_whole_game_by_keyboard_alone(page: Page, server: Server) -> None:
    page.goto(server.url)
    page.wait_for_selector("#preset option", state="attached")
    # Open More options, add a third seat and remove it, then start, by keyboard: Tab to a
    # control, then Enter.
    tab_to(page, "#more-options > summary")
    page.keyboard.press("Enter")
    tab_to(page, "#add-seat")
    page.keyboard.press("Enter")
    assert page.locator("#seats li").count() == 3
    assert page.evaluate("document.activeElement.classList.contains('seat-name')")
    tab_to(page, "#seats li:nth-child(3) .remove")
    page.keyboard.press("Enter")
    assert page.locator("#seats li").count() == 2
    tab_to(page, "#start")
    page.keyboard.press("Enter")
    page.wait_for_url("**/games/*")
    game = game_id(page)
    next_action(page)
    assert page.evaluate("document.activeElement.id") == "roll"
    page.keyboard.press("?")
    page.wait_for_selector("#keys[open]")
    shot(page, "keyboard-keys")
    page.keyboard.press("Escape")
    page.wait_for_selector("#keys:not([open])", state="attached")
    assert page.evaluate("document.activeElement.id") == "roll"
    page.keyboard.press("Enter")                   # roll
    next_action(page)
    first = first_legal_move(server, game)
    page.keyboard.press(KEY_OF_TILE.get(first[0], str(first[0])))
    assert page.locator(".tile.picked").count() == 1
    page.keyboard.press("Escape")                  # clears the picked tiles
    assert page.locator(".tile.picked").count() == 0
    shot(page, "keyboard-board")
    play_by_keyboard(page, server, game)      # against the computer: focus comes back
    assert "win" in page.inner_text("#moment h2")
    assert page.evaluate("document.activeElement.id") == "play-again"   # over the board
    tab_to(page, "#moment a[href^='/review/']")
    page.keyboard.press("Enter")
    page.wait_for_selector("#review table.review")
    shot(page, "keyboard-review", full_page=True)


def tab_to(page: Page, selector: str, limit: int = 80) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"{selector} is not reachable with Tab")


def play_battle_roles(page: Page, server: Server, game: str) -> list[str]:
    """Plays a battle in the page until the knocker is back after a stand (or it is over),
    checking the words and the marked tiles of each role; returns the roles seen."""
    roles: list[str] = []
    for _ in range(200):
        action = next_action(page)
        if action == "over" or roles[-2:] == ["stand", "knock"]:
            break
        if action == "shut":
            role = server.get(f"/api/games/{game}").json()["pending"]["role"]
            assert page.inner_text("#shut") == ("Stand up" if role == "stand" else "Knock down")
            marked = page.locator(".tile.usable").count()
            down = page.locator(".tile.usable.down").count()
            assert marked >= 1 and down == (marked if role == "stand" else 0)
            if role == "stand" and "stand" not in roles:
                shot(page, "battle-stand-up")
            if not roles or roles[-1] != role:
                roles.append(role)
        click_move(page, server, game, action)
    return roles


def test_a_battle_in_battle_words(browser: Browser, server: Server) -> None:
    """Both roles on one screen: knock down, then stand up, in the page; the rest of the
    battle is played through the API and reaches the page live. (A knocker who shuts the
    box in the first turn leaves nothing to stand up: then a new battle starts.)"""
    page, errors = open_page(browser, reduced_motion="reduce")
    for _ in range(5):
        game = new_game(page, server, [("Ann", "here"), ("Bo", "here")], "battle")
        assert page.inner_text("#game-title").startswith("Battle")
        if "stand" in play_battle_roles(page, server, game):
            break
    else:
        raise AssertionError("five knockers in a row shut the box in their first turn")
    tokens = tokens_of(page, game)
    for _ in range(2000):
        state = server.get(f"/api/games/{game}").json()
        if state["status"] == "over":
            break
        path, body = first_legal(state)
        server.post(path, body, token=tokens[str(state["pending"]["seat"])])
    page.wait_for_selector("#moment.final h2")
    assert "knocks down" in page.inner_text("#players")
    log = page.text_content("#log") or ""
    assert "Ann knocks down" in log and "Bo stands up" in log
    shot(page, "battle-over", full_page=True)
    page.context.close()
    assert errors == []


def test_twelve_tiles_on_a_phone(browser: Browser, server: Server) -> None:
    page, errors = open_page(browser, PHONE, is_mobile=True, has_touch=True)
    game = new_game(page, server, [("Ann", "here")], "solo", preset="box-12")
    next_action(page)
    tiles = page.locator("#tiles .tile")
    assert tiles.count() == 12
    boxes = [tiles.nth(i).bounding_box() for i in range(12)]
    assert all(b is not None for b in boxes)
    rows = sorted({round(b["y"]) for b in boxes if b})
    assert len(rows) == 2                                  # two balanced rows of six
    width = page.evaluate("document.documentElement.clientWidth")
    for i in range(12):
        box, label = boxes[i], tiles.nth(i).locator(".tile-label").bounding_box()
        assert box and label
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
        assert label["x"] >= box["x"] and label["x"] + label["width"] <= box["x"] + box["width"]
        centre = box["x"] + box["width"] / 2
        assert abs(label["x"] + label["width"] / 2 - centre) < 3
    shot(page, "phone-12-tiles")
    play_by_mouse(page, server, game)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, "phone-12-tiles-over", full_page=True)
    page.context.close()
    assert errors == []


def test_a_double_click_rolls_once(page: Page, server: Server) -> None:
    game = new_game(page, server, [("Ann", "here")], "solo")
    next_action(page)
    page.dblclick("#roll")
    page.wait_for_selector("#view-game[data-kind=shut], #view-game[data-kind=over]")
    page.wait_for_selector("#view-game[data-busy=false]")
    log = server.get(f"/api/games/{game}").json()["events"]
    assert [e["type"] for e in log].count("roll") == 1


def test_no_roll_animation_under_reduced_motion(browser: Browser, server: Server) -> None:
    page, errors = open_page(browser, reduced_motion="reduce")
    new_game(page, server, [("Ann", "here")], "solo")
    next_action(page)
    page.keyboard.press("h")                   # before a roll a hint says why there is none
    assert page.inner_text("#hint-panel") == server.get("/api/choices").json()["sentences"][
        "hint_roll_first"]
    page.click("#roll")
    page.wait_for_selector("#dice svg.die")
    animations = page.eval_on_selector_all(
        "#dice svg.die", "dice => dice.map(d => getComputedStyle(d).animationName)")
    assert animations and set(animations) == {"none"}
    page.context.close()
    assert errors == []


def test_kill_the_server_mid_game_and_resume_with_the_log(browser: Browser,
                                                         server: Server) -> None:
    page, errors = open_page(browser)
    game = new_game(page, server, [("Ann", "here")], "solo")
    next_action(page)
    page.click("#roll")
    page.wait_for_selector("#view-game[data-kind=shut], #view-game[data-kind=over]")
    before = server.get(f"/api/games/{game}").json()
    log_lines = page.locator("#log li").count()
    server.kill()
    server.start()
    page.goto(f"{server.url}/history")
    page.click(f'a[href="/games/{game}"]')
    page.wait_for_selector("#view-game[data-busy=false]")
    assert page.locator("#log li").count() == log_lines     # the log is rebuilt
    assert events(page) == before["event_count"]
    play_by_mouse(page, server, game)
    page.context.close()
    # While the server was down the live feed could not reconnect; nothing else may fail.
    assert [e for e in errors if "ERR_CONNECTION_REFUSED" not in e] == []


def test_how_to_play_is_offered_once_and_tells_the_rules_of_this_game(
        page: Page, server: Server) -> None:
    """The board links to the game's rules in words (made in Python, as in the manual); a
    first-time visitor is offered them, once."""
    from shutthebox.guide import how_to_play
    from shutthebox.rules import preset

    new_game(page, server, [("Ann", "here"), ("Bot", "computer:hard")], preset="family-12",
             game_format="loser-at", format_number=80)
    assert page.is_visible("#first-visit")
    page.click("#how-to-play-link")
    page.wait_for_url("**/how-to-play/*")
    page.wait_for_selector("#how-to-play h2")
    expected = how_to_play(preset("family-12"), "loser-at:80")
    assert page.locator("#how-to-play h2").all_inner_texts() == [s.heading for s in expected]
    shown = page.inner_text("#how-to-play")
    for section in expected:
        for line in section.lines:
            assert line in shown
    page.click("text=Back to the game")
    page.wait_for_selector("#tiles .tile")
    assert not page.is_visible("#first-visit")         # offered once


def test_the_board_shows_the_rules_title_and_log_in_the_servers_words(
        browser: Browser, server: Server) -> None:
    """The rules line is Rules.describe()'s, the title the format's words, and each line of
    the log the narration's sentence of its event (shutthebox.narration, as the terminal's):
    the page makes none of them."""
    from shutthebox.match import LOG_VERSION, replay
    from shutthebox.narration import format_text, rules_text, tell
    from shutthebox.rules import Rules

    page, errors = open_page(browser, reduced_motion="reduce")
    page.goto(server.url)
    page.wait_for_selector("#preset option", state="attached")
    choices = server.get("/api/choices").json()
    for field in ("one_die", "moves", "scoring"):
        shown = page.locator(f"#rule-{field} option").all_text_contents()[1:]
        assert shown == [c["text"] for c in choices[field]]
    assert page.locator("#format option").all_text_contents() == [
        c["text"] for c in choices["format"]]
    game = new_game(page, server, [("Ann", "here"), ("Bot", "computer:hard")],
                    preset="family-12")
    state = server.get(f"/api/games/{game}").json()
    rules = Rules.from_dict(state["rules"])
    assert rules.tiles == 12 and "6 or less" in rules_text(rules)
    assert page.is_hidden("#game-rules")      # the rule details are in How to play
    play_by_mouse(page, server, game)
    state = server.get(f"/api/games/{game}").json()
    events = [e for e in state["events"] if e["type"] not in ("seats", "join")]
    match = replay({"version": LOG_VERSION, "rules": state["rules"], "format": state["format"],
                    "players": [p["name"] for p in state["players"]],
                    "stake": state["stake"], "events": events})
    told = [tell(event, match) for event in match.events]
    lines = [t.text for t in told if t is not None]
    assert page.locator("#log li").all_text_contents() == lines
    assert any(line.startswith("Ann rolls") for line in lines)
    assert page.text_content("#game-title") == format_text(match.config.format, match.round)
    # the last screen and each tile's name for a screen reader: the server's sentences too
    assert page.text_content("#moment h2") == state["ending"]["heading"]
    assert (page.text_content("#status") or "").endswith(state["ending"]["status"])
    sentences = choices["sentences"]
    for tile in range(1, rules.tiles + 1):
        named = sentences["tile_open" if tile in state["board"] else "tile_shut"]
        assert page.get_attribute(f'.tile[data-tile="{tile}"]', "aria-label") == named.format(
            tile=tile)
    page.context.close()
    assert errors == []


def test_the_coach_line_is_the_servers_sentence(page: Page, server: Server) -> None:
    game = new_game(page, server, [("Ann", "here")], "solo")
    next_action(page)
    # The page's own answer, not a second request beside it: the solver takes two calls at
    # once from one address, and the page may be asking already.
    with page.expect_response(lambda r: r.url.endswith(f"/api/games/{game}/coach")) as asked:
        page.check("#coach-toggle")
    coach = asked.value.json()
    assert asked.value.status == 200
    assert coach["text"].startswith("From here, playing perfectly")
    page.wait_for_function("(text) => document.getElementById('coach').textContent === text",
                           arg=coach["text"])


def test_invites_a_missing_game_my_games_and_a_refused_rule_in_the_servers_words(
        browser: Browser, server: Server) -> None:
    """The invite line, a missing game, a game's status in My games, a rule set's name and a
    rule the rules refuse: the page shows the server's sentences, word for word."""
    page, errors = open_page(browser)
    sentences = server.get("/api/choices").json()["sentences"]
    page.goto(f"{server.url}/games/no-such-game")
    page.wait_for_function("() => document.getElementById('status').textContent !== ''")
    assert page.text_content("#game-title") == sentences["game_not_found_title"]
    assert page.text_content("#status") == sentences["game_not_found"]
    game = new_game(page, server, [("Ann", "here"), ("Bo", "open")])
    page.wait_for_selector("#share .code")
    code = page.inner_text("#share .code")
    assert page.inner_text("#share .invite p") == sentences["invite_seat"].format(
        seat=2, name="Bo", code=code)
    page.goto(f"{server.url}/history")
    page.wait_for_selector("#history .card")
    token = tokens_of(page, game)["0"]
    listed = server.get("/api/games", token=token).json()
    status = {g["id"]: g["status_text"] for g in listed}[game]
    assert status == "waiting for players"
    assert status in page.inner_text(f'#history .card:has(a[href="/games/{game}"]) .note')
    page.goto(server.url)
    page.wait_for_selector("#preset option", state="attached")
    presets = server.get("/api/presets").json()
    assert page.locator("#preset option").all_text_contents() == [p["text"] for p in presets]
    page.click("#more-options > summary")
    page.click("#new-game details summary")
    page.fill("#rule-tiles", "13")
    page.click("#start")
    page.wait_for_function("() => document.getElementById('new-error').textContent !== ''")
    assert page.text_content("#new-error") == "Tiles must be a whole number from 2 to 12, not 13."
    page.context.close()
    # the browser reports the two refusals asked for (the missing game, the rule), nothing else
    assert [e for e in errors if not re.search(r"status of 40[04] ", e)] == []
    assert len(errors) == 2
