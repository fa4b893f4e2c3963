"""`shutthebox admin` (cli/admin.py) on the database a real server uses, on SQLite and
PostgreSQL: the token made, the games listed, one ended, a name renamed and freed (a claimed
one: its player renamed, then set aside and signed out); and the
admin token, used right and wrong against the server's admin view, never in its log."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from tests.web.webserver import Server, database


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_admin_commands_act_on_the_server_s_database_and_the_token_is_never_logged(
        kind: str, tmp_path: Path,
        shutthebox: Callable[..., subprocess.CompletedProcess[str]]) -> None:
    made = shutthebox("admin", "token")
    assert made.returncode == 0, made.stderr
    token = made.stdout.splitlines()[0].rsplit(" ", 1)[1]
    hashed = made.stdout.splitlines()[1].rsplit(" ", 1)[1]
    assert hashed.startswith("sha256:") and token not in hashed
    with database(kind, tmp_path) as url:
        server = Server(tmp_path, database_url=url,
                        extra=("--admin-token", hashed, "--log-level", "debug")).start()
        try:
            created = server.post("/api/games", {"players": [{"name": "Ann"}]})
            game = created.json()["id"]
            for bearer in (token, token + "x", hashed):
                answer = httpx.get(f"{server.url}/api/admin/games?token={token}",
                                   headers={"Authorization": f"Bearer {bearer}"})
                assert answer.status_code == (200 if bearer == token else 403)
            listed = shutthebox("admin", "games", "--json", "--database-url", url)
            assert [g["id"] for g in json.loads(listed.stdout)] == [game], listed.stderr
            ended = shutthebox("admin", "end", game, "--database-url", url)
            assert ended.returncode == 0, ended.stderr
            assert server.get(f"/api/games/{game}").json()["status"] == "over"
            again = shutthebox("admin", "end", game, "--database-url", url)
            assert again.returncode == 2 and again.stderr.count("\n") == 1
            assert "the game is over" in again.stderr
            for command in (["rename", "Nobody", "Eve"], ["free", "Nobody"]):
                said = shutthebox("admin", *command, "--database-url", url)
                assert said.returncode == 2 and "no finished game" in said.stderr
            zed = server.post("/api/players", {"name": "Zed"}).json()["token"]
            renamed = shutthebox("admin", "rename", "zed", "Zeb", "--database-url", url)
            assert renamed.returncode == 0, renamed.stderr
            me = httpx.get(f"{server.url}/api/players/me", headers={"X-Player-Token": zed})
            assert me.json() == {"name": "Zeb"}
            freed = shutthebox("admin", "free", "Zeb", "--database-url", url)
            assert freed.returncode == 0 and "'Zeb (1)'" in freed.stdout, freed.stderr
            me = httpx.get(f"{server.url}/api/players/me", headers={"X-Player-Token": zed})
            assert me.status_code == 401
            assert server.post("/api/players", {"name": "Zeb"}).status_code == 201
        finally:
            server.stop()
    log = server.log.read_text()
    assert "/api/admin/games" in log and token not in log and hashed not in log
