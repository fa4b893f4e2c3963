"""`shutthebox health` (cli/health.py): exit status 1 and one line while no server is
ready at the address, 0 and the /readyz answer once one is."""

from __future__ import annotations

from pathlib import Path

import pytest

from shutthebox.cli import main
from tests.web.webserver import Server, free_port


def test_health_is_1_without_a_ready_server_and_0_with_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    port = free_port()
    monkeypatch.setenv("SHUTTHEBOX_PORT", str(port))
    with pytest.raises(SystemExit) as stopped:
        main(["health"])
    out = capsys.readouterr().out
    assert stopped.value.code == 1 and out.startswith(f"not ready: http://127.0.0.1:{port}/")
    server = Server(tmp_path).start()
    try:
        main(["health", "--url", server.url, "--wait", "10"])
        assert '"database":{"ok":true' in capsys.readouterr().out
    finally:
        server.stop()
