"""The server's admin view (/admin) in Debian's chromium: with the admin token it shows the
games open and ends one; with a wrong token it shows nothing and says why; axe finds nothing
to fix; the token is in neither the page nor the server's log."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page

from shutthebox.web.settings import hash_token, new_token
from tests.web.page.browsing import open_page
from tests.web.webserver import Server

TOKEN = new_token()


@pytest.fixture(scope="module")
def admin_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = Server(tmp_path_factory.mktemp("admin"), computer_delay=0,
                    extra=("--admin-token", hash_token(TOKEN))).start()
    yield server
    server.stop()


def unlock(page: Page, server: Server, token: str) -> None:
    page.goto(f"{server.url}/admin")
    page.wait_for_selector("body[data-ready=true]")
    page.fill("#token", token)
    page.click("#unlock button")


def test_a_wrong_token_shows_nothing_and_says_why(browser: Browser,
                                                 admin_server: Server) -> None:
    page, errors = open_page(browser)
    try:
        unlock(page, admin_server, "not-the-token-" + "x" * 20)
        page.wait_for_function("() => document.getElementById('status').textContent !== ''")
        assert page.locator("#view").is_hidden()
        assert "admin token" in (page.locator("#status").text_content() or "")
    finally:
        page.context.close()
    assert errors and all("403" in error for error in errors)      # (the refusals alone)


def test_the_admin_view_shows_the_games_open(page: Page, admin_server: Server) -> None:
    game = httpx.post(f"{admin_server.url}/api/games", json={
        "players": [{"name": "Ann"}, {"name": "Bo", "kind": "open"}], "rules": {"tiles": 4}
    }).json()
    unlock(page, admin_server, TOKEN)
    row = page.locator("#games tr", has_text=game["id"][:8])
    row.wait_for()
    assert "Ann" in (row.text_content() or "")
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    assert results.response["passes"], "axe-core did not run"
    assert [v["id"] for v in results.response["violations"]] == []
    assert TOKEN not in page.content()
    assert TOKEN not in Path(admin_server.log).read_text(errors="replace")


def test_the_admin_ends_a_game_being_played(page: Page, admin_server: Server) -> None:
    game = httpx.post(f"{admin_server.url}/api/games", json={
        "players": [{"name": "Cy"}], "rules": {"tiles": 4}}).json()
    unlock(page, admin_server, TOKEN)
    row = page.locator("#games tr", has_text=game["id"][:8])
    row.locator("button").click()
    page.wait_for_function("() => document.getElementById('status').textContent.includes('ended')")
    state = httpx.get(f"{admin_server.url}/api/games/{game['id']}").json()
    assert state["status"] == "over"
