"""`shutthebox db current` and `shutthebox db upgrade` (cli/db.py) on SQLite and
PostgreSQL: the revision said, a database behind migrated, and one migrated by a newer
version refused in one line (by `serve` too)."""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from shutthebox.web.storage import make_engine
from shutthebox.web.storage.engine import upgrade
from shutthebox.web.storage.revisions import code_revision
from tests.web.webserver import database, free_port


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path) as made:
        yield made


def test_current_says_a_database_is_behind_and_upgrade_migrates_it(
        url: str, shutthebox: Callable[..., subprocess.CompletedProcess[str]]) -> None:
    engine = make_engine(url, migrate=False)
    upgrade(engine, "0003")
    engine.dispose()
    said = shutthebox("db", "current", "--database-url", url)
    status, out, _err = said.returncode, said.stdout, said.stderr
    assert status == 0 and f"revision 0003, behind this version's {code_revision()}" in out
    said = shutthebox("db", "upgrade", "--database-url", url)
    status, out, _err = said.returncode, said.stdout, said.stderr
    assert status == 0 and f"revision 0003 -> {code_revision()}" in out
    said = shutthebox("db", "current", "--database-url", url)
    status, out, _err = said.returncode, said.stdout, said.stderr
    assert status == 0 and f"revision {code_revision()}, this version's" in out


def test_a_database_a_newer_version_migrated_is_refused_in_one_line(
        url: str, shutthebox: Callable[..., subprocess.CompletedProcess[str]]) -> None:
    engine = make_engine(url)
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '0999'"))
    engine.dispose()
    for command in (["db", "current"], ["db", "upgrade"], ["serve", "--port", str(free_port())]):
        said = shutthebox(*command, "--database-url", url)
        status, out, err = said.returncode, said.stdout, said.stderr
        assert status == 2 and out == "" and err.count("\n") == 1, (command, err)
        assert "at revision '0999', which this version of shutthebox does not know" in err


def test_current_on_a_database_without_games_says_so(
        tmp_path: Path, shutthebox: Callable[..., subprocess.CompletedProcess[str]]) -> None:
    said = shutthebox("db", "current", "--database-url", f"sqlite:///{tmp_path / 'none.sqlite'}")
    status, _out, err = said.returncode, said.stdout, said.stderr
    assert status == 2 and "holds no shutthebox database" in err and err.count("\n") == 1
