"""The manual's nginx site with TLS (``deploy/nginx-tls.conf``, this very file, its ports
and certificate changed) in front of two `shutthebox serve` processes on one PostgreSQL
database, with a self-signed certificate: plain HTTP is sent to HTTPS, a game is played
over HTTPS whichever process answers, a live feed over WSS hears the moves, and the servers
believe the forwarded scheme. Skipped without nginx, openssl or PostgreSQL."""

from __future__ import annotations

import json
import os
import shutil
import socket
import ssl
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import InvalidMessage
from websockets.sync.client import ClientConnection, connect

from tests.web.webserver import Server, database, free_port

SITE = Path(__file__).resolve().parents[2] / "deploy" / "nginx-tls.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
OPENSSL = shutil.which("openssl")
HOST = "localhost"


def self_signed(folder: Path) -> tuple[Path, Path]:
    if OPENSSL is None:
        pytest.skip("openssl is not installed")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run([OPENSSL, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-keyout", str(key), "-out", str(cert), "-subj", f"/CN={HOST}",
                    "-addext", f"subjectAltName=DNS:{HOST}"],
                   check=True, capture_output=True, timeout=60)
    return cert, key


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, int, Path]]:
    """nginx's plain and TLS ports, and the certificate to trust."""
    if not os.access(NGINX, os.X_OK):
        pytest.skip("nginx is not installed (apt-get install nginx)")
    folder = tmp_path_factory.mktemp("tls")
    cert, key = self_signed(folder)
    with database("postgresql", folder) as url:
        servers: list[Server] = []
        process = None
        try:
            for name in ("one", "two"):
                (folder / name).mkdir()
                servers.append(Server(folder / name, database_url=url, extra=(
                    "--trusted-proxies", "127.0.0.1",
                    "--allowed-hosts", f"{HOST},127.0.0.1")).start())
            plain, secure = free_port(), free_port()
            shipped = SITE.read_text()
            config = (shipped.replace("listen 80;", f"listen 127.0.0.1:{plain};")
                      .replace("listen 443 ssl", f"listen 127.0.0.1:{secure} ssl")
                      .replace("server 127.0.0.1:8000 ", f"server 127.0.0.1:{servers[0].port} ")
                      .replace("server 127.0.0.1:8001 ", f"server 127.0.0.1:{servers[1].port} ")
                      .replace("/etc/letsencrypt/live/box.example.org/fullchain.pem", str(cert))
                      .replace("/etc/letsencrypt/live/box.example.org/privkey.pem", str(key))
                      .replace("box.example.org", HOST))
            assert all(config.count(str(s.port)) == 1 for s in servers)
            (folder / "site.conf").write_text(config)
            (folder / "nginx.conf").write_text(
                f"daemon off; worker_processes 1; pid {folder}/nginx.pid;\n"
                f"error_log {folder}/error.log info;\n"     # (info: a client's time-out)
                "events { worker_connections 1024; }\n"
                f"http {{ access_log off; client_body_temp_path {folder}/body;\n"
                f"  proxy_temp_path {folder}/proxy; fastcgi_temp_path {folder}/fastcgi;\n"
                f"  uwsgi_temp_path {folder}/uwsgi; scgi_temp_path {folder}/scgi;\n"
                f"  include {folder}/site.conf; }}\n")
            process = subprocess.Popen([NGINX, "-p", str(folder), "-c",
                                        str(folder / "nginx.conf")],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            deadline = time.monotonic() + 10
            while True:
                try:
                    socket.create_connection(("127.0.0.1", secure), timeout=1).close()
                    break
                except OSError:
                    assert process.poll() is None, process.stderr.read() \
                        if process.stderr else ""
                    assert time.monotonic() < deadline
                    time.sleep(0.05)
            yield plain, secure, cert
        finally:
            if process is not None:
                process.terminate()
                process.wait(timeout=10)
            for server in servers:
                server.stop()


def open_feed(url: str, cert: Path) -> ClientConnection:
    """A live feed over WSS through the site. The site closes, without a word, a connection
    whose request has not come in full 5 s after it opened (`client_header_timeout`, against
    slow clients): on a machine loaded by the rest of the suite this test's own client can
    be that slow, which nginx's log then says. One more try then; any other failure is the
    site's or the servers', and is reported with nginx's log."""
    log = cert.parent / "error.log"
    context = ssl.create_default_context(cafile=str(cert))
    before = log.read_text().count("client timed out")
    try:
        return connect(url, ssl=context, open_timeout=10)
    except InvalidMessage as error:
        if log.read_text().count("client timed out") == before:
            raise AssertionError(f"no live feed over WSS: {error}\n{log.read_text()}") \
                from error
    return connect(url, ssl=context, open_timeout=10)       # (once more: we were slow)


def test_plain_http_is_sent_to_https(site: tuple[int, int, Path]) -> None:
    plain, _secure, _cert = site
    answer = httpx.get(f"http://{HOST}:{plain}/games/x", follow_redirects=False)
    assert answer.status_code == 301
    assert answer.headers["location"].startswith(f"https://{HOST}")


def test_a_game_over_https_and_wss_through_both_processes(
        site: tuple[int, int, Path]) -> None:
    _plain, secure, cert = site
    base = f"https://{HOST}:{secure}"
    with httpx.Client(verify=ssl.create_default_context(cafile=str(cert)),
                      timeout=30) as client:
        ready = client.get(f"{base}/readyz")
        assert ready.status_code == 200 and ready.json()["checks"]["database"]["ok"]
        assert "max-age" in ready.headers["strict-transport-security"]
        created = client.post(f"{base}/api/games", json={
            "players": [{"name": "Ann"}, {"name": "Bo", "kind": "open"}],
            "rules": {"tiles": 4}})
        assert created.status_code == 201, created.text
        game = created.json()
        code = game["invites"][0]["code"]
        qr = client.get(f"{base}/api/invites/{code}/qr.svg")
        assert f"Join link https://{HOST}" in qr.text     # the forwarded scheme believed
        url = f"wss://{HOST}:{secure}/api/games/{game['id']}/live"
        with open_feed(url, cert) as feed:
            first = json.loads(feed.recv(timeout=10))
            assert first["type"] == "state"
            joined = client.post(f"{base}/api/games/{game['id']}/join",
                                 json={"invite": code, "name": "Bo"})
            assert joined.status_code == 200, joined.text
            deadline = time.monotonic() + 20
            heard = first
            while heard["type"] != "state" or heard["event_count"] <= first["event_count"]:
                heard = json.loads(feed.recv(timeout=max(0.1, deadline - time.monotonic())))
        states = [client.get(f"{base}/api/games/{game['id']}").json()["event_count"]
                  for _ in range(6)]              # (answered by both processes)
        assert len(set(states)) == 1
