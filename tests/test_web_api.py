"""The JSON API as players and attackers use it, on a real SQLite file and on PostgreSQL.

Every test here runs twice: on SQLite and on a fresh PostgreSQL schema (skipped, saying so,
when PostgreSQL does not answer on 127.0.0.1:5432).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from shutthebox.match import GameFormat, Match, MatchConfig, replay
from shutthebox.narration import chances_text, format_text
from shutthebox.rules import Rules
from shutthebox.solver import solve
from shutthebox.web import create_app
from shutthebox.web.advice import SolverPool
from shutthebox.web.guard import RateLimits
from shutthebox.web.seats import INVITE_LENGTH
from shutthebox.web.storage import make_engine, upgrade
from tests.webserver import database, first_legal

HOSTS = ("testserver",)


@pytest.fixture(scope="module")
def pool() -> Iterator[SolverPool]:
    shared = SolverPool()
    yield shared
    shared.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path) as url:
        yield url


@pytest.fixture
def client(database_url: str, pool: SolverPool) -> Iterator[TestClient]:
    app = create_app(database_url, allowed_hosts=HOSTS, computer_delay=0,
                     limits=RateLimits(0, 0), pool=pool)
    with TestClient(app) as running:
        yield running


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def wait_for_human(client: TestClient, state: dict[str, Any],
                   timeout: float = 30) -> dict[str, Any]:
    """The game once the server has played its steps (computers, roll-offs)."""
    deadline = time.monotonic() + timeout
    while True:
        pending = state["pending"]
        if state["status"] == "over" or (pending["human"] and state["status"] == "playing"):
            return state
        assert time.monotonic() < deadline, f"the server did not move on: {pending}"
        time.sleep(0.05)
        state = client.get(f"/api/games/{state['id']}").json()


def play_out(client: TestClient, state: dict[str, Any], tokens: dict[str, str]
             ) -> dict[str, Any]:
    """Play the humans' seats with the first legal move until the game is over."""
    while True:
        state = wait_for_human(client, state)
        if state["status"] == "over":
            return state
        path, body = first_legal(state)
        token = tokens[str(state["pending"]["seat"])]
        response = client.post(path, json=body, headers=bearer(token))
        assert response.status_code == 200, response.text
        state = response.json()


def stored_match(client: TestClient, game_id: str) -> Match:
    stored = client.get(f"/api/games/{game_id}").json()
    events = [e for e in stored["events"] if e["type"] not in ("seats", "join")]
    return replay({"version": 1, "rules": stored["rules"], "format": stored["format"],
                   "players": [p["name"] for p in stored["players"]],
                   "stake": stored["stake"], "events": events})


# --- playing ------------------------------------------------------------------------


def test_a_solo_game_is_played_by_its_token_and_its_log_replays(client: TestClient) -> None:
    state = new_game(client, players=[{"name": "Ann"}], preset="lever-9")
    assert state["format"] == "solo" and state["pending"]["kind"] == "roll"
    assert state["you"] == [0] and len(state["tokens"]["0"]) >= 32
    assert state["events"][0]["type"] == "seats"
    final = play_out(client, state, state["tokens"])
    assert final["winners"] == [0]
    match = stored_match(client, state["id"])
    assert match.is_over and match.round_scores[0] == int(final["round_scores"]["0"])
    assert final["score_text"] == f"Your score: {match.round_scores[0]}"   # the server's words


def test_a_battle_s_legend_says_what_the_marked_tiles_mean(client: TestClient) -> None:
    from shutthebox.narration import legend_text

    state = new_game(client, players=[{"name": "Ann"}, {"name": "Bo"}], format="battle")
    assert state["score_text"] is None
    tokens = state["tokens"]
    legends = set()
    while state["status"] == "playing":
        state = wait_for_human(client, state)
        if state["status"] != "playing":
            break
        match = stored_match(client, state["id"])
        assert state["pending"]["legend"] == legend_text(match)
        legends.add(state["pending"]["legend"])
        path, body = first_legal(state)
        token = tokens[str(state["pending"]["seat"])]
        state = client.post(path, json=body, headers=bearer(token)).json()
    assert any(legend and "knock down" in legend for legend in legends)


def test_computer_seats_are_played_by_the_server_after_the_answer(client: TestClient) -> None:
    state = new_game(client, players=[{"name": "Ann"}, {"name": "Bot", "computer": "hard"},
                                      {"name": "Cat", "kind": "computer",
                                       "computer": "easy"}], stake="1")
    assert set(state["tokens"]) == {"0"}
    final = play_out(client, state, state["tokens"])
    assert sum(final["payouts"].values()) == 300
    types = {e["type"] for e in client.get(f"/api/games/{state['id']}").json()["events"]}
    assert {"seats", "start", "ante", "turn", "roll", "winner", "payout"} <= types


def test_a_game_of_computers_only_plays_out_in_the_background(client: TestClient) -> None:
    state = new_game(client, players=[{"name": "A", "computer": "hard"},
                                      {"name": "B", "computer": "medium"}],
                     format="rounds:2", pace="instant")
    assert state["status"] == "playing" and state["tokens"] == {}
    final = wait_for_human(client, state)
    assert final["status"] == "over" and final["winners"]
    assert stored_match(client, state["id"]).is_over


# --- seats and tokens ---------------------------------------------------------------


def test_actions_need_the_token_of_the_seat_to_act(client: TestClient) -> None:
    state = new_game(client, players=[{"name": "Ann"}, {"name": "Bo"}])
    other = new_game(client, players=[{"name": "Cy"}])
    roll = f"/api/games/{state['id']}/roll"
    body = {"event": state["event_count"]}
    ann, bo = state["tokens"]["0"], state["tokens"]["1"]
    assert client.post(roll, json=body).status_code == 401
    assert client.post(roll, json=body, headers=bearer("not-a-token")).status_code == 401
    assert client.post(roll, json=body, headers=bearer(other["tokens"]["0"])).status_code == 403
    assert client.post(roll, json={**body, "seat": 0}, headers=bearer(bo)).status_code == 403
    refused = client.post(roll, json=body, headers=bearer(bo))
    assert refused.status_code == 409 and "Ann" in refused.json()["detail"]
    assert client.get(f"/api/games/{state['id']}").json()["event_count"] == state["event_count"]
    assert client.post(roll, json=body, headers=bearer(ann)).status_code == 200


def test_friends_join_open_seats_by_invite_and_play_starts_when_all_are_taken(
        client: TestClient) -> None:
    state = new_game(client, players=[{"name": "Ann"}, {"name": "Friend 1", "kind": "open"},
                                      {"name": "Friend 2", "kind": "open"}])
    assert state["status"] == "waiting" and set(state["tokens"]) == {"0"}
    first, second = state["invites"]
    assert first["link"] == f"/join/{first['code']}" and len(first["code"]) == INVITE_LENGTH
    info = client.get(f"/api/invites/{first['code'].lower()}").json()
    assert info["game_id"] == state["id"] and info["seat"] == 1 and not info["taken"]
    qr = client.get(first["qr"])
    assert qr.headers["content-type"] == "image/svg+xml" and b"<svg" in qr.content
    join = f"/api/games/{state['id']}/join"
    assert client.post(join, json={"invite": "ZZZZZZ", "name": "Bo"}).status_code == 404
    assert client.post(join, json={"invite": first["code"], "name": "ann"}).status_code == 400
    bo = client.post(join, json={"invite": first["code"], "name": "Bo"})
    assert bo.status_code == 200 and bo.json()["seat"] == 1
    assert bo.json()["state"]["status"] == "waiting"
    assert client.post(join, json={"invite": first["code"], "name": "Cy"}).status_code == 409
    roll = f"/api/games/{state['id']}/roll"
    assert client.post(roll, json={"event": bo.json()["state"]["event_count"]},
                       headers=bearer(state["tokens"]["0"])).status_code == 409
    cy = client.post(join, json={"invite": second["code"], "name": "Cy"}).json()
    started = cy["state"]
    assert started["status"] == "playing" and started["you"] == [2]
    assert [p["name"] for p in started["players"]] == ["Ann", "Bo", "Cy"]
    joins = [e for e in started["events"] if e["type"] == "join"]
    assert [(e["seat"], e["name"]) for e in joins] == [(1, "Bo"), (2, "Cy")]
    tokens = {"0": state["tokens"]["0"], "1": bo.json()["token"], "2": cy["token"]}
    final = play_out(client, started, tokens)
    assert final["status"] == "over"
    mine = client.get("/api/games", headers={"X-Seat-Tokens": f"{tokens['1']},{tokens['2']}"})
    assert [(g["id"], g["seats"]) for g in mine.json()] == [(state["id"], [1, 2])]


def test_the_game_list_shows_only_the_games_of_the_tokens_presented(client: TestClient) -> None:
    mine = new_game(client, players=[{"name": "Ann"}])
    new_game(client, players=[{"name": "Someone"}])
    assert client.get("/api/games").json() == []
    listed = client.get("/api/games", headers=bearer(mine["tokens"]["0"])).json()
    assert [g["id"] for g in listed] == [mine["id"]]


def test_hints_and_coaching_need_a_seat_of_the_game(client: TestClient) -> None:
    state = new_game(client, players=[{"name": "Ann"}])
    base = f"/api/games/{state['id']}"
    token = state["tokens"]["0"]
    assert client.get(f"{base}/hint").status_code == 401
    assert client.get(f"{base}/coach", headers=bearer("nope")).status_code == 401
    waiting = client.get(f"{base}/hint", headers=bearer(token)).json()
    assert waiting["options"] == [] and "Roll" in waiting["message"]
    coach = client.get(f"{base}/coach", headers=bearer(token)).json()
    assert coach["p_shut"] == pytest.approx(solve(Rules(), "shut").value())
    assert coach["text"] == chances_text(coach["p_shut"], coach["expected_score"])
    state = client.post(f"{base}/roll", json={"event": state["event_count"]},
                        headers=bearer(token)).json()
    if state["status"] == "over":
        return
    hint = client.get(f"{base}/hint", headers=bearer(token)).json()
    assert sorted(map(tuple, (o["tiles"] for o in hint["options"]))) == sorted(
        map(tuple, state["pending"]["legal"]))
    assert hint["options"][0]["loss"] == 0
    assert [o["text"] for o in hint["options"]] == [     # the moves as the terminal writes them
        " ".join(map(str, sorted(o["tiles"]))) for o in hint["options"]]   # lowest first


# --- commands are safe to repeat ----------------------------------------------------


def test_a_repeated_idempotency_key_answers_the_first_answer_and_rolls_once(
        client: TestClient) -> None:
    state = new_game(client, players=[{"name": "Ann"}])
    roll = f"/api/games/{state['id']}/roll"
    headers = {**bearer(state["tokens"]["0"]), "Idempotency-Key": str(uuid.uuid4())}
    first = client.post(roll, json={}, headers=headers)
    again = client.post(roll, json={}, headers=headers)
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    stored = client.get(f"/api/games/{state['id']}").json()
    assert sum(1 for e in stored["events"] if e["type"] == "roll") == 1


def test_without_a_key_a_stale_event_number_is_refused(client: TestClient) -> None:
    state = new_game(client, players=[{"name": "Ann"}])
    roll = f"/api/games/{state['id']}/roll"
    token = bearer(state["tokens"]["0"])
    assert client.post(roll, json={}, headers=token).status_code == 400
    assert client.post(roll, json={"event": state["event_count"] - 1},
                       headers=token).status_code == 409
    assert client.post(roll, json={"event": state["event_count"]}, headers=token
                       ).status_code == 200
    repeated = client.post(roll, json={"event": state["event_count"]}, headers=token)
    assert repeated.status_code == 409 and "moved on" in repeated.json()["detail"]


# --- bad requests -------------------------------------------------------------------


@pytest.mark.parametrize("stake", ["NaN", "Infinity", "-Infinity", "1e999999"])
def test_stakes_that_are_not_finite_amounts_are_400(client: TestClient, stake: str) -> None:
    for raw in (f'"{stake.lower()}"', stake):   # as a string and as a bare JSON number
        body = '{"players": [{"name": "A"}, {"name": "B"}], "stake": ' + raw + "}"
        response = client.post("/api/games", content=body,
                               headers={"Content-Type": "application/json"})
        assert response.status_code == 400, (raw, response.text)
        assert "stake" in response.json()["detail"]


def test_new_games_get_the_routes_answers_through_the_fast_lane(client: TestClient) -> None:
    made = client.post("/api/games", json={"players": [{"name": "Ann"}, {"name": "Bob"}],
                                             "stake": "0.50"})
    assert made.status_code == 201 and made.json()["tokens"]["0"]
    assert made.headers["content-type"] == "application/json"
    assert made.headers["x-content-type-options"] == "nosniff"      # the guard's headers
    assert made.json()["stake"] == 50
    refused = client.post("/api/games", json={"players": []})         # the model refuses
    assert refused.status_code == 422
    assert refused.json()["detail"].startswith("the request is not well formed")
    nameless = client.post("/api/games", json={"players": [{"name": "C", "kind": "computer"}]})
    assert nameless.status_code == 400 and "strength" in nameless.json()["detail"]


@pytest.mark.parametrize("fmt", ["rounds:101", "elimination:99999999999999999999",
                                 "race:1000000", "loser-at:0", "nonsense"])
def test_format_numbers_beyond_a_sane_bound_are_400(client: TestClient, fmt: str) -> None:
    response = client.post("/api/games", json={"players": [{"name": "A"}, {"name": "B"}],
                                               "format": fmt})
    assert response.status_code == 400 and response.json()["detail"]


def test_bodies_over_64_kib_and_bodies_that_are_not_json_are_refused(client: TestClient) -> None:
    big = client.post("/api/games", content=b" " * (65 * 1024),
                      headers={"Content-Type": "application/json"})
    assert big.status_code == 413 and "64 KiB" in big.json()["detail"]
    state = new_game(client, players=[{"name": "Ann"}])
    form = client.post(f"/api/games/{state['id']}/roll", data={"event": "0"},
                       headers=bearer(state["tokens"]["0"]))
    assert form.status_code == 415
    shape = client.post("/api/games", json={"players": "Ann"})
    assert shape.status_code == 422 and "players" in shape.json()["detail"]


def test_actions_of_every_shape_get_the_answers_of_the_api(client: TestClient) -> None:
    """Well-formed actions take the fast lane; bodies of other shapes go to the FastAPI
    routes. Either way: the same answers, statuses, messages and headers."""
    state = new_game(client, players=[{"name": "Ann"}])
    game, token = f"/api/games/{state['id']}", bearer(state["tokens"]["0"])
    lax = client.post(f"{game}/roll", json={"event": str(state["event_count"])},
                      headers=token)                    # a string number: pydantic's lax
    assert lax.status_code == 200 and lax.json()["you"] == [0]
    state = lax.json()
    assert state["pending"]["kind"] == "shut"
    for body, status, words in [
            ({"tiles": [99], "event": state["event_count"]}, 400, "99"),
            ({"tiles": [], "event": state["event_count"]}, 422, "tiles"),
            ({"tiles": ["a"], "event": state["event_count"]}, 422, "tiles"),
            ({"tiles": state["pending"]["legal"][0], "event": -1}, 422, "event"),
            ({"tiles": state["pending"]["legal"][0], "event": 0}, 409, "moved on"),
            ({"tiles": state["pending"]["legal"][0], "event": True}, 409, "moved on"),
            ({"tiles": state["pending"]["legal"][0], "seat": 1,
              "event": state["event_count"]}, 403, "seat 1")]:
        answer = client.post(f"{game}/shut", json=body, headers=token)
        assert answer.status_code == status, (body, answer.text)
        assert words in answer.json()["detail"], (body, answer.text)
        assert answer.headers["x-content-type-options"] == "nosniff"
    unknown = client.post(f"{game}/shut", json={"tiles": [1], "event": 1},
                          headers=bearer("no-such-token"))
    assert unknown.status_code == 401 and unknown.headers["www-authenticate"] == "Bearer"
    other = new_game(client, players=[{"name": "Bo"}])
    foreign = client.post(f"/api/games/{other['id']}/roll", json={"event": 1}, headers=token)
    assert foreign.status_code == 403
    missing = client.post(f"/api/games/{'0' * 32}/roll", json={"event": 1}, headers=token)
    assert missing.status_code in (403, 404)
    moved = client.post(f"{game}/shut", json={"tiles": state["pending"]["legal"][0],
                                              "event": state["event_count"]}, headers=token)
    assert moved.status_code == 200 and moved.json()["event_count"] > state["event_count"]


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    for response in (client.get("/"), client.get("/api/presets"), client.get("/api/games/x"),
                     client.get("/docs")):
        csp = response.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert "unsafe-inline" not in csp
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"]
    docs = client.get("/docs").text
    assert "cdn" not in docs.lower() and "/docs-assets/swagger/swagger-ui-bundle.js" in docs
    assert client.get("/docs-assets/swagger/swagger-ui-bundle.js").status_code == 200


def test_unknown_hosts_are_refused(database_url: str, pool: SolverPool) -> None:
    app = create_app(database_url, pool=pool)   # default: the loopback names only
    with TestClient(app, base_url="http://evil.example") as evil:
        refused = evil.get("/api/presets")
        assert refused.status_code == 400 and "evil.example" in refused.json()["detail"]
    with TestClient(app, base_url="http://127.0.0.1:8000") as local:
        assert local.get("/api/presets").status_code == 200


def test_a_client_sending_too_many_requests_gets_429_with_retry_after(
        database_url: str, pool: SolverPool) -> None:
    app = create_app(database_url, allowed_hosts=HOSTS, limits=RateLimits(5, 2, burst=1),
                     pool=pool)
    with TestClient(app) as client:
        answers = [client.get("/api/presets") for _ in range(8)]
        refused = [a for a in answers if a.status_code == 429]
        assert refused and int(refused[0].headers["retry-after"]) >= 1
        assert "too many requests" in refused[0].json()["detail"]


# --- review, players and statistics -------------------------------------------------


def test_review_gives_costs_in_the_unit_of_the_objective_and_a_verdict(
        client: TestClient) -> None:
    state = new_game(client, players=[{"name": "Ann"}])
    final = play_out(client, state, state["tokens"])
    review = client.get(f"/api/games/{final['id']}/review").json()
    assert review["unit"] == "points" and review["decisions"]
    assert all(d["unit"] == "points" and d["cost"] >= 0 for d in review["decisions"])
    assert any(d["costly"] for d in review["decisions"]) == (review["mistakes"]["Ann"] > 0)
    assert review["verdict"].startswith("Ann: ")
    assert review["chart"]["table"]["caption"].startswith(
        "Every decision; costs are in points of expected score against perfect play.")


def test_players_are_listed_and_any_name_has_statistics(client: TestClient) -> None:
    for _ in range(2):
        state = new_game(client, players=[{"name": "Al/Bo"}])
        play_out(client, state, state["tokens"])
    duel = new_game(client, players=[{"name": "Al/Bo"}, {"name": "Bot", "computer": "easy"}])
    play_out(client, duel, duel["tokens"])
    names = {p["name"]: p["games"] for p in client.get("/api/players").json()}
    assert names["Al/Bo"] == 3
    stats = client.get("/api/stats", params={"player": "Al/Bo"}).json()
    assert stats["solo"]["games"] == 2 and stats["matches"] == 1
    assert stats["wins"] in (0.0, 0.5, 1.0)
    assert stats["solo"]["personal_best"] == min(stats["solo"]["scores"])
    assert sum(stats["optimal"].values()) == pytest.approx(1.0)
    # the statistics in words come with them, made by the server, not by the page
    from shutthebox.web.stats import stats_words

    words = stats["words"]
    assert words == stats_words({k: v for k, v in stats.items() if k != "words"})
    assert dict(words["rows"])["Games"] == "3" and dict(words["rows"])["Matches against others"] \
        == "1"
    assert words["solo"]["best"] == (f"Personal best: {stats['solo']['personal_best']} over 2 "
                                     "solo games.")
    assert set(words["chart"]["bars"]) == set(words["chart"]["dots"]) == {
        *stats["optimal"], *stats["scores"]}
    turns = sum(stats["scores"].values())
    assert words["chart"]["caption"].startswith(f"From {turns} turns under the rules")
    missing = client.get("/api/stats", params={"player": "Nobody"})
    assert missing.status_code == 404 and "no finished games" in missing.json()["detail"]


# --- live updates -------------------------------------------------------------------


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
    from shutthebox.web import live

    monkeypatch.setattr(live, "PING_SECONDS", 0.3)
    state = new_game(client, players=[{"name": "Ann"}])
    with client.websocket_connect(f"/api/games/{state['id']}/live?since=0") as feed:
        assert feed.receive_json()["type"] == "state"
        began = time.monotonic()
        assert feed.receive_json() == {"type": "ping"}
        assert time.monotonic() - began >= 0.25         # not before the quiet time
        rolled = client.post(f"/api/games/{state['id']}/roll",
                             json={"event": state["event_count"]},
                             headers=bearer(state["tokens"]["0"])).json()
        heard = feed.receive_json()
        while heard["type"] == "ping":
            heard = feed.receive_json()
        assert heard["event_count"] == rolled["event_count"]


def test_a_long_running_server_keeps_a_bounded_number_of_games_and_tokens_at_hand(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from shutthebox.web import cache as module

    monkeypatch.setattr(module, "GAMES_IN_MEMORY", 3)
    monkeypatch.setattr(module, "HOLDERS_IN_MEMORY", 4)
    service = client.app.state.service        # type: ignore[attr-defined]
    games = [new_game(client, players=[{"name": f"P{i}"}]) for i in range(8)]
    for game in games:                          # spectators read finished and open games
        assert client.get(f"/api/games/{game['id']}").status_code == 200
    assert len(service.cache.games) <= 3 and len(service.cache.locks) <= 3
    assert len(service.cache.holders) <= 4
    first = games[0]                            # its token and game long out of memory
    listed = client.get("/api/games", headers={"X-Seat-Tokens": first["tokens"]["0"]})
    assert [g["id"] for g in listed.json()] == [first["id"]]
    seen = client.get(f"/api/games/{first['id']}", headers=bearer(first["tokens"]["0"]))
    assert seen.json()["you"] == [0]
    if first["status"] != "over":
        path, body = first_legal(first)
        moved = client.post(path, json=body, headers=bearer(first["tokens"]["0"]))
        assert moved.status_code == 200, moved.text
    assert len(service.cache.holders) <= 4


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


# --- storage ------------------------------------------------------------------------


OLD_ID = "0123456789abcdef0123456789abcdef"
"""A game id as release 0.1 made them (a UUID's hex)."""


def test_a_database_of_the_last_release_is_migrated_and_its_games_kept(
        database_url: str, pool: SolverPool) -> None:
    old = make_engine(database_url, migrate=False)
    upgrade(old, "0001")
    with old.begin() as connection:   # what release 0.1 stored, without Alembic's table
        connection.execute(text("DROP TABLE alembic_version"))
        match = Match(MatchConfig(Rules(), GameFormat.parse("single"), ("Ann", "Bot")))
        now = "2026-01-01 12:00:00"
        connection.execute(text(
            "INSERT INTO games (id, config, seats, status, event_count, created, updated) "
            "VALUES (:id, :config, :seats, 'playing', :count, :now, :now)"),
            {"id": OLD_ID, "config": json.dumps(match.config.to_dict()),
             "seats": json.dumps([None, "hard"]), "count": len(match.events), "now": now})
        connection.execute(text("INSERT INTO events (game_id, position, data) "
                                "VALUES (:g, :p, :d)"),
                           [{"g": OLD_ID, "p": i, "d": json.dumps(e)}
                            for i, e in enumerate(match.events)])
    old.dispose()
    app = create_app(database_url, allowed_hosts=HOSTS, pool=pool)
    with TestClient(app) as client:
        kept = client.get(f"/api/games/{OLD_ID}").json()
        assert kept["event_count"] == len(match.events)
        assert [s["kind"] for s in kept["seats"]] == ["here", "computer"]
        fresh = new_game(client, players=[{"name": "Ann"}])
        assert fresh["tokens"]
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from shutthebox.web.storage.engine import MIGRATIONS

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    newest = ScriptDirectory.from_config(config).get_current_head()
    check = create_engine(database_url.replace("postgresql://", "postgresql+psycopg://"))
    with check.connect() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")
                                  ).scalar() == newest
    check.dispose()


def test_a_bad_database_url_never_shows_its_password() -> None:
    from shutthebox.web.storage import StorageError

    with pytest.raises(StorageError) as refused:
        make_engine("postgresql://ann:hunter2@127.0.0.1:1/games")
    assert "hunter2" not in str(refused.value) and "***" in str(refused.value)


def test_the_first_match_tables_are_worked_out_with_progress_for_the_watchers(
        database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from shutthebox.solver.matchplay import cache_path

    monkeypatch.setenv("SHUTTHEBOX_HOME", str(tmp_path / "home"))  # no tables on disk yet
    rules = Rules()      # a table of about half a second: the background worker's
    table = cache_path(rules, GameFormat.parse("loser-at:60"))
    assert not table.exists()
    own_pool = SolverPool()
    app = create_app(database_url, allowed_hosts=HOSTS, computer_delay=0.3,
                     limits=RateLimits(0, 0), pool=own_pool)
    try:
        with TestClient(app) as client:
            state = new_game(client, players=[{"name": "Bot", "computer": "hard"},
                                              {"name": "Ann"}],
                             format="loser-at:60")
            kinds = []
            with client.websocket_connect(f"/api/games/{state['id']}/live?since=0") as live:
                while True:
                    message = live.receive_json()
                    kinds.append(message["type"])
                    if message["type"] == "state" and any(
                            e["type"] == "shut" for e in message["events"]):
                        break
            assert "progress" in kinds and kinds.index("progress") < len(kinds) - 1
            assert table.exists()
    finally:
        own_pool.close()


def test_solver_workers_run_below_the_server_priority(pool: SolverPool) -> None:
    """A solve of seconds in a worker must not slow the server's answers: the workers run at
    nice 10 above the process that started them, their compiled loops on a core fewer, and
    the background worker (match tables) only when the processor is idle (Linux), so that
    the interactive one (hints) goes first."""
    background = SolverPool(idle=True)
    try:
        for worker in (pool, background):
            assert asyncio.run(worker.run(os.nice, 0)) == min(os.nice(0) + 10, 19)
            threads = asyncio.run(worker.run(os.getenv, "NUMBA_NUM_THREADS"))
            assert threads == os.environ.get("NUMBA_NUM_THREADS",
                                             str(max(1, (os.cpu_count() or 2) - 1)))
        if hasattr(os, "SCHED_IDLE"):
            assert asyncio.run(background.run(os.sched_getscheduler, 0)) == os.SCHED_IDLE
            assert asyncio.run(pool.run(os.sched_getscheduler, 0)) == os.SCHED_OTHER
    finally:
        background.close()


# --- the game in words ----------------------------------------------------------------


def test_the_state_tells_the_game_in_the_narrations_words(client: TestClient) -> None:
    """The title, the rules and every event's sentence are made by shutthebox.narration (as
    the terminal's are) and sent with the state; the page shows them as sent."""
    from shutthebox.narration import ending_text, format_text, rules_text, tell, winners_line
    from shutthebox.rules import preset

    state = new_game(client, players=[{"name": "Ann"}, {"name": "Bo"}], preset="family-12",
                     format="rounds:2", stake="0.50")
    assert state["rules_text"] == rules_text(Rules.from_dict(state["rules"]))
    assert Rules.from_dict(state["rules"]).tiles == preset("family-12").tiles == 12
    assert "6 or less" in state["rules_text"]            # Rules.describe(), not the page's
    assert state["pending"]["text"] == "Waiting for Ann to roll…"
    assert state["pending"]["prompt"] == "Your roll: press Roll or Enter."
    assert state["pending"]["prompt_named"] == "Ann: roll the dice."
    path, body = first_legal(state)   # Ann's roll
    rolled = client.post(path, json=body, headers=bearer(state["tokens"]["0"])).json()
    roll = rolled["pending"]["roll"]
    assert rolled["pending"]["prompt"] == (
        f"You rolled {rolled['pending']['roll_text']}: shut tiles adding up to {sum(roll)}.")
    assert rolled["pending"]["prompt_named"].startswith("Ann rolled ")
    play_out(client, rolled, state["tokens"])
    final = client.get(f"/api/games/{state['id']}").json()
    match = stored_match(client, state["id"])
    seat_events = len(final["events"]) - len(match.events)
    said = [tell(event, match) for event in match.events]
    expected = [None] * seat_events + [t.text if t is not None else None for t in said]
    assert final["events_text"] == expected
    assert "Ann rolls" in " ".join(filter(None, expected)) and "Bo rolls" in " ".join(
        filter(None, expected))
    assert final["title"] == f"{format_text(match.config.format, match.round)} · pot 1.00"
    assert final["pot_text"] == "1.00"
    # the last screen's heading and pot, in the narration's words (the page adds none)
    assert state["ending"] is None and rolled["ending"] is None
    assert final["ending"] == ending_text(match)
    assert final["ending"]["heading"] == winners_line(match)
    payouts = [t.text for e, t in zip(match.events, said, strict=True)
               if e["type"] == "payout" and t is not None]
    assert final["ending"]["pot"] == f"The pot was 1.00: {', '.join(payouts)}."
    later = client.get(f"/api/games/{state['id']}", params={"since": seat_events + 3}).json()
    assert later["events_text"] == expected[seat_events + 3:]


def test_the_new_game_forms_choices_are_the_rules_own_words(client: TestClient) -> None:
    from shutthebox.rules import MoveRule, OneDie

    choices = client.get("/api/choices").json()
    one_die = {c["value"]: c["text"] for c in choices["one_die"]}
    assert set(one_die) == {v.value for v in OneDie}
    for value, words in one_die.items():
        described = dict(Rules(one_die=OneDie(value)).describe())["one die"]
        assert described.startswith(words)
    moves = {c["value"]: c["text"] for c in choices["moves"]}
    assert moves == {v.value: dict(Rules(moves=v).describe())["moves"] for v in MoveRule}
    formats = [c["value"] for c in choices["format"]]
    assert "single" in formats and "battle" in formats
    assert all(c["text"] == format_text(GameFormat.parse(c["value"]), None)
               for c in choices["format"])


def test_the_sentences_the_page_completes_come_once_with_the_choices(
        client: TestClient) -> None:
    """What the tiles picked add up to, why a pick is refused, a round's end, a tile's name
    for a screen reader, the hint's captions: the page fills in numbers and names in the
    server's templates (sent once, not with every move)."""
    from shutthebox.narration import page_sentences

    sentences = client.get("/api/choices").json()["sentences"]
    assert sentences == page_sentences()
    assert sentences["pick_wrong"].format(target=8) == (
        "Those tiles do not make a move for 8: pick tiles adding up to 8.")
    assert sentences["picked_legal"].format(tiles="3 + 5", sum=8) == "Picked 3 + 5 = 8 ✓ adds up."
    assert sentences["round_over"].format(round=2) == "Round 2 is over"
    state = new_game(client, players=[{"name": "Ann"}])
    path, body = first_legal(state)
    rolled = client.post(path, json=body, headers=bearer(state["tokens"]["0"])).json()
    assert not any(key in rolled for key in ("sentences", "picked"))   # a move stays small


def test_the_server_says_a_games_status_a_rule_set_and_the_invite_lines(
        client: TestClient) -> None:
    """The list of a reader's games says each one's status, the rule sets come named with
    their tiles, and the invite lines and a missing game's sentences come with the page's
    templates: the page shows them as sent."""
    from shutthebox.narration import GameStatusError, status_text
    from shutthebox.rules import PRESETS

    sentences = client.get("/api/choices").json()["sentences"]
    assert sentences["invite_waiting"].format(name="Bo") == "Waiting for Bo to join."
    assert sentences["invite_seat"].format(seat=2, name="Bo", code="ABCD") == (
        "Invite a friend to seat 2 (Bo): send them the link, or the code ABCD to type on the "
        "start page.")
    assert sentences["game_not_found_title"] == "Game not found"
    missing = client.get("/api/games/no-such-game")
    assert missing.status_code == 404 and sentences["game_not_found"].startswith(
        "There is no game at this address.")
    presets = {p["name"]: p for p in client.get("/api/presets").json()}
    assert presets["classic"]["text"] == "classic (9 tiles)"
    assert presets["classic"]["summary"] == PRESETS["classic"].summary
    waiting = new_game(client, players=[{"name": "Ann"}, {"name": "Bo", "kind": "open"}])
    solo = new_game(client, players=[{"name": "Ann"}])
    held = f"{waiting['tokens']['0']},{solo['tokens']['0']}"
    listed = {g["id"]: g for g in client.get("/api/games",
                                             headers={"X-Seat-Tokens": held}).json()}
    assert listed[waiting["id"]]["status_text"] == "waiting for players"
    assert listed[solo["id"]]["status_text"] == "not finished"
    play_out(client, solo, solo["tokens"])
    listed = {g["id"]: g for g in client.get("/api/games",
                                             headers={"X-Seat-Tokens": held}).json()}
    assert listed[solo["id"]]["status_text"] == status_text("over") == "finished"
    with pytest.raises(GameStatusError, match="no game status 'lost'"):
        status_text("lost")
    # a rule's bounds are checked once, by the rules: the page shows the server's refusal
    refused = client.post("/api/games", json={"players": [{"name": "Ann"}],
                                              "rules": {"tiles": "13x"}})
    assert refused.status_code == 400
    assert refused.json()["detail"] == "tiles must be a whole number from 2 to 12, not '13x'"


def test_the_page_keeps_no_words_of_the_game_of_its_own() -> None:
    """No script of the page holds the rules, formats or events in words: the server sends
    them (the page keeps only the words of the page itself: buttons, keys, forms)."""
    from shutthebox.narration import format_text, page_sentences
    from shutthebox.rules import PRESETS

    static = Path(__file__).resolve().parent.parent / "src/shutthebox/web/static"
    assert not (static / "js/words.js").exists()
    text = "\n".join(p.read_text() for p in [*static.glob("js/**/*.js"), static / "index.html"])
    # what a reader can be shown, not what the code says to its readers
    text = re.sub(r"/\*.*?\*/|<!--.*?-->|(?:^|\s)//[^\n]*", "", text, flags=re.S)
    meanings = {meaning for p in PRESETS.values() for name, meaning in p.rules.describe()
                if name not in ("tiles", "max tiles per roll")}  # numbers the form checks
    formats = {format_text(GameFormat.parse(f), r) for f in
               ("solo", "single", "rounds:3", "elimination", "loser-at", "race", "battle")
               for r in (None, 2)}
    fragments = {"or less", "playing perfectly", "two dice always", "lowest wins", "Race to",
                 "Loser at", "share the win", "choosing one die", "nothing is rolled",
                 "has no move", "plays first", "puts in", "takes seat",
                 # the sentences the page completes, the statistics, the review's table and
                 # the last screen: the server's too
                 "Game over", "Round ${", "Picked", "adds up to", "The pot was",
                 "personal best", "Personal best", "of your turns", "under perfect play",
                 "Score of a turn", "Share of turns", "Scores in order", "dice choice",
                 "Costly moves", "No decisions", "knocks down", "stands up", "can knock",
                 "can stand", "Chance to shut", "Expected score", "Loses (", "lower is better",
                 # a seat's invite, a missing game, a game's status, a rule set's name and
                 # the bounds of the rules (the server refuses and says why)
                 "Invite a friend", "Waiting for ${", "to type on the start page",
                 "Game not found", "waiting for players",
                 "not finished", '"finished"', " tiles)", "must be a whole number"}
    # every template the page fills in, in pieces between its placeholders
    pieces = {piece.strip(" .:,") for sentence in page_sentences().values()
              for piece in re.split(r"\{\w+\}", sentence)}
    for words in sorted(meanings | formats | fragments | {p for p in pieces if len(p) > 8}):
        assert words not in text, words
