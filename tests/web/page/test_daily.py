"""The daily box on the page, in Debian's chromium: without a claimed name the page says so
(the server's sentence) and links to the first screen; with one, the turn is played one
decision at a time, and no answer the page receives holds a roll before the decision that
precedes it; a reload resumes the stored turn; at the end the result, the comparison with
perfect play and the review come from the server, and the day's table lists the name."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, Response

from tests.web.page.browsing import CHROMIUM, open_page, shot
from tests.web.webserver import Server

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")]

ROLL = re.compile(r"(?:\d\+)+\d=\d+|\brolls? \d(?![+\d])")
"""A roll as the turn's sentences write it (``3+4=7``; one die: ``roll 5``)."""


def claimed_page(browser: Browser, server: Server, name: str) -> tuple[Page, list[str]]:
    """A page on a device that claimed ``name`` (its player token kept as the first screen
    keeps it)."""
    made = httpx.post(f"{server.url}/api/players", json={"name": name}, timeout=30)
    assert made.status_code == 201, made.text
    page, errors = open_page(browser)
    player = json.dumps({"name": name, "token": made.json()["token"]})
    page.add_init_script(f"localStorage.setItem('shutthebox.player', {json.dumps(player)});")
    return page, errors


def rolls_said(state: dict[str, Any]) -> list[str]:
    """The rolls the turn's sentences tell, in order."""
    return [m.group(0) for line in state["log"] for m in ROLL.finditer(line)]


def test_without_a_name_the_page_says_to_claim_one(browser: Browser, server: Server) -> None:
    page, errors = open_page(browser)
    page.goto(f"{server.url}/daily")
    page.wait_for_selector("#daily-claim a[href='/']")
    said = server.get("/api/daily").json()["unclaimed"]
    assert page.inner_text("#daily-claim").lower().startswith(said.lower())
    assert page.locator("#daily .daily-tile").count() >= 9
    assert page.locator("#daily .controls").count() == 0 and not page.locator(
        "#daily-name").count()
    page.context.close()
    assert errors == []


def test_a_daily_turn_never_shows_the_page_a_roll_before_its_decision(
        browser: Browser, server: Server) -> None:
    page, errors = claimed_page(browser, server, "Zoe")
    answers: list[Response] = []
    page.on("response", lambda r: answers.append(r) if "/api/daily/turn" in r.url else None)
    page.goto(f"{server.url}/daily")
    page.wait_for_selector("#daily[data-status='playing'] .daily-tile")
    assert not page.locator("#daily-name").count()         # no name typed for the table
    received: list[dict[str, Any]] = []                      # every turn the page was sent
    before: list[list[dict[str, Any]]] = []                  # ... before each decision
    reloaded = False
    for _ in range(40):
        received.extend(r.json() for r in answers[len(received):])
        state = received[-1]
        if state["status"] == "over":
            break
        before.append(list(received))
        at = page.get_attribute("#daily", "data-at")
        assert at == str(state["at"])
        if state["pending"]["kind"] == "choose-dice":
            page.locator("#daily [data-dice]").last.click()
        else:
            for tile in state["pending"]["legal"][0]:
                page.click(f'#daily .daily-tile[data-tile="{tile}"]')
            page.click("#daily-shut")
        page.wait_for_function(f"() => document.getElementById('daily').dataset.at !== '{at}'")
        received.extend(r.json() for r in answers[len(received):])   # (read before a reload)
        if not reloaded and state["at"] >= 1:                # a reload resumes the turn
            reloaded = True
            page.reload()
            page.wait_for_selector("#daily .daily-tile")
            page.wait_for_function("() => document.getElementById('daily').dataset.at")
            assert received[-1] == answers[-1].json()             # the turn as it was left
    final = received[-1]
    assert final["status"] == "over" and reloaded
    dealt = rolls_said(final)
    assert len(dealt) >= 2 and len(before) >= 2
    checked = 0
    for seen in before:                   # before each decision: only the rolls dealt so far
        shown = len(rolls_said(seen[-1]))
        assert all(len(rolls_said(s)) <= shown for s in seen)
        if shown < len(dealt):
            following = dealt[shown]      # the roll the decision about to be made deals
            if following not in dealt[:shown]:
                # (as a roll is written: "roll 2" is not in "You roll 2+6=8")
                assert not any(following in ROLL.findall(json.dumps(s)) for s in seen), \
                    following
                checked += 1
        assert not any("result" in s for s in seen)
    assert checked >= 1
    page.wait_for_selector("#daily .daily-result svg.chart")
    lines = page.inner_text("#daily .daily-result")
    assert final["result"]["lines"][0] in lines and "perfect play" in lines.lower()
    assert (page.locator("#daily-kept a").get_attribute("href") or "") == final["review"]
    page.wait_for_selector("#daily-table table.daily-results")
    assert "Zoe" in page.inner_text("#daily-table")
    shot(page, "daily-box", full_page=True)
    page.reload()                                         # over: the same result, resumed
    page.wait_for_selector("#daily[data-status='over'] .daily-result")
    page.set_viewport_size({"width": 360, "height": 740})     # a phone: nothing sideways
    width = page.evaluate("[document.documentElement.scrollWidth, "
                          "document.documentElement.clientWidth]")
    assert width[0] <= width[1]
    page.context.close()
    assert errors == []
