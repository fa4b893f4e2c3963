"""The server's log (web/logs.py, web/api/watching.py) as a host reads it: a real
`shutthebox serve` plays a whole game with a friend (an invite, a seat handed to the
computer, to its end) on each database, and its stderr is read."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from shutthebox.web.logs import LineFormatter, masked_path
from tests.web.webserver import Server, database, play

Played = tuple[list[dict[str, Any]], str, list[str], str]


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[Played]:
    """The log's JSON lines, its text, every secret the game used and the game's id."""
    folder = tmp_path_factory.mktemp("logs")
    with database(request.param, folder) as url:
        server = Server(folder, database_url=url, extra=("--log-format", "json",
                                                                "--log-level", "info")).start()
        try:
            created = server.post("/api/games", {
                "players": [{"name": "Ann"}, {"name": "Bo", "kind": "open"}],
                "rules": {"tiles": 6}, "clock": 300})
            assert created.status_code == 201, created.text
            state = created.json()
            code = state["invites"][0]["code"]
            tokens = {"0": state["tokens"]["0"]}
            assert server.get(f"/api/invites/{code}").status_code == 200
            assert server.get(f"/join/{code}").status_code == 200
            joined = server.post(f"/api/games/{state['id']}/join",
                                 {"invite": code, "name": "Bo"})
            assert joined.status_code == 200, joined.text
            tokens["1"] = joined.json()["token"]
            assert server.get(f"/api/games/{state['id']}", token=tokens["1"]).is_success
            handed = server.post(f"/api/games/{state['id']}/table/hand", {"seat": 1},
                                 token=tokens["0"])
            assert handed.status_code == 200, handed.text
            assert play(server, handed.json(), tokens)["status"] == "over"
        finally:
            server.stop()
        text = server.log.read_text()
    lines = [json.loads(line) for line in text.splitlines() if line.startswith("{")]
    yield lines, text, [code, *tokens.values()], state["id"]


def test_a_whole_game_s_log_holds_none_of_its_tokens_or_invites(played: Played) -> None:
    _lines, text, secrets, game_id = played
    assert game_id in text
    for secret in secrets:
        assert secret not in text


def test_each_request_is_a_line_with_method_masked_path_status_time_and_address(
        played: Played) -> None:
    lines, _text, _secrets, game_id = played
    requests = [line for line in lines if line["logger"] == "shutthebox.access"]
    paths = {(line["method"], line["path"], line["status"]) for line in requests}
    assert ("GET", "/api/invites/***", 200) in paths
    assert ("GET", "/join/***", 200) in paths
    assert ("POST", f"/api/games/{game_id}/join", 200) in paths
    assert ("POST", "/api/games", 201) in paths
    assert all(line["client"] == "127.0.0.1" and line["ms"] >= 0 for line in requests)


def test_game_events_of_note_are_each_a_line(played: Played) -> None:
    lines, _text, _secrets, game_id = played
    events = [line["message"] for line in lines
              if line["logger"] == "shutthebox.games" and line.get("game") == game_id]
    assert events == ["game created", "seat joined", "seat handed to the computer",
                      "game finished"]


def test_without_the_access_log_and_at_warning_only_warnings_are_written(
        tmp_path: Path) -> None:
    server = Server(tmp_path, extra=("--no-access-log", "--log-level", "warning")).start()
    try:
        assert httpx.get(f"{server.url}/api/games/{'0' * 32}").status_code == 404
        assert server.post("/api/games", {"players": [{"name": "Ann"}]}).status_code == 201
    finally:
        server.stop()
    text = server.log.read_text()
    assert "shutthebox.access" not in text and "game created" not in text
    assert "INFO" not in text


def test_a_text_line_carries_its_fields_and_a_json_line_is_one_object() -> None:
    record = logging.LogRecord("shutthebox.access", logging.INFO, __file__, 1, "request",
                               None, None)
    record.fields = {"path": "/x", "status": 200}
    assert LineFormatter().format(record).endswith("INFO shutthebox.access: request "
                                                   "path=/x status=200")
    assert json.loads(LineFormatter("json").format(record))["status"] == 200


@pytest.mark.parametrize(("path", "query", "shown"), [
    ("/join/abc", b"", "/join/***"),
    ("/api/games/" + "f" * 32, b"since=12", "/api/games/" + "f" * 32 + "?since=12"),
    ("/api/whatever/" + "x" * 43, b"", "/api/whatever/***"),
    ("/api/games/x/live", b"token=abc&since=1", "/api/games/x/live?token=***&since=1"),
])
def test_invites_tokens_and_query_values_are_masked(path: str, query: bytes,
                                                    shown: str) -> None:
    assert masked_path(path, query) == shown
