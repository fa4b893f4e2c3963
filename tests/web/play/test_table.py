"""A table played online, as its players and attackers use it: the turn clock (the computer
moves for a player out of time, and plays the seat after three timeouts in a row), the
host's actions (pause, resume, hand a seat over, end) that no other seat may do, a player
who comes back, a game that replays exactly after a restart, and races between timeouts
and moves that change nothing twice.

Every test runs on SQLite and on a fresh PostgreSQL schema (skipped, saying so, when
PostgreSQL does not answer on 127.0.0.1:5432). Clocks are one second long, and every wait
is bounded.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from shutthebox.rules import Rules
from shutthebox.web import create_app
from shutthebox.web.api.checks import RateLimits
from shutthebox.web.play.seats import SeatKind
from shutthebox.web.play.service import GameService, NotYourTurnError, SeatSpec
from shutthebox.web.play.table import MISSED_TURNS
from shutthebox.web.play.table_actions import HOST_ACTIONS_A_TURN
from shutthebox.web.solving.workers import SolverPool
from shutthebox.web.storage import make_engine
from tests.web.legal import first_legal
from tests.web.webserver import two_servers_on_postgresql

HOSTS = ("testserver",)
State = dict[str, Any]


def app_on(database_url: str, pool: SolverPool, delay: float = 0) -> TestClient:
    return TestClient(create_app(database_url, allowed_hosts=HOSTS, computer_delay=delay,
                                 limits=RateLimits(0, 0), pool=pool))


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def friends_game(client: TestClient, clock: int | None = 1, friends: int = 1,
                 game_format: str = "single") -> tuple[State, dict[int, str]]:
    """Ann (the host, here) and friends who took their open seats: the state and every
    seat's token."""
    seats = [{"name": "Ann"}] + [{"name": name, "kind": "open"}
                                 for name in ("Bo", "Cy")[:friends]]
    response = client.post("/api/games", json={"players": seats, "clock": clock,
                                                "format": game_format})
    assert response.status_code == 201, response.text
    state = response.json()
    tokens = {0: state["tokens"]["0"]}
    for invite in state["invites"]:
        joined = client.post(f"/api/games/{state['id']}/join", json={
            "invite": invite["code"], "name": seats[invite["seat"]]["name"]})
        assert joined.status_code == 200, joined.text
        tokens[invite["seat"]] = joined.json()["token"]
    return client.get(f"/api/games/{state['id']}").json(), tokens


def until(client: TestClient, game_id: str, done: Callable[[State], bool],
          playing: dict[int, str] | None = None, seconds: float = 40) -> State:
    """The game once ``done`` holds; meanwhile the seats of ``playing`` play their first
    legal moves when they are waited for."""
    deadline = time.monotonic() + seconds
    while True:
        state: State = client.get(f"/api/games/{game_id}").json()
        if done(state):
            return state
        assert time.monotonic() < deadline, f"not reached: {state['pending']} {state['table']}"
        pending = state["pending"]
        if playing and state["status"] == "playing" and pending["human"] \
                and pending["seat"] in playing:
            path, body = first_legal(state)
            client.post(path, json=body, headers=bearer(playing[pending["seat"]]))
            continue
        time.sleep(0.05)


def types(state: State) -> list[str]:
    return [event["type"] for event in state["events"]]


def said(state: State) -> list[str]:
    return [line for line in state["events_text"] if line]


# --- the clock ----------------------------------------------------------------------


def test_a_player_out_of_time_has_the_computer_move_for_them(client: TestClient) -> None:
    state, _ = friends_game(client)
    assert state["table"]["clock"] == 1 and state["table"]["host"] == 0
    assert 0 < state["table"]["left"] <= 1
    first = state["pending"]["seat"]
    timed = until(client, state["id"], lambda s: "timeout" in types(s))
    timeout = next(e for e in timed["events"] if e["type"] == "timeout")
    assert timeout == {"type": "timeout", "seat": first, "action": "roll"}
    name = timed["players"][first]["name"]
    assert f"Time ran out for {name}: the computer makes this move for them" in said(timed)
    # the computer made exactly the move waited for: a roll, then the player is asked again
    after = until(client, state["id"], lambda s: types(s)[types(s).index("timeout") + 1:]
                  .count("roll") >= 1)
    rest = after["events"][types(after).index("timeout") + 1:]
    assert rest[0] == {**rest[0], "type": "roll", "seat": first}


def test_the_review_says_which_moves_the_computer_made_for_a_player(
        client: TestClient) -> None:
    state, _ = friends_game(client)

    def timed_out_shut(s: State) -> bool:
        kinds = types(s)
        return any(kinds[i] == "timeout" and s["events"][i]["action"] == "shut"
                   and "shut" in kinds[i + 1:] for i in range(len(kinds)))

    timed = until(client, state["id"], timed_out_shut)
    first = timed["events"][types(timed).index("timeout")]["seat"]
    name = timed["players"][first]["name"]
    review = client.get(f"/api/games/{state['id']}/review")
    assert review.status_code == 200, review.text
    made = [d for d in review.json()["decisions"] if d.get("by_computer")]
    assert made and made[0]["seat"] == first
    assert made[0]["by_computer"] == f"{name}'s time ran out: the computer played this"
    assert all(d["by_computer"].startswith(d["player"]) for d in made)


def test_a_move_s_answer_says_the_clock_of_the_next_decision(client: TestClient) -> None:
    state, tokens = friends_game(client, clock=60)
    for _ in range(3):
        path, body = first_legal(state)
        answer = client.post(path, json=body, headers=bearer(tokens[state["pending"]["seat"]]))
        assert answer.status_code == 200, answer.text
        state = answer.json()
        if state["status"] != "playing":
            break
        assert 59 <= state["table"]["left"] <= 60, state["table"]


def test_three_timeouts_in_a_row_hand_the_seat_to_the_computer_until_its_player_is_back(
        database_url: str, pool: SolverPool) -> None:
    with app_on(database_url, pool, delay=0.3) as client:
        state, tokens = friends_game(client, game_format="rounds:3")
        bo = tokens[1]
        away = until(client, state["id"], lambda s: 1 in s["table"]["away"],
                     playing={0: tokens[0]}, seconds=60)
        bo_timeouts = [e for e in away["events"] if e["type"] == "timeout" and e["seat"] == 1]
        assert len(bo_timeouts) == MISSED_TURNS
        assert away["events"][-1] == {"type": "away", "seat": 1, "reason": "missed",
                                      "missed": MISSED_TURNS}
        assert f"Bo missed {MISSED_TURNS} turns in a row: the computer plays for them " \
               "until they come back" in said(away)
        # the computer plays Bo's seat (no clock runs for it), and Bo cannot act meanwhile
        assert away["pending"]["seat"] == 1 and not away["pending"]["human"]
        assert away["table"]["left"] is None
        path, body = first_legal(away)
        refused = client.post(path, json=body, headers=bearer(bo))
        assert refused.status_code == 409 and "take it back" in refused.json()["detail"]
        back = client.post(f"/api/games/{state['id']}/table/back", headers=bearer(bo))
        assert back.status_code == 200, back.text
        assert back.json()["table"]["away"] == [] and "back" in types(back.json())
        assert "Bo is back and plays again" in said(back.json())
        again = client.post(f"/api/games/{state['id']}/table/back", headers=bearer(bo))
        assert again.status_code == 200 and types(again.json()).count("back") == 1
        # Bo plays again: a decision of Bo's is waited for, with the clock
        mine = until(client, state["id"], lambda s: s["status"] == "over" or (
            s["pending"]["seat"] == 1 and s["pending"]["human"]), playing={0: tokens[0]})
        assert mine["status"] == "over" or mine["table"]["left"] is not None


def test_a_paused_clock_times_nobody_out_and_resumed_gives_a_full_clock(
        client: TestClient) -> None:
    state, tokens = friends_game(client)
    host = bearer(tokens[0])
    paused = client.post(f"/api/games/{state['id']}/table/pause", headers=host)
    assert paused.status_code == 200, paused.text
    assert paused.json()["table"]["paused"] and paused.json()["table"]["left"] is None
    time.sleep(1.6)
    still = client.get(f"/api/games/{state['id']}").json()
    assert "timeout" not in types(still) and "The host paused the turn clock" in said(still)
    assert client.post(f"/api/games/{state['id']}/table/pause", headers=host).status_code \
        == 409
    resumed = client.post(f"/api/games/{state['id']}/table/resume", headers=host).json()
    assert not resumed["table"]["paused"] and resumed["table"]["left"] > 0.5
    until(client, state["id"], lambda s: "timeout" in types(s), seconds=10)


def test_a_clock_is_for_friends_online_and_within_its_range(client: TestClient) -> None:
    alone = client.post("/api/games", json={"players": [{"name": "Ann"}, {"name": "Bo"}],
                                            "clock": 30})
    assert alone.status_code == 400 and "friends online" in alone.json()["detail"]
    for bad in (-1, 3601, 10**12, "soon", 1.5):
        response = client.post("/api/games", json={
            "players": [{"name": "Ann"}, {"name": "Bo", "kind": "open"}], "clock": bad})
        assert response.status_code == 422, (bad, response.text)
    none = client.post("/api/games", json={
        "players": [{"name": "Ann"}, {"name": "Bo", "kind": "open"}], "clock": 0})
    assert none.status_code == 201 and none.json()["table"]["clock"] is None


# --- the host -----------------------------------------------------------------------


def test_only_the_host_may_pause_hand_over_and_end(client: TestClient) -> None:
    state, tokens = friends_game(client, clock=300, friends=2)
    _, others = friends_game(client, clock=300)
    game = f"/api/games/{state['id']}/table"
    for action, body in (("pause", None), ("resume", None), ("hand", {"seat": 1}),
                         ("end", None)):
        assert client.post(f"{game}/{action}", json=body).status_code == 401
        assert client.post(f"{game}/{action}", json=body,
                           headers=bearer("not-a-token")).status_code == 401
        assert client.post(f"{game}/{action}", json=body,
                           headers=bearer(others[0])).status_code == 403
        for seat in (1, 2):
            refused = client.post(f"{game}/{action}", json=body, headers=bearer(tokens[seat]))
            assert refused.status_code == 403, refused.text
            assert "only the host" in refused.json()["detail"]
    unchanged = client.get(f"/api/games/{state['id']}").json()
    assert unchanged["event_count"] == state["event_count"]
    host = bearer(tokens[0])
    wrong: list[tuple[dict[str, object], int]] = [
        ({"seat": 0}, 409), ({"seat": 7}, 409), ({"seat": -1}, 422), ({"seat": "Bo"}, 422),
        ({}, 422)]
    for wrong_seat, status in wrong:
        assert client.post(f"{game}/hand", json=wrong_seat, headers=host).status_code == status
    handed = client.post(f"{game}/hand", json={"seat": 2}, headers=host)
    assert handed.status_code == 200 and handed.json()["table"]["away"] == [2]
    assert "The host handed Cy's seat to the computer until they come back" \
        in said(handed.json())
    assert client.post(f"{game}/hand", json={"seat": 2}, headers=host).status_code == 409
    ended = client.post(f"{game}/end", headers=host)
    assert ended.status_code == 200, ended.text
    over = ended.json()
    assert over["status"] == "over" and over["table"]["ended"] and over["winners"] == []
    assert over["pending"]["kind"] == "over" and not over["pending"]["human"]
    assert "The host ended the game: nobody wins it" in said(over)
    for action in ("pause", "end", "back"):
        assert client.post(f"{game}/{action}", headers=host).status_code == 409
    path, body = first_legal(state)
    assert client.post(path, json=body, headers=bearer(tokens[state["pending"]["seat"]])
                       ).status_code == 409
    assert client.post(f"/api/games/{'0' * 32}/table/end", headers=host).status_code == 403


def test_a_game_without_a_clock_cannot_be_paused(client: TestClient) -> None:
    state, tokens = friends_game(client, clock=None)
    refused = client.post(f"/api/games/{state['id']}/table/pause", headers=bearer(tokens[0]))
    assert refused.status_code == 409 and "no turn clock" in refused.json()["detail"]
    assert state["table"]["clock"] is None and state["table"]["left"] is None


# --- a restart, and races -----------------------------------------------------------


def test_the_table_replays_exactly_and_the_clock_runs_on_after_a_restart(
        database_url: str, pool: SolverPool) -> None:
    with app_on(database_url, pool) as first:
        state, tokens = friends_game(first, friends=2)
        handed = first.post(f"/api/games/{state['id']}/table/hand", json={"seat": 2},
                            headers=bearer(tokens[0]))
        assert handed.status_code == 200
        seen = until(first, state["id"], lambda s: "timeout" in types(s))
        paused = first.post(f"/api/games/{state['id']}/table/pause",
                            headers=bearer(tokens[0])).json()
        first.post(f"/api/games/{state['id']}/table/resume", headers=bearer(tokens[0]))
        before = first.get(f"/api/games/{state['id']}").json()
        assert "timeout" in types(seen) and paused["table"]["paused"]
    with app_on(database_url, pool) as second:      # a new process: read from the database
        after = second.get(f"/api/games/{state['id']}").json()
        assert after["events"][:before["event_count"]] == before["events"]
        assert after["table"]["away"] == [2] and not after["table"]["paused"]
        assert after["table"]["clock"] == 1
        timeouts = types(before).count("timeout")
        # nobody plays: the clock, read from the database, times the next decision out
        until(second, state["id"], lambda s: types(s).count("timeout") > timeouts
              or s["status"] == "over", seconds=20)


def test_two_timeouts_at_once_time_a_decision_out_once(database_url: str) -> None:
    engine = make_engine(database_url)
    one, two = GameService(engine), GameService(engine)    # two processes' memories
    try:
        state = one.create(Rules(), "single", 0, [SeatSpec("Ann"), SeatSpec(
            "Bo", SeatKind.OPEN)], clock=1)
        game_id = state["id"]
        one.join(game_id, state["invites"][0]["code"], "Bo")
        count = one.state(game_id)["event_count"]
        time.sleep(1.2)
        answers: list[bool] = []
        services = [one, one, two, two]
        barrier = threading.Barrier(len(services))

        def time_out(service: GameService) -> None:
            barrier.wait()
            answers.append(service.time_out(game_id, count))

        threads = [threading.Thread(target=time_out, args=(s,)) for s in services]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert sorted(answers) == [False, False, False, True]
        stored = two.state(game_id)
        assert types(stored).count("timeout") == 1
        assert stored["event_count"] == count + 1
        assert one.time_out(game_id, count) is False        # at an old count: nothing
    finally:
        one.close()
        two.close()
        engine.dispose()


def race_a_move_and_a_timeout(one: GameService, two: GameService) -> None:
    """Ann's roll (through ``one``) and her timeout (through ``two``) at once, once her
    clock has run out: one of them is stored, never both."""
    state = one.create(Rules(), "single", 0, [SeatSpec("Ann"), SeatSpec(
        "Bo", SeatKind.OPEN)], clock=1)
    game_id, token = state["id"], state["tokens"]["0"]
    one.join(game_id, state["invites"][0]["code"], "Bo")
    now = one.state(game_id)
    assert now["pending"]["seat"] == 0 and now["pending"]["kind"] == "roll"
    count = now["event_count"]
    time.sleep(1.1)
    results: dict[str, object] = {}
    barrier = threading.Barrier(2)

    def move() -> None:
        barrier.wait()
        try:
            results["move"] = one.act(game_id, token, "roll", None, count, None)
        except NotYourTurnError as error:
            results["move"] = error

    def timeout() -> None:
        barrier.wait()
        results["timeout"] = two.time_out(game_id, count)

    threads = [threading.Thread(target=move), threading.Thread(target=timeout)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    stored = one.state(game_id)
    moved = isinstance(results["move"], str)
    assert moved != results["timeout"], results      # one of them, never both
    assert types(stored).count("timeout") == (0 if moved else 1)
    assert types(stored).count("roll") == (1 if moved else 0)


def test_a_move_and_a_timeout_at_once_store_one_of_them(database_url: str) -> None:
    engine = make_engine(database_url)
    one, two = GameService(engine), GameService(engine)
    try:
        for _ in range(3):
            race_a_move_and_a_timeout(one, two)
    finally:
        one.close()
        two.close()
        engine.dispose()


# --- who is at the table ------------------------------------------------------------


def next_of(live: Any, kind: str) -> dict[str, Any]:
    """The feed's next message of this type (the others are skipped)."""
    for _ in range(50):
        message: dict[str, Any] = live.receive_json()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message")


def test_every_board_sees_who_is_at_the_table_and_who_left(client: TestClient) -> None:
    state, tokens = friends_game(client, clock=300)
    url = f"/api/games/{state['id']}/live?since={state['event_count']}&table=1"
    with client.websocket_connect(url) as watcher:
        assert next_of(watcher, "state")["event_count"] == state["event_count"]
        assert next_of(watcher, "presence") == {"type": "presence", "online": []}
        with client.websocket_connect(url) as ann:
            ann.send_json({"type": "hello", "tokens": [tokens[0]]})
            assert next_of(watcher, "presence") == {
                "type": "presence", "online": [0], "seat": 0, "here": True,
                "text": "Ann is here"}
            with client.websocket_connect(url) as bo:
                bo.send_json({"type": "hello", "tokens": [tokens[1], "not-a-token"]})
                assert next_of(watcher, "presence")["online"] == [0, 1]
                bo.send_json({"type": "hello", "tokens": [tokens[0]]})     # once a feed
            left = next_of(watcher, "presence")
            assert left == {"type": "presence", "online": [0], "seat": 1, "here": False,
                            "text": "Bo left"}
            heard = [next_of(ann, "presence").get("text") for _ in range(4)]
            assert heard == [None, "Ann is here", "Bo is here", "Bo left"]


def test_a_hello_of_no_seat_or_of_garbage_changes_nothing(client: TestClient) -> None:
    state, tokens = friends_game(client, clock=300)
    _, others = friends_game(client, clock=300)
    url = f"/api/games/{state['id']}/live?since={state['event_count']}&table=1"
    with client.websocket_connect(url) as watcher:
        next_of(watcher, "presence")
        for junk in ('{"type": "hello", "tokens": ["' + others[0] + '"]}', "x" * 100_000,
                     '{"type": "hello", "tokens": "abc"}', "[1, 2]", "{", '"hello"',
                     '{"type": "hello", "tokens": [' + ",".join(['"t"'] * 500) + ']}'):
            with client.websocket_connect(url) as stranger:
                stranger.send_text(junk)
                assert next_of(stranger, "presence")["online"] == []
        with client.websocket_connect(url) as ann:    # the feeds still serve
            ann.send_json({"type": "hello", "tokens": [tokens[0]]})
            assert next_of(watcher, "presence")["online"] == [0]
    assert client.get(f"/api/games/{state['id']}").json()["event_count"] \
        == state["event_count"]


def test_a_player_who_opens_the_game_again_takes_their_seat_back(client: TestClient) -> None:
    state, tokens = friends_game(client, clock=300)
    handed = client.post(f"/api/games/{state['id']}/table/hand", json={"seat": 1},
                         headers=bearer(tokens[0]))
    assert handed.json()["table"]["away"] == [1]
    url = f"/api/games/{state['id']}/live?since=0&table=1"
    with client.websocket_connect(url) as bo:
        next_of(bo, "state")
        bo.send_json({"type": "hello", "tokens": [tokens[1]]})
        back = until(client, state["id"], lambda s: "back" in types(s), seconds=10)
    assert back["table"]["away"] == [] and "Bo is back and plays again" in said(back)


def test_host_actions_and_comebacks_at_once_change_the_table_once_each(
        client: TestClient) -> None:
    state, tokens = friends_game(client, clock=300, friends=2)
    game = f"/api/games/{state['id']}/table"
    host = bearer(tokens[0])
    assert client.post(f"{game}/hand", json={"seat": 1}, headers=host).status_code == 200
    answers: list[int] = []
    barrier = threading.Barrier(24)

    def press(action: str, headers: dict[str, str]) -> None:
        barrier.wait()
        answers.append(client.post(f"{game}/{action}", headers=headers).status_code)

    presses = [("pause", host), ("resume", host)] * 8 + [("back", bearer(tokens[1]))] * 8
    threads = [threading.Thread(target=press, args=p) for p in presses]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    # (past the host's table actions of a turn, 429: see table_actions)
    assert len(answers) == 24 and set(answers) <= {200, 409, 429}, answers
    after = client.get(f"/api/games/{state['id']}").json()
    kinds = [k for k in types(after) if k in ("pause", "resume")]
    assert kinds == ["pause", "resume"] * (len(kinds) // 2) + ["pause"] * (len(kinds) % 2)
    assert len(kinds) == answers.count(200) - 8          # the eight comebacks answer 200
    assert types(after).count("back") == 1 and after["table"]["away"] == []


def test_who_is_at_the_table_reaches_the_feeds_of_another_process(tmp_path: Path) -> None:
    """Two server processes on one PostgreSQL: Ann's page, followed through one, is seen
    arriving and leaving by a board followed through the other."""
    from websockets.sync.client import connect

    with two_servers_on_postgresql(tmp_path) as (one, two):
        state = one.post("/api/games", {"players": [
            {"name": "Ann"}, {"name": "Bo", "kind": "open"}]}).json()
        path = f"/api/games/{state['id']}/live?since=0&table=1"
        with connect(two.url.replace("http", "ws") + path) as board:

            def heard() -> dict[str, Any]:
                while True:
                    message: dict[str, Any] = json.loads(board.recv(timeout=10))
                    if message["type"] == "presence" and "text" in message:
                        return message

            with connect(one.url.replace("http", "ws") + path) as ann:
                ann.send(json.dumps({"type": "hello", "tokens": [state["tokens"]["0"]]}))
                arrived = heard()
                assert arrived["online"] == [0] and arrived["text"] == "Ann is here"
            left = heard()
            assert left["online"] == [] and left["text"] == "Ann left"


def test_the_host_pausing_and_resuming_in_a_loop_is_refused_before_the_log_grows(
        client: TestClient) -> None:
    """A game's log is bounded: the host's table actions are capped a turn (429, saying to
    wait for the turn's end) and a game; nothing refused is stored."""
    state, tokens = friends_game(client, clock=60)
    game_id, host = state["id"], bearer(tokens[0])
    answers = []
    for action in ["pause", "resume"] * (HOST_ACTIONS_A_TURN // 2 + 3):
        answers.append(client.post(f"/api/games/{game_id}/table/{action}", headers=host))
    statuses = [answer.status_code for answer in answers]
    assert statuses[:HOST_ACTIONS_A_TURN] == [200] * HOST_ACTIONS_A_TURN
    assert set(statuses[HOST_ACTIONS_A_TURN:]) == {429}
    assert "this turn" in answers[-1].json()["detail"]
    stored = client.get(f"/api/games/{game_id}").json()["event_count"]
    assert stored == state["event_count"] + HOST_ACTIONS_A_TURN


def test_a_game_the_host_ended_can_be_played_again(client: TestClient) -> None:
    state, tokens = friends_game(client, clock=60)
    game_id = state["id"]
    ended = client.post(f"/api/games/{game_id}/table/end", headers=bearer(tokens[0]))
    assert ended.status_code == 200, ended.text
    again = client.post(f"/api/games/{game_id}/rematch", headers=bearer(tokens[1]))
    assert again.status_code == 200, again.text
    assert again.json()["game_id"] != game_id
