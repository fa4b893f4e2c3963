"""New games and actions whatever the shape of their bodies (well formed, lax, refused): the
answers, statuses, messages and headers of the API.

Every test here runs twice: on SQLite and on a fresh PostgreSQL schema (skipped, saying so,
when PostgreSQL does not answer on 127.0.0.1:5432).
"""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.web.client import bearer, new_game


def test_new_games_of_every_body_get_the_answers_of_the_api(client: TestClient) -> None:
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


def test_actions_of_every_shape_get_the_answers_of_the_api(client: TestClient) -> None:
    """Well-formed actions and bodies of other shapes (a number as a string, a boolean):
    the answers, statuses, messages and headers the API documents."""
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
