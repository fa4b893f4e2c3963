"""The turn clock's keeper (web/play/clock.py) as the host's log sees it: each decision
that times out is a line naming the game."""

from __future__ import annotations

import logging
import time

import pytest
from fastapi.testclient import TestClient


def test_a_decision_out_of_time_is_a_line_in_the_log(client: TestClient,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="shutthebox.games")
    created = client.post("/api/games", json={
        "players": [{"name": "Ann"}, {"name": "Bo", "kind": "open"}], "clock": 1,
        "rules": {"tiles": 4}})
    assert created.status_code == 201, created.text
    game = created.json()
    joined = client.post(f"/api/games/{game['id']}/join",
                         json={"invite": game["invites"][0]["code"], "name": "Bo"})
    assert joined.status_code == 200, joined.text
    deadline = time.monotonic() + 15
    while not any(record.getMessage().startswith("a decision timed out")
                  and getattr(record, "fields", {}).get("game") == game["id"]
                  for record in caplog.records):
        assert time.monotonic() < deadline, [r.getMessage() for r in caplog.records]
        time.sleep(0.1)
