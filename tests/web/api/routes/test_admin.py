"""The admin view (web/api/routes/admin.py, web/play/admin.py, web/records/names.py) on
both databases: off without an admin token, refused without the token or from another
address, and with both: the games open and who is at them, the last errors, a game ended,
a name renamed and freed, and a claimed one: its player renamed with their record, or set
aside and signed out so that someone else can claim it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from shutthebox.web import create_app
from shutthebox.web.api.checks import RateLimits
from shutthebox.web.api.hosting import Hosting
from shutthebox.web.settings import hash_token, new_token
from shutthebox.web.solving.workers import SolverPool
from tests.web.client import HOSTS

TOKEN = new_token()
HERE = ("127.0.0.1", 50000)
ADMIN = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def admin(database_url: str, pool: SolverPool) -> Iterator[TestClient]:
    app = create_app(database_url, allowed_hosts=HOSTS, computer_delay=0,
                     limits=RateLimits(0, 0), pool=pool,
                     hosting=Hosting(admin_token=hash_token(TOKEN)))
    with TestClient(app, client=HERE) as running:
        yield running


def new_game(client: TestClient, *players: dict[str, str]) -> dict[str, Any]:
    created = client.post("/api/games", json={"players": list(players),
                                               "rules": {"tiles": 4}})
    assert created.status_code == 201, created.text
    state: dict[str, Any] = created.json()
    return state


def finish(client: TestClient, state: dict[str, Any]) -> dict[str, Any]:
    """Ann's solo game played to its end with her first legal moves."""
    token = {"Authorization": f"Bearer {state['tokens']['0']}"}
    while state["status"] != "over":
        pending, base = state["pending"], f"/api/games/{state['id']}"
        if pending["kind"] == "roll":
            answer = client.post(f"{base}/roll", json={"event": state["event_count"]},
                                 headers=token)
        elif pending["kind"] == "choose-dice":
            answer = client.post(f"{base}/dice", json={"dice": 2,
                                                       "event": state["event_count"]},
                                 headers=token)
        else:
            answer = client.post(f"{base}/shut", json={"tiles": pending["legal"][0],
                                                       "event": state["event_count"]},
                                 headers=token)
        assert answer.status_code == 200, answer.text
        state = answer.json()
    return state


def test_the_admin_view_is_off_without_an_admin_token(client: TestClient) -> None:
    answer = client.get("/api/admin/games", headers=ADMIN)
    assert answer.status_code == 403 and "off" in answer.json()["detail"]


def test_no_admin_action_without_the_token_from_an_admin_address(
        admin: TestClient, database_url: str, pool: SolverPool) -> None:
    game = new_game(admin, {"name": "Ann"})
    actions = [("get", "/api/admin/games", None), ("get", "/api/admin/errors", None),
               ("post", f"/api/admin/games/{game['id']}/end", {}),
               ("post", "/api/admin/players/rename", {"old": "Ann", "new": "Eve"}),
               ("post", "/api/admin/players/free", {"name": "Ann"})]
    wrong = [{}, {"Authorization": f"Bearer {TOKEN[:-1]}"},
             {"Authorization": f"Bearer {hash_token(TOKEN)}"},
             {"Authorization": f"Basic {TOKEN}"},
             {"Authorization": f"Bearer {game['tokens']['0']}"}]
    for method, path, body in actions:
        for headers in wrong:
            answer = admin.request(method, path, json=body, headers=headers)
            assert answer.status_code == 403, (path, headers, answer.text)
    elsewhere = create_app(database_url, allowed_hosts=HOSTS, pool=pool,
                           hosting=Hosting(admin_token=hash_token(TOKEN)))
    with TestClient(elsewhere, client=("203.0.113.9", 50000)) as outside:
        for method, path, body in actions:
            assert outside.request(method, path, json=body, headers=ADMIN).status_code == 403
    assert admin.get(f"/api/games/{game['id']}").json()["status"] != "over"


def test_the_admin_lists_the_games_open_and_ends_an_abandoned_one(
        admin: TestClient) -> None:
    waiting = new_game(admin, {"name": "Ann"}, {"name": "Bo", "kind": "open"})
    playing = new_game(admin, {"name": "Cy"})
    over = finish(admin, new_game(admin, {"name": "Di"}))
    listed = admin.get("/api/admin/games", headers=ADMIN)
    assert listed.status_code == 200
    games = {game["id"]: game for game in listed.json()}
    assert waiting["id"] in games and playing["id"] in games and over["id"] not in games
    assert [(s["name"], s["taken"]) for s in games[waiting["id"]]["seats"]] == [
        ("Ann", True), ("Bo", False)]
    assert games[playing["id"]]["status"] == "playing"
    ended = admin.post(f"/api/admin/games/{playing['id']}/end", headers=ADMIN)
    assert ended.status_code == 200, ended.text
    assert admin.get(f"/api/games/{playing['id']}").json()["status"] == "over"
    assert admin.post(f"/api/admin/games/{playing['id']}/end", headers=ADMIN).status_code == 409
    assert admin.post(f"/api/admin/games/{waiting['id']}/end", headers=ADMIN).status_code == 409
    for unknown in ("0" * 32, "%00", "x" * 300, "%E2%80%AE"):
        answer = admin.post(f"/api/admin/games/{unknown}/end", headers=ADMIN)
        assert answer.status_code == 404, (unknown, answer.text)
    assert admin.get("/api/admin/errors", headers=ADMIN).status_code == 200


def test_the_admin_renames_and_frees_a_player_s_name(admin: TestClient) -> None:
    finish(admin, new_game(admin, {"name": "Ann"}))
    renamed = admin.post("/api/admin/players/rename", json={"old": "Ann", "new": "Anna"},
                         headers=ADMIN)
    assert renamed.status_code == 200 and renamed.json() == {"renamed": 1}
    freed = admin.post("/api/admin/players/free", json={"name": "Anna"}, headers=ADMIN)
    assert freed.status_code == 200 and freed.json() == {"aside": "Anna (1)"}
    for body in ({"old": "Anna", "new": "Bo"}, {"old": "Anna (1)", "new": "\x1b[2J"},
                 {"old": "Anna (1)", "new": " "}, {"old": "x" * 81, "new": "y"}):
        answer = admin.post("/api/admin/players/rename", json=body, headers=ADMIN)
        assert 400 <= answer.status_code < 500, (body, answer.text)


def claim(client: TestClient, name: str) -> str:
    answer = client.post("/api/players", json={"name": name})
    assert answer.status_code == 201, answer.text
    token: str = answer.json()["token"]
    return token


def test_the_admin_renames_a_claimed_player_with_their_record_and_rating(
        admin: TestClient) -> None:
    ann, bo = claim(admin, "Ann"), claim(admin, "Bo")
    game = admin.post("/api/games", json={"players": [{"name": "You"}], "rules": {"tiles": 4}},
                      headers={"X-Player-Token": ann})
    finish(admin, game.json())
    taken = admin.post("/api/admin/players/rename", json={"old": "Ann", "new": "bo"},
                       headers=ADMIN)
    assert taken.status_code == 409 and "belongs to another player" in taken.json()["detail"]
    renamed = admin.post("/api/admin/players/rename", json={"old": "ann", "new": "Anna"},
                         headers=ADMIN)
    assert renamed.status_code == 200 and renamed.json() == {"renamed": 1}
    assert admin.get("/api/players/me", headers={"X-Player-Token": ann}).json() == {
        "name": "Anna"}
    assert [p["name"] for p in admin.get("/api/players").json()] == ["Anna"]
    stats = admin.get("/api/stats", params={"player": "Anna"})
    assert stats.status_code == 200 and stats.json()["games"] == 1, stats.text
    assert claim(admin, "Ann")          # the old name is anyone's again
    assert admin.get("/api/players/me", headers={"X-Player-Token": bo}).status_code == 200


def test_the_admin_frees_a_claimed_name_for_someone_else(admin: TestClient) -> None:
    old = claim(admin, "Eve")
    game = admin.post("/api/games", json={"players": [{"name": "You"}], "rules": {"tiles": 4}},
                      headers={"X-Player-Token": old})
    finish(admin, game.json())
    freed = admin.post("/api/admin/players/free", json={"name": "EVE"}, headers=ADMIN)
    assert freed.status_code == 200 and freed.json() == {"aside": "Eve (1)"}
    assert admin.get("/api/players/me", headers={"X-Player-Token": old}).status_code == 401
    refused = admin.post("/api/games", json={"players": [{"name": "You"}]},
                         headers={"X-Player-Token": old})
    assert refused.status_code == 401
    new = claim(admin, "Eve")
    assert admin.get("/api/players/me", headers={"X-Player-Token": new}).json() == {
        "name": "Eve"}
    assert admin.get("/api/stats", params={"player": "Eve (1)"}).json()["games"] == 1
    fresh = admin.get("/api/stats", params={"player": "Eve"})
    assert fresh.status_code == 404 and "no finished games" in fresh.json()["detail"]
