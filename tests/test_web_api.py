"""The JSON API against a real SQLite file, and a real server killed and restarted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from shutthebox.match import replay
from shutthebox.rules import Rules
from shutthebox.solver import solve
from shutthebox.web import create_app
from tests.webserver import Server


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(f"sqlite:///{tmp_path / 'games.sqlite'}"))


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def play_human_turns(client: TestClient, state: dict[str, Any]) -> dict[str, Any]:
    """Play the human seats with the first legal move until the game is over."""
    while state["status"] != "over":
        pending = state["pending"]
        assert pending["human"], pending
        base = f"/api/games/{state['id']}"
        if pending["kind"] == "roll":
            response = client.post(f"{base}/roll", json={"seat": pending["seat"]})
        elif pending["kind"] == "choose-dice":
            response = client.post(f"{base}/dice", json={"seat": pending["seat"], "dice": 2})
        else:
            response = client.post(f"{base}/shut", json={"seat": pending["seat"],
                                                         "tiles": pending["legal"][0]})
        assert response.status_code == 200, response.text
        state = response.json()
    return state


def test_a_solo_game_through_the_api_is_stored_and_replays(client: TestClient) -> None:
    state = new_game(client, players=[{"name": "Ann"}], preset="lever-9")
    assert state["format"] == "solo" and state["pending"]["kind"] == "roll"
    final = play_human_turns(client, state)
    assert final["winners"] == [0]
    stored = client.get(f"/api/games/{state['id']}").json()
    assert stored["event_count"] == final["event_count"]
    match = replay({"version": 1, "rules": stored["rules"], "format": stored["format"],
                    "players": ["Ann"], "stake": 0, "events": stored["events"]})
    assert match.is_over and match.round_scores[0] == int(final["round_scores"]["0"])


def test_computer_seats_play_on_the_server(client: TestClient) -> None:
    state = new_game(client, players=[{"name": "Ann"}, {"name": "Bot", "computer": "hard"},
                                      {"name": "Cat", "computer": "easy"}], stake="1")
    final = play_human_turns(client, state) if state["status"] != "over" else state
    assert final["status"] == "over"
    assert sum(final["payouts"].values()) == 300
    types = {e["type"] for e in client.get(f"/api/games/{state['id']}").json()["events"]}
    assert {"start", "ante", "turn", "roll", "winner", "payout"} <= types


def test_hint_ranks_every_legal_move_and_coach_gives_exact_figures(client: TestClient) -> None:
    state = new_game(client, players=[{"name": "Ann"}])
    base = f"/api/games/{state['id']}"
    assert client.get(f"{base}/hint").status_code == 409   # nothing to decide before the roll
    coach = client.get(f"{base}/coach").json()
    assert coach["p_shut"] == pytest.approx(solve(Rules(), "shut").value())
    state = client.post(f"{base}/roll").json()
    hint = client.get(f"{base}/hint").json()
    assert sorted(map(tuple, (o["tiles"] for o in hint["options"]))) == sorted(
        map(tuple, state["pending"]["legal"]))
    values = [o["value"] for o in hint["options"]]
    assert values == sorted(values) and hint["measure"] == "expected score"
    assert hint["options"][0]["loss"] == 0


def test_review_and_statistics_after_a_finished_game(client: TestClient) -> None:
    for _ in range(2):
        play_human_turns(client, new_game(client, players=[{"name": "Zoe"}]))
    games = client.get("/api/games").json()
    review = client.get(f"/api/games/{games[0]['id']}/review").json()
    assert review["decisions"] and "Zoe" in review["total_cost"]
    stats = client.get("/api/players/Zoe/stats").json()
    assert stats["games"] == 2 and stats["turns"] == 2
    assert stats["personal_best"] == stats["best_score"]
    assert sum(stats["optimal"].values()) == pytest.approx(1.0)
    assert client.get("/api/players/Nobody/stats").status_code == 404


@pytest.mark.parametrize(("body", "status", "message"), [
    ({"players": [{"name": "A"}], "rules": {"tiles": 13}}, 400, "from 2 to 12"),
    ({"players": [{"name": "A"}], "rules": {"bogus": 1}}, 400, "unknown rule field"),
    ({"players": [{"name": "A"}], "preset": "nine"}, 400, "unknown preset"),
    ({"players": [{"name": "A"}, {"name": "B"}], "format": "race:200"}, 400, "covered"),
    ({"players": [{"name": "A"}, {"name": "B", "computer": "genius"}]}, 400, "unknown strategy"),
    ({"players": [{"name": "A"}, {"name": "A"}]}, 400, "must differ"),
    ({"players": [{"name": "A"}, {"name": "B"}], "stake": "lots"}, 400, "not an amount"),
    ({"players": []}, 422, ""),
    ({"players": "Ann"}, 422, ""),
])
def test_bad_new_games_get_a_clear_4xx(client: TestClient, body: dict[str, Any], status: int,
                                       message: str) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == status
    assert message in str(response.json()["detail"])


def test_bad_actions_get_a_clear_4xx(client: TestClient) -> None:
    state = new_game(client, players=[{"name": "Ann"}, {"name": "Bob"}])
    base = f"/api/games/{state['id']}"
    assert client.post("/api/games/nope/roll").status_code == 404
    assert client.post(f"{base}/shut", json={"tiles": [9]}).status_code == 409  # roll first
    out_of_turn = client.post(f"{base}/roll", json={"seat": 1})
    assert out_of_turn.status_code == 409 and "seat 0" in out_of_turn.json()["detail"]
    client.post(f"{base}/roll", json={"seat": 0})
    illegal = client.post(f"{base}/shut", json={"seat": 0, "tiles": [1, 2, 3, 4, 5, 6, 7, 8]})
    assert illegal.status_code == 400 and "cannot shut" in illegal.json()["detail"]
    assert client.post(f"{base}/shut", json={"tiles": [13]}).status_code == 400
    assert client.post(f"{base}/shut", json={"tiles": "x"}).status_code == 422
    assert client.post(f"{base}/dice", json={"dice": 3}).status_code == 422
    assert client.post(f"{base}/shut", content=b"garbage",
                       headers={"content-type": "application/json"}).status_code == 422


def test_openapi_describes_every_action(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/games", "/api/games/{game_id}/roll", "/api/games/{game_id}/dice",
                 "/api/games/{game_id}/shut", "/api/games/{game_id}/hint",
                 "/api/games/{game_id}/review", "/api/players/{name}/stats"):
        assert path in paths


def test_page_and_assets_are_served_by_the_app(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "/static/app.js" in page.text
    assert "http" not in page.text.replace("http-equiv", "")  # nothing from the internet
    for asset in ("app.js", "style.css", "icon.svg"):
        assert client.get(f"/static/{asset}").status_code == 200


def test_kill_9_and_restart_loses_nothing(tmp_path: Path) -> None:
    server = Server(tmp_path).start()
    try:
        state = server.post("/api/games", {"players": [{"name": "Ann"}, {"name": "Bob"}]}).json()
        game = f"/api/games/{state['id']}"
        rolled = server.post(f"{game}/roll", {"seat": 0}).json()
        assert rolled["pending"]["kind"] == "shut"
        server.kill()
        server.start()
        resumed = server.get(game).json()
        assert resumed["pending"] == rolled["pending"]          # the same dice, still to play
        assert resumed["event_count"] == rolled["event_count"]
        listed = [g for g in server.get("/api/games").json() if g["id"] == state["id"]]
        assert listed and listed[0]["status"] == "playing"
        move = resumed["pending"]["legal"][0]
        after = server.post(f"{game}/shut", {"seat": 0, "tiles": move}).json()
        assert after["event_count"] > resumed["event_count"]
    finally:
        server.kill()


def test_two_servers_on_one_database_never_write_the_same_position(tmp_path: Path) -> None:
    from shutthebox.web.storage import append_events, make_engine, sessions

    url = f"sqlite:///{tmp_path / 'shared.sqlite'}"
    first, second = TestClient(create_app(url)), TestClient(create_app(url))
    state = new_game(first, players=[{"name": "Ann"}])
    base = f"/api/games/{state['id']}"
    rolled = second.post(f"{base}/roll").json()          # the second server acts
    assert first.get(base).json()["event_count"] == rolled["event_count"]  # the first sees it
    with sessions(make_engine(url)).begin() as session:  # a writer with a stale count loses
        assert not append_events(session, state["id"], state["event_count"],
                                 [{"type": "roll", "seat": 0, "roll": [1, 1]}], "playing")
    assert first.get(base).json()["pending"] == rolled["pending"]
