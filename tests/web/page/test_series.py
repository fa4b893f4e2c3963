"""Play again and reactions in the page, as three friends would, each in a browser of their
own: they join a game by its links, send each other reactions (the time each takes to reach
the other boards is measured and printed), finish, and one presses "Play again": the next
game reaches every screen with each friend's own seat, the order rotated, and the tally of
the series. Screenshots go to the folder named by $SHUTTHEBOX_SCREENSHOTS.
"""

from __future__ import annotations

import statistics
from typing import Any

from playwright.sync_api import Browser

from tests.web.legal import first_legal
from tests.web.page.browsing import (
    PHONE,
    join_by_invite,
    new_game,
    open_page,
    serious,
    shot,
    tokens_of,
)
from tests.web.webserver import Server

BUBBLE_SEEN = """() => {
  window.reactionsSeen = [];
  new MutationObserver((changes) => {
    for (const change of changes) for (const node of change.addedNodes) {
      if (node.classList && node.classList.contains('reaction-bubble')) {
        window.reactionsSeen.push({at: Date.now(), text: node.textContent});
      }
    }
  }).observe(document.getElementById('reaction-feed'), {childList: true});
}"""


def play_through_api(server: Server, game: str, tokens: dict[str, str]) -> dict[str, Any]:
    """Each seat's first legal move, by its own token, until the game is over; the pages
    follow live."""
    for _ in range(500):
        state = server.get(f"/api/games/{game}").json()
        if state["status"] == "over":
            return state            # type: ignore[no-any-return]
        path, body = first_legal(state)
        moved = server.post(path, body, token=tokens[str(state["pending"]["seat"])])
        assert moved.status_code in (200, 409), moved.text
    raise AssertionError("the game did not end")


def test_three_friends_react_and_play_again(browser: Browser, server: Server) -> None:
    ann, ann_errors = open_page(browser)
    game = new_game(ann, server, [("Ann", "here"), ("Friend", "open"), ("Friend 2", "open")])
    links = [ann.input_value(f"#share .invite:nth-of-type({n}) .share-link") for n in (1, 2)]
    friends = []
    for name, link, phone in (("Bo", links[0], True), ("Cy", links[1], False)):
        page, errors = open_page(browser, PHONE, is_mobile=True, has_touch=True) if phone \
            else open_page(browser)
        join_by_invite(page, link, name, game)
        friends.append((page, errors))
    (bo, bo_errors), (cy, cy_errors) = friends
    pages = {"Ann": ann, "Bo": bo, "Cy": cy}
    for page in pages.values():
        page.wait_for_selector("#reactions:not([hidden]) button.reaction")
        page.evaluate(BUBBLE_SEEN)

    # Reactions: each sent by a click on one board, timed until it shows on the two others.
    latencies = []
    for round_, (sender, reaction) in enumerate([("Ann", "cheer"), ("Bo", "laugh"),
                                                 ("Cy", "wow"), ("Ann", "wink"),
                                                 ("Bo", "cool"), ("Cy", "groan")]):
        others = [p for n, p in pages.items() if n != sender]
        sent = pages[sender].evaluate(
            "(r) => { const t = Date.now(); "
            "document.querySelector(`#reactions [data-reaction=\"${r}\"]`).click(); "
            "return t; }", reaction)
        for page in others:
            page.wait_for_function(f"() => window.reactionsSeen.length > {round_}")
            seen = page.evaluate(f"() => window.reactionsSeen[{round_}]")
            assert seen["text"].startswith(("😄", "😂", "😮", "😉", "😎", "😩"))
            assert sender in seen["text"]
            latencies.append(seen["at"] - sent)
        if round_ == 0:
            shot(bo, "reaction-bo-sees-ann")
    print(f"\nreaction latency, click on one board to bubble on another, {len(latencies)} "
          f"arrivals: median {statistics.median(latencies):.0f} ms, max {max(latencies)} ms")
    assert max(latencies) < 2000

    # A watcher sees reactions but has no buttons to send one.
    watcher, watcher_errors = open_page(browser)
    watcher.goto(f"{server.url}/games/{game}")
    watcher.wait_for_selector("#view-game[data-busy=false]")
    assert watcher.locator("#reactions").is_hidden()

    # The game is played to its end (through each friend's own token), then Bo plays again.
    tokens = {**tokens_of(ann, game), **tokens_of(bo, game), **tokens_of(cy, game)}
    assert tokens.keys() == {"0", "1", "2"}
    play_through_api(server, game, tokens)
    for page in (*pages.values(), watcher):
        page.wait_for_selector("#moment.final h2")
    assert watcher.locator("#play-again").count() == 0        # a watcher cannot
    shot(bo, "play-again-offered", full_page=True)
    bo.click("#play-again")
    bo.wait_for_url(lambda url: game not in url)
    second = bo.evaluate("location.pathname").rsplit("/", 1)[-1]
    for page in (ann, cy):                 # online at the table: the next game comes to them
        page.wait_for_url(f"**/games/{second}")
    state = server.get(f"/api/games/{second}").json()
    assert [p["name"] for p in state["players"]] == ["Bo", "Cy", "Ann"]   # order rotated
    for name, page in pages.items():
        page.wait_for_selector("#view-game[data-busy=false]")
        mine = tokens_of(page, second)
        assert list(mine) == [str([p["name"] for p in state["players"]].index(name))]
        page.wait_for_selector("#series:not([hidden])")
        assert page.inner_text("#series").startswith("The series after 1 game: ")
        assert page.locator("#reactions button.reaction").count() == 6
    first_winners = server.get(f"/api/games/{game}").json()["winners"]
    tally = ann.inner_text("#series")
    for seat, name in enumerate(["Ann", "Bo", "Cy"]):
        assert f"{name} {1 if seat in first_winners and len(first_winners) == 1 else ''}" \
            in tally or len(first_winners) > 1
    shot(ann, "play-again-ann")
    shot(cy, "play-again-cy")
    # The new board, its tally and reactions, with a reaction shown: axe finds nothing
    # serious, and nothing scrolls sideways on a 360 px phone.
    bo.set_viewport_size({"width": 360, "height": 780})
    ann.click('#reactions [data-reaction="laugh"]')
    bo.wait_for_selector("#reaction-feed .reaction-bubble")
    assert serious(bo) == []
    assert bo.evaluate("document.documentElement.scrollWidth") <= 360
    shot(bo, "play-again-bo-360")
    # The watcher stays, shown the way; the finished game's board says where it went.
    watcher.wait_for_selector("#series a.next-game")
    shot(watcher, "play-again-watcher", full_page=True)
    watcher.goto(f"{server.url}/games/{game}")
    watcher.wait_for_selector("#series a.next-game")
    assert "game 2 of the series" in watcher.inner_text("#series")
    for page in (*pages.values(), watcher):
        page.context.close()
    assert ann_errors == bo_errors == cy_errors == watcher_errors == []
