"""A game from the first tap, in Debian's chromium against a real server: the first screen is
the box (one tap, or Enter, rolls against the medium computer), a friend's invitation is one
tap away, "How to play" too (offered once); on a phone the board of every rule set fits one
screen; the result comes over the board, a win celebrated with falling confetti and a call
(none of the confetti under reduced motion); a whole turn is played by keyboard, the page's
live region read after each step.

Screenshots (1280x800 and 390x844: the first visit, a turn on the phone, the result over the
board, the friend's invitation) go to the test's temporary folder, and to the folder named
by ``$SHUTTHEBOX_SCREENSHOTS`` when it is set."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize

from tests.web.page.browsing import (
    CHROMIUM,
    DESKTOP,
    PHONE,
    click_move,
    events,
    first_legal_move,
    game_id,
    next_action,
    open_page,
    serious,
    shot,
    wait_for_more_events,
)
from tests.web.webserver import Server

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")]

# The texts the page's one live region takes, in order (a fresh one each time it speaks).
HEAR = """() => {
  window.heard = [];
  const region = document.getElementById('announce');
  new MutationObserver(() => { if (region.textContent) window.heard.push(region.textContent); })
    .observe(region, {childList: true, characterData: true, subtree: true});
}"""

# Counts the phone's share sheet's calls (headless chromium has none of its own).
SHARE_SHEET = "navigator.share = (data) => { window.shared = data; return Promise.resolve(); };"


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    opened, errors = open_page(browser, PHONE, has_touch=True, is_mobile=True)
    yield opened
    opened.context.close()
    assert errors == []


def heard(page: Page) -> list[str]:
    said: list[str] = page.evaluate("window.heard")
    return said


def wait_to_hear(page: Page, count: int) -> str:
    """Waits for the live region's next sentence (after ``count`` of them); answers it."""
    page.wait_for_function(f"() => window.heard.length > {count}")
    return heard(page)[-1]


def bottom(page: Page, selector: str) -> float:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return float(box["y"] + box["height"])


def hold_game(page: Page, server: Server, spec: dict[str, Any]) -> str:
    """A game made through the API whose seats this page holds (as the page keeps them)."""
    state = server.post("/api/games", spec).json()
    if not page.url.startswith(server.url):
        page.goto(server.url)
    page.evaluate("([g, tokens]) => localStorage.setItem('shutthebox.tokens', "
                  "JSON.stringify({[g]: tokens}))", [state["id"], state["tokens"]])
    page.goto(f"{server.url}/games/{state['id']}")
    page.wait_for_selector("#tiles .tile")
    return str(state["id"])


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_first_visit_rolls_in_one_tap(page: Page, server: Server, tmp_path: Path,
                                      size: ViewportSize) -> None:
    page.set_viewport_size(size)
    page.goto(server.url)
    page.wait_for_selector("#quick-tiles .tile")
    assert page.is_visible("#how-to-offer")               # a first visit is offered the rules
    assert page.evaluate("document.activeElement.id") == "quick-roll"
    assert bottom(page, "#quick-roll") <= size["height"]
    assert bottom(page, "#quick-friend") <= size["height"]
    assert page.evaluate("document.getElementById('more-options').open") is False
    assert serious(page) == []
    shot(page, f"first-visit-{size['width']}", folder=tmp_path)
    page.click("#quick-roll")                                   # the one tap
    page.wait_for_url("**/games/*")
    page.wait_for_function("() => document.querySelector('#log li') && "
                           "[...document.querySelectorAll('#dice .die')].length > 0")
    state = server.get(f"/api/games/{game_id(page)}").json()
    assert [s["computer"] for s in state["seats"]] == [None, "medium"]
    assert any(e["type"] == "roll" and e["seat"] == 0 for e in state["events"])
    assert page.is_hidden("#reactions") and page.is_hidden("#host-controls")   # nobody else
    assert page.is_hidden("#game-rules")              # the details are behind How to play
    if size == PHONE:
        next_action(page)
        shot(page, "turn-390", folder=tmp_path)
    page.goto(server.url)                                       # offered once only
    page.wait_for_selector("#quick-tiles .tile")
    assert page.is_hidden("#how-to-offer")


def test_how_to_play_is_one_tap(page: Page, server: Server) -> None:
    page.goto(server.url)
    page.click(".controls.quick a[href='/how-to-play']")
    page.wait_for_selector("#how-to-play section h2")
    assert len(page.locator("#how-to-play section").all()) >= 2
    page.click("#how-to-play a[href='/']")
    page.wait_for_selector("#quick-tiles .tile")
    assert page.is_hidden("#how-to-offer")        # read: not offered again


def test_friend_invitation_in_one_tap(phone: Page, server: Server, tmp_path: Path) -> None:
    phone.add_init_script(SHARE_SHEET)
    phone.goto(server.url)
    phone.wait_for_selector("#quick-tiles .tile")
    phone.click("#quick-friend")                                # the one tap
    phone.wait_for_selector("#share:not([hidden]) .share-link")
    link = phone.input_value("#share .share-link")
    code = phone.inner_text("#share .code")
    assert "/join/" in link and code.strip()
    assert phone.locator("#share img.qr").is_visible()
    assert bottom(phone, "#share .share-sheet") <= PHONE["height"]
    shot(phone, "invitation-390", folder=tmp_path)
    phone.click("#share .share-sheet")
    phone.wait_for_function("() => window.shared !== undefined")
    assert phone.evaluate("window.shared.url") == link
    assert server.get(link.replace(server.url, "")).status_code == 200
    phone.set_viewport_size(DESKTOP)
    shot(phone, "invitation-1280", folder=tmp_path)


def test_phone_fits_every_rule_set(phone: Page, server: Server) -> None:
    """Every rule set of up to 12 tiles, at 390x844, one after the other on one page: tiles
    at least 44 px wide, the dice and the actions on the first screen, in the roll (or the
    choice of dice) and in the shut."""
    presets = [p for p in server.get("/api/presets").json() if p["rules"]["tiles"] <= 12]
    assert len(presets) >= 15 and {p["rules"]["tiles"] for p in presets} >= {9, 10, 12}
    # motion reduced: the dice land at once (the layout at rest is the same), so that the
    # fifteen rule sets take the time five did with the dice tumbling
    phone.emulate_media(reduced_motion="reduce")
    phone.goto(server.url)
    for preset in presets:
        hold_game(phone, server, {"players": [{"name": "Ann", "kind": "here"}],
                                  "preset": preset["name"]})
        for _ in range(3):             # the roll (or the choice of dice), then the shut
            action = next_action(phone)
            widths = phone.eval_on_selector_all(
                "#tiles .tile", "tiles => tiles.map(t => t.getBoundingClientRect().width)")
            assert min(widths) >= 44, (preset["name"], widths)
            for part in ("#tiles", "#dice", f"#{action}", "#hint"):
                assert bottom(phone, part) <= PHONE["height"], (preset["name"], action, part)
            assert phone.evaluate("window.scrollY") == 0
            if action == "shut" or action == "over":
                break
            before = events(phone)
            phone.click(f"#{action}")
            wait_for_more_events(phone, before)


def test_result_over_the_board(phone: Page, server: Server, tmp_path: Path) -> None:
    game = hold_game(phone, server, {"players": [
        {"name": "Ann", "kind": "here"},
        {"name": "Computer", "kind": "computer", "computer": "easy"}], "rules": {"tiles": 4}})
    phone.emulate_media(reduced_motion="reduce")
    for _ in range(200):
        action = next_action(phone)
        if action == "over":
            break
        click_move(phone, server, game, action)
    phone.wait_for_selector("#moment.final.over-board h2")
    state = server.get(f"/api/games/{game}").json()
    assert phone.inner_text("#moment h2") == state["ending"]["heading"]
    box = phone.locator("#moment").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
    assert phone.evaluate("document.activeElement.id") == "play-again"
    phone.wait_for_function("() => document.getElementById('against-perfect').textContent")
    assert "mistake" in phone.inner_text("#against-perfect") or \
        "cost" in phone.inner_text("#against-perfect")
    # motion reduced: no confetti, and the overlay arrives without moving
    assert phone.locator(".celebration").count() == 0
    assert phone.evaluate("getComputedStyle(document.getElementById('moment'))"
                          ".animationName") == "none"
    shot(phone, "result-390", folder=tmp_path)
    phone.set_viewport_size(DESKTOP)
    shot(phone, "result-1280", folder=tmp_path)
    phone.click("#moment-close")                    # the board behind it
    assert phone.locator("#moment.over-board").count() == 0


# The tones the page's sound module plays (each oscillator's first frequency), heard by
# wrapping the browser's Web Audio API: the page itself has no hook for it.
TONES = """window.tones = [];
const made = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () {
  const oscillator = made.call(this);
  const set = oscillator.frequency.setValueAtTime.bind(oscillator.frequency);
  let first = true;
  oscillator.frequency.setValueAtTime = (value, when) => {
    if (first) window.tones.push(value);
    first = false;
    return set(value, when);
  };
  return oscillator;
};"""
WIN = [392, 523, 659, 784]            # sound.js's call for the match's winner


def test_a_win_is_celebrated_with_motion_and_sound(page: Page, server: Server) -> None:
    """Motion allowed: a game alone always ends in a win (one seat, so the winner), which
    brings confetti that falls and the winner's call."""
    page.add_init_script(TONES)
    page.emulate_media(reduced_motion="no-preference")
    game = hold_game(page, server, {"players": [{"name": "Ann", "kind": "here"}],
                                    "rules": {"tiles": 4}})
    for _ in range(50):
        action = next_action(page)
        if action == "over":
            break
        click_move(page, server, game, action)
    assert server.get(f"/api/games/{game}").json()["winners"] == [0]
    page.wait_for_selector("#moment.final.over-board h2")
    page.wait_for_selector(".celebration span", state="attached")   # gone after 3.6 s
    falling = page.evaluate("""() => [...document.querySelectorAll('.celebration span')]
        .map(bit => bit.getAnimations().map(a => a.animationName || a.id)).flat()""")
    assert len(falling) == 36 and set(falling) == {"fall"}, falling
    assert page.evaluate("getComputedStyle(document.getElementById('moment'))"
                         ".animationName") == "arrive"
    tones: list[float] = page.evaluate("window.tones")
    assert any(tones[i:i + len(WIN)] == WIN for i in range(len(tones))), tones
    page.wait_for_selector(".celebration", state="detached", timeout=10_000)


def test_a_turn_by_keyboard_is_read_out(page: Page, server: Server) -> None:
    """Enter rolls from the first screen (no Tab), h asks the hint (read out and ringed on
    the tiles), each digit picks a tile (read out), Enter shuts (read out)."""
    page.goto(server.url)
    page.wait_for_selector("#quick-tiles .tile")
    page.evaluate(HEAR)
    page.keyboard.press("Enter")
    page.wait_for_url("**/games/*")
    game = game_id(page)
    for _ in range(40):
        action = next_action(page)
        if action == "shut":
            break
        assert action == "roll", action        # the roll had no move: the next turn's roll
        before = events(page)
        page.keyboard.press("Enter")
        wait_for_more_events(page, before)
    else:
        raise AssertionError("no roll with a move")
    rolled = server.get(f"/api/games/{game}").json()["pending"]["roll"]
    # (read out once the dice have landed, which may be after the tiles can be picked)
    page.wait_for_function("(roll) => window.heard.some((said) => said.includes(roll))",
                           arg=f"{rolled[0]}+{rolled[1]}", timeout=10_000)
    count = len(heard(page))
    page.keyboard.press("h")
    assert wait_to_hear(page, count).startswith("Hint: ")
    assert page.locator("#tiles .tile.hinted").count() >= 1
    move = first_legal_move(server, game)
    picked: list[int] = []
    for tile in move:
        count = len(heard(page))
        page.keyboard.press({10: "0", 11: "-", 12: "="}.get(tile, str(tile)))
        picked.append(tile)
        said = wait_to_hear(page, count)
        assert " + ".join(map(str, sorted(picked))) in said or str(tile) in said, said
    count = len(heard(page))
    before = events(page)
    page.keyboard.press("Enter")
    wait_for_more_events(page, before)
    said = wait_to_hear(page, count)
    shut_line = server.get(f"/api/games/{game}?since={before}").json()["events_text"][0]
    assert shut_line and shut_line in said, (shut_line, said)
