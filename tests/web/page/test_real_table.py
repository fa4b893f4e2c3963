"""The screen of a real table (/table) in Debian's chromium: the advisor ranks the moves of the
tiles and dice tapped as the API does, and a short score sheet is kept (an elimination with a
pot), read again after a reload, on a laptop and a phone; axe finds nothing to fix; opened
without a connection, the screen says it needs one and shows no controls."""

from __future__ import annotations

import os
from pathlib import Path

import httpx
from playwright.sync_api import Browser, Page

from tests.web.page.browsing import DESKTOP, PHONE, open_page
from tests.web.webserver import Server

READY = "body[data-ready=true]"


def keep_shot(page: Page, folder: Path, name: str) -> None:
    """The screen as a picture in the test's folder, and in $SHUTTHEBOX_SCREENSHOTS if it
    names a folder."""
    page.screenshot(path=str(folder / f"{name}.png"))
    wanted = os.environ.get("SHUTTHEBOX_SCREENSHOTS")
    if wanted and Path(wanted).is_dir():
        page.screenshot(path=str(Path(wanted) / f"{name}.png"))


def axe_violations(page: Page) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    assert results.response["passes"], "axe-core did not run"
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:4]}"
            for v in results.response["violations"]]


def announced(page: Page) -> str:
    page.wait_for_function("() => document.getElementById('announce').textContent !== ''")
    said: str = page.locator("#announce").text_content() or ""
    return said


def test_the_advisor_ranks_the_box_tapped_and_the_sheet_keeps_the_table(
        page: Page, browser: Browser, server: Server, tmp_path: Path) -> None:
    page.goto(f"{server.url}/table")
    page.wait_for_selector(READY)
    assert page.locator("#advisor-tiles button").count() == 9
    for tile in (2, 9):                                  # shut on the wooden box
        page.click(f"#advisor-tiles button >> nth={tile - 1}")
    page.click("#advisor-die-1 button >> nth=2")         # a 3
    page.click("#advisor-die-2 button >> nth=4")         # and a 5
    page.click("#advisor-rank")
    page.wait_for_selector("#advisor-answer table.ranking tbody tr")
    expected = httpx.post(f"{server.url}/api/advice", json={
        "open": [1, 3, 4, 5, 6, 7, 8], "roll": [3, 5]}).json()["options"]
    rows = page.locator("#advisor-answer tbody th").all_text_contents()
    assert rows == [option["text"] for option in expected]
    assert expected[0]["text"] in announced(page)
    assert axe_violations(page) == []
    keep_shot(page, tmp_path, "table-advisor-desktop")
    page.set_viewport_size(PHONE)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    tile_width = page.locator("#advisor-tiles button >> nth=0").bounding_box()
    assert tile_width is not None and tile_width["width"] >= 44
    keep_shot(page, tmp_path, "table-advisor-phone")

    page.click("#show-sheet")
    for i, name in enumerate(["Ann", "Bo"]):
        page.fill(f"#sheet-players input >> nth={i}", name)
    page.click("#sheet-add")
    page.fill("#sheet-players input >> nth=2", "Cy")
    page.select_option("#sheet-format", "elimination")
    page.fill("#sheet-limit", "20")
    page.fill("#sheet-stake", "1")
    page.click("#sheet-form button[type=submit]")
    page.wait_for_selector("#sheet-open:not([hidden])")
    for scores in (["12", "5", "9"], ["9", "3", "4"], [None, "16", "2"]):
        before = page.locator("#sheet-games tbody tr").count()
        for seat, score in enumerate(scores):
            if score is not None:
                page.fill(f"#sheet-inputs input >> nth={seat}", score)
        page.click("#sheet-round button[type=submit]")
        page.wait_for_function(f"() => document.querySelectorAll('#sheet-games tbody tr')"
                               f".length > {before}")
    sheet = page.locator("#sheet-games").text_content() or ""
    assert "Ann is out with 21" in sheet and "Cy wins!" in sheet
    assert page.locator("#sheet-ledger").text_content() == \
        "Money won so far: Ann -1.00, Bo -1.00, Cy +2.00."
    assert page.locator("#sheet-inputs input[disabled]").count() == 0   # game 2: all in
    assert axe_violations(page) == []
    keep_shot(page, tmp_path, "table-sheet-phone")
    page.set_viewport_size(DESKTOP)
    keep_shot(page, tmp_path, "table-sheet-desktop")

    page.reload()                                          # kept on the server and the phone
    page.wait_for_selector("#sheet-open:not([hidden])")
    assert "Cy +2.00" in (page.locator("#sheet-ledger").text_content() or "")
    page.click("#sheet-close")
    assert page.locator("#sheet-kept a").count() == 1

    offline, _errors = open_page(browser, PHONE)       # (its failed loads are the point)
    offline.route("**/api/presets", lambda route: route.abort())   # the app opened offline
    offline.goto(f"{server.url}/table")
    offline.wait_for_selector("#offline:not([hidden])")
    assert offline.locator("#advisor").is_hidden() and offline.locator("#sheet").is_hidden()
    offline.context.close()
