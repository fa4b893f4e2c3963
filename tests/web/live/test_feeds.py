"""Live feeds: a watcher hears each event as it is stored and resumes where it left, a feed
lets go of a client that left and closes once the game is over, pings when quiet, and
refuses an unknown game or event number.

Every test here runs twice: on SQLite and on a fresh PostgreSQL schema (skipped, saying so,
when PostgreSQL does not answer on 127.0.0.1:5432).
"""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from tests.web.client import bearer, new_game, play_out
from tests.web.legal import first_legal


def test_a_watcher_sees_each_event_as_it_is_stored_and_resumes_where_it_left(
        client: TestClient) -> None:
    state = new_game(client, players=[{"name": "Ann"}])
    token = state["tokens"]["0"]
    with client.websocket_connect(f"/api/games/{state['id']}/live?since=0") as live:
        first = live.receive_json()
        assert first["type"] == "state" and first["event_count"] == state["event_count"]
        assert len(first["events"]) == state["event_count"]
        began = time.perf_counter()
        rolled = client.post(f"/api/games/{state['id']}/roll",
                             json={"event": state["event_count"]}, headers=bearer(token)).json()
        heard = live.receive_json()
        assert time.perf_counter() - began < 2.0
        assert heard["event_count"] == rolled["event_count"]
        assert heard["events"] == rolled["events"]
    if rolled["status"] == "over":
        return
    path, body = first_legal(rolled)
    moved = client.post(path, json=body, headers=bearer(token)).json()
    with client.websocket_connect(
            f"/api/games/{state['id']}/live?since={rolled['event_count']}") as again:
        missed = again.receive_json()
        assert missed["since"] == rolled["event_count"]
        assert missed["events"] == moved["events"]


def test_a_feed_lets_go_of_a_client_that_left_and_closes_once_the_game_is_over(
        client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    state = new_game(client, players=[{"name": "Ann"}])
    hub = client.app.state.hub        # type: ignore[attr-defined]
    url = f"/api/games/{state['id']}/live?since=0"
    with client.websocket_connect(url) as live:
        live.receive_json()
        assert hub.watching(state["id"]) == 1
    deadline = time.monotonic() + 5    # the handler notices at once, not at its next ping
    while hub.watching(state["id"]) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert hub.watching(state["id"]) == 0
    with client.websocket_connect(url) as live:
        live.receive_json()
        over = play_out(client, state, state["tokens"])
        while (heard := live.receive_json())["event_count"] < over["event_count"]:
            pass
        assert heard["status"] == "over"
        with pytest.raises(WebSocketDisconnect) as closed:
            live.receive_json()
        assert closed.value.code == 4000
    with client.websocket_connect(url) as late, pytest.raises(WebSocketDisconnect) as closed:
        assert late.receive_json()["status"] == "over"
        late.receive_json()
    assert closed.value.code == 4000


def test_a_quiet_feed_sends_a_ping_and_then_the_next_move(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from shutthebox.web.live import feeds as live

    monkeypatch.setattr(live, "PING_SECONDS", 0.3)
    state = new_game(client, players=[{"name": "Ann"}])
    # (timed from before the feed opens: the server's quiet time starts when it sends the
    # state, which a busy machine may hand to the test a while later)
    began = time.monotonic()
    with client.websocket_connect(f"/api/games/{state['id']}/live?since=0") as feed:
        assert feed.receive_json()["type"] == "state"
        assert feed.receive_json() == {"type": "ping"}
        assert time.monotonic() - began >= 0.3          # not before the quiet time
        rolled = client.post(f"/api/games/{state['id']}/roll",
                             json={"event": state["event_count"]},
                             headers=bearer(state["tokens"]["0"])).json()
        heard = feed.receive_json()
        while heard["type"] == "ping":
            heard = feed.receive_json()
        assert heard["event_count"] == rolled["event_count"]


def test_watching_an_unknown_game_is_refused(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect) as closed, \
            client.websocket_connect("/api/games/nope/live") as live:
        live.receive_json()
    assert closed.value.code == 4404
    state = new_game(client, players=[{"name": "Ann"}])
    for since in ("-1", "soon", "1" * 11):
        with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(
                f"/api/games/{state['id']}/live?since={since}") as live:
            live.receive_json()
        assert closed.value.code == 1008 and "event number" in closed.value.reason
