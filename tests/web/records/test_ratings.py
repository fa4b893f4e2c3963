"""Ratings on the statistics: each claimed player's Elo rating from their finished games,
through the API (and a real server), on SQLite and PostgreSQL; computer seats at their fixed
ratings; hot-seat, unclaimed and solo games unrated; the daily pair cap against farming; no
rating sunk by playing under another's name."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from shutthebox.coach import analyse
from shutthebox.coach.ratings import COMPUTER_RATINGS, START, K, expected, likeness
from shutthebox.names import name_key
from shutthebox.web.records.ratings import PAIR_GAMES_A_DAY
from shutthebox.web.storage import RESULTS, SEATS
from tests.web.client import claimed, duel, new_game, play_out, player, stored_match
from tests.web.webserver import Server, play

SHORT = {"tiles": 4}
"""Rules for games played many times over: a turn or two each."""


def rating(client: TestClient, name: str) -> Any:
    answer = client.get("/api/stats", params={"player": name})
    assert answer.status_code == 200, answer.text
    return answer.json()["rating"]


def share(final: dict[str, Any], seat: int) -> float:
    """The seat's head-to-head result in a two-player game: 1, 1/2 or 0."""
    winners = final["winners"]
    return 1.0 if winners == [seat] else 0.5 if seat in winners else 0.0


def engine_of(client: TestClient) -> Any:
    return client.app.state.service.engine          # type: ignore[attr-defined]


def test_ratings_move_the_right_way_after_a_won_and_a_lost_game(
        client: TestClient) -> None:
    tokens = {"Ann": claimed(client, "Ann"), "Bo": claimed(client, "Bo")}
    before = {"Ann": START, "Bo": START}
    for game in range(1, PAIR_GAMES_A_DAY + 1):
        state, seats = duel(client, tokens["Ann"], tokens["Bo"])
        final = play_out(client, state, seats)
        ann = share(final, 0)
        change = K * (ann - expected(before["Ann"], before["Bo"]))
        now = {"Ann": rating(client, "Ann"), "Bo": rating(client, "Bo")}
        assert now["Ann"]["rating"] == pytest.approx(before["Ann"] + change)
        assert now["Bo"]["rating"] == pytest.approx(before["Bo"] - change)
        if ann == 1.0:
            assert now["Ann"]["rating"] > before["Ann"] and now["Bo"]["rating"] < before["Bo"]
        elif ann == 0.0:
            assert now["Ann"]["rating"] < before["Ann"] and now["Bo"]["rating"] > before["Bo"]
        for name in ("Ann", "Bo"):
            assert now[name]["games"] == game
            assert now[name]["history"][0] == START
            assert now[name]["history"][-1] == pytest.approx(now[name]["rating"])
            assert len(now[name]["history"]) == game + 1
            assert now[name]["text"].startswith(f"{name}'s rating is ")
            assert now[name]["text"].endswith(f"{name} {likeness(now[name]['rating'])}.")
        before = {name: now[name]["rating"] for name in before}


def test_a_game_against_the_hard_computer_is_rated_at_its_fixed_rating(
        client: TestClient) -> None:
    cy = claimed(client, "Cy")
    made = client.post("/api/games", json={"players": [
        {"name": "You"}, {"name": "Bot", "computer": "hard"}]}, headers=player(cy))
    assert made.status_code == 201, made.text
    state = made.json()
    assert [p["name"] for p in state["players"]] == ["Cy", "Bot"]
    final = play_out(client, state, state["tokens"])
    found = rating(client, "Cy")
    assert found["rating"] == pytest.approx(
        START + K * (share(final, 0) - expected(START, COMPUTER_RATINGS["optimal"])))
    assert client.get("/api/stats", params={"player": "Bot"}).status_code == 404
    accuracy = client.get("/api/stats", params={"player": "Cy"}).json()["accuracy"]
    (cy_played,) = [p for p in analyse(stored_match(client, final["id"]).to_log()).players
                    if p.player == "Cy"]
    if cy_played.decisions:
        assert accuracy["history"] == pytest.approx([cy_played.accuracy])
        assert accuracy["text"].startswith("Cy's accuracy over the last 1 game")
    else:
        assert accuracy is None


def test_solo_and_hot_seat_games_are_not_rated(client: TestClient) -> None:
    di = claimed(client, "Di")
    solo = client.post("/api/games", json={"players": [{"name": "You"}]}, headers=player(di))
    play_out(client, solo.json(), solo.json()["tokens"])
    hot = client.post("/api/games", json={"players": [{"name": "You"}, {"name": "Sis"}],
                                          "rules": SHORT}, headers=player(di))
    assert hot.status_code == 201, hot.text
    assert [p["name"] for p in hot.json()["players"]] == ["Di", "Sis"]
    play_out(client, hot.json(), hot.json()["tokens"])
    stats = client.get("/api/stats", params={"player": "di"}).json()
    assert stats["player"] == "Di" and stats["games"] == 2 and stats["rating"] is None
    missing = client.get("/api/stats", params={"player": "Nobody at all"})
    assert missing.status_code == 404
    assert client.get("/api/stats", params={"player": "Sis"}).status_code == 404


def test_only_claimed_players_are_listed_and_you_is_never_stored(
        client: TestClient) -> None:
    ed = claimed(client, "Ed")
    for name in ("You", "you", "YOU"):
        refused = client.post("/api/games", json={"players": [{"name": name}]})
        assert refused.status_code == 400 and "speaks to its reader" in refused.json()["detail"]
    open_game = new_game(client, players=[{"name": "Ann"}, {"name": "Friend", "kind": "open"}],
                         rules=SHORT)
    joined = client.post(f"/api/games/{open_game['id']}/join",
                         json={"invite": open_game["invites"][0]["code"], "name": "You"})
    assert joined.status_code == 400
    joined = client.post(f"/api/games/{open_game['id']}/join",
                         json={"invite": open_game["invites"][0]["code"]})
    assert joined.status_code == 400 and "a name is needed" in joined.json()["detail"]
    mine = client.post("/api/games", json={"players": [{"name": "You"}], "rules": SHORT},
                       headers=player(ed))
    play_out(client, mine.json(), mine.json()["tokens"])
    unclaimed = new_game(client, players=[{"name": "Gus"}], rules=SHORT)
    play_out(client, unclaimed, unclaimed["tokens"])
    assert [p["name"] for p in client.get("/api/players").json()] == ["Ed"]
    with engine_of(client).connect() as db:
        names = [*db.execute(select(SEATS.c.name)).scalars(),
                 *db.execute(select(RESULTS.c.player)).scalars()]
    assert "Gus" in names and name_key("You") not in map(name_key, names)


def test_farming_from_one_address_counts_a_few_games_a_day(client: TestClient) -> None:
    farmer, feeder = claimed(client, "Farmer"), claimed(client, "Feeder")
    played = 72
    for _ in range(played):
        state, seats = duel(client, farmer, feeder, rules=SHORT)
        play_out(client, state, seats)
    found = {name: rating(client, name) for name in ("Farmer", "Feeder")}
    assert {found[name]["games"] for name in found} == {PAIR_GAMES_A_DAY}
    assert abs(found["Farmer"]["rating"] - START) <= K * PAIR_GAMES_A_DAY
    stats = client.get("/api/stats", params={"player": "Farmer"}).json()
    assert stats["games"] == played          # played, all of them; rated, a few
    # one claimed name against a seat named at the table: never rated
    sock = claimed(client, "Sock")
    for _ in range(5):
        state = client.post("/api/games", json={"players": [
            {"name": "You"}, {"name": "Friend", "kind": "open"}], "rules": SHORT},
            headers=player(sock)).json()
        joined = client.post(f"/api/games/{state['id']}/join",
                             json={"invite": state["invites"][0]["code"], "name": "Puppet"})
        assert joined.status_code == 200, joined.text
        play_out(client, joined.json()["state"],
                 {"0": state["tokens"]["0"], "1": joined.json()["token"]})
    assert rating(client, "Sock") is None


def test_the_pair_cap_is_a_day_s(client: TestClient) -> None:
    ann, bo = claimed(client, "Ann"), claimed(client, "Bo")
    games = []
    for _ in range(PAIR_GAMES_A_DAY + 1):
        state, seats = duel(client, ann, bo, rules=SHORT)
        games.append(play_out(client, state, seats)["id"])
    assert rating(client, "Ann")["games"] == PAIR_GAMES_A_DAY
    with engine_of(client).begin() as db:        # the first games were played yesterday
        for game_id in games[:-1]:
            when = db.scalar(select(RESULTS.c.finished).where(RESULTS.c.game_id == game_id))
            db.execute(update(RESULTS).where(RESULTS.c.game_id == game_id).values(
                finished=when - timedelta(days=1)))
    assert rating(client, "Ann")["games"] == PAIR_GAMES_A_DAY + 1


def test_no_one_sinks_a_rating_by_playing_under_its_name(client: TestClient) -> None:
    victim, sinker = claimed(client, "Victim"), claimed(client, "Sinker")
    state, seats = duel(client, victim, sinker, rules=SHORT)
    play_out(client, state, seats)
    before = rating(client, "Victim")
    for look in ("Victim", "victim", "VICTIM", "V\u0456ctim", "\uff36ictim"):
        refused = client.post("/api/games", json={"players": [
            {"name": look}, {"name": "Me"}]})
        assert refused.status_code == 409, (look, refused.text)
        assert "belongs to another player on this server" in refused.json()["detail"]
        game = client.post("/api/games", json={"players": [
            {"name": "You"}, {"name": "Friend", "kind": "open"}]}, headers=player(sinker))
        joined = client.post(f"/api/games/{game.json()['id']}/join",
                             json={"invite": game.json()["invites"][0]["code"], "name": look})
        assert joined.status_code == 409, (look, joined.text)
    made_up = {"X-Player-Token": "made-up-by-the-client-0123456789"}
    assert client.post("/api/games", json={"players": [{"name": "You"}]},
                       headers=made_up).status_code == 401
    waiting = new_game(client, players=[{"name": "Me"}, {"name": "Friend", "kind": "open"}])
    joined = client.post(f"/api/games/{waiting['id']}/join",
                         json={"invite": waiting["invites"][0]["code"]}, headers=made_up)
    assert joined.status_code == 401
    # the sinker's own seat and a second one of the same game: one seat a player
    mine = client.post("/api/games", json={"players": [
        {"name": "You"}, {"name": "Friend", "kind": "open"}]}, headers=player(sinker)).json()
    twice = client.post(f"/api/games/{mine['id']}/join",
                        json={"invite": mine["invites"][0]["code"]}, headers=player(sinker))
    assert twice.status_code == 409 and "one seat of a game" in twice.json()["detail"]
    assert rating(client, "Victim") == before


def test_farming_and_sinking_fail_on_a_real_server(tmp_path: Path, database_url: str) -> None:
    server = Server(tmp_path, database_url=database_url).start()
    try:
        tokens = {name: server.post("/api/players", {"name": name}).json()["token"]
                  for name in ("Farmer", "Feeder", "Victim")}
        for _ in range(PAIR_GAMES_A_DAY + 4):
            made = server.post("/api/games", {"players": [
                {"name": "You"}, {"name": "Friend", "kind": "open"}], "rules": SHORT},
                player=tokens["Farmer"]).json()
            joined = server.post(f"/api/games/{made['id']}/join",
                                 {"invite": made["invites"][0]["code"]},
                                 player=tokens["Feeder"]).json()
            play(server, joined["state"], {"0": made["tokens"]["0"], "1": joined["token"]})
        for name in ("Farmer", "Feeder"):
            stats = server.get(f"/api/stats?player={name}").json()
            assert stats["games"] == PAIR_GAMES_A_DAY + 4
            assert stats["rating"]["games"] == PAIR_GAMES_A_DAY
        under = server.post("/api/games", {"players": [{"name": "victim"}, {"name": "Me"}]})
        assert under.status_code == 409, under.text
        made_up = server.post("/api/games", {"players": [{"name": "You"}]},
                              player="made-up-by-the-client-0123456789")
        assert made_up.status_code == 401, made_up.text
        assert server.get("/api/stats?player=Victim").status_code == 404   # no game of hers
        listed = {p["name"] for p in server.get("/api/players").json()}
        assert listed == {"Farmer", "Feeder"}
    finally:
        server.stop()
    assert "Traceback" not in server.log.read_text(errors="replace")
