"""Names claimed through the API: a name is one player's, in any case, width or alphabet;
the device's token says who it is; the recovery code brings the name to another device and
cannot be guessed (its tries are bounded); claims from one address are limited; and every
bad request is a clear 4xx.

Every test here runs twice: on SQLite and on a fresh PostgreSQL schema (skipped, saying so,
when PostgreSQL does not answer on 127.0.0.1:5432).
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from shutthebox.web.records.players import RECOVERY_TRIES


def claim(client: TestClient, name: str) -> dict[str, Any]:
    answer = client.post("/api/players", json={"name": name})
    assert answer.status_code == 201, answer.text
    data: dict[str, Any] = answer.json()
    return data


def me(client: TestClient, token: str) -> Any:
    return client.get("/api/players/me", headers={"X-Player-Token": token})


def test_a_claimed_name_is_one_players_in_any_look(client: TestClient) -> None:
    ann = claim(client, "  Ann ")
    assert ann["name"] == "Ann" and len(ann["token"]) >= 32
    assert len(ann["recovery"].replace("-", "")) == 16
    assert me(client, ann["token"]).json() == {"name": "Ann"}
    for alike in ("ann", "ANN", "\uff21nn", "\u0410nn", "Ann\u200b"):
        refused = client.post("/api/players", json={"name": alike})
        assert refused.status_code == 409, alike
        assert "belongs to another player" in refused.json()["detail"]
    assert claim(client, "Anne")["name"] == "Anne"


@pytest.mark.parametrize("name", ["You", "you", "YOU", "a\u202eb", "x" + "\u0301" * 39,
                                  "", "   ", "a" * 41, "\x1b[2J"])
def test_a_name_that_cannot_be_claimed_is_a_clear_4xx(client: TestClient, name: str) -> None:
    answer = client.post("/api/players", json={"name": name})
    assert answer.status_code in (400, 422), answer.text
    assert answer.json()["detail"]


def test_an_unknown_or_missing_player_token_is_401(client: TestClient) -> None:
    assert me(client, "made-up-by-the-client-0123456789").status_code == 401
    assert client.get("/api/players/me").status_code == 401


def test_the_recovery_code_brings_the_name_to_another_device(client: TestClient) -> None:
    bo = claim(client, "Bo")
    moved = client.post("/api/players/recover",
                        json={"name": "bo", "code": bo["recovery"].lower().replace("-", " ")})
    assert moved.status_code == 200, moved.text
    assert moved.json()["name"] == "Bo" and moved.json()["token"] != bo["token"]
    assert me(client, moved.json()["token"]).json() == {"name": "Bo"}
    assert me(client, bo["token"]).json() == {"name": "Bo"}


def test_recovery_codes_cannot_be_guessed(client: TestClient) -> None:
    cy = claim(client, "Cy")
    for _ in range(RECOVERY_TRIES):
        wrong = client.post("/api/players/recover", json={"name": "Cy", "code": "AAAA-AAAA"})
        assert wrong.status_code == 401
    closed = client.post("/api/players/recover", json={"name": "Cy", "code": cy["recovery"]})
    assert closed.status_code == 429 and "wrong recovery codes" in closed.json()["detail"]
    unknown = client.post("/api/players/recover", json={"name": "Nobody", "code": "AAAA"})
    assert unknown.status_code == 401


def test_a_thousand_names_from_one_address_are_refused_after_a_few(
        client: TestClient) -> None:
    statuses = [client.post("/api/players", json={"name": f"Farm {i}"}).status_code
                for i in range(40)]
    assert statuses[:5] == [201] * 5
    assert set(statuses[5:]) == {429}


@pytest.mark.parametrize("name", ["Player 1", "player 12", "Computer", "Friend 3", "Joueur 2",
                                  "Ordinateur", "Freund"])
def test_the_names_the_page_gives_unnamed_seats_cannot_be_claimed(
        client: TestClient, name: str) -> None:
    """Else a claim of "Player 1" would refuse every unnamed player's one-tap game."""
    answer = client.post("/api/players", json={"name": name})
    assert answer.status_code == 400, answer.text
    assert "gives unnamed seats" in answer.json()["detail"]
