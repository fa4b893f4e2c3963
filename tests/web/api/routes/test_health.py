"""The health checks (web/api/routes/health.py): /healthz answers while the process does,
/readyz checks the database (answering, at the code's revision) and the solver workers;
neither is rate-limited nor needs a known Host. PostgreSQL made unreachable is a proxy in
front of it cut (the shared PostgreSQL itself keeps running), a solver worker is killed
with SIGKILL."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from shutthebox import __version__
from shutthebox.web import create_app
from shutthebox.web.api.checks import RateLimits
from shutthebox.web.solving.workers import SolverPool
from shutthebox.web.storage.revisions import code_revision
from tests.web.client import HOSTS
from tests.web.webserver import POSTGRES, Proxy, database


def until(done: Callable[[], bool], seconds: float = 15) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_healthz_and_readyz_answer_for_any_host_and_say_the_version(
        client: TestClient) -> None:
    for host in ("testserver", "10.0.0.7:8000", "nobody.example"):
        alive = client.get("/healthz", headers={"Host": host})
        assert alive.status_code == 200 and alive.json() == {"status": "ok",
                                                             "version": __version__}
        ready = client.get("/readyz", headers={"Host": host})
        assert ready.status_code == 200, ready.text
        checks = ready.json()["checks"]
        assert checks["database"]["ok"] and checks["solver"] == {"ok": True}
    assert client.get("/api/presets", headers={"Host": "nobody.example"}).status_code == 400


def test_health_checks_are_never_rate_limited(database_url: str, pool: SolverPool) -> None:
    app = create_app(database_url, allowed_hosts=HOSTS, limits=RateLimits(1, 1), pool=pool,
                     open_per_client=1)
    with TestClient(app) as client:
        answers = [client.get(path).status_code for _ in range(30)
                   for path in ("/healthz", "/readyz")]
        assert answers == [200] * 60
        assert 429 in {client.get("/api/presets").status_code for _ in range(5)}


def test_readyz_is_503_while_the_database_is_behind_the_code(database_url: str,
                                                              client: TestClient) -> None:
    engine = create_engine(database_url.replace("postgresql://", "postgresql+psycopg://"))
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '0003'"))
    engine.dispose()
    ready = client.get("/readyz")
    assert ready.status_code == 503
    assert ready.json()["checks"]["database"] == {"ok": False, "revision": "0003",
                                                  "expected": code_revision()}
    assert client.get("/healthz").status_code == 200


def test_readyz_is_503_while_postgresql_does_not_answer(tmp_path: Path,
                                                        pool: SolverPool) -> None:
    with database("postgresql", tmp_path) as url:
        port = int(POSTGRES.rsplit(":", 1)[1].split("/")[0])
        proxy = Proxy(port).start()
        proxied = url.replace(f":{port}/", f":{proxy.port}/")
        app = create_app(proxied, allowed_hosts=HOSTS, pool=pool)
        with TestClient(app) as client:
            assert client.get("/readyz").status_code == 200
            proxy.stop()
            ready = client.get("/readyz")
            assert ready.status_code == 503, ready.text
            body = ready.json()
            assert body["status"] == "unavailable" and not body["checks"]["database"]["ok"]
            assert body["checks"]["solver"] == {"ok": True}
            assert client.get("/healthz").status_code == 200


def test_readyz_is_503_while_a_solver_worker_is_dead_then_200_once_replaced(
        tmp_path: Path) -> None:
    own = SolverPool()
    try:
        app = create_app(f"sqlite:///{tmp_path / 'games.sqlite'}", allowed_hosts=HOSTS,
                         pool=own)
        with TestClient(app) as client:
            assert client.get("/readyz").status_code == 200
            # A worker that dies idle is replaced within half a second, and one that dies
            # again soon after its start after a pause that doubles (1, 2, 4 s): killed
            # again until a poll sees the gap, however busy the machine.
            answer = None
            for _ in range(4):
                worker = asyncio.run(own.run(os.getpid))
                os.kill(worker, signal.SIGKILL)
                deadline = time.monotonic() + 5
                while time.monotonic() < deadline:
                    answer = client.get("/readyz")
                    if answer.status_code == 503:
                        break
                    time.sleep(0.02)
                if answer is not None and answer.status_code == 503:
                    break
            assert answer is not None and answer.status_code == 503
            assert answer.json()["checks"]["solver"] == {"ok": False}
            until(lambda: client.get("/readyz").status_code == 200)
    finally:
        own.close()
