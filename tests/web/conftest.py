"""The fixtures of the web tests: a database on SQLite and on PostgreSQL (each test that asks
for one runs on both; PostgreSQL's run is skipped, saying so, when it does not answer on
127.0.0.1:5432), the solver workers a module's servers share, and the API's test client on
them. The page's browser fixtures are in ``page/conftest.py`` and ``tests/conftest.py``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from shutthebox.web import create_app
from shutthebox.web.api.checks import RateLimits
from shutthebox.web.solving.workers import SolverPool
from tests.web.client import HOSTS
from tests.web.webserver import database


@pytest.fixture(scope="module")
def pool() -> Iterator[SolverPool]:
    shared = SolverPool()
    yield shared
    shared.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path) as url:
        yield url


@pytest.fixture
def client(database_url: str, pool: SolverPool) -> Iterator[TestClient]:
    app = create_app(database_url, allowed_hosts=HOSTS, computer_delay=0,
                     limits=RateLimits(0, 0), pool=pool)
    with TestClient(app) as running:
        yield running
