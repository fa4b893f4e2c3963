"""Invariants of the JSON API, checked by hypothesis with any actions in any order.

Whatever a client sends, the answer is the new state (200) or a clear 400/409 with a
message, a refused action stores nothing, and the stored log replays to the state the
server reports.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shutthebox.match import replay
from shutthebox.rules import PRESETS
from shutthebox.web import create_app


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    home = tmp_path_factory.mktemp("web-properties")
    with TestClient(create_app(f"sqlite:///{home / 'games.sqlite'}")) as running:
        yield running


ACTIONS = st.one_of(
    st.tuples(st.just("roll"), st.none()),
    st.tuples(st.just("dice"), st.sampled_from([1, 2])),
    st.tuples(st.just("shut"), st.lists(st.integers(0, 13), min_size=1, max_size=4)),
    st.tuples(st.just("legal"), st.integers(0, 50)),   # a legal move, when there is one
)


def replayed(state: dict[str, Any]) -> Any:
    return replay({"version": 1, "rules": state["rules"], "format": state["format"],
                   "players": [p["name"] for p in state["players"]], "stake": state["stake"],
                   "events": state["events"]})


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(sorted(PRESETS)), humans=st.integers(1, 3),
       seats=st.lists(st.integers(-1, 3), min_size=1, max_size=40),
       actions=st.lists(ACTIONS, min_size=1, max_size=40))
def test_any_actions_answer_200_or_a_clear_4xx_and_refusals_store_nothing(
        client: TestClient, preset: str, humans: int, seats: list[int],
        actions: list[tuple[str, Any]]) -> None:
    players = [{"name": f"P{i}"} for i in range(humans)]
    state = client.post("/api/games", json={"players": players, "preset": preset}).json()
    base = f"/api/games/{state['id']}"
    for step, (kind, argument) in enumerate(actions):
        seat = seats[step % len(seats)]
        body: dict[str, Any] = {} if seat < 0 else {"seat": seat}
        if kind == "legal":
            legal = state["pending"]["legal"]
            kind, argument = "shut", legal[argument % len(legal)] if legal else [1]
        if kind == "dice":
            body["dice"] = argument
        if kind == "shut":
            body["tiles"] = argument
        response = client.post(f"{base}/{kind}", json=body)
        assert response.status_code in (200, 400, 409), response.text
        if response.status_code == 200:
            after = response.json()
            assert after["event_count"] > state["event_count"]
            assert after["events"] == client.get(
                f"{base}?since={state['event_count']}").json()["events"]
            state = after
        else:
            assert response.json()["detail"]
            assert client.get(base).json()["event_count"] == state["event_count"]
    stored = client.get(base).json()
    match = replayed(stored)
    assert len(match.events) == stored["event_count"]
    assert list(match.totals) == stored["totals"]
    assert match.pending.kind == stored["pending"]["kind"]
    assert match.pending.seat == stored["pending"]["seat"]
