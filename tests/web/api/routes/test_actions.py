"""The actions of a game (roll, dice, shut) as players and attackers send them: a seat acts
by its token alone, and a command is safe to repeat (an Idempotency-Key, else the event
number it was made against).

Every test here runs twice: on SQLite and on a fresh PostgreSQL schema (skipped, saying so,
when PostgreSQL does not answer on 127.0.0.1:5432).
"""

from __future__ import annotations

import uuid

from fastapi.testclient import TestClient

from tests.web.client import bearer, new_game, play_out, stored_match


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
