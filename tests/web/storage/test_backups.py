"""Backups taken while friends play, restored into an empty database
(web/storage/backups.py through `shutthebox backup` and `shutthebox restore`): every move
acknowledged before the backup began is in it, and the games go on from the restored
database with the same seat tokens. On SQLite (the online backup API) and PostgreSQL (one
consistent export), and across them."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert

from shutthebox.web.storage import make_engine
from shutthebox.web.storage.backups import backup, counts_in, restore
from shutthebox.web.storage.engine import StorageError
from shutthebox.web.storage.schema import GAMES
from tests.web.webserver import Server, database, play


def shutthebox(home: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "shutthebox", *arguments],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "SHUTTHEBOX_HOME": str(home)})


def new_game(server: Server) -> tuple[dict[str, Any], dict[str, str]]:
    created = server.post("/api/games", {"players": [{"name": "Ann"}, {"name": "Bo"}],
                                         "rules": {"tiles": 6}})
    assert created.status_code == 201, created.text
    state = created.json()
    return state, {str(seat): token for seat, token in state["tokens"].items()}


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_backup_taken_during_play_restores_every_acknowledged_move(
        kind: str, tmp_path: Path) -> None:
    with database(kind, tmp_path) as url, database(kind, tmp_path) as fresh:
        server = Server(tmp_path, database_url=url).start()
        try:
            games = [new_game(server) for _ in range(2)]
            acknowledged = {state["id"]: play(server, state, tokens, moves=3)["event_count"]
                            for state, tokens in games}
            busy, stop = games[0], threading.Event()

            def keep_playing() -> None:
                state = server.get(f"/api/games/{busy[0]['id']}").json()
                while not stop.is_set() and state["status"] != "over":
                    state = play(server, state, busy[1], moves=1)

            player = threading.Thread(target=keep_playing)
            player.start()
            try:
                made = shutthebox(tmp_path, "backup", str(tmp_path / "games.backup"),
                                  "--database-url", url)
            finally:
                stop.set()
                player.join()
            assert made.returncode == 0 and "2 games" in made.stdout, made.stderr
        finally:
            server.stop()
        back = shutthebox(tmp_path, "restore", str(tmp_path / "games.backup"),
                          "--database-url", fresh)
        assert back.returncode == 0 and "2 games" in back.stdout, back.stderr
        again = Server(tmp_path, database_url=fresh).start()
        try:
            for state, tokens in games:
                restored = again.get(f"/api/games/{state['id']}").json()
                assert restored["event_count"] >= acknowledged[state["id"]]
                assert play(again, restored, tokens)["status"] == "over"
        finally:
            again.stop()


def test_a_postgresql_export_restores_into_sqlite_and_back(tmp_path: Path) -> None:
    with database("postgresql", tmp_path) as url, database("postgresql", tmp_path) as other:
        server = Server(tmp_path, database_url=url).start()
        try:
            state, tokens = new_game(server)
            done = play(server, state, tokens)
        finally:
            server.stop()
        export = tmp_path / "games.jsonl.gz"
        assert backup(url, export)["kind"] == "export"
        sqlite = f"sqlite:///{tmp_path / 'from-postgresql.sqlite'}"
        counts = restore(export, sqlite)
        assert counts["games"] == 1 and counts["events"] == done["event_count"]
        copy = tmp_path / "copy.sqlite"
        assert backup(sqlite, copy)["kind"] == "sqlite"
        assert restore(copy, other) == counts == {k: v for k, v in counts_in(copy).items() if v}


def test_a_restore_refuses_a_database_with_games_and_a_file_that_is_no_backup(
        tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite'}"
    engine = make_engine(url)
    with engine.begin() as connection:
        now = datetime.now()
        connection.execute(insert(GAMES).values(id="a" * 32, config={}, seats=[None],
                                                status="over", created=now, updated=now))
    engine.dispose()
    copy = tmp_path / "copy.sqlite"
    backup(url, copy)
    with pytest.raises(StorageError, match="is not empty"):
        restore(copy, url)
    with pytest.raises(StorageError, match="exists already"):
        backup(url, copy)
    (tmp_path / "junk").write_bytes(b"\x1f\x8bnot really gzip")
    (tmp_path / "text").write_text("hello")
    for junk in ("junk", "text"):
        said = shutthebox(tmp_path, "restore", str(tmp_path / junk), "--database-url",
                          f"sqlite:///{tmp_path / 'new.sqlite'}")
        assert said.returncode == 2 and said.stderr.count("\n") == 1, said.stderr
        assert "is not a shutthebox backup" in said.stderr
