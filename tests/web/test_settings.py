"""The server's settings: every `serve` option from its SHUTTHEBOX_* variable, listed by
--help, an option given winning, and a bad value from either one line with exit status 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from shutthebox.cli import main
from shutthebox.web.settings import ServerSettings, SettingsError, read_settings


def test_every_setting_is_read_from_its_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    values = {"host": "::1", "port": "8123", "database_url": "sqlite:////tmp/x.sqlite",
              "workers": "3", "allowed_hosts": "box.example", "computer_delay": "0",
              "rate_limit": "7", "solver_budget": "5", "trusted_proxies": "10.0.0.1",
              "max_connections": "100", "max_connections_per_client": "9",
              "http": "httptools", "log_level": "debug", "access_log": "False",
              "log_format": "json", "metrics": "True", "metrics_from": "10.0.0.0/8",
              "metrics_token": "sha256:" + "a" * 64, "admin_token": "sha256:" + "b" * 64,
              "admin_from": "192.168.1.0/24"}
    assert set(values) == set(ServerSettings.model_fields)
    for name, value in values.items():
        monkeypatch.setenv(f"SHUTTHEBOX_{name.upper()}", value)
    settings = read_settings()
    assert {name: str(getattr(settings, name)) for name in values} == {
        **values, "computer_delay": "0.0", "rate_limit": "7.0", "solver_budget": "5.0"}
    assert read_settings(port=9000, host=None).port == 9000     # an option given wins
    assert settings.environment()["SHUTTHEBOX_WORKERS"] == "3"


def test_help_lists_every_variable() -> None:
    shown = subprocess.run([sys.executable, "-m", "shutthebox", "serve", "--help"],
                           capture_output=True, text=True, timeout=60,
                           env={**os.environ, "COLUMNS": "200"}).stdout
    for name in ServerSettings.model_fields:
        assert f"SHUTTHEBOX_{name.upper()}" in shown, name


@pytest.mark.parametrize(("variable", "value", "said"), [
    ("SHUTTHEBOX_PORT", "abc", "--port 'abc' (or SHUTTHEBOX_PORT): not a whole number"),
    ("SHUTTHEBOX_WORKERS", "99", "--workers '99' (or SHUTTHEBOX_WORKERS): should be less"),
    ("SHUTTHEBOX_TRUSTED_PROXIES", "nope", "'nope' is not an IP address or network"),
    ("SHUTTHEBOX_HTTP", "h3", "--http 'h3' (or SHUTTHEBOX_HTTP): should be 'h11' or"),
    ("SHUTTHEBOX_ALLOWED_HOSTS", " , ", "name at least one host"),
    ("SHUTTHEBOX_ADMIN_TOKEN", "hunter2", "give the token's hash (sha256:"),
    ("SHUTTHEBOX_METRICS_FROM", "anywhere", "'anywhere' is not an IP address or network"),
    ("SHUTTHEBOX_LOG_FORMAT", "xml", "--log-format 'xml' (or SHUTTHEBOX_LOG_FORMAT)"),
])
def test_a_bad_variable_is_one_line_and_exit_2(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str],
                                               variable: str, value: str, said: str) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(SettingsError, match="serve: "):
        read_settings()
    with pytest.raises(SystemExit) as stopped:
        main(["serve"])
    lines = capsys.readouterr().err.strip().splitlines()
    assert stopped.value.code == 2 and len(lines) == 1 and said in lines[0], lines


def test_the_manual_s_settings_table_has_every_setting() -> None:
    manual = (Path(__file__).resolve().parents[2] / "docs" / "deploying.md").read_text()
    table = manual[manual.index("## Settings"):manual.index("## How it works")]
    for name in ServerSettings.model_fields:
        assert f"| `SHUTTHEBOX_{name.upper()}` |" in table, name
        assert f"`--{name.replace('_', '-')}" in table, name


def test_a_server_stores_its_games_where_shutthebox_database_url_says(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sqlite3
    from contextlib import closing

    from tests.web.webserver import Server

    named = tmp_path / "named.sqlite"
    monkeypatch.setenv("SHUTTHEBOX_DATABASE_URL", f"sqlite:///{named}")
    server = Server(tmp_path).start()
    try:
        game = server.post("/api/games", {"players": [{"name": "Ann"}]}).json()["id"]
    finally:
        server.stop()
    with closing(sqlite3.connect(named)) as stored:
        assert stored.execute("SELECT id FROM games").fetchall() == [(game,)]
    assert not (tmp_path / "shutthebox.sqlite").exists()
