"""A public server attacked as strangers would: each attack on a real `shutthebox serve` on
127.0.0.1, on SQLite and on PostgreSQL, bounded in count and time, with what came back and
what the server's log says checked (never a 5xx where a 4xx is due, never a traceback).

Speeds (a hint's answer time while the dearest accepted table is built) are measured by
``benchmarks/bench_hints.py``; here only that the answers come, and come first."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Origin

from shutthebox.rules import Rules
from shutthebox.solver.cost import largest_limit
from shutthebox.web.solving.work import SolverWork, TableDroppedError, TooMuchWorkError
from shutthebox.web.solving.workers import SolverPool
from tests.web.webserver import PLAIN, Server, free_port


@contextlib.contextmanager
def serving(tmp_path: Path, database_url: str, *extra: str,
            rate_limit: float = 0.0) -> Iterator[Server]:
    server = Server(tmp_path, database_url=database_url, rate_limit=rate_limit,
                    extra=extra).start()
    try:
        yield server
    finally:
        server.stop()


def no_tracebacks(server: Server) -> None:
    log = server.log.read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]


def token_of(state: dict[str, Any]) -> str:
    return str(next(iter(state["tokens"].values())))


# --- solver work ---------------------------------------------------------------------------

HARD_PAIR = [{"name": "Ann", "computer": "hard"}, {"name": "Bob", "computer": "hard"}]


def test_a_table_beyond_the_budget_is_refused_saying_what_fits_or_played_approximately(
        tmp_path: Path, database_url: str) -> None:
    """One anonymous request used to keep the solver busy for two hours (box-12,
    loser-at:10000, two hard computers)."""
    with serving(tmp_path, database_url) as server:
        body = {"players": HARD_PAIR, "rules": {"tiles": 12}, "format": "loser-at:10000"}
        refused = server.post("/api/games", body)
        assert refused.status_code == 400
        fits = largest_limit(Rules(tiles=12), "loser-at", 60.0)
        assert refused.json()["detail"].startswith(
            f"loser-at on 12 tiles is solved exactly up to a limit of {fits} on this server")
        for kind, number in [("rounds", 100), ("elimination", 10_000), ("race", 10_000)]:
            scoring = {"scoring": "covered"} if kind == "race" else {}
            answer = server.post("/api/games", {**body, "format": f"{kind}:{number}",
                                                "rules": {"tiles": 12, **scoring}})
            assert answer.status_code == 400 and "on this server" in answer.json()["detail"]
        played = server.post("/api/games", {**body, "approximate": True})
        assert played.status_code == 201
        assert [p["computer"] for p in played.json()["players"]] == ["optimal:round"] * 2
        state = played.json()
        deadline = time.monotonic() + 30
        while state["event_count"] < 8:          # it plays on, needing no table
            assert time.monotonic() < deadline
            time.sleep(0.2)
            state = server.get(f"/api/games/{state['id']}").json()
    no_tracebacks(server)


def test_a_hint_answers_while_the_dearest_accepted_table_is_built(
        tmp_path: Path, database_url: str) -> None:
    """Interactive work never waits behind background work: with a table of about the
    budget under way (12 tiles, the largest loser-at limit that fits a 20 s budget), a
    9-tile and a 12-tile hint are answered before it is done."""
    limit = largest_limit(Rules(tiles=12), "loser-at", 20.0)
    with serving(tmp_path, database_url, "--solver-budget", "20") as server:
        long = server.post("/api/games", {"players": [{"name": "Ann"},
                                                      {"name": "Bot", "computer": "hard"}],
                                          "rules": {"tiles": 12}, "format": f"loser-at:{limit}"})
        assert long.status_code == 201
        with connect(f"ws://127.0.0.1:{server.port}/api/games/{long.json()['id']}/live",
                     open_timeout=10) as watcher:       # a watcher keeps the table wanted
            watcher.recv(timeout=10)
            for tiles in (9, 12):
                state = server.post("/api/games", {"players": [{"name": "Cy"}],
                                                   "rules": {"tiles": tiles}}).json()
                token = token_of(state)
                server.post(f"/api/games/{state['id']}/roll", {"event": state["event_count"]},
                            token)
                hint = server.get(f"/api/games/{state['id']}/hint", token)
                assert hint.status_code == 200 and hint.json()["options"]
                # The table is still being worked out: its game has not moved.
                assert server.get(f"/api/games/{long.json()['id']}").json()["event_count"] \
                    == long.json()["event_count"]
    no_tracebacks(server)


def test_sigterm_stops_the_server_during_a_solve_and_the_next_start_resumes(
        tmp_path: Path, database_url: str) -> None:
    with serving(tmp_path, database_url, "--solver-budget", "600") as server:
        state = server.post("/api/games", {"players": [{"name": "Ann"},
                                                       {"name": "Bot", "computer": "hard"}],
                                           "rules": {"tiles": 12}, "format": "loser-at:300"})
        assert state.status_code == 201
        game = state.json()
        token = token_of(game)
        first = server.post(f"/api/games/{game['id']}/roll", {"event": game["event_count"]},
                            token)
        assert first.status_code == 200
        time.sleep(1.0)                    # the table's build is under way
        assert server.process is not None
        started = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(timeout=10) == 0
        print(f"stopped in {time.monotonic() - started:.1f} s")
        server.process = None
        no_tracebacks(server)
        server.start()
        again = server.get(f"/api/games/{game['id']}").json()
        assert again["event_count"] == first.json()["event_count"]


def test_one_client_may_not_queue_unbounded_solver_work(tmp_path: Path) -> None:
    async def attack() -> None:
        work = SolverWork(lambda game_id: 0)
        work.start()
        try:
            calls = [asyncio.ensure_future(work.ask(["203.0.113.9"], time.sleep, 1.0))
                     for _ in range(2)]
            await asyncio.sleep(0)
            with pytest.raises(TooMuchWorkError):
                await work.ask(["203.0.113.9"], time.sleep, 0.0)
            await work.ask(["198.51.100.7"], time.sleep, 0.0)    # another client goes on
            await asyncio.gather(*calls)
            await work.ask(["203.0.113.9"], time.sleep, 0.0)     # and this one, once done
            first = work.reserve_table(Rules(tiles=12), parse("loser-at:150"), "203.0.113.9")
            with pytest.raises(TooMuchWorkError):
                work.reserve_table(Rules(tiles=11), parse("loser-at:150"), "203.0.113.9")
            first.cancel()
        finally:
            await work.stop()

    asyncio.run(attack())


def parse(text: str) -> Any:
    from shutthebox.match import GameFormat

    return GameFormat.parse(text)


def test_a_table_nobody_follows_is_dropped_even_while_it_is_built(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from shutthebox.solver.matchplay import cache_path

    monkeypatch.setenv("SHUTTHEBOX_HOME", str(tmp_path))
    rules, fmt = Rules(tiles=12), parse("loser-at:150")     # about 30 s of work

    async def abandon() -> float:
        background = SolverPool(idle=True)
        work = SolverWork(lambda game_id: 0, background=background, wanted_for=1.0,
                          sweep_every=0.2)
        work.start()
        try:
            build = work.request_table(rules, fmt, "g" * 32)
            await asyncio.sleep(0.5)
            assert background.busy       # under way
            started = time.monotonic()
            with pytest.raises(TableDroppedError):
                await asyncio.wait_for(build, 20)
            return time.monotonic() - started
        finally:
            await work.stop()
            background.close()

    print(f"dropped {asyncio.run(abandon()):.1f} s after it was last asked for")
    assert not cache_path(rules, fmt).exists()


# --- the edges of HTTP ---------------------------------------------------------------------

def test_an_oversized_request_head_is_refused(tmp_path: Path, database_url: str) -> None:
    """A head that keeps growing is refused once 16 KiB of it wait unparsed (h11's
    ``max_incomplete_event_size``); a whole head of any size is the proxy's to bound
    (``tests/web/test_proxy.py``). With ``--http h11``: the default parser, httptools,
    bounds nothing, and the shipped nginx bounds heads in front of it."""
    with serving(tmp_path, database_url, "--http", "h11") as server:
        with socket.create_connection(("127.0.0.1", server.port)) as s:
            s.sendall(b"GET /api/presets HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ")
            with contextlib.suppress(OSError):
                for _ in range(64):       # up to 4 MiB, refused after 16 KiB
                    s.sendall(b"a" * 65536)
            s.settimeout(10)
            assert s.recv(100).startswith(b"HTTP/1.1 400 ")
        malformed = socket.create_connection(("127.0.0.1", server.port))
        malformed.sendall(b"NOT HTTP AT ALL\r\n\r\n")
        malformed.settimeout(10)
        reply = malformed.recv(2000)
        malformed.close()
        # (uvicorn's h11 writes this answer itself, without the security headers: plain
        # text of its own, nothing a page could frame or a browser sniff into a script)
        assert reply.startswith(b"HTTP/1.1 400 ") and b"text/plain" in reply
    no_tracebacks(server)


def test_live_feeds_are_capped_per_client(tmp_path: Path, database_url: str) -> None:
    with serving(tmp_path, database_url, "--max-connections-per-client", "20") as server:
        game = server.post("/api/games", {"players": [{"name": "Ann"}]}).json()
        url = f"ws://127.0.0.1:{server.port}/api/games/{game['id']}/live"
        with contextlib.ExitStack() as feeds:
            for _ in range(20):
                feeds.enter_context(connect(url, open_timeout=10)).recv(timeout=10)
            extra = httpx.get(f"{server.url}/api/presets")
            assert extra.status_code == 429 and "live feeds" in extra.json()["detail"]
        time.sleep(0.3)
        assert httpx.get(f"{server.url}/api/presets").status_code == 200
    no_tracebacks(server)


def test_a_spoofed_forwarded_address_gets_no_fresh_rate_limit(
        tmp_path: Path, database_url: str) -> None:
    """X-Forwarded-For from 127.0.0.1 was believed: a new address at every request."""
    def statuses(server: Server) -> list[int]:
        with httpx.Client(base_url=server.url) as client:
            return [client.get("/api/invites/AAAAA-AAAAA",
                               headers={"X-Forwarded-For": f"198.51.100.{i % 250}"}
                               ).status_code for i in range(60)]

    with serving(tmp_path, database_url, rate_limit=5.0) as server:
        assert 429 in statuses(server)
    with serving(tmp_path, database_url, "--trusted-proxies", "127.0.0.1",
                 rate_limit=5.0) as server:        # behind a proxy that sets it: believed
        assert 429 not in statuses(server)


def test_invites_cannot_be_guessed_at_speed(tmp_path: Path, database_url: str) -> None:
    with serving(tmp_path, database_url) as server:
        state = server.post("/api/games", {"players": [{"name": "Ann"},
                                                       {"name": "Friend", "kind": "open"}]})
        code = state.json()["invites"][0]["code"]
        assert len(code) == 10
        started = time.monotonic()
        guesses = [server.get(f"/api/invites/{i:05d}ZZZZZ").status_code for i in range(10)]
        right = server.get(f"/api/invites/{code}").status_code
        if time.monotonic() - started < 0.9:  # less than one guess earned back since
            assert right == 429               # even a right one, while the client waits
        guesses += [server.get(f"/api/invites/{i:05d}ZZZZZ").status_code
                    for i in range(10, 30)]
        elapsed = time.monotonic() - started
        assert guesses[:10] == [404] * 10     # a burst of ten, then one a second at most
        assert guesses.count(404) <= 10 + elapsed + 1 and 429 in guesses
        time.sleep(2.1)                       # until the client may ask again
        found = server.get(f"/api/invites/{code[:5].lower()}-{code[5:]}")
        assert found.status_code == 200 and found.json()["code"] == code
    no_tracebacks(server)


CONTROLS = ["Ann\x00", "Ann\n", "Ann\x1b[2J", "A\u202enn", "\u200b"]
"""Names with a control character, an escape sequence, a bidirectional override, or nothing
visible."""


def test_control_characters_are_refused_on_both_databases(
        tmp_path: Path, database_url: str) -> None:
    with serving(tmp_path, database_url) as server:
        state = server.post("/api/games", {"players": [{"name": "Ann"},
                                                       {"name": "F", "kind": "open"}]}).json()
        invite = state["invites"][0]["code"]
        for name in CONTROLS:
            created = server.post("/api/games", {"players": [{"name": name}]})
            assert created.status_code == 400, (name, created.text)
            joined = server.post(f"/api/games/{state['id']}/join",
                                 {"invite": invite, "name": name})
            assert joined.status_code == 400, (name, joined.text)
            assert httpx.get(f"{server.url}/api/stats", params={"player": name},
                             verify=PLAIN).status_code == 400, name
        for path in ["/api/games/%00", f"/api/games/{state['id'][:-1]}%00",
                     f"/api/games/{state['id']}%00/hint", "/api/players/%00/stats"]:
            assert server.get(path).status_code in (400, 404), path
        same = server.post(f"/api/games/{state['id']}/join",
                           {"invite": invite, "name": "Ann\u200b"})
        assert same.status_code == 400 and "already playing" in same.json()["detail"]
        full_width = server.post("/api/games", {"players": [{"name": "Ａｎｎ"}]})
        assert full_width.json()["players"][0]["name"] == "Ann"
    no_tracebacks(server)


def test_many_seat_tokens_are_refused(tmp_path: Path, database_url: str) -> None:
    with serving(tmp_path, database_url) as server:
        tokens = ",".join(f"unknown-token-{i}" for i in range(200))
        answer = httpx.get(f"{server.url}/api/games", headers={"X-Seat-Tokens": tokens})
        assert answer.status_code == 400 and "at most 20" in answer.json()["detail"]
        twenty = ",".join(f"unknown-token-{i}" for i in range(20))
        assert httpx.get(f"{server.url}/api/games",
                         headers={"X-Seat-Tokens": twenty}).json() == []
    no_tracebacks(server)


def test_a_live_feed_is_refused_to_a_page_of_another_site(
        tmp_path: Path, database_url: str) -> None:
    with serving(tmp_path, database_url) as server:
        game = server.post("/api/games", {"players": [{"name": "Ann"}]}).json()
        url = f"ws://127.0.0.1:{server.port}/api/games/{game['id']}/live"
        with pytest.raises(InvalidStatus) as refused:
            connect(url, origin=Origin("https://evil.example"), open_timeout=10)
        assert refused.value.response.status_code == 403
        with connect(url, origin=Origin(f"http://127.0.0.1:{server.port}"),
                     open_timeout=10) as live:
            assert '"type": "state"' in str(live.recv(timeout=10))
        with connect(url, open_timeout=10) as live:      # not a browser: no Origin
            live.recv(timeout=10)
        for _ in range(20):                     # clients that leave in the middle of a send
            with connect(url, open_timeout=10) as live:
                pass
        time.sleep(0.5)
    no_tracebacks(server)


def test_a_process_near_its_file_descriptors_refuses_cleanly(
        tmp_path: Path, database_url: str) -> None:
    """Started with 256 file descriptors (``prlimit``), the server answers at most three
    quarters of them as connections (503 beyond, uvicorn's ``limit_concurrency``), writes
    a line now and then, not a traceback per failed accept, when it has none left, and
    answers again once they close (a flood of 21,000 used to lock every client out)."""
    if shutil.which("prlimit") is None:
        pytest.skip("prlimit (util-linux) is not installed")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = ["prlimit", "--nofile=256:256", "--", sys.executable, "-m", "shutthebox",
               "serve", "--port", str(port), "--rate-limit", "0",
               "--max-connections-per-client", "0", "--database-url", database_url,
               "--log-level", "warning"]
    log = tmp_path / "limited.log"
    with log.open("wb") as out:
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=out,
                                   env={**os.environ, "SHUTTHEBOX_HOME": str(tmp_path)})
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/api/presets", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.2)
        held = []
        for _ in range(400):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(b"GET /api/presets HTTP/1.1\r\nHost: 127.0.0.1\r\n")   # never ends
            held.append(s)
        time.sleep(1.0)
        with pytest.raises(httpx.HTTPError):    # none left for another
            httpx.get(f"{url}/api/presets", timeout=2)
        for s in held:
            s.close()
        time.sleep(0.5)
        assert httpx.get(f"{url}/api/presets", timeout=10).status_code == 200
    finally:
        process.terminate()
        process.wait(timeout=15)
    text = log.read_text(errors="replace")
    assert "Traceback" not in text and len(text.splitlines()) < 10, text[-3000:]
