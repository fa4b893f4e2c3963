"""Games played through the API's test client, as the web tests share them: a seat's token as
a header, a new game, the wait for the server's own steps (computers, roll-offs), a game
played out with the first legal moves, and the stored log replayed.

Claimed players too: a name claimed, its player token as a header, and a game of two of
them, each on their own device.

The client itself is the ``client`` fixture of ``tests/web/conftest.py``; this module is not a
test module, so tests import from it."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from shutthebox.match import Match, replay
from tests.web.legal import first_legal

HOSTS = ("testserver",)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def player(token: str) -> dict[str, str]:
    """The header of a device's player token."""
    return {"X-Player-Token": token}


def claimed(client: TestClient, name: str) -> str:
    """Claim ``name``; the device's player token."""
    answer = client.post("/api/players", json={"name": name})
    assert answer.status_code == 201, answer.text
    token: str = answer.json()["token"]
    return token


def duel(client: TestClient, host: str, guest: str, **body: Any
         ) -> tuple[dict[str, Any], dict[str, str]]:
    """A game of two claimed players, each on their own device: the player of ``host``
    makes it with an open seat, the player of ``guest`` joins it by invite. Its state and
    each seat's token."""
    made = client.post("/api/games", json={
        "players": [{"name": "You"}, {"name": "Friend", "kind": "open"}], **body},
        headers=player(host))
    assert made.status_code == 201, made.text
    game = made.json()
    joined = client.post(f"/api/games/{game['id']}/join",
                         json={"invite": game["invites"][0]["code"]}, headers=player(guest))
    assert joined.status_code == 200, joined.text
    return joined.json()["state"], {"0": game["tokens"]["0"], "1": joined.json()["token"]}


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
