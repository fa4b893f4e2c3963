"""Seats held by claimed players (web/records/seating.py), on SQLite and PostgreSQL: the
creator's player token holds the first seat here under the claimed name, a friend's holds
the seat they join, a player holds one seat of a game, a finished game's results are the
seats' players', and playing again keeps them."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select

from shutthebox.web.storage import RESULTS, SEATS
from shutthebox.web.storage.schema import PLAYERS
from tests.web.client import bearer, claimed, duel, play_out, player


def held(client: TestClient, table: Any, game_id: str) -> list[str | None]:
    """The claimed name at each seat of the game in ``table`` (seats or results)."""
    engine = client.app.state.service.engine          # type: ignore[attr-defined]
    with engine.connect() as db:
        rows = db.execute(select(PLAYERS.c.name).select_from(table)
                          .outerjoin(PLAYERS, PLAYERS.c.id == table.c.player_id)
                          .where(table.c.game_id == game_id).order_by(table.c.seat))
        return list(rows.scalars())


def test_the_creator_s_player_holds_the_first_seat_here_under_their_name(
        client: TestClient) -> None:
    ann = claimed(client, "Ann")
    made = client.post("/api/games", json={"players": [
        {"name": "Bot", "computer": "easy"}, {"name": "You"}, {"name": "Sis"}],
        "rules": {"tiles": 4}}, headers=player(ann))
    assert made.status_code == 201, made.text
    state = made.json()
    assert [p["name"] for p in state["players"]] == ["Bot", "Ann", "Sis"]
    assert held(client, SEATS, state["id"]) == [None, "Ann", None]
    final = play_out(client, state, state["tokens"])
    assert held(client, RESULTS, final["id"]) == [None, "Ann", None]
    mine = client.post("/api/games", json={"players": [{"name": "You"}, {"name": "ann"}]},
                       headers=player(ann))
    assert mine.status_code == 409 and "one seat of a game" in mine.json()["detail"]


def test_a_friend_s_player_holds_the_seat_they_join_and_keeps_it_in_the_rematch(
        client: TestClient) -> None:
    ann, bo = claimed(client, "Ann"), claimed(client, "Bo")
    state, tokens = duel(client, ann, bo, rules={"tiles": 4})
    assert [p["name"] for p in state["players"]] == ["Ann", "Bo"]
    assert held(client, SEATS, state["id"]) == ["Ann", "Bo"]
    final = play_out(client, state, tokens)
    assert held(client, RESULTS, final["id"]) == ["Ann", "Bo"]
    again = client.post(f"/api/games/{final['id']}/rematch", headers={
        **bearer(tokens["0"]), "X-Seat-Tokens": tokens["1"]})
    assert again.status_code == 200, again.text
    rematch = again.json()
    assert held(client, SEATS, rematch["game_id"]) == ["Bo", "Ann"]      # seats rotated
    play_out(client, rematch["state"], rematch["tokens"])
    assert held(client, RESULTS, rematch["game_id"]) == ["Bo", "Ann"]
    stats = client.get("/api/stats", params={"player": "Bo"}).json()
    assert stats["games"] == 2 and stats["rating"]["games"] == 2


def test_a_joiner_without_a_player_token_names_their_seat(client: TestClient) -> None:
    claimed(client, "Cy")
    made = client.post("/api/games", json={"players": [
        {"name": "Di"}, {"name": "Friend", "kind": "open"}]}).json()
    code = made["invites"][0]["code"]
    taken = client.post(f"/api/games/{made['id']}/join", json={"invite": code, "name": "cy"})
    assert taken.status_code == 409 and "belongs to another player" in taken.json()["detail"]
    joined = client.post(f"/api/games/{made['id']}/join", json={"invite": code, "name": "Ed"})
    assert joined.status_code == 200, joined.text
    assert [p["name"] for p in joined.json()["state"]["players"]] == ["Di", "Ed"]
    assert held(client, SEATS, made["id"]) == [None, None]
