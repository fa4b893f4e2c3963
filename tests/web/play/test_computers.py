"""Computer seats are played by the server, after the answer to the human's action, and a game
of computers only plays out in the background.

Every test here runs twice: on SQLite and on a fresh PostgreSQL schema (skipped, saying so,
when PostgreSQL does not answer on 127.0.0.1:5432).
"""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.web.client import new_game, play_out, stored_match, wait_for_human


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
