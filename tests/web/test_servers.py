"""Real `shutthebox serve` processes on 127.0.0.1, on SQLite and on PostgreSQL: killed with
-9 mid-game, two processes on one database with live clients, and a database that goes
away and comes back."""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import connect

from shutthebox.web import create_app
from shutthebox.web.api.checks import RateLimits
from tests.web.legal import first_legal
from tests.web.webserver import POSTGRES, Proxy, Server, play, postgres_problem


def live_url(server: Server, game_id: str, since: int) -> str:
    return f"ws://127.0.0.1:{server.port}/api/games/{game_id}/live?since={since}"


def test_every_acknowledged_action_survives_kill_9_and_clients_resume(
        tmp_path: Path, database_url: str) -> None:
    server = Server(tmp_path, database_url=database_url).start()
    try:
        state = server.post("/api/games", {"players": [
            {"name": "Ann"}, {"name": "Bot", "computer": "hard"}, {"name": "Cy"}],
            "format": "rounds:2"}).json()
        tokens = state["tokens"]
        with connect(live_url(server, state["id"], 0)) as watcher:
            seen = json.loads(watcher.recv(timeout=10))["event_count"]
            acknowledged = play(server, state, tokens, moves=6)
            known = server.get(f"/api/games/{state['id']}").json()["events"]
            count = acknowledged["event_count"]
            server.kill()          # while the client is connected
        server.start()
        after = server.get(f"/api/games/{state['id']}").json()
        assert after["event_count"] >= count
        assert after["events"][:count] == known[:count]
        with connect(live_url(server, state["id"], seen)) as again:
            missed = json.loads(again.recv(timeout=10))
            assert missed["since"] == seen
            assert missed["event_count"] >= count
        assert play(server, after, tokens)["status"] == "over"   # the game goes on
    finally:
        server.kill()


def gone(group: int, timeout: float = 15.0) -> None:
    """Wait until every process of a process group has ended."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    raise AssertionError(f"processes of group {group} still running after {timeout} s")


@pytest.mark.parametrize("workers", [1, 2])
def test_sigterm_stops_a_server_cleanly_with_its_solver_worker(
        tmp_path: Path, workers: int) -> None:
    """What `systemctl stop` sends: the server exits 0 and logs nothing (before, it died of
    the signal uvicorn raises again after stopping, and it and each of its uvicorn workers
    warned of the solver pool's semaphores as leaked)."""
    server = Server(tmp_path, workers=workers).start()
    try:
        state = server.post("/api/games", {"players": [{"name": "Ann"}]}).json()
        coach = server.get(f"/api/games/{state['id']}/coach", token=state["tokens"]["0"])
        assert coach.json()["p_shut"] > 0, coach.text    # the solver worker has worked
        process = server.process
        assert process is not None
        server.stop()
        assert process.returncode == 0
        gone(process.pid)       # and its helpers (each writes to the log as it ends)
        assert server.log.read_text() == ""
    finally:
        server.kill()


def test_a_move_through_one_server_reaches_a_client_of_another(
        tmp_path: Path, database_url: str) -> None:
    first = Server(tmp_path, database_url=database_url).start()
    second = Server(tmp_path, database_url=database_url).start()
    try:
        state = first.post("/api/games", {"players": [{"name": "Ann"}]}).json()
        token = state["tokens"]["0"]
        with connect(live_url(second, state["id"], state["event_count"])) as watcher:
            assert json.loads(watcher.recv(timeout=10))["events"] == []
            delays = []
            for _ in range(4):
                if state["status"] == "over":
                    break
                path, body = first_legal(state)
                began = time.perf_counter()
                answer = first.post(path, body, token=token)
                assert answer.status_code == 200, answer.text
                state = answer.json()
                heard = json.loads(watcher.recv(timeout=10))
                while heard["type"] != "state" or heard["event_count"] < state["event_count"]:
                    heard = json.loads(watcher.recv(timeout=10))
                delays.append(time.perf_counter() - began)
                assert heard["events"][-1] == state["events"][-1]
        assert delays and max(delays) < 2.0, delays    # measured closely in bench_web.py
        seen_by_second = second.get(f"/api/games/{state['id']}", token=token).json()
        assert seen_by_second["event_count"] == state["event_count"]
        assert seen_by_second["you"] == [0]
    finally:
        first.kill()
        second.kill()


def test_a_browser_is_told_why_a_feed_closes_over_a_real_server(tmp_path: Path) -> None:
    """Through uvicorn, a refused handshake reaches a client only as HTTP 403 (a browser
    sees code 1006 and reconnects): the feed accepts, then closes with its code."""
    from websockets.exceptions import ConnectionClosed

    server = Server(tmp_path).start()
    try:
        state = server.post("/api/games", {"players": [{"name": "Ann"}]}).json()
        cases = [("0" * 32, 0, 4404, "no game"), (state["id"], -1, 1008, "event number")]
        for game_id, since, code, words in cases:
            url = live_url(server, game_id, 0).replace("since=0", f"since={since}")
            with connect(url) as feed, pytest.raises(ConnectionClosed):
                feed.recv(timeout=10)
            assert feed.close_code == code and words in (feed.close_reason or "")
        finished = play(server, state, state["tokens"])
        with connect(live_url(server, state["id"], 0)) as feed:
            assert json.loads(feed.recv(timeout=10))["status"] == "over"
            with pytest.raises(ConnectionClosed):
                feed.recv(timeout=10)
        assert feed.close_code == 4000 and finished["status"] == "over"
    finally:
        server.kill()


def test_a_database_that_goes_away_answers_503_then_recovers_without_a_restart(
        tmp_path: Path) -> None:
    problem = postgres_problem()
    if problem is not None:
        pytest.skip(f"PostgreSQL tests skipped: {problem}")
    from tests.web.webserver import postgres_schema

    proxy = Proxy(5432).start()
    with postgres_schema() as url:
        through = url.replace("127.0.0.1:5432", f"127.0.0.1:{proxy.port}")
        assert through != url and POSTGRES in url
        app = create_app(through, allowed_hosts=("testserver",), computer_delay=0,
                         limits=RateLimits(0, 0))
        with TestClient(app) as client:
            state = client.post("/api/games", json={"players": [{"name": "Ann"}]}).json()
            game = f"/api/games/{state['id']}"
            assert client.get(game).status_code == 200
            proxy.stop()
            away = client.get(game)
            assert away.status_code == 503, away.text
            assert away.json()["detail"] == ("the database is not answering: try again in a "
                                             "moment")
            assert away.headers["retry-after"] == "1"
            refused = client.post(f"{game}/roll", json={"event": state["event_count"]},
                                  headers={"Authorization": f"Bearer {state['tokens']['0']}"})
            assert refused.status_code == 503
            proxy.start()
            back = client.get(game)
            assert back.status_code == 200 and back.json()["event_count"] == \
                state["event_count"]
            rolled = client.post(f"{game}/roll", json={"event": state["event_count"]},
                                 headers={"Authorization": f"Bearer {state['tokens']['0']}"})
            assert rolled.status_code == 200
        proxy.stop()


async def flood(server: Server, path: str, body: dict[str, Any], token: str, times: int,
                key: str | None = None) -> list[httpx.Response]:
    """``times`` copies of one action sent at once, each on a connection of its own."""
    headers = {"Authorization": f"Bearer {token}"}
    if key is not None:
        headers["Idempotency-Key"] = key
    limits = httpx.Limits(max_connections=times)
    async with httpx.AsyncClient(base_url=server.url, timeout=30, limits=limits) as client:
        return list(await asyncio.gather(*[client.post(path, json=body, headers=headers)
                                           for _ in range(times)]))


def test_a_flood_of_one_move_stores_it_once_and_refuses_the_rest(
        tmp_path: Path, database_url: str) -> None:
    """Forty copies of a move sent at once (the move path on the event loop, and the thread
    pool's for those that find the game busy): one is stored, the others are refused with a
    409, none with a 5xx; the game goes on from the one stored."""
    server = Server(tmp_path, database_url=database_url).start()
    try:
        state = server.post("/api/games", {"players": [{"name": "Ann"}]}).json()
        token = state["tokens"]["0"]
        path, body = first_legal(state)
        answers = asyncio.run(flood(server, path, body, token, 40))
        statuses = sorted(a.status_code for a in answers)
        assert statuses == [200] + [409] * 39, statuses
        stored = next(a.json() for a in answers if a.status_code == 200)
        now = server.get(f"/api/games/{state['id']}").json()
        assert now["event_count"] == stored["event_count"]
        assert now["events"] == state["events"] + stored["events"]
        assert play(server, now, {"0": token})["status"] == "over"
        assert "Traceback" not in server.log.read_text()
    finally:
        server.kill()


def test_a_repeated_request_answers_the_first_answer_and_changes_nothing(
        tmp_path: Path, database_url: str) -> None:
    """A move sent again and again with its Idempotency-Key, twenty at once and then once
    more: every answer is the first answer, and the game has moved by one move."""
    server = Server(tmp_path, database_url=database_url).start()
    try:
        state = server.post("/api/games", {"players": [{"name": "Ann"}]}).json()
        token = state["tokens"]["0"]
        path, body = first_legal(state)
        answers = asyncio.run(flood(server, path, body, token, 20, key="k-1"))
        assert {a.status_code for a in answers} == {200}
        first = answers[0].json()
        assert all(a.json() == first for a in answers)
        again = server.post(path, body, token=token, key="k-1")
        assert again.status_code == 200 and again.json() == first
        now = server.get(f"/api/games/{state['id']}").json()
        assert now["event_count"] == first["event_count"]
        assert now["events"] == state["events"] + first["events"]
    finally:
        server.kill()


async def one_move_each(server: Server, games: list[dict[str, Any]],
                        leave: bool = False) -> list[int]:
    """One move in each game, all sent at once, each on a connection of its own (on SQLite
    the moves that arrive in one turn of the server's event loop are committed together);
    with ``leave`` each client hangs up at once, before its answer. The statuses (0: left)."""
    async def move(client: httpx.AsyncClient, state: dict[str, Any]) -> int:
        path, body = first_legal(state)
        request = client.post(path, json=body,
                              headers={"Authorization": f"Bearer {state['tokens']['0']}"})
        if not leave:
            return (await request).status_code
        task = asyncio.ensure_future(request)
        await asyncio.sleep(0.002)          # sent, and the client goes
        task.cancel()
        try:
            return (await task).status_code
        except asyncio.CancelledError:
            return 0

    limits = httpx.Limits(max_connections=len(games))
    async with httpx.AsyncClient(base_url=server.url, timeout=30, limits=limits) as client:
        return list(await asyncio.gather(*[move(client, state) for state in games]))


def test_moves_committed_together_are_each_stored_before_their_answer(
        tmp_path: Path, database_url: str) -> None:
    """Sixty games each move at once, twice over; the server is killed (-9) the moment the
    last answer arrives: after a restart every answered move is there, each game once."""
    server = Server(tmp_path, database_url=database_url).start()
    try:
        games = [server.post("/api/games", {"players": [{"name": f"P{i}"}]}).json()
                 for i in range(60)]
        for _ in range(2):
            assert asyncio.run(one_move_each(server, games)) == [200] * 60
            games = [{**server.get(f"/api/games/{g['id']}").json(), "tokens": g["tokens"]}
                     for g in games]
        answered = {g["id"]: g["event_count"] for g in games}
        server.kill()
        server.start()
        for game_id, count in answered.items():
            assert server.get(f"/api/games/{game_id}").json()["event_count"] == count
        assert "Traceback" not in server.log.read_text()
    finally:
        server.kill()


def test_clients_that_hang_up_mid_move_leave_every_game_playable(
        tmp_path: Path, database_url: str) -> None:
    """Forty players send a move and hang up at once, before the answer (the server may or
    may not have stored it): each game then reads as stored, in memory and after a restart
    alike, and plays on to its end."""
    server = Server(tmp_path, database_url=database_url).start()
    try:
        games = [server.post("/api/games", {"players": [{"name": f"P{i}"}]}).json()
                 for i in range(40)]
        statuses = asyncio.run(one_move_each(server, games, leave=True))
        assert set(statuses) <= {0, 200}, statuses
        seen = [server.get(f"/api/games/{g['id']}").json() for g in games]
        assert all(s["event_count"] >= g["event_count"] for s, g in zip(seen, games, strict=True))
        server.kill()
        server.start()
        for state, game in zip(seen, games, strict=True):
            again = server.get(f"/api/games/{game['id']}").json()
            assert again["event_count"] == state["event_count"]
            assert play(server, {**again, "tokens": game["tokens"]},
                        game["tokens"])["status"] == "over"
        assert "Traceback" not in server.log.read_text()
    finally:
        server.kill()
