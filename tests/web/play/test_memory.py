"""The games and tokens a server keeps in memory stay bounded, and those it let go of read back
from the database.

Every test here runs twice: on SQLite and on a fresh PostgreSQL schema (skipped, saying so,
when PostgreSQL does not answer on 127.0.0.1:5432).
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.web.client import bearer, new_game
from tests.web.legal import first_legal


def test_a_long_running_server_keeps_a_bounded_number_of_games_and_tokens_at_hand(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from shutthebox.web.play import memory as module

    monkeypatch.setattr(module, "GAMES_IN_MEMORY", 3)
    monkeypatch.setattr(module, "HOLDERS_IN_MEMORY", 4)
    service = client.app.state.service        # type: ignore[attr-defined]
    games = [new_game(client, players=[{"name": f"P{i}"}]) for i in range(8)]
    for game in games:                          # spectators read finished and open games
        assert client.get(f"/api/games/{game['id']}").status_code == 200
    assert len(service.cache.games) <= 3 and len(service.cache.locks) <= 3
    assert len(service.cache.holders) <= 4
    first = games[0]                            # its token and game long out of memory
    listed = client.get("/api/games", headers={"X-Seat-Tokens": first["tokens"]["0"]})
    assert [g["id"] for g in listed.json()] == [first["id"]]
    seen = client.get(f"/api/games/{first['id']}", headers=bearer(first["tokens"]["0"]))
    assert seen.json()["you"] == [0]
    if first["status"] != "over":
        path, body = first_legal(first)
        moved = client.post(path, json=body, headers=bearer(first["tokens"]["0"]))
        assert moved.status_code == 200, moved.text
    assert len(service.cache.holders) <= 4


def test_the_games_kept_in_memory_are_let_go_least_recently_played_first(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game being played stays in memory however long ago it began; the games nobody
    has touched for longest go first."""
    from shutthebox.web.play import memory as module

    monkeypatch.setattr(module, "GAMES_IN_MEMORY", 3)
    service = client.app.state.service        # type: ignore[attr-defined]
    first = new_game(client, players=[{"name": "First"}])
    others = []
    for index in range(5):
        others.append(new_game(client, players=[{"name": f"P{index}"}]))
        watched = client.get(f"/api/games/{first['id']}")    # its player looks again
        assert watched.status_code == 200, watched.text
    kept = set(service.cache.games)
    assert first["id"] in kept                  # looked at all along: never let go
    assert others[0]["id"] not in kept          # the least recently touched
    assert len(kept) <= 3


def test_a_game_played_move_after_move_stays_in_memory(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A move counts as using its game, though it trusts the game in memory without asking
    the database: the game being played is never the one let go (and read again)."""
    from shutthebox.web.play import memory as module

    monkeypatch.setattr(module, "GAMES_IN_MEMORY", 3)
    service = client.app.state.service        # type: ignore[attr-defined]
    for _ in range(5):          # (a game the dice end within five steps is played again)
        first = new_game(client, players=[{"name": "First"}], rules={"tiles": 12})
        token = {"Authorization": f"Bearer {first['tokens']['0']}"}
        held = service.cache.games[first["id"]]
        state, others = first, []
        for index in range(5):
            others.append(new_game(client, players=[{"name": f"P{index}"}]))
            path, body = first_legal(state)
            moved = client.post(path, json=body, headers=token)
            assert moved.status_code == 200, moved.text
            state = moved.json()
            if state["status"] != "playing":
                break
        if state["status"] == "playing":
            break
    kept = set(service.cache.games)
    assert state["status"] == "playing"
    assert service.cache.games.get(first["id"]) is held     # never let go and read again
    assert others[0]["id"] not in kept


def test_a_finished_game_read_again_is_not_kept_in_memory(client: TestClient) -> None:
    """Its page, its live feed: each reads it from the database, and memory keeps only the
    games being played."""
    service = client.app.state.service        # type: ignore[attr-defined]
    game = new_game(client, players=[{"name": "Ann"}], rules={"tiles": 2})
    playing = new_game(client, players=[{"name": "Bo"}])
    state, token = game, game["tokens"]["0"]
    while state["status"] != "over":
        path, body = first_legal(state)
        state = client.post(path, json=body, headers=bearer(token)).json()
    assert game["id"] not in service.cache.games and playing["id"] in service.cache.games
    for _ in range(2):
        seen = client.get(f"/api/games/{game['id']}", headers=bearer(token))
        assert seen.status_code == 200 and seen.json()["status"] == "over"
        with client.websocket_connect(f"/api/games/{game['id']}/live") as feed:
            assert feed.receive_json()["status"] == "over"
        assert game["id"] not in service.cache.games
        assert game["id"] not in service.cache.locks     # nor its lock
    assert playing["id"] in service.cache.games


def test_a_game_left_untouched_is_let_go_and_read_again_when_its_player_comes_back(
        client: TestClient) -> None:
    """A game started and left does not wait for thousands of others to push it out of
    memory; one touched within the idle time stays."""
    from shutthebox.web.play.memory import GAME_IDLE

    service = client.app.state.service        # type: ignore[attr-defined]
    now = [1_000.0]
    service.cache.clock = lambda: now[0]
    left = new_game(client, players=[{"name": "Left"}], rules={"tiles": 12})
    looked = new_game(client, players=[{"name": "Looked"}])
    now[0] += GAME_IDLE / 2
    assert client.get(f"/api/games/{looked['id']}").status_code == 200
    now[0] += GAME_IDLE / 2 + 1
    new_game(client, players=[{"name": "New"}])
    assert left["id"] not in service.cache.games
    assert looked["id"] in service.cache.games
    path, body = first_legal(left)              # its player is back: read again, played on
    moved = client.post(path, json=body, headers=bearer(left["tokens"]["0"]))
    assert moved.status_code == 200, moved.text
    assert moved.json()["event_count"] > left["event_count"]


def test_games_nobody_has_leave_nothing_in_memory(client: TestClient) -> None:
    """A stranger asking about game ids that do not exist (each a lock made and used, had
    it stayed, memory growing with every id sent) leaves no lock behind."""
    import secrets

    from starlette.websockets import WebSocketDisconnect

    service = client.app.state.service        # type: ignore[attr-defined]
    for _ in range(20):
        game_id = secrets.token_hex(16)
        assert client.get(f"/api/games/{game_id}").status_code == 404
        assert client.get(f"/api/games/{game_id}/review").status_code == 404
        with pytest.raises(WebSocketDisconnect) as closed, \
                client.websocket_connect(f"/api/games/{game_id}/live") as feed:
            feed.receive_json()
        assert closed.value.code == 4404
    assert not service.cache.locks and not service.cache.games
