"""Play again: a finished game's rematch and the series tally, as players and attackers use
them, on a real SQLite file and on PostgreSQL (skipped, saying so, when it does not answer).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from shutthebox.web import create_app
from shutthebox.web.api.checks import RateLimits
from shutthebox.web.solving.workers import SolverPool
from shutthebox.web.storage import GAMES, SEATS, SERIES, make_engine
from tests.web.client import HOSTS, bearer, new_game, play_out, wait_for_human


def finished(client: TestClient, **body: Any) -> dict[str, Any]:
    """A new game played to its end by its tokens; its first state (with the tokens)."""
    state = new_game(client, **body)
    play_out(client, state, state["tokens"])
    return state


def again(client: TestClient, game_id: str, *tokens: str) -> Any:
    headers = bearer(tokens[0]) if tokens else {}
    if len(tokens) > 1:
        headers["X-Seat-Tokens"] = ",".join(tokens[1:])
    return client.post(f"/api/games/{game_id}/rematch", headers=headers)


def test_play_again_rotates_the_seats_and_each_player_claims_their_own(
        client: TestClient) -> None:
    first = finished(client, players=[{"name": "Ann"}, {"name": "Bo"},
                                      {"name": "Cy", "computer": "easy"}],
                     format="rounds:2", stake="0.50")
    tokens = first["tokens"]
    answer = again(client, first["id"], tokens["1"])
    assert answer.status_code == 200, answer.text
    made = answer.json()
    new_id = made["game_id"]
    assert made["created"] and made["number"] == 2 and new_id != first["id"]
    assert made["text"] == "Bo played again: game 2 of the series has started."
    state = made["state"]
    # the order of play turns by one seat: Bo, Cy, Ann; same rules, format and stake
    assert [p["name"] for p in state["players"]] == ["Bo", "Cy", "Ann"]
    assert state["players"][1]["computer"] == "easy"
    assert state["rules"] == first["rules"] and state["format"] == "rounds:2"
    assert state["stake"] == 50
    assert made["tokens"].keys() == {"0"} and state["you"] == [0]
    # Ann's page claims her seat with her own token: only her seat, her new token
    ann = again(client, first["id"], tokens["0"]).json()
    assert ann["game_id"] == new_id and not ann["created"]
    assert ann["tokens"].keys() == {"2"} and ann["state"]["you"] == [2]
    assert ann["tokens"]["2"] != made["tokens"]["0"]
    # asked again (a lost answer): the same token, nobody else's
    assert again(client, first["id"], tokens["0"]).json()["tokens"] == ann["tokens"]
    # the new tokens play the new game, each its own seat only
    new_tokens = {**made["tokens"], **ann["tokens"]}
    state = wait_for_human(client, state)
    mover = str(state["pending"]["seat"])
    wrong = next(token for seat, token in new_tokens.items() if seat != mover)
    refused = client.post(f"/api/games/{new_id}/roll", json={"event": state["event_count"]},
                          headers=bearer(wrong))
    assert refused.status_code in (403, 409), refused.text
    final = play_out(client, state, new_tokens)
    assert final["status"] == "over"


def test_the_series_tally_is_on_both_games_and_survives_a_restart(
        client: TestClient, database_url: str, pool: SolverPool) -> None:
    first = finished(client, players=[{"name": "Ann"}, {"name": "Bo"}], stake="1")
    solo = client.get(f"/api/games/{first['id']}/series").json()
    assert solo["series"] is None and solo["next"] is None and solo["tally_text"] is None
    made = again(client, first["id"], first["tokens"]["0"], first["tokens"]["1"]).json()
    assert made["tokens"].keys() == {"0", "1"}      # a shared screen claims both seats
    second = play_out(client, made["state"], made["tokens"])
    old = client.get(f"/api/games/{first['id']}/series").json()
    new = client.get(f"/api/games/{made['game_id']}/series").json()
    assert old["next"] == made["game_id"] and old["number"] == 1
    assert old["next_text"] == "This game was played again: game 2 of the series followed."
    assert new["previous"] == first["id"] and new["number"] == 2 and new["next"] is None
    assert old["series"] == new["series"] == first["id"]
    assert new["players"] == ["Ann", "Bo"] and new["games"] == 2 and sum(new["wins"]) == 2
    first_over = client.get(f"/api/games/{first['id']}").json()
    expected = [0.0, 0.0]
    for game, seats in ((first_over, [0, 1]), (second, [1, 0])):
        for seat in game["winners"]:
            expected[seats[seat]] += 1 / len(game["winners"])
    assert new["wins"] == expected
    assert sum(new["net"]) == 0 and new["ledger_text"].startswith("Money won so far: Ann ")
    assert new["tally_text"].startswith("The series after 2 games: Ann ")
    # a restart (a new app on the same database) keeps the series
    client.__exit__(None, None, None)
    app = create_app(database_url, allowed_hosts=HOSTS, computer_delay=0,
                     limits=RateLimits(0, 0), pool=pool)
    with TestClient(app) as restarted:
        assert restarted.get(f"/api/games/{made['game_id']}/series").json() == new
        assert again(restarted, first["id"], first["tokens"]["0"]).json()["game_id"] \
            == made["game_id"]


def test_players_pressing_at_once_make_one_game(client: TestClient) -> None:
    first = finished(client, players=[{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"}])
    answers: list[Any] = []
    barrier = threading.Barrier(6)

    def press(token: str) -> None:
        barrier.wait()
        answers.append(again(client, first["id"], token))

    threads = [threading.Thread(target=press, args=(first["tokens"][str(seat % 3)],))
               for seat in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert [a.status_code for a in answers] == [200] * 6, [a.text for a in answers]
    games = {a.json()["game_id"] for a in answers}
    assert len(games) == 1 and sum(a.json()["created"] for a in answers) == 1
    assert first["id"] not in client.app.state.service.cache.locks   # type: ignore[attr-defined]
    engine = client.app.state.service.engine          # type: ignore[attr-defined]
    with engine.connect() as db:
        assert db.execute(select(SERIES.c.game_id).where(
            SERIES.c.previous == first["id"])).all() == [(games.pop(),)]


def test_two_server_processes_pressing_at_once_make_one_game(
        database_url: str, pool: SolverPool) -> None:
    """Each app its own memory and locks: only the database keeps them to one game."""
    apps = [create_app(database_url, allowed_hosts=HOSTS, computer_delay=0,
                       limits=RateLimits(0, 0), pool=pool) for _ in range(2)]
    with TestClient(apps[0]) as one, TestClient(apps[1]) as two:
        first = finished(one, players=[{"name": "Ann"}, {"name": "Bo"}])
        answers: list[Any] = []
        barrier = threading.Barrier(2)

        def press(side: TestClient, token: str) -> None:
            barrier.wait()
            answers.append(again(side, first["id"], token))

        threads = [threading.Thread(target=press, args=(side, first["tokens"][seat]))
                   for side, seat in ((one, "0"), (two, "1"))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert [a.status_code for a in answers] == [200, 200], [a.text for a in answers]
        assert len({a.json()["game_id"] for a in answers}) == 1
        assert sum(a.json()["created"] for a in answers) == 1
        tokens = {**answers[0].json()["tokens"], **answers[1].json()["tokens"]}
        assert tokens.keys() == {"0", "1"}
        # either process serves the new game to the tokens the other handed out
        final = play_out(two, answers[0].json()["state"], tokens)
        assert final["status"] == "over"


def test_an_online_game_is_played_again_with_its_table_its_host_and_its_clock(
        client: TestClient) -> None:
    state = new_game(client, players=[{"name": "Ann"}, {"name": "Friend", "kind": "open"}],
                     clock=30)
    code = state["invites"][0]["code"]
    bo = client.post(f"/api/games/{state['id']}/join", json={"invite": code, "name": "Bo"})
    assert bo.status_code == 200, bo.text
    tokens = {"0": state["tokens"]["0"], "1": bo.json()["token"]}
    play_out(client, bo.json()["state"], tokens)
    made = again(client, state["id"], tokens["0"]).json()
    again(client, state["id"], tokens["1"])
    table = made["state"]["table"]
    assert table["clock"] == 30 and table["host"] == 1          # Ann, now seat 1, hosts
    seats = made["state"]["seats"]
    assert [(s["name"], s["kind"], s["joined"]) for s in seats] == [
        ("Bo", "open", True), ("Ann", "here", True)]
    engine = client.app.state.service.engine          # type: ignore[attr-defined]
    with engine.connect() as db:
        deadline = db.scalar(select(GAMES.c.deadline).where(GAMES.c.id == made["game_id"]))
        invites = db.execute(select(SEATS.c.invite).where(
            SEATS.c.game_id == made["game_id"])).scalars().all()
    assert deadline is not None and invites == [None, None]     # Bo's clock runs, no link


# --- attackers ---------------------------------------------------------------------------


def test_an_unfinished_game_is_not_played_again(client: TestClient) -> None:
    state = new_game(client, players=[{"name": "Ann"}, {"name": "Bo"}])
    refused = again(client, state["id"], state["tokens"]["0"])
    assert refused.status_code == 409 and "not over" in refused.json()["detail"]
    assert client.get(f"/api/games/{state['id']}/series").json()["next"] is None


def test_strangers_bad_tokens_and_watchers_cannot_play_again(client: TestClient) -> None:
    first = finished(client, players=[{"name": "Ann"}, {"name": "Bo"}])
    other = finished(client, players=[{"name": "Eve"}])
    assert again(client, first["id"]).status_code == 401                 # a watcher
    assert again(client, first["id"], "x" * 32).status_code == 401       # a made-up token
    assert again(client, first["id"], other["tokens"]["0"]).status_code == 403  # a stranger
    assert again(client, first["id"], first["tokens"]["0"],              # smuggled along
                 other["tokens"]["0"]).status_code == 403
    assert client.post("/api/games/" + "0" * 32 + "/rematch",
                       headers=bearer(first["tokens"]["0"])).status_code == 403
    assert client.get("/api/games/" + "0" * 32 + "/series").status_code == 404
    assert client.get("/api/games/not-a-game/series").status_code == 404
    assert client.get(f"/api/games/{first['id']}/series").json()["next"] is None
    too_many = again(client, first["id"], first["tokens"]["0"], *["t" * 32] * 20)
    assert too_many.status_code == 400                  # at most 20 tokens a request
    made = again(client, first["id"], first["tokens"]["0"]).json()
    # the new game's token does not play the finished game again, nor the new one yet
    assert again(client, first["id"], made["tokens"]["1"]).status_code == 403
    assert again(client, made["game_id"], made["tokens"]["1"]).status_code == 409
    # the stranger's token, the old tokens and made-up ones do not act in the new game
    state = wait_for_human(client, made["state"])
    seat = str(state["pending"]["seat"])
    path = f"/api/games/{made['game_id']}/roll"
    for token in (other["tokens"]["0"], first["tokens"][seat], "y" * 32):
        moved = client.post(path, json={"event": state["event_count"]}, headers=bearer(token))
        assert moved.status_code in (401, 403), moved.text
    # Bo's seat is still Bo's to claim: nobody's token reached anyone else
    engine = client.app.state.service.engine          # type: ignore[attr-defined]
    with engine.connect() as db:
        hashes = dict(db.execute(select(SEATS.c.seat, SEATS.c.token_hash).where(
            SEATS.c.game_id == made["game_id"])).all())
    assert hashes[1] is not None and hashes[0] is None      # Ann (now seat 1) only
    assert "token" not in str(client.get(f"/api/games/{made['game_id']}").json()["seats"])


def test_a_series_holds_a_bounded_number_of_games(client: TestClient,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from shutthebox.web.play import series

    monkeypatch.setattr(series, "MAX_SERIES", 2)
    first = finished(client, players=[{"name": "Ann"}])
    made = again(client, first["id"], first["tokens"]["0"]).json()
    play_out(client, made["state"], made["tokens"])
    refused = again(client, made["game_id"], made["tokens"]["0"])
    assert refused.status_code == 409 and "most" in refused.json()["detail"]


def test_the_migration_adds_the_series_table_to_an_older_database(
        database_url: str, tmp_path: Path) -> None:
    from shutthebox.web.storage import upgrade

    engine = make_engine(database_url, migrate=False)
    try:
        upgrade(engine, "0002")
        upgrade(engine)
        with engine.connect() as db:
            assert db.execute(select(SERIES)).all() == []
    finally:
        engine.dispose()
