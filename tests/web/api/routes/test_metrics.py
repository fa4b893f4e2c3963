"""/metrics (web/api/routes/metrics.py, web/metrics.py): off unless turned on; then the
figures of every process of `shutthebox serve --workers 2` added up (prometheus_client's
multiprocess mode), for the addresses named or the token, and refused to anyone else (a
client the trusted proxy says is elsewhere)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from shutthebox.web.settings import hash_token, new_token
from tests.web.webserver import Server, database, play

TOKEN = new_token()
ELSEWHERE = {"X-Forwarded-For": "203.0.113.9"}


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("metrics")
    with database(request.param, folder) as url:
        running = Server(folder, workers=2, database_url=url, extra=(
            "--metrics", "--metrics-token", hash_token(TOKEN),
            "--trusted-proxies", "127.0.0.1", "--log-level", "debug")).start()
        try:
            yield running
        finally:
            running.stop()


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(text) for sample in family.samples}


def scrape(server: Server, **headers: Any) -> httpx.Response:
    return httpx.get(f"{server.url}/metrics", headers=headers, timeout=30)


def test_metrics_are_off_unless_turned_on(client: TestClient) -> None:
    assert client.get("/metrics").status_code == 404


def test_every_process_s_requests_are_counted_once(server: Server) -> None:
    before = samples(scrape(server).text)
    key = ("shutthebox_requests_total",
           (("method", "GET"), ("route", "/api/presets"), ("status", "200")))
    for _ in range(20):     # over new connections: both processes answer some
        assert httpx.get(f"{server.url}/api/presets").status_code == 200
    after = samples(scrape(server).text)
    assert after[key] - before.get(key, 0) == 20
    latency = ("shutthebox_request_seconds_count", (("route", "/api/presets"),))
    assert after[latency] - before.get(latency, 0) == 20


def test_games_moves_and_refusals_are_counted(server: Server) -> None:
    before = samples(scrape(server).text)
    created = server.post("/api/games", {"players": [{"name": "Ann"}], "rules": {"tiles": 4}})
    state = play(server, created.json(), {"0": created.json()["tokens"]["0"]})
    assert state["status"] == "over"
    assert server.post(f"/api/games/{state['id']}/roll", {"event": 0}).status_code == 401
    after = samples(scrape(server).text)
    assert after[("shutthebox_games", (("status", "over"),))] >= 1
    moved = ("shutthebox_moves_stored_total", ())
    assert 0 < after[moved] - before.get(moved, 0) <= state["event_count"]
    refused = ("shutthebox_refusals_total", (("reason", "no-token"),))
    assert after[refused] - before.get(refused, 0) == 1
    for name in ("shutthebox_live_feeds", "shutthebox_solver_queue",
                 "shutthebox_database_errors_total"):
        assert (name, ()) in after


def test_metrics_are_refused_elsewhere_without_the_token(server: Server) -> None:
    assert scrape(server).status_code == 200                 # from this machine
    assert scrape(server, **ELSEWHERE).status_code == 403
    for wrong in ("x", TOKEN[:-1], hash_token(TOKEN), TOKEN + "x"):
        assert scrape(server, Authorization=f"Bearer {wrong}", **ELSEWHERE).status_code == 403
    allowed = scrape(server, Authorization=f"Bearer {TOKEN}", **ELSEWHERE)
    assert allowed.status_code == 200 and "shutthebox_requests_total" in allowed.text
    assert allowed.headers["content-type"].startswith("text/plain")
    assert TOKEN not in server.log.read_text()
