"""The page in each language, in Chromium, at 360 and 1280 px: the board of a game being
played speaks the language (its own words and the server's sentences), Arabic is laid out
right to left, nothing scrolls sideways, axe finds no serious or critical violation, and a
screenshot of each is kept (``language-<code>-<width>.png``, in the folder named by
``$SHUTTHEBOX_SCREENSHOTS``). The
language menu changes the language and the device remembers it.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from shutthebox.language import LANGUAGES, _, speaking
from tests.web.page.browsing import play_seat, serious, shot
from tests.web.webserver import Server

pytestmark = pytest.mark.browser

WIDTHS = {360: 740, 1280: 800}
BOARD_READY = "#view-game[data-busy=false][data-kind=shut]"


@pytest.fixture(scope="module")
def game(server: Server) -> dict[str, Any]:
    """A game of two here-seats on one screen, waiting for its first roll's tiles."""
    created: dict[str, Any] = server.post("/api/games", {
        "players": [{"name": "Ann", "kind": "here"}, {"name": "Bo", "kind": "here"}],
        "format": "rounds:3"}).json()
    play_seat(server, created["id"], created["tokens"]["0"], 0, until_shut=True)
    return created


def open_board(browser: Browser, server: Server, game: dict[str, Any], code: str | None,
               width: int) -> tuple[Page, list[str]]:
    context = browser.new_context(viewport={"width": width, "height": WIDTHS[width]},
                                  is_mobile=width < 500, locale="en-US")
    tokens = json.dumps(json.dumps({game["id"]: game["tokens"]}))
    script = f"localStorage.setItem('shutthebox.tokens', {tokens});"
    if code is not None:
        script += f"localStorage.setItem('shutthebox-language', {json.dumps(code)});"
    context.add_init_script(script)
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/games/{game['id']}")
    page.wait_for_selector(BOARD_READY, state="attached")
    page.wait_for_timeout(100)
    return page, errors


@pytest.mark.parametrize("width", list(WIDTHS))
@pytest.mark.parametrize("code", list(LANGUAGES))
def test_the_board_in_each_language_and_width(browser: Browser, server: Server,
                                              game: dict[str, Any], code: str,
                                              width: int) -> None:
    page, errors = open_board(browser, server, game, code, width)
    with speaking(code):
        shut, new_game, turn = _("Shut"), _("New game"), _("{name}'s turn")
    html = page.locator("html")
    assert html.get_attribute("lang") == code
    assert html.get_attribute("dir") == ("rtl" if code == "ar" else "ltr")
    assert page.inner_text("#shut") == shut
    assert page.inner_text("nav a[data-nav=new]") == new_game
    assert page.locator("#language").input_value() == code
    log = page.text_content("#log") or ""   # the server's sentences, in its language
    assert turn.format(name="Ann") in log, log
    wide = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert wide[0] <= wide[1], f"{code} at {width} px scrolls sideways: {wide}"
    assert serious(page) == []
    shot(page, f"language-{code}-{width}", full_page=True)
    page.context.close()
    assert errors == []


def test_the_menu_changes_the_language_and_the_device_remembers_it(
        browser: Browser, server: Server, game: dict[str, Any]) -> None:
    page, errors = open_board(browser, server, game, None, 1280)
    assert page.locator("html").get_attribute("lang") == "en"     # the browser's language
    page.select_option("#language", "de")
    page.wait_for_selector("html[lang=de]")
    page.wait_for_selector(BOARD_READY, state="attached")
    assert page.inner_text("#shut") == "Schließen"
    page.goto(f"{server.url}/")                          # another address, the same choice
    page.wait_for_selector("#preset option >> nth=0", state="attached")
    assert page.locator("html").get_attribute("lang") == "de"
    assert (page.text_content("#start") or "").strip() == "Spiel starten"
    assert "lang=de" in page.evaluate("document.cookie")
    page.context.close()
    assert errors == []


def test_the_browser_language_chooses_when_nothing_was_chosen(
        browser: Browser, server: Server) -> None:
    context = browser.new_context(locale="es-ES", extra_http_headers={
        "Accept-Language": "es-ES,es;q=0.9"})
    page = context.new_page()
    page.goto(f"{server.url}/")
    page.wait_for_selector("#preset option >> nth=0", state="attached")
    assert page.locator("html").get_attribute("lang") == "es"
    assert (page.text_content("#start") or "").strip() == "Empezar la partida"
    context.close()


# English words of the game that no other language's page may show (a word a language shares
# with English is left out for it: German's "die" and "Computer", say).
ENGLISH = {"you", "roll", "rolled", "shut", "tile", "tiles", "die", "dice", "game", "games",
           "easy", "medium", "hard", "highest-first", "classic", "pub", "children", "family",
           "lever", "cards", "round", "rounds", "wins", "friend", "player", "players", "hint",
           "clear", "turn", "computer", "daily", "rules", "play"}
SHARED = {"de": {"die", "computer"}, "fr": set(), "es": set(), "ar": set()}
# Every text a reader meets: the page's text, the menus' choices, the labels for screen readers.
TEXTS = """() => [document.body.innerText, document.title,
  ...[...document.querySelectorAll('option')].map((o) => o.textContent),
  ...[...document.querySelectorAll('[aria-label], [title], [placeholder], img[alt]')]
    .map((e) => [e.getAttribute('aria-label'), e.getAttribute('title'),
                 e.getAttribute('placeholder'), e.getAttribute('alt')].join(' '))].join(' ')"""


def english_left(page: Page, code: str) -> set[str]:
    with speaking(code):
        name = _("Shut the Box")           # the game's name, as the language says it
    text = str(page.evaluate(TEXTS)).replace(name, " ").replace("Shut the Box", " ")
    words = set(re.findall(r"[^\W\d_][\w-]*", text.lower()))
    return (words & ENGLISH) - SHARED[code]


@pytest.mark.parametrize("code", [code for code in LANGUAGES if code != "en"])
def test_no_english_word_of_the_game_is_left(browser: Browser, server: Server,
                                             code: str) -> None:
    """The first screen as a new player meets it (asked for a name), then with its options,
    a game against the computer and the daily box."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(f"localStorage.setItem('shutthebox-language', {json.dumps(code)});")
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(server.url)
    page.wait_for_selector("#preset option >> nth=0", state="attached")
    left = {"name asked": english_left(page, code)}     # a first visit: the name dialog
    page.click("#player-skip")
    page.click("#more-options > summary")
    left["first screen"] = english_left(page, code)
    page.click("#quick-roll")
    page.wait_for_url("**/games/*")
    page.wait_for_function("() => document.getElementById('view-game').dataset.busy === "
                           "'false' && document.querySelector('#log li')")
    left["board"] = english_left(page, code)
    page.goto(server.url + "/daily")
    page.wait_for_selector("#daily .daily-tile")
    left["daily box"] = english_left(page, code)
    context.close()
    assert left == {"name asked": set(), "first screen": set(), "board": set(),
                    "daily box": set()}
