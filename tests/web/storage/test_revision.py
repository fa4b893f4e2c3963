"""A database that a newer release migrated (an Alembic revision our migrations do not
name) stops the server with one line naming the revision, exit status 2: never a
migration attempted from it (a 91-line traceback)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from shutthebox.web.storage import StorageError, make_engine
from tests.web.webserver import database, free_port


@pytest.fixture(params=["sqlite", "postgresql"])
def newer_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database stamped with a revision from the future."""
    with database(request.param, tmp_path) as url:
        engine = make_engine(url)
        with engine.begin() as connection:
            connection.execute(text("UPDATE alembic_version SET version_num = '0099_future'"))
        engine.dispose()
        yield url


def test_an_unknown_revision_is_refused_naming_it(newer_database: str) -> None:
    with pytest.raises(StorageError, match="at revision '0099_future', which this version"):
        make_engine(newer_database)


def test_serve_stops_on_an_unknown_revision_in_one_line(newer_database: str,
                                                        tmp_path: Path) -> None:
    finished = subprocess.run(
        [sys.executable, "-m", "shutthebox", "serve", "--port", str(free_port()),
         "--database-url", newer_database], capture_output=True, text=True, timeout=60,
        env={**os.environ, "SHUTTHEBOX_HOME": str(tmp_path)})
    assert finished.returncode == 2
    lines = finished.stderr.strip().splitlines()
    assert len(lines) == 1 and "'0099_future'" in lines[0], finished.stderr
    assert "Traceback" not in finished.stderr
