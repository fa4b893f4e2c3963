"""Reactions: a seated player's emoji reaches every board of the game through its live feed,
and nothing else gets through (watchers, bad tokens, free text, floods); on a real SQLite
file and on PostgreSQL (skipped, saying so, when it does not answer)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from shutthebox.table_talk import REACTIONS
from shutthebox.web.social.reactions import BURST, RATE
from tests.web.client import bearer, new_game, play_out
from tests.web.webserver import play, two_servers_on_postgresql


def react(client: TestClient, game_id: str, reaction: Any, token: str | None = None
          ) -> Any:
    return client.post(f"/api/games/{game_id}/react", json={"reaction": reaction},
                       headers=bearer(token) if token else {})


def next_of(feed: Any, kind: str) -> dict[str, Any]:
    """The feed's next message of type ``kind`` (pings and states between are skipped)."""
    while True:
        message: dict[str, Any] = feed.receive_json()
        if message["type"] == kind:
            return message


def test_a_reaction_reaches_every_board_of_the_game_and_is_not_stored(
        client: TestClient) -> None:
    state = new_game(client, players=[{"name": "Ann"}, {"name": "Bo"}])
    other = new_game(client, players=[{"name": "Eve"}])
    listed = client.get("/api/reactions").json()
    assert [r["id"] for r in listed] == list(REACTIONS) and len(listed) == 6
    url = f"/api/games/{state['id']}/live?since={state['event_count']}"
    with client.websocket_connect(url) as ann, client.websocket_connect(url) as watcher, \
            client.websocket_connect(f"/api/games/{other['id']}/live?since=0") as elsewhere:
        for feed in (ann, watcher, elsewhere):
            assert feed.receive_json()["type"] == "state"
        sent = time.monotonic()
        answer = react(client, state["id"], "cheer", state["tokens"]["1"])
        assert answer.status_code == 202, answer.text
        heard = [next_of(feed, "reaction") for feed in (ann, watcher)]
        took = time.monotonic() - sent
        print(f"\na reaction reached 2 boards {took * 1000:.1f} ms after it was sent "
              "(in-process)")
        for message in heard:
            assert message["seat"] == 1 and message["reaction"] == "cheer"
            assert message["emoji"] == "😄" and message["text"] == "Bo cheers."
        react(client, other["id"], "wink", other["tokens"]["0"])
        assert next_of(elsewhere, "reaction")["text"] == "Eve winks."
    after = client.get(f"/api/games/{state['id']}").json()
    assert after["event_count"] == state["event_count"]       # no part of the game's log
    assert "reaction" not in str(after["events"])


def test_watchers_bad_tokens_and_strangers_cannot_react(client: TestClient) -> None:
    state = new_game(client, players=[{"name": "Ann"}, {"name": "Bo"}])
    other = new_game(client, players=[{"name": "Eve"}])
    assert react(client, state["id"], "cheer").status_code == 401             # a watcher
    assert react(client, state["id"], "cheer", "z" * 32).status_code == 401   # made up
    assert react(client, state["id"], "cheer", other["tokens"]["0"]).status_code == 403
    missing = client.post("/api/games/" + "0" * 32 + "/react", json={"reaction": "cheer"},
                          headers=bearer(state["tokens"]["0"]))
    assert missing.status_code == 403
    assert client.post("/api/games/not-a-game/react", json={"reaction": "cheer"},
                       headers=bearer(state["tokens"]["0"])).status_code == 404


@pytest.mark.parametrize("reaction", ["hello", "<script>alert(1)</script>", "", "😄",
                                      "x" * 10_000, 3, None, ["cheer"], {"id": "cheer"}])
def test_only_a_reaction_of_the_set_is_taken(client: TestClient, reaction: Any) -> None:
    state = new_game(client, players=[{"name": "Ann"}])
    refused = react(client, state["id"], reaction, state["tokens"]["0"])
    assert refused.status_code == 422, refused.text
    for body in (b"cheer", b"{", b'{"reaction": "cheer", "text": "free text"}'):
        odd = client.post(f"/api/games/{state['id']}/react", content=body,
                          headers={**bearer(state["tokens"]["0"]),
                                   "Content-Type": "application/json"})
        assert 400 <= odd.status_code < 500, odd.text


def test_a_flood_of_reactions_is_cut_to_the_seat_s_rate(client: TestClient) -> None:
    state = new_game(client, players=[{"name": "Ann"}, {"name": "Bo"}])
    began = time.monotonic()
    with client.websocket_connect(f"/api/games/{state['id']}/live?since=0") as feed:
        feed.receive_json()
        answers = [react(client, state["id"], "laugh", state["tokens"]["0"])
                   for _ in range(60)]
        took = time.monotonic() - began
        taken = [a for a in answers if a.status_code == 202]
        refused = [a for a in answers if a.status_code == 429]
        assert len(taken) + len(refused) == 60
        assert len(taken) <= BURST + RATE * took + 1, (len(taken), took)
        assert all(a.headers["Retry-After"] == "1" for a in refused)
        assert "too many reactions" in refused[0].json()["detail"]
        # Bo's seat has a bucket of its own
        assert react(client, state["id"], "wow", state["tokens"]["1"]).status_code == 202
        heard = [next_of(feed, "reaction")["reaction"] for _ in range(len(taken) + 1)]
        assert heard == ["laugh"] * len(taken) + ["wow"]
    assert took < 30


def test_a_finished_game_s_table_hears_reactions_and_the_rematch(client: TestClient) -> None:
    state = new_game(client, players=[{"name": "Ann"}, {"name": "Bo"}])
    over = play_out(client, state, state["tokens"])
    base = f"/api/games/{state['id']}/live?since={over['event_count']}"
    with client.websocket_connect(base) as plain, pytest.raises(WebSocketDisconnect) as shut:
        assert plain.receive_json()["status"] == "over"
        plain.receive_json()
    assert shut.value.code == 4000          # without table=1, as before
    with client.websocket_connect(base + "&table=1") as table:
        assert table.receive_json()["status"] == "over"
        assert react(client, state["id"], "cheer", state["tokens"]["0"]).status_code == 202
        assert next_of(table, "reaction")["text"] == "Ann cheers."
        made = client.post(f"/api/games/{state['id']}/rematch",
                           headers=bearer(state["tokens"]["1"])).json()
        news = next_of(table, "rematch")
        assert news["game_id"] == made["game_id"] and news["number"] == 2
        assert news["text"] == "Bo played again: game 2 of the series has started."
        assert "token" not in str(news)


def test_a_lingering_feed_closes_after_its_time(client: TestClient,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from shutthebox.web.live import feeds as live

    monkeypatch.setattr(live, "LINGER_SECONDS", 0.3)
    monkeypatch.setattr(live, "PING_SECONDS", 0.1)
    state = new_game(client, players=[{"name": "Ann"}])
    over = play_out(client, state, state["tokens"])
    began = time.monotonic()
    with client.websocket_connect(f"/api/games/{state['id']}/live?since="
                                  f"{over['event_count']}&table=1") as table, \
            pytest.raises(WebSocketDisconnect) as shut:
        while True:
            table.receive_json()
    assert shut.value.code == 4000 and 0.25 < time.monotonic() - began < 10


def test_reactions_and_the_rematch_reach_the_feeds_of_another_process(
        tmp_path: Path) -> None:
    """Two server processes on one PostgreSQL: what is said at a table in one reaches the
    other's feeds through the database's announcements, within a bounded time."""
    from websockets.sync.client import connect

    with two_servers_on_postgresql(tmp_path) as (one, two):
        state = one.post("/api/games", {"players": [{"name": "Ann"}, {"name": "Bo"}]}
                         ).json()
        live = two.url.replace("http", "ws") + f"/api/games/{state['id']}/live"
        with connect(f"{live}?since=0&table=1") as feed:

            def heard(kind: str) -> dict[str, Any]:
                while True:
                    message: dict[str, Any] = json.loads(feed.recv(timeout=10))
                    if message["type"] == kind:
                        return message

            heard("state")
            took = []
            for reaction in ("wow", "cheer", "wink"):   # the first opens a connection
                sent = time.monotonic()
                assert one.post(f"/api/games/{state['id']}/react", {"reaction": reaction},
                                token=state["tokens"]["0"]).status_code == 202
                said = heard("reaction")
                took.append((time.monotonic() - sent) * 1000)
                assert said["reaction"] == reaction and said["seat"] == 0
            print("\nreactions reached another process's feed in "
                  f"{', '.join(f'{ms:.0f}' for ms in took)} ms")
            assert said["text"] == "Ann winks." and max(took) < 5000
            over = play(one, state, state["tokens"])
            while heard("state")["event_count"] < over["event_count"]:
                pass
            made = one.post(f"/api/games/{state['id']}/rematch",
                            token=state["tokens"]["1"]).json()
            news = heard("rematch")
            assert news["game_id"] == made["game_id"] and news["text"].startswith("Bo ")
