"""The review teaches: the server's review carries the coach's analysis (accuracy, luck against
skill, mistakes by size, why) and its chart in words, and the page draws the chart and shows
the sentences. The API tests run on SQLite and PostgreSQL; the page in Debian's chromium."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any, cast

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Browser

from shutthebox.coach import analyse
from tests.web.client import bearer, new_game, stored_match, wait_for_human
from tests.web.page.browsing import CHROMIUM, open_page, shot
from tests.web.webserver import Server


def play_worst(api: TestClient, state: dict[str, Any], token: str) -> dict[str, Any]:
    """Ann (seat 0) plays the coach's worst choice at every decision until the game ends."""
    base = f"/api/games/{state['id']}"
    while True:
        state = wait_for_human(api, state)
        if state["status"] == "over":
            return state
        pending, event = state["pending"], state["event_count"]
        if pending["kind"] == "roll":
            path, body = f"{base}/roll", {"event": event}
        else:
            worst = api.get(f"{base}/hint", headers=bearer(token)).json()["options"][-1]
            path, body = ((f"{base}/dice", {"dice": worst["dice"], "event": event})
                          if "dice" in worst else
                          (f"{base}/shut", {"tiles": worst["tiles"], "event": event}))
        answer = api.post(path, json=body, headers=bearer(token))
        assert answer.status_code == 200, answer.text
        state = answer.json()


def test_the_review_carries_the_coachs_analysis_and_its_chart_in_words(
        client: TestClient) -> None:
    for _ in range(4):    # a game whose first roll leaves one choice has nothing to mark
        state = new_game(client, players=[{"name": "Ann"}, {"name": "Bot", "computer": "hard"}])
        final = play_worst(client, state, state["tokens"]["0"])
        review = client.get(f"/api/games/{final['id']}/review").json()
        if review["marks"]:
            break
    assert review["unit"] == "percentage points" and review["verdict"].startswith("Ann: ")
    ann, bot = review["players"]
    assert (ann["player"], bot["player"]) == ("Ann", "Bot")
    for player in (ann, bot):     # luck, the other's dice and mistakes, and the cost add up
        assert math.isclose(player["start"] + player["luck"] + player["others_dice"]
                            + player["others_mistakes"] - player["cost"],
                            player["result"], abs_tol=1e-9)
        assert player["accuracy_sentence"].startswith(f"{player['player']}: accuracy ")
        assert player["sentence"].startswith(f"{player['player']}: started at ")
    # Ann's blunders are Bot's gift, never Bot's luck
    assert bot["others_mistakes"] == pytest.approx(ann["cost"]) and ann["cost"] > 0
    assert "the others' mistakes" in bot["sentence"]
    assert bot["accuracy"] == pytest.approx(100.0) and ann["accuracy"] < 100.0
    # the same figures as the library's own analysis of the stored log
    expected = analyse(stored_match(client, final["id"]).to_log()).to_dict()
    assert [p["accuracy"] for p in review["players"]] == pytest.approx(
        [p["accuracy"] for p in expected["players"]])
    assert review["moments"] == expected["moments"]
    chart = review["chart"]
    assert chart["percent"] and chart["scale"] == 100.0
    assert chart["title"] == "Chance to win, move by move"
    assert chart["table"]["caption"] == ("Every decision; costs are in percentage points of "
                                         "the chance to win against perfect play. Costly "
                                         "moves are marked ✗.")
    assert [line.split(":")[0] for line in chart["figures"]] == ["Ann", "Bot"]
    assert all("at the end" in line for line in chart["figures"])
    luck = chart["luck"]     # where each result came from, term by term
    assert [c["key"] for c in luck["columns"]] == ["player", "start", "luck", "others_dice",
                                                   "others_mistakes", "mistakes", "result"]
    assert luck["rows"][1]["others_mistakes"] == f"{ann['cost'] * 100:+.1f}"
    assert "the others' mistakes" in luck["caption"]
    moves = {d["index"]: n for n, d in enumerate(review["decisions"], 1)}
    for mark, said in zip(review["marks"], chart["marks"], strict=True):
        assert said["text"].startswith(f"Move {moves[mark['index']]}, Ann: ")
        if mark["why"]:
            assert said["text"].endswith(mark["why"])


def test_a_review_of_a_game_under_way_says_where_it_stands(
        client: TestClient) -> None:
    state = new_game(client, players=[{"name": "Ann"}])
    rolled = client.post(f"/api/games/{state['id']}/roll", json={"event": state["event_count"]},
                         headers=bearer(state["tokens"]["0"])).json()
    review = client.get(f"/api/games/{state['id']}/review")
    assert review.status_code == 200
    moments = review.json()["moments"]
    assert moments[-1]["kind"] == ("end" if rolled["status"] == "over" else "now")
    assert review.json()["chart"]["title"] == "Expected score, move by move"


@pytest.mark.parametrize("game_id", ["nope", "x" * 5000, "%00", "../../etc/passwd", "1e9"])
def test_a_review_of_no_game_is_a_clear_4xx(client: TestClient,
                                            game_id: str) -> None:
    answer = client.get(f"/api/games/{game_id}/review")
    assert 400 <= answer.status_code < 500, answer.text


# --- the page -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("learning")).start()
    yield running
    running.kill()


class ServerClient:
    """The real server's API with a TestClient's few methods (get, post with json)."""

    def __init__(self, server: Server) -> None:
        self.server = server

    def get(self, path: str, headers: dict[str, str] | None = None) -> Any:
        token = (headers or {}).get("Authorization", "")[len("Bearer "):] or None
        return self.server.get(path, token)

    def post(self, path: str, json: dict[str, Any], headers: dict[str, str]) -> Any:
        return self.server.post(path, json, headers["Authorization"][len("Bearer "):])


def worst_game(server: Server, name: str, strength: str, player: str | None = None
               ) -> dict[str, Any]:
    """A finished game on the real server: ``name`` (the claimed player of the token
    ``player``, if given) plays the worst choices against a computer of ``strength``."""
    made = server.post("/api/games", {"players": [
        {"name": name}, {"name": "Bot", "computer": strength}]}, player=player)
    assert made.status_code == 201, made.text
    state = made.json()
    # ServerClient answers get and post as TestClient does: the same walk, on a real server
    return play_worst(cast(TestClient, ServerClient(server)), state, state["tokens"]["0"])


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")
def test_the_review_page_shows_the_chart_and_the_sentences(browser: Browser,
                                                           server: Server) -> None:
    for _ in range(4):
        final = worst_game(server, "Ann", "hard")
        review = server.get(f"/api/games/{final['id']}/review").json()
        if any(m["why"] for m in review["marks"]):
            break
    page, errors = open_page(browser)
    page.goto(f"{server.url}/review/{final['id']}")
    page.wait_for_selector("#review svg.chart path.line")
    assert page.locator("#review svg.chart path.line").count() == 2
    marked = page.locator("#review svg.chart .mark:not(.legend)")
    assert marked.count() == len(review["marks"]) >= 1
    svg_title = page.locator("#review svg.chart > title").text_content()
    assert svg_title == review["chart"]["title"]
    assert page.get_attribute("#review svg.chart", "aria-describedby")
    lessons = page.inner_text("#review .learner")
    for player in review["players"]:
        assert player["accuracy_sentence"] in lessons and player["sentence"] in lessons
    for line in review["chart"]["figures"]:
        assert line in lessons
    said = [li.strip() for li in page.locator("#review ol.marks li").all_inner_texts()]
    assert said == [m["text"] for m in review["chart"]["marks"]]
    assert any(m["why"] and m["why"] in said[i] for i, m in enumerate(review["marks"]))
    assert page.inner_text("#review table.review caption") == review["chart"]["table"][
        "caption"]
    assert page.inner_text("#review table.luck-terms caption") == review["chart"]["luck"][
        "caption"]
    gifts = page.locator("#review table.luck-terms td[data-term=others_mistakes]")
    assert gifts.all_inner_texts() == [row["others_mistakes"]
                                       for row in review["chart"]["luck"]["rows"]]
    blunders = page.locator("#review table.sizes td[data-size=blunder]").first.inner_text()
    assert int(blunders) == review["players"][0]["sizes"]["blunder"]
    shot(page, "review-learner", full_page=True)
    page.context.close()
    assert errors == []


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")
def test_the_statistics_show_the_rating_its_line_and_likeness(browser: Browser,
                                                              server: Server) -> None:
    eve = server.post("/api/players", {"name": "Eve"}).json()["token"]   # rated: claimed
    for _ in range(2):
        worst_game(server, "Eve", "medium", eve)
    rating = server.get("/api/stats?player=Eve").json()["rating"]
    assert rating["games"] == 2 and len(rating["history"]) == 3
    page, errors = open_page(browser)
    page.goto(f"{server.url}/stats?player=Eve")
    page.wait_for_selector("#stats .rating svg.small-line path.line")
    assert page.inner_text("#stats .rating-text") == rating["text"]
    assert page.locator("#stats .rating svg.small-line > title").text_content() == rating[
        "history_title"]
    accuracy = server.get("/api/stats?player=Eve").json()["accuracy"]
    if accuracy is not None:     # Eve had a choice to make in one of her games
        assert page.inner_text("#stats .accuracy-text") == accuracy["text"]
    assert rating["history_text"] in page.inner_text("#stats .rating")
    words = server.get("/api/stats?player=Eve").json()["words"]   # the facts and the chart
    assert page.locator("#stats .facts-table th").all_inner_texts() == [
        label for label, _ in words["rows"]]
    assert page.locator("#stats .facts-table td").all_inner_texts() == [
        value for _, value in words["rows"]]
    assert page.inner_text("#stats .chart-box figcaption") == words["chart"]["caption"]
    described = page.get_attribute("#stats .chart-box svg", "aria-label")
    assert described == words["chart"]["description"]
    shot(page, "stats-rating", full_page=True)
    page.context.close()
    assert errors == []
