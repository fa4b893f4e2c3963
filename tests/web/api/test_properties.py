"""Invariants of the JSON API, checked by hypothesis with any actions in any order, from any
token, with repeated Idempotency-Keys and stale event numbers.

Whatever a client sends, the answer is the new state (200) or a clear 4xx with a message; a
refused action stores nothing; a repeated key answers the first answer and stores nothing;
and the stored log replays to the state the server reports.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shutthebox.match import replay
from shutthebox.rules import PRESETS
from shutthebox.web import create_app
from shutthebox.web.api.checks import RateLimits
from tests.web.webserver import database


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def client(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    home = tmp_path_factory.mktemp("web-properties")
    with database(request.param, home) as url:
        app = create_app(url, allowed_hosts=("testserver",), computer_delay=0,
                         limits=RateLimits(0, 0))
        with TestClient(app) as running:
            yield running


ACTIONS = st.one_of(
    st.tuples(st.just("roll"), st.none()),
    st.tuples(st.just("dice"), st.sampled_from([1, 2])),
    st.tuples(st.just("shut"), st.lists(st.integers(0, 13), min_size=1, max_size=4)),
    st.tuples(st.just("legal"), st.integers(0, 50)),   # a legal move, when there is one
)
WHO = st.sampled_from(["seat", "seat", "seat", "other-seat", "other-game", "none", "junk"])
HOW = st.sampled_from(["event", "event", "stale", "key", "repeat-key", "neither"])


def replayed(state: dict[str, Any]) -> Any:
    events = [e for e in state["events"] if e["type"] not in ("seats", "join")]
    return replay({"version": 1, "rules": state["rules"], "format": state["format"],
                   "players": [p["name"] for p in state["players"]], "stake": state["stake"],
                   "events": events})


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(sorted(PRESETS)), humans=st.integers(1, 3),
       steps=st.lists(st.tuples(ACTIONS, WHO, HOW), min_size=1, max_size=30))
def test_any_requests_answer_200_or_a_clear_4xx_and_never_corrupt_a_game(
        client: TestClient, preset: str, humans: int,
        steps: list[tuple[tuple[str, Any], str, str]]) -> None:
    players = [{"name": f"P{i}"} for i in range(humans)]
    state = client.post("/api/games", json={"players": players, "preset": preset}).json()
    stranger = client.post("/api/games", json={"players": [{"name": "X"}]}).json()
    tokens = state["tokens"]
    while not state["pending"]["human"]:     # the server rolls the roll-off first
        time.sleep(0.02)
        state = client.get(f"/api/games/{state['id']}").json()
    base = f"/api/games/{state['id']}"
    keys: list[tuple[str, str, dict[str, Any], Any, str]] = []
    for number, ((kind, argument), who, how) in enumerate(steps):
        seat = state["pending"]["seat"]
        token = {"seat": tokens.get(str(seat)), "none": None, "junk": "junk",
                 "other-seat": tokens.get(str(((seat or 0) + 1) % humans)),
                 "other-game": stranger["tokens"]["0"]}[who]
        body: dict[str, Any] = {}
        if kind == "legal":
            legal = state["pending"]["legal"]
            kind, argument = "shut", legal[argument % len(legal)] if legal else [1]
        if kind == "dice":
            body["dice"] = argument
        if kind == "shut":
            body["tiles"] = argument
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if how == "repeat-key" and keys:
            key, path, sent, first, holder = keys[-1]
            again = client.post(path, json=sent, headers={"Authorization": f"Bearer {holder}",
                                                          "Idempotency-Key": key})
            assert again.status_code == 200 and again.json() == first
            assert client.get(base).json()["event_count"] == state["event_count"]
            continue
        if how in ("event", "stale"):
            body["event"] = state["event_count"] - (1 if how == "stale" else 0)
        if how in ("key", "repeat-key"):
            headers["Idempotency-Key"] = f"k{number}"
        path = f"{base}/{kind}"
        response = client.post(path, json=body, headers=headers)
        assert response.status_code in (200, 400, 401, 403, 409), response.text
        if response.status_code == 200:
            after = response.json()
            assert after["event_count"] > state["event_count"]
            assert after["events"] == client.get(
                f"{base}?since={state['event_count']}").json()["events"]
            if "Idempotency-Key" in headers and token:
                keys.append((headers["Idempotency-Key"], path, body, after, token))
            state = after
        else:
            assert response.json()["detail"]
            assert client.get(base).json()["event_count"] == state["event_count"]
    stored = client.get(base).json()
    match = replayed(stored)
    assert len(match.events) + sum(e["type"] in ("seats", "join") for e in stored["events"]) \
        == stored["event_count"]
    assert list(match.totals) == stored["totals"]
    assert match.pending.kind == stored["pending"]["kind"]
    assert match.pending.seat == stored["pending"]["seat"]
