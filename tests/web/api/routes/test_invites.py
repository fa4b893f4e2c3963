"""Invites: friends take the open seats of a game by its invite codes, and play starts when
every seat is taken.

Every test here runs twice: on SQLite and on a fresh PostgreSQL schema (skipped, saying so,
when PostgreSQL does not answer on 127.0.0.1:5432).
"""

from __future__ import annotations

from fastapi.testclient import TestClient

from shutthebox.web.play.seats import INVITE_LENGTH
from tests.web.client import bearer, new_game, play_out


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


def test_an_invite_names_who_invites_the_host_else_a_friend(client: TestClient) -> None:
    """The join page's first sentence is the server's: the host (the first seat played on
    the creator's screen) by name; a game made with no such seat, a friend."""
    hosted = new_game(client, players=[
        {"name": "Cy", "kind": "computer", "computer": "easy"}, {"name": "Ann"},
        {"name": "Friend", "kind": "open"}])
    info = client.get(f"/api/invites/{hosted['invites'][0]['code']}").json()
    assert info["host"] == "Ann"
    assert info["invitation_text"] == "Ann invites you to a game of Shut the Box."
    french = client.get(f"/api/invites/{hosted['invites'][0]['code']}",
                        headers={"Accept-Language": "fr"}).json()
    assert "Ann" in french["invitation_text"] and "invites" not in french["invitation_text"]
    hostless = new_game(client, players=[{"name": "Bo", "kind": "open"},
                                         {"name": "Cy", "kind": "open"}])
    info = client.get(f"/api/invites/{hostless['invites'][1]['code']}").json()
    assert info["host"] is None
    assert info["invitation_text"] == "A friend invites you to a game of Shut the Box."
