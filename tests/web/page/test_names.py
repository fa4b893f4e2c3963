"""A player's name on a server, in Debian's chromium against a real server: a first visit
asks for a name once (claimed, it is kept with its player token and the recovery code is
shown once; skipped, the skip is kept), a recovery code brings the name to another device, a
player the server does not know is forgotten and asked again, a friend's invitation names
who invites, and the reader's seat takes their name, never "You".

Each test claims at most two names: the module's server takes five from one address."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, Request

from tests.web.page.browsing import CHROMIUM, PHONE, game_id, open_page, serious, shot
from tests.web.webserver import Server

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")]

KEPT = "() => JSON.parse(localStorage.getItem('shutthebox.player') || 'null')"


def fresh_name(first: str) -> str:
    """A name nobody on the module's server has claimed."""
    return f"{first} {uuid.uuid4().hex[:6]}"


def first_screen(page: Page, server: Server) -> None:
    page.goto(server.url)
    page.wait_for_selector("#preset option", state="attached")


def kept(page: Page) -> dict[str, str] | None:
    found: dict[str, str] | None = page.evaluate(KEPT)
    return found


def me(server: Server, token: str) -> httpx.Response:
    return httpx.get(f"{server.url}/api/players/me", headers={"X-Player-Token": token},
                     timeout=30)


def claim(server: Server, name: str) -> dict[str, Any]:
    answer = server.post("/api/players", {"name": name})
    assert answer.status_code == 201, answer.text
    found: dict[str, Any] = answer.json()
    return found


def quick_game(page: Page, server: Server) -> dict[str, Any]:
    """The first screen's one tap: a game against the computer, as the server keeps it."""
    page.click("#quick-roll")
    page.wait_for_url("**/games/*")
    page.wait_for_selector("#tiles .tile")
    state: dict[str, Any] = server.get(f"/api/games/{game_id(page)}").json()
    assert "You" not in [seat["name"] for seat in state["seats"]]
    return state


def test_a_first_visit_asks_for_a_name_once(browser: Browser, server: Server,
                                            tmp_path: Path) -> None:
    page, errors = open_page(browser, PHONE, asked=True, is_mobile=True, has_touch=True)
    sent: list[Request] = []
    page.on("request", lambda r: sent.append(r) if "/api/" in r.url else None)
    first_screen(page, server)
    page.wait_for_selector("#player-dialog[open]")
    assert page.evaluate("document.activeElement.id") == "claim-name"
    assert serious(page) == []
    shot(page, "name-asked-390", folder=tmp_path)
    name = fresh_name("Ann")
    page.fill("#claim-name", name)
    page.click("#claim-button")
    page.wait_for_selector("#player-claimed:not([hidden])")
    code = page.input_value("#recovery-code")
    player = kept(page)
    assert player is not None and player["name"] == name and code
    assert me(server, player["token"]).json() == {"name": name}
    assert name in page.inner_text("#player-welcome")
    assert serious(page) == []
    shot(page, "name-claimed-390", folder=tmp_path)
    page.click("#player-done")
    page.wait_for_selector("#player-dialog", state="hidden")
    assert name in page.inner_text("#player-line")
    page.reload()                                       # asked once: not again
    page.wait_for_selector("#preset option", state="attached")
    page.wait_for_timeout(300)
    assert page.is_hidden("#player-dialog")
    storage = str(page.evaluate("JSON.stringify(localStorage)"))
    assert code not in storage and code not in page.content()   # the code was shown once
    page.click("#more-options > summary")
    assert page.input_value("#seats li .seat-name >> nth=0") == name
    page.click("#more-options > summary")
    sent.clear()
    state = quick_game(page, server)
    assert state["seats"][0]["name"] == name
    fetched = [r for r in sent if r.resource_type == "fetch"]
    assert fetched and all(r.headers.get("x-player-token") == player["token"] for r in fetched)
    page.context.close()
    assert errors == []


def test_a_name_taken_is_refused_in_the_servers_words(browser: Browser,
                                                      server: Server) -> None:
    """A name that looks like a claimed one is refused with the server's sentence; the way
    to a recovery code keeps the name typed."""
    taken = fresh_name("Bo")
    claim(server, taken)
    page, errors = open_page(browser, asked=True)
    first_screen(page, server)
    page.fill("#claim-name", taken.upper())               # one that looks the same
    page.click("#claim-button")
    page.wait_for_function("() => document.getElementById('player-error').textContent")
    refusal = server.post("/api/players", {"name": taken.upper()})
    assert refusal.status_code == 409
    detail = str(refusal.json()["detail"])
    assert detail[1:].rstrip(".") in page.inner_text("#player-error")
    assert kept(page) is None and page.is_visible("#player-dialog")
    page.click("#player-other-way")           # maybe it is theirs: its code is asked next
    assert page.input_value("#recover-name") == taken.upper()
    assert page.evaluate("document.activeElement.id") == "recover-code"
    page.context.close()
    assert [e for e in errors if "status of 409" not in e] == []     # the refusal's own line


def test_a_skip_is_remembered_and_the_seat_is_not_you(browser: Browser,
                                                      server: Server) -> None:
    page, errors = open_page(browser, asked=True)
    first_screen(page, server)
    page.click("#player-skip")
    page.wait_for_selector("#player-dialog", state="hidden")
    assert kept(page) is None
    page.reload()
    page.wait_for_selector("#preset option", state="attached")
    page.wait_for_timeout(300)
    assert page.is_hidden("#player-dialog")              # not asked again
    state = quick_game(page, server)
    assert state["seats"][0]["name"] == "Player 1"        # the page's name for the first seat
    page.goto(server.url)
    page.click("#player-line button")                    # the reader may still claim one
    page.wait_for_selector("#player-dialog[open]")
    page.keyboard.press("Escape")                        # and may not, again
    page.wait_for_selector("#player-dialog", state="hidden")
    page.context.close()
    assert errors == []


def test_a_recovery_code_brings_the_name_to_another_device(browser: Browser,
                                                          server: Server) -> None:
    name = fresh_name("Cy")
    claimed = claim(server, name)
    page, errors = open_page(browser, asked=True)
    first_screen(page, server)
    page.click("#player-other-way")                      # "I have a recovery code"
    assert page.is_hidden("#claim-form")
    page.fill("#recover-name", name)
    page.fill("#recover-code", claimed["recovery"])
    page.click("#recover-button")
    page.wait_for_selector("#player-dialog", state="hidden")
    player = kept(page)
    assert player is not None and player["name"] == name
    assert player["token"] != claimed["token"]
    assert me(server, player["token"]).json() == {"name": name}
    assert name in page.inner_text("#player-line")
    page.context.close()
    assert errors == []


def test_a_player_the_server_does_not_know_is_forgotten_and_asked_again(
        browser: Browser, server: Server) -> None:
    page, errors = open_page(browser, asked=True)
    page.context.add_init_script(
        "if (!sessionStorage.getItem('kept')) { sessionStorage.setItem('kept', '1');"
        " localStorage.setItem('shutthebox.player', JSON.stringify("
        "{name: 'Ghost', token: 'not-a-token-the-server-made-0123456789'})); }")
    first_screen(page, server)
    page.wait_for_selector("#player-dialog[open]")       # asked once the server said 401
    assert kept(page) is None
    page.context.close()
    # the page's own check answered 401: the console says so, nothing else went wrong
    assert [e for e in errors if "status of 401" not in e] == []


def test_a_friends_invitation_names_the_inviter(browser: Browser, server: Server,
                                                tmp_path: Path) -> None:
    host_name, friend_name = fresh_name("Dee"), fresh_name("Eve")
    host, host_errors = open_page(browser, asked=True)
    first_screen(host, server)
    host.fill("#claim-name", host_name)
    host.click("#claim-button")
    host.click("#player-done")
    host.click("#quick-friend")
    host.wait_for_selector("#share:not([hidden]) .share-link")
    link = host.input_value("#share .share-link")
    game = game_id(host)

    friend, friend_errors = open_page(browser, PHONE, asked=True, is_mobile=True)
    first_screen(friend, server)
    friend.fill("#claim-name", friend_name)
    friend.click("#claim-button")
    friend.click("#player-done")
    friend.goto(link)
    friend.wait_for_selector("#join-form:not([hidden])")
    invitation = friend.inner_text("#inviter")
    assert invitation == f"{host_name} invites you to a game of Shut the Box."
    assert friend.is_hidden("#join-name")                # joins under the claimed name
    assert friend_name in friend.inner_text("#join-as")
    assert serious(friend) == []
    shot(friend, "invited-390", folder=tmp_path)
    friend.click("#join-button")
    friend.wait_for_url(f"**/games/{game}")
    state = server.get(f"/api/games/{game}").json()
    assert [s["name"] for s in state["seats"]] == [host_name, friend_name]
    for page in (host, friend):
        page.context.close()
    assert host_errors == friend_errors == []
