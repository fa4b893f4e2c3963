"""The whole API fuzzed from its own description: schemathesis generates requests from the
app's ``/openapi.json`` (bodies, parameters and headers of every shape the description
admits, and of shapes it does not, and sequences of calls that follow the answers' links)
against a real server on 127.0.0.1, on SQLite and on PostgreSQL, bounded in examples and
time. Every answer must be one the description documents, with the body it documents, and
never a 5xx; the server logs no traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.web.webserver import Server

CHECKS = ("not_a_server_error,status_code_conformance,content_type_conformance,"
          "response_schema_conformance,response_headers_conformance")
"""A server error, or an answer the description does not document (its status, its type,
its body or its headers)."""


def test_the_api_fuzzed_from_its_description_answers_as_documented(
        tmp_path: Path, database_url: str) -> None:
    server = Server(tmp_path, database_url=database_url).start()
    report = tmp_path / "report.json"
    try:
        found = subprocess.run(
            [sys.executable, "-m", "schemathesis.cli", "run",
             f"{server.url}/openapi.json", "--checks", CHECKS, "--phases", "fuzzing,stateful",
             "--max-examples", "25", "--max-time", "30", "--workers", "1",
             "--report", "ndjson", "--report-ndjson-path", str(report)],
            capture_output=True, text=True, timeout=300, cwd=tmp_path,
            env={"NO_COLOR": "1", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    finally:
        server.stop()
    summary = found.stdout[found.stdout.rfind("SUMMARY"):]
    print(summary)
    assert found.returncode == 0, found.stdout[-6000:] + found.stderr[-2000:]
    assert "generated" in summary and " passed" in summary
    events = [json.loads(line) for line in report.read_text().splitlines() if line.strip()]
    assert events, "schemathesis reported nothing"
    log = server.log.read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
