"""The checks every request passes: its body's size and type, the security headers of every
answer, the hosts served and the rate limits.

Every test here runs twice: on SQLite and on a fresh PostgreSQL schema (skipped, saying so,
when PostgreSQL does not answer on 127.0.0.1:5432).
"""

from __future__ import annotations

from fastapi.testclient import TestClient

from shutthebox.web import create_app
from shutthebox.web.api.checks import RateLimits
from shutthebox.web.solving.workers import SolverPool
from tests.web.client import HOSTS, bearer, new_game


def test_bodies_over_64_kib_and_bodies_that_are_not_json_are_refused(client: TestClient) -> None:
    big = client.post("/api/games", content=b" " * (65 * 1024),
                      headers={"Content-Type": "application/json"})
    assert big.status_code == 413 and "64 KiB" in big.json()["detail"]
    state = new_game(client, players=[{"name": "Ann"}])
    form = client.post(f"/api/games/{state['id']}/roll", data={"event": "0"},
                       headers=bearer(state["tokens"]["0"]))
    assert form.status_code == 415
    shape = client.post("/api/games", json={"players": "Ann"})
    assert shape.status_code == 422 and "players" in shape.json()["detail"]


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    for response in (client.get("/"), client.get("/api/presets"), client.get("/api/games/x"),
                     client.get("/docs")):
        csp = response.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert "unsafe-inline" not in csp
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"]
    docs = client.get("/docs").text
    assert "cdn" not in docs.lower() and "/docs-assets/swagger/swagger-ui-bundle.js" in docs
    assert client.get("/docs-assets/swagger/swagger-ui-bundle.js").status_code == 200


def test_unknown_hosts_are_refused(database_url: str, pool: SolverPool) -> None:
    app = create_app(database_url, pool=pool)   # default: the loopback names only
    with TestClient(app, base_url="http://evil.example") as evil:
        refused = evil.get("/api/presets")
        assert refused.status_code == 400 and "evil.example" in refused.json()["detail"]
    with TestClient(app, base_url="http://127.0.0.1:8000") as local:
        assert local.get("/api/presets").status_code == 200


def test_a_client_sending_too_many_requests_gets_429_with_retry_after(
        database_url: str, pool: SolverPool) -> None:
    # (one request a second after a burst of three: the eight refill none unless they
    # take five seconds, however busy the machine; at five a second they needed 0.6 s)
    app = create_app(database_url, allowed_hosts=HOSTS, limits=RateLimits(1, 1, burst=3),
                     pool=pool)
    with TestClient(app) as client:
        answers = [client.get("/api/presets") for _ in range(8)]
        refused = [a for a in answers if a.status_code == 429]
        assert refused and int(refused[0].headers["retry-after"]) >= 1
        assert "too many requests" in refused[0].json()["detail"]
