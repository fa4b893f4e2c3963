"""Coaching through the API: hints and the coach's chances for a seat of the game, and the
review of a finished game.

Every test here runs twice: on SQLite and on a fresh PostgreSQL schema (skipped, saying so,
when PostgreSQL does not answer on 127.0.0.1:5432).
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from shutthebox.narration import chances_text
from shutthebox.rules import Rules
from shutthebox.solver import solve
from tests.web.client import bearer, new_game, play_out


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
