"""The attacks that the manual's nginx (``deploy/nginx.conf``, this very file) stops before
they reach the server: slow request heads, oversized heads, slow bodies, and connections
held per client. A real nginx (Debian's, at /usr/sbin/nginx; skipped without it) in front
of a real `shutthebox serve` on 127.0.0.1."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from tests.web.webserver import Server, free_port

CONFIGURATION = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


@contextlib.contextmanager
def nginx_in_front(folder: Path, server_port: int, per_client: int = 256
                   ) -> Iterator[int]:
    """nginx with the shipped configuration (its ports and per-client limit changed) on a
    free port, in front of the server's: that port."""
    if not os.access(NGINX, os.X_OK):
        pytest.skip("nginx is not installed (apt-get install nginx)")
    port = free_port()
    shipped = CONFIGURATION.read_text()
    site = (shipped.replace("listen 80;", f"listen 127.0.0.1:{port};")
            .replace("server 127.0.0.1:8000;", f"server 127.0.0.1:{server_port};")
            .replace("shutthebox_connections 256;", f"shutthebox_connections {per_client};"))
    assert site.count(str(port)) == 1 and site.count(str(server_port)) == 1
    (folder / "site.conf").write_text(site)
    (folder / "nginx.conf").write_text(
        f"daemon off; worker_processes 1; pid {folder}/nginx.pid;\n"
        f"error_log {folder}/error.log warn;\n"
        "events { worker_connections 4096; }\n"
        f"http {{ access_log off; client_body_temp_path {folder}/body;\n"
        f"  proxy_temp_path {folder}/proxy; fastcgi_temp_path {folder}/fastcgi;\n"
        f"  uwsgi_temp_path {folder}/uwsgi; scgi_temp_path {folder}/scgi;\n"
        f"  include {folder}/site.conf; }}\n")
    process = subprocess.Popen([NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert process.poll() is None, process.stderr.read() if process.stderr else ""
                assert time.monotonic() < deadline
                time.sleep(0.05)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[tuple[Server, int]]:
    server = Server(tmp_path, extra=("--trusted-proxies", "127.0.0.1", "--http", "httptools",
                                     "--max-connections-per-client", "0")).start()
    try:
        (tmp_path / "nginx").mkdir()
        with nginx_in_front(tmp_path / "nginx", server.port, per_client=20) as port:
            yield server, port
    finally:
        server.stop()


def test_slow_heads_are_cut_off_and_others_are_answered_meanwhile(
        proxied: tuple[Server, int]) -> None:
    """Slowloris: 300 connections that send a header line now and then and never finish."""
    _server, port = proxied
    sockets = []
    for _ in range(300):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(b"GET /api/presets HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        sockets.append(s)
    started = time.monotonic()
    answered = []
    with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2")) as other:
        while time.monotonic() - started < 3:
            for s in sockets[:50]:
                with contextlib.suppress(OSError):
                    s.sendall(b"X-Slow: 1\r\n")
            answered.append(other.get(f"http://127.0.0.1:{port}/api/presets").status_code)
            time.sleep(0.2)
    assert set(answered) == {200}
    for s in sockets:
        s.settimeout(10)
        with contextlib.suppress(OSError):
            while s.recv(4096):
                pass                    # until nginx closes it (after 5 s of head)
        s.close()
    assert time.monotonic() - started < 12


def test_an_oversized_head_is_refused(proxied: tuple[Server, int]) -> None:
    _server, port = proxied
    huge = httpx.get(f"http://127.0.0.1:{port}/api/presets", headers={"X-Big": "a" * 20_000})
    assert huge.status_code == 400
    assert httpx.get(f"http://127.0.0.1:{port}/api/presets").status_code == 200


def test_a_slow_body_is_refused(proxied: tuple[Server, int]) -> None:
    _server, port = proxied
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                  b"application/json\r\nContent-Length: 100\r\n\r\n{")
        s.settimeout(20)
        started = time.monotonic()
        try:
            reply = s.recv(100)
        except ConnectionResetError:
            reply = b"reset"                # (reset_timedout_connection)
    assert reply[:12] in (b"HTTP/1.1 408", b"", b"reset")
    assert 9 < time.monotonic() - started < 15


def test_connections_are_capped_per_client(proxied: tuple[Server, int]) -> None:
    """Live feeds held open count against their client (20 here, 256 as shipped)."""
    server, port = proxied
    game = server.post("/api/games", {"players": [{"name": "Ann"}]}).json()
    url = f"ws://127.0.0.1:{port}/api/games/{game['id']}/live"
    with contextlib.ExitStack() as feeds:
        for _ in range(20):
            feed: ClientConnection = feeds.enter_context(connect(url, open_timeout=10))
            feed.recv(timeout=10)
        assert httpx.get(f"http://127.0.0.1:{port}/api/presets").status_code == 429
        other = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"))
        assert other.get(f"http://127.0.0.1:{port}/api/presets").status_code == 200
        other.close()
    time.sleep(0.3)
    assert httpx.get(f"http://127.0.0.1:{port}/api/presets").status_code == 200
