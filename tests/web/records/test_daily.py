"""The daily box on the server: the day's dice whatever is shut, the result against perfect
play, one kept result per token a day and the day's table; API on SQLite and PostgreSQL, and
the page in Debian's chromium."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Browser

from shutthebox.web.records.daily import MAX_MOVES, box_of, replayed, today, turn_log
from tests.web.client import bearer
from tests.web.page.browsing import CHROMIUM, open_page, shot
from tests.web.webserver import Server


def play_daily(api: Any, pick: int) -> tuple[list[Any], list[list[int]], dict[str, Any]]:
    """Today's turn through the API, choosing the ``pick``-th legal choice each time: the
    moves, the rolls seen, the final state."""
    state = api.get("/api/daily").json()
    moves: list[Any] = []
    rolls: list[list[int]] = []
    while state["status"] == "playing":
        pending = state["pending"]
        if pending["kind"] == "choose-dice":
            choices = pending["dice_choices"]
            moves.append(choices[pick % len(choices)])
        else:
            rolls.append(pending["roll"])
            legal = pending["legal"]
            moves.append(legal[pick % len(legal)])
        answer = api.post("/api/daily/turn", json={"day": state["day"], "moves": moves})
        assert answer.status_code == 200, answer.text
        state = answer.json()
    return moves, rolls, state


def test_two_turns_of_the_day_see_the_same_dice_and_perfect_play(
        client: TestClient) -> None:
    first, first_rolls, first_end = play_daily(client, 0)
    second, second_rolls, second_end = play_daily(client, -1)
    common = min(len(first_rolls), len(second_rolls))
    assert first_rolls[:common] == second_rolls[:common] and common >= 1
    box = box_of(None)
    assert first_end["result"]["perfect"] == second_end["result"]["perfect"] == (
        box.perfect_score())
    for moves, end in ((first, first_end), (second, second_end)):
        result = end["result"]
        assert result["score"] == box.result(turn_log(replayed(box, moves)))["score"]
        assert 0.0 <= result["accuracy"] <= 100.0
        assert result["lines"][0].startswith(f"You scored {result['score']}")
        assert result["review"]["chart"]["title"] == "Expected score, move by move"


def test_a_token_keeps_one_result_a_day_and_the_table_ranks_them(
        client: TestClient) -> None:
    moves, _, end = play_daily(client, 0)
    other, _, other_end = play_daily(client, -1)
    day = end["day"]
    kept = client.post("/api/daily/results", json={"day": day, "moves": moves, "name": "Ann"},
                       headers=bearer("a" * 24))
    assert kept.status_code == 201, kept.text
    again = client.post("/api/daily/results", json={"day": day, "moves": other, "name": "Ann"},
                        headers=bearer("a" * 24))
    assert again.status_code == 409 and "already" in again.json()["detail"]
    bo = client.post("/api/daily/results", json={"day": day, "moves": other, "name": "Bo"},
                     headers=bearer("b" * 24))
    assert bo.status_code == 201, bo.text
    table = client.get("/api/daily/results").json()
    scores = {r["player"]: r["score"] for r in table["results"]}
    assert scores == {"Ann": end["result"]["score"], "Bo": other_end["result"]["score"]}
    ranked = [r["score"] for r in table["results"]]
    assert ranked == sorted(ranked) and table["text"].startswith("2 results")
    review = client.get(kept.json()["review"].replace("/review/", "/api/games/") + "/review")
    assert review.status_code == 200 and review.json()["players"][0]["player"] == "Ann"
    assert client.get("/api/stats", params={"player": "Bo"}).json()["solo"]["games"] == 1


@pytest.mark.parametrize(("path", "body", "status"), [
    ("/api/daily/turn", {"moves": [[99]]}, 422),
    ("/api/daily/turn", {"moves": [[12, 12]]}, 400),
    ("/api/daily/turn", {"moves": [[1]] * (MAX_MOVES + 1)}, 422),
    ("/api/daily/turn", {"moves": "x"}, 422),
    ("/api/daily/turn", {"day": "2000-01-01"}, 400),
    ("/api/daily/turn", {"day": "not a day"}, 400),
    ("/api/daily/turn", {"name": "\u202eevil"}, 400),
    ("/api/daily/results", {"moves": []}, 401),
])
def test_odd_daily_requests_are_clear_4xx(client: TestClient, path: str,
                                          body: dict[str, Any], status: int) -> None:
    answer = client.post(path, json=body)
    assert answer.status_code == status, answer.text
    assert answer.json()["detail"]


def test_an_unfinished_turn_is_not_kept(client: TestClient) -> None:
    answer = client.post("/api/daily/results", json={"moves": []}, headers=bearer("c" * 24))
    assert answer.status_code == 400 and "not finished" in answer.json()["detail"]
    short = client.post("/api/daily/results", json={"moves": []}, headers=bearer("short"))
    assert short.status_code == 401
    assert client.get("/api/daily", params={"day": str(today())}).status_code == 200
    assert client.get("/api/daily/results", params={"day": "1999-12-31"}).json()[
        "results"] == []


# --- the page -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("daily")).start()
    yield running
    running.kill()


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")
def test_the_daily_box_is_played_on_the_page_and_kept(browser: Browser,
                                                      server: Server) -> None:
    page, errors = open_page(browser)
    page.goto(f"{server.url}/daily")
    page.wait_for_selector("#daily .daily-tile")
    assert page.inner_text("#daily h2") == server.get("/api/daily").json()["title"]
    for _ in range(30):
        if page.locator("#daily .daily-result").count():
            break
        before = json.dumps(page.get_attribute("#daily", "data-moves"))
        if page.locator("#daily [data-dice]").count():
            page.locator("#daily [data-dice]").last.click()
        else:
            moves = json.loads(page.get_attribute("#daily", "data-moves") or "[]")
            legal = server.post("/api/daily/turn", {"moves": moves}).json()["pending"]["legal"]
            for tile in legal[0]:
                page.click(f'#daily .daily-tile[data-tile="{tile}"]')
            page.click("#daily-shut")
        page.wait_for_function(f"() => document.getElementById('daily').dataset.moves !== "
                               f"{before}")
    page.wait_for_selector("#daily .daily-result svg.chart")
    lines = page.inner_text("#daily .daily-result")
    assert "You scored" in lines and "perfect play" in lines.lower() and "accuracy" in lines
    page.fill("#daily-name", "Zoe")
    page.click("#daily .daily-result button")
    page.wait_for_selector("#daily-table table.daily-results")
    assert "Zoe" in page.inner_text("#daily-table")
    assert (page.locator("#daily-kept a").get_attribute("href") or "").startswith("/review/")
    shot(page, "daily-box", full_page=True)
    page.set_viewport_size({"width": 360, "height": 740})     # a phone: nothing sideways
    width = page.evaluate("[document.documentElement.scrollWidth, "
                          "document.documentElement.clientWidth]")
    assert width[0] <= width[1]
    page.context.close()
    assert errors == []

