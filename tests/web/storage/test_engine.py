"""The database engine: a database of the last release is migrated and keeps its games, and a
bad database URL never shows its password.

A test with a database runs twice: on SQLite and on a fresh PostgreSQL schema (skipped,
saying so, when PostgreSQL does not answer on 127.0.0.1:5432).
"""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from shutthebox.match import GameFormat, Match, MatchConfig
from shutthebox.rules import Rules
from shutthebox.web import create_app
from shutthebox.web.solving.workers import SolverPool
from shutthebox.web.storage import make_engine, upgrade
from tests.web.client import HOSTS, new_game

OLD_ID = "0123456789abcdef0123456789abcdef"
"""A game id as release 0.1 made them (a UUID's hex)."""


def test_a_database_of_the_last_release_is_migrated_and_its_games_kept(
        database_url: str, pool: SolverPool) -> None:
    old = make_engine(database_url, migrate=False)
    upgrade(old, "0001")
    with old.begin() as connection:   # what release 0.1 stored, without Alembic's table
        connection.execute(text("DROP TABLE alembic_version"))
        match = Match(MatchConfig(Rules(), GameFormat.parse("single"), ("Ann", "Bot")))
        now = "2026-01-01 12:00:00"
        connection.execute(text(
            "INSERT INTO games (id, config, seats, status, event_count, created, updated) "
            "VALUES (:id, :config, :seats, 'playing', :count, :now, :now)"),
            {"id": OLD_ID, "config": json.dumps(match.config.to_dict()),
             "seats": json.dumps([None, "hard"]), "count": len(match.events), "now": now})
        connection.execute(text("INSERT INTO events (game_id, position, data) "
                                "VALUES (:g, :p, :d)"),
                           [{"g": OLD_ID, "p": i, "d": json.dumps(e)}
                            for i, e in enumerate(match.events)])
    old.dispose()
    app = create_app(database_url, allowed_hosts=HOSTS, pool=pool)
    with TestClient(app) as client:
        kept = client.get(f"/api/games/{OLD_ID}").json()
        assert kept["event_count"] == len(match.events)
        assert [s["kind"] for s in kept["seats"]] == ["here", "computer"]
        fresh = new_game(client, players=[{"name": "Ann"}])
        assert fresh["tokens"]
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from shutthebox.web.storage.engine import MIGRATIONS

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    newest = ScriptDirectory.from_config(config).get_current_head()
    check = create_engine(database_url.replace("postgresql://", "postgresql+psycopg://"))
    with check.connect() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")
                                  ).scalar() == newest
    check.dispose()


def test_a_bad_database_url_never_shows_its_password() -> None:
    from shutthebox.web.storage import StorageError

    with pytest.raises(StorageError) as refused:
        make_engine("postgresql://ann:hunter2@127.0.0.1:1/games")
    assert "hunter2" not in str(refused.value) and "***" in str(refused.value)
