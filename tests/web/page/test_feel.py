"""The table's feel in Debian's chromium against a real server: sounds made in the page (Web
Audio) and a buzz on a roll, a mute toggle kept on the device, silence and stillness for
those who ask the system for less motion, and the tiles' flip. Sounds are counted through the
browser's own AudioContext, wrapped before the page loads. Screenshots go to
the folder named by $SHUTTHEBOX_SCREENSHOTS."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize

from tests.web.page.browsing import CHROMIUM, click_move, new_game, next_action, shot, watch_console
from tests.web.webserver import Server

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")]

NARROW: ViewportSize = {"width": 360, "height": 780}
COUNT_SOUNDS = """
window.__made = { contexts: 0, sounds: 0, buzzes: 0 };
const Real = window.AudioContext;
window.AudioContext = class extends Real {
  constructor(...args) { super(...args); window.__made.contexts++; }
  createOscillator() { window.__made.sounds++; return super.createOscillator(); }
  createBufferSource() { window.__made.sounds++; return super.createBufferSource(); }
};
navigator.vibrate = () => { window.__made.buzzes++; return true; };
"""
WATCH_MOTION = """() => {
  window.__seen = { flip: 0, rise: 0, rolling: 0 };
  const look = (node) => {
    if (!(node instanceof Element)) return;
    if (node.classList.contains('flip')) window.__seen.flip++;
    if (node.classList.contains('rise')) window.__seen.rise++;
    if (node.classList.contains('rolling')) window.__seen.rolling++;
  };
  new MutationObserver((changes) => {
    for (const change of changes) {
      if (change.type === 'attributes') look(change.target);
      else change.addedNodes.forEach(look);
    }
  }).observe(document.getElementById('view-game'),
             { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
}"""
ANIMATION_OF = """(selector) => {
  const node = document.querySelector(selector);
  const style = getComputedStyle(node);
  return [style.animationName, style.animationDuration, style.transitionDuration];
}"""


def opened(browser: Browser, **options: Any) -> tuple[Page, list[str]]:
    context = browser.new_context(viewport=NARROW, is_mobile=True, has_touch=True, **options)
    context.add_init_script(COUNT_SOUNDS)
    page = context.new_page()
    page.set_default_timeout(30_000)
    return page, watch_console(page)


def made(page: Page) -> dict[str, int]:
    counts: dict[str, int] = page.evaluate("window.__made")
    return counts


def roll_and_shut(page: Page, server: Server, game: str) -> None:
    """Plays a roll and the shut that follows (or the turn's end)."""
    assert next_action(page) in ("roll", "two-dice")
    click_move(page, server, game, next_action(page))
    action = next_action(page)
    if action == "shut":
        click_move(page, server, game, action)


def test_sounds_play_until_muted_and_the_choice_is_kept(browser: Browser,
                                                       server: Server) -> None:
    page, errors = opened(browser)
    game = new_game(page, server, [("Ann", "here")])
    assert page.is_checked("#sound-toggle")          # on by default (motion not reduced)
    roll_and_shut(page, server, game)
    loud = made(page)
    assert loud["contexts"] == 1 and loud["sounds"] > 0 and loud["buzzes"] >= 1
    assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]
    shot(page, "board-360")
    page.uncheck("#sound-toggle")
    assert page.evaluate("localStorage.getItem('shutthebox.sound')") == "off"
    page.reload()
    page.wait_for_selector("#tiles .tile")
    assert not page.is_checked("#sound-toggle")
    roll_and_shut(page, server, game)
    assert made(page) == {"contexts": 0, "sounds": 0, "buzzes": 0}
    page.context.close()
    assert errors == []


def test_reduced_motion_is_silent_and_still_unless_sound_is_chosen(browser: Browser,
                                                                   server: Server) -> None:
    page, errors = opened(browser, reduced_motion="reduce")
    game = new_game(page, server, [("Bea", "here")])
    assert not page.is_checked("#sound-toggle")
    page.evaluate("document.querySelector('#tiles .tile').classList.add('flip')")
    page.evaluate("document.querySelector('#moment').classList.add('final')")
    assert page.evaluate(ANIMATION_OF, ".tile.flip") == ["none", "0s", "0s"]
    page.evaluate(WATCH_MOTION)
    roll_and_shut(page, server, game)
    assert made(page) == {"contexts": 0, "sounds": 0, "buzzes": 0}
    assert page.evaluate("window.__seen.rolling") == 0       # the dice are drawn still
    page.check("#sound-toggle")                       # the player's choice wins
    assert made(page)["sounds"] > 0
    page.reload()
    page.wait_for_selector("#tiles .tile")
    assert page.is_checked("#sound-toggle")
    page.context.close()
    assert errors == []


def test_tiles_flip_and_dice_tumble_with_motion(browser: Browser, server: Server) -> None:
    page, errors = opened(browser)
    game = new_game(page, server, [("Cy", "here")])
    page.evaluate("document.querySelector('#tiles .tile').classList.add('flip')")
    name, duration, _ = page.evaluate(ANIMATION_OF, ".tile.flip")
    assert name == "flip" and duration != "0s"
    # as the events play out, the dice tumble and a shut tile flips
    page.evaluate(WATCH_MOTION)
    click_move(page, server, game, next_action(page))
    assert page.evaluate("window.__seen.rolling") >= 1
    assert next_action(page) == "shut"             # a full box has a move for every roll
    click_move(page, server, game, "shut")
    assert page.evaluate("window.__seen.flip") >= 1
    page.context.close()
    assert errors == []


def test_tiles_stand_up_in_a_battle(browser: Browser, server: Server) -> None:
    """A knocker who shuts the box in the first turn leaves nothing to stand up: then a new
    battle starts."""
    page, errors = opened(browser)
    for _ in range(5):
        game = new_game(page, server, [("Ann", "here"), ("Bo", "here")], "battle")
        page.evaluate(WATCH_MOTION)
        stood = False
        for _ in range(100):
            action = next_action(page)
            if action == "over":
                break
            role = server.get(f"/api/games/{game}").json()["pending"].get("role")
            click_move(page, server, game, action)
            if action == "shut" and role == "stand":
                stood = True
                break
        if stood:
            break
    else:
        raise AssertionError("five knockers in a row shut the box in their first turn")
    assert page.evaluate("window.__seen.rise") >= 1
    assert page.evaluate("window.__seen.flip") >= 1    # the knocker's tiles went down first
    page.context.close()
    assert errors == []
