"""The daily box through the API, attacked as the issue did: a turn is a claimed player's
(401 without a name, or with a made-up token), dealt one roll at a time from the server's
own dice (a line found offline on the public dice is refused or scores as the server dealt
it), never a result the client sends, one a day, one decision at a time (two at once: one
moves), and the day's table lists the server's records of claimed players only.

Every test here runs twice: on SQLite and on a fresh PostgreSQL schema (skipped, saying so,
when PostgreSQL does not answer on 127.0.0.1:5432); the last ones start real servers (two
processes each).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from shutthebox.coach.daily import DailyBox, daily_box
from shutthebox.dice import format_roll
from shutthebox.web import create_app
from shutthebox.web.api.checks import RateLimits
from shutthebox.web.records import daily
from shutthebox.web.solving.workers import SolverPool
from shutthebox.web.storage import make_engine
from shutthebox.web.storage.schema import DAILY_TURNS, SERVER_SECRETS
from tests.web.client import HOSTS
from tests.web.webserver import Server, database

Post = Callable[[str, dict[str, Any]], Any]


def claim(client: TestClient, name: str) -> dict[str, str]:
    """A claimed name's header for its device."""
    answer = client.post("/api/players", json={"name": name})
    assert answer.status_code == 201, answer.text
    return {"X-Player-Token": answer.json()["token"]}


def server_box(client: TestClient, day: str) -> DailyBox:
    """The server's box of the day, with its secret (as only the server knows it)."""
    secret: bytes = client.app.state.daily_secret     # type: ignore[attr-defined]
    return daily.box_of(day, secret)


def choice(state: dict[str, Any], pick: int) -> Any:
    """The ``pick``-th legal decision where the turn waits."""
    pending = state["pending"]
    options = pending["dice_choices"] if pending["kind"] == "choose-dice" else pending["legal"]
    return options[pick % len(options)]


def play(post: Post, pick: int, seen: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The player's turn of today through ``post``, the ``pick``-th legal decision each
    time; each answer is added to ``seen``. The last answer."""
    state: dict[str, Any] = post("/api/daily/turn", {})
    while state["status"] == "playing":
        if seen is not None:
            seen.append(state)
        state = post("/api/daily/turn/decisions", {"at": state["at"],
                                                   "decision": choice(state, pick)})
    return state


def poster(client: TestClient, headers: dict[str, str]) -> Post:
    def post(path: str, body: dict[str, Any]) -> Any:
        answer = client.post(path, json=body, headers=headers)
        assert answer.status_code == 200, answer.text
        return answer.json()
    return post


def rolls_of(box: DailyBox, moves: list[Any]) -> list[list[int]]:
    match = daily.replayed(box, moves)
    return [list(e["roll"]) for e in match.events if e["type"] == "roll"]


def test_without_a_claimed_name_there_is_no_turn(client: TestClient) -> None:
    box = client.get("/api/daily").json()
    assert set(box) >= {"day", "title", "rules_text", "tiles", "unclaimed"}
    assert "pending" not in box and "rolls" not in box and "board" not in box
    for path, body in (("/api/daily/turn", {}),
                       ("/api/daily/turn/decisions", {"at": 0, "decision": 2})):
        missing = client.post(path, json=body)
        assert missing.status_code == 401 and missing.json()["detail"] == box["unclaimed"]
        assert "claim" in box["unclaimed"]
        made_up = client.post(path, json=body,
                              headers={"X-Player-Token": "made-up-by-the-client-0123456789"})
        assert made_up.status_code == 401 and "not known here" in made_up.json()["detail"]
    assert client.get("/api/daily/results").json()["results"] == []


def test_each_roll_is_dealt_only_after_the_decision_before_it(client: TestClient) -> None:
    post = poster(client, claim(client, "Ann"))
    seen: list[dict[str, Any]] = []
    end = play(post, 0, seen)
    box = server_box(client, end["day"])
    checked = 0
    for state in seen:
        moves = daily_moves(client, end["day"])[:state["at"]]
        dealt = rolls_of(box, moves)        # the rolls dealt once these decisions were made
        text = json.dumps(state)
        assert sum("roll" in e for e in state["log"]) >= len(dealt) - 1
        if state["pending"]["kind"] == "shut":
            assert state["pending"]["roll"] == sorted(dealt[-1])
        following = box.roll(len(dealt), 2)         # the roll after the next decision
        if format_roll(following) not in {format_roll(tuple(r)) for r in dealt}:
            assert format_roll(following) not in text, (state["at"], following)
            checked += 1
        assert set(state) & {"rolls", "result", "perfect"} == set()
    assert checked >= 1
    assert end["result"]["perfect"] == box.perfect_score()
    # perfect play's line is told only as far as the player's own rolls (its later rolls
    # are the day's, which others have still to be dealt)
    (line,) = [x for x in end["result"]["lines"] if x.startswith("Perfect play:")]
    dealt = rolls_of(box, daily_moves(client, end["day"]))
    assert line.count("roll ") <= len(dealt)
    perfect_rolls = [e for e in box.perfect().events if e["type"] == "roll"]
    assert line.endswith("….") == (len(perfect_rolls) > len(dealt))
    assert end["result"]["lines"][0].startswith(f"You scored {end['result']['score']}")
    assert end["review"] == f"/review/{end['game']}"


def daily_moves(client: TestClient, day: str) -> list[Any]:
    """The decisions the server stored (read from its database, as a test may)."""
    engine = client.app.state.service.engine      # type: ignore[attr-defined]
    with engine.connect() as db:
        return list(db.execute(select(DAILY_TURNS.c.moves).where(
            DAILY_TURNS.c.day == day)).scalar_one())


def test_a_line_found_offline_on_the_public_dice_is_refused_or_scores_as_dealt(
        client: TestClient) -> None:
    headers = claim(client, "Cheater")
    state = poster(client, headers)("/api/daily/turn", {})
    box = server_box(client, state["day"])
    public = daily_box(box.day)                      # the dice anyone can print offline
    assert box.rolls(20) != public.rolls(20)
    line = [e["dice"] if e["type"] == "dice" else sorted(e["tiles"])
            for e in public.perfect().events if e["type"] in ("dice", "shut")]
    refused, at = None, 0
    for at, decision in enumerate(line):
        answer = client.post("/api/daily/turn/decisions",
                             json={"at": at, "decision": decision}, headers=headers)
        if answer.status_code != 200:
            refused = answer
            break
        state = answer.json()
    moves = daily_moves(client, state["day"])
    if refused is not None:
        assert refused.status_code == 400 and "not legal" in refused.json()["detail"]
        assert len(moves) == at and state["status"] == "playing"
        assert client.get("/api/daily/results").json()["results"] == []
    else:
        expected = box.result(daily.replayed(box, moves).to_log())["score"]
        assert state["status"] == "over" and state["result"]["score"] == expected
        assert rolls_of(box, moves) != rolls_of(public, moves)


def test_no_route_takes_a_result_or_moves_from_the_client(client: TestClient) -> None:
    headers = claim(client, "Eve")
    moves: list[Any] = [[1, 2], [3], [4]]
    for path, body, status in (
            ("/api/daily/results", {"moves": moves, "name": "Eve"}, 405),
            ("/api/daily/turn", {"moves": moves}, 422),
            ("/api/daily/turn", {"score": 0}, 422),
            ("/api/daily/turn/decisions", {"at": 0, "decision": 2, "moves": moves}, 422),
            ("/api/daily/turn/decisions", {"at": 0, "decisions": moves}, 422)):
        answer = client.post(path, json=body, headers=headers)
        assert answer.status_code == status, (path, answer.text)
        assert answer.json()["detail"]
    assert client.get("/api/daily/results").json()["results"] == []
    assert client.get("/api/players").json() == []


def test_a_second_turn_the_same_day_is_the_same_turn(client: TestClient) -> None:
    ann = claim(client, "Ann")
    post = poster(client, ann)
    first = post("/api/daily/turn", {})
    assert post("/api/daily/turn", {}) == first              # resumed, not dealt again
    end = play(post, -1)
    assert post("/api/daily/turn", {}) == end                # over: the same result
    assert play(post, 0) == end                              # played again: nothing moves
    bo = poster(client, claim(client, "Bo"))
    bos = play(bo, 0)
    table = client.get("/api/daily/results").json()
    assert sorted((r["player"], r["score"]) for r in table["results"]) == sorted(
        [("Ann", end["result"]["score"]), ("Bo", bos["result"]["score"])])
    # today's box is still played: the table shows no one's game (its dice are everyone's)
    assert [r["game"] for r in table["results"]] == [None, None]
    assert end["game"] not in json.dumps(table) and bos["game"] not in json.dumps(table)
    engine = client.app.state.service.engine      # type: ignore[attr-defined]
    with engine.connect() as db:
        assert db.execute(select(func.count()).select_from(DAILY_TURNS)).scalar() == 2
    review = client.get(f"/api/games/{end['game']}/review")
    assert review.status_code == 200 and review.json()["players"][0]["player"] == "Ann"


def test_an_old_decision_cannot_be_changed_and_a_repeat_changes_nothing(
        client: TestClient) -> None:
    headers = claim(client, "Cy")
    post = poster(client, headers)
    state = post("/api/daily/turn", {})
    moved = post("/api/daily/turn/decisions", {"at": 0, "decision": choice(state, 0)})
    again = post("/api/daily/turn/decisions", {"at": 0, "decision": choice(state, 0)})
    assert again == moved and moved["at"] == 1
    options = (state["pending"]["dice_choices"] if state["pending"]["kind"] == "choose-dice"
               else state["pending"]["legal"])
    if len(options) > 1:
        other = client.post("/api/daily/turn/decisions",
                            json={"at": 0, "decision": choice(state, 1)}, headers=headers)
        assert other.status_code == 409 and "made already" in other.json()["detail"]
    ahead = client.post("/api/daily/turn/decisions", json={"at": 3, "decision": 2},
                        headers=headers)
    assert ahead.status_code == 409 and "load the turn again" in ahead.json()["detail"]
    assert post("/api/daily/turn", {}) == moved


@pytest.mark.parametrize(("body", "status"), [
    ({"at": 0, "decision": [99]}, 422),
    ({"at": -1, "decision": 2}, 422),
    ({"at": 0, "decision": "x"}, 422),
    ({"at": 0, "decision": [12, 12]}, 400),
    ({"at": 0, "decision": 2, "day": "2000-01-01"}, 400),
    ({"at": 0, "decision": 2, "day": "not a day"}, 400),
])
def test_odd_daily_decisions_are_clear_4xx(client: TestClient, body: dict[str, Any],
                                           status: int) -> None:
    headers = claim(client, "Dee")
    client.post("/api/daily/turn", json={}, headers=headers)
    answer = client.post("/api/daily/turn/decisions", json=body, headers=headers)
    if body.get("decision") == [12, 12] and answer.status_code == 200:
        pytest.fail("a shut of tile 12 twice was taken")
    assert answer.status_code == status, answer.text
    assert answer.json()["detail"]
    assert client.get("/api/daily", params={"day": "2000-01-01"}).status_code == 400


def test_two_apps_on_one_database_share_the_secret_made_once(
        database_url: str, pool: SolverPool) -> None:
    secrets = []
    for _ in range(2):
        app = create_app(database_url, allowed_hosts=HOSTS, computer_delay=0,
                         limits=RateLimits(0, 0), pool=pool)
        with TestClient(app):
            secrets.append(app.state.daily_secret)
    assert secrets[0] == secrets[1] and len(secrets[0]) == 32
    engine = make_engine(database_url)
    try:
        with engine.connect() as db:
            assert db.execute(select(func.count()).select_from(SERVER_SECRETS)).scalar() == 1
    finally:
        engine.dispose()
    assert server_dice_differ(secrets[0])


def server_dice_differ(secret: bytes) -> bool:
    box = daily.box_of(None)
    return daily_box(box.day, secret).rolls(20) != box.rolls(20)


# --- real servers: two processes on one database ------------------------------------------


@pytest.fixture(params=["sqlite", "postgresql"])
def servers(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    with database(request.param, tmp_path) as url:
        running = Server(tmp_path, workers=2, database_url=url).start()
        try:
            yield running
        finally:
            running.kill()


def test_two_server_processes_deal_the_same_dice_and_move_a_turn_once(
        servers: Server) -> None:
    made = httpx.post(f"{servers.url}/api/players", json={"name": "Flo"}, timeout=30)
    assert made.status_code == 201, made.text
    headers = {"X-Player-Token": made.json()["token"]}

    def post(path: str, body: dict[str, Any]) -> httpx.Response:
        return httpx.post(f"{servers.url}{path}", json=body, headers=headers, timeout=60)

    state = post("/api/daily/turn", {}).json()
    views = [post("/api/daily/turn", {}).json() for _ in range(12)]   # both processes answer
    assert all(view == state for view in views)
    options = (state["pending"]["dice_choices"] if state["pending"]["kind"] == "choose-dice"
               else state["pending"]["legal"])
    sent = [options[i % len(options)] for i in range(8)]
    start = threading.Barrier(len(sent))
    answers: list[httpx.Response] = []

    def send(decision: Any) -> None:
        start.wait()
        answers.append(post("/api/daily/turn/decisions", {"at": 0, "decision": decision}))

    threads = [threading.Thread(target=send, args=(d,)) for d in sent]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(answers) == len(sent)
    moved = [a.json() for a in answers if a.status_code == 200]
    assert moved and all(a.status_code in (200, 409) for a in answers), [
        a.text for a in answers]
    after = post("/api/daily/turn", {}).json()
    assert after["at"] == 1 and all(m == after for m in moved)
    # one request moved; those sending the same decision were answered with it, the others
    # refused
    assert any(len(moved) == sum(d == option for d in sent) for option in options)
    again = [post("/api/daily/turn", {}).json() for _ in range(8)]
    assert all(view == after for view in again)
