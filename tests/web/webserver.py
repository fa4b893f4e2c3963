"""Real servers and databases for the web tests: `shutthebox serve` processes on 127.0.0.1,
SQLite files, and PostgreSQL schemas made fresh for a test (when PostgreSQL answers on
127.0.0.1:5432; the tests that need it skip and say so when it does not)."""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from tests.web.legal import first_legal

PLAIN = ssl.create_default_context()
"""The TLS context every request of the tests passes (``verify=PLAIN``): httpx makes one for
each client it opens unless given one, reading the certificate store (about 25 ms of
processor time a request, a minute or more of a whole run), and the servers here speak plain
HTTP. Each request keeps a connection of its own."""

POSTGRES = os.environ.get("SHUTTHEBOX_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


def _ports_of_this_worker() -> Iterator[int]:
    """Ports for this test worker alone, in a band below the kernel's ephemeral range.

    The kernel hands out the ephemeral ports both to a bind to port 0 and to every outgoing
    connection's own end, so a port found free there may be taken again (by another
    worker's `free_port`, or by any connection) before the server meant for it binds it:
    the server then fails to start while another answers in its place. Below that range,
    each pytest-xdist worker counts through a band of its own."""
    try:
        low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    index = int(worker) if worker.isdigit() else 0
    width = 1000
    start = low - width * (index % 8 + 1)
    if start < 1024:
        while True:                 # (a machine with an odd range: the kernel's choice)
            with socket.socket() as probe:
                probe.bind(("127.0.0.1", 0))
                yield int(probe.getsockname()[1])
    offset = secrets.randbelow(width)      # (a run just before may have left some in use)
    while True:
        for step in range(width):
            yield start + (offset + step) % width


_PORTS = _ports_of_this_worker()
_PORTS_LOCK = threading.Lock()


def free_port() -> int:
    """A port on 127.0.0.1 that no one listens on, which no other test worker and no
    outgoing connection will take (see :func:`_ports_of_this_worker`)."""
    with _PORTS_LOCK:
        for _ in range(2000):
            port = next(_PORTS)
            with socket.socket() as probe:
                try:
                    probe.bind(("127.0.0.1", port))
                except OSError:
                    continue            # (someone listens there, or a connection lingers)
                return port
    raise RuntimeError("no free port in this test worker's band")


def postgres_problem() -> str | None:
    """None if PostgreSQL answers at :data:`POSTGRES`, else why not."""
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed (pip install -e '.[postgres]')"
    try:
        with psycopg.connect(POSTGRES, connect_timeout=3) as connection:
            connection.execute("SELECT 1")
    except psycopg.Error as error:
        return f"PostgreSQL does not answer at {POSTGRES}: {str(error).strip()[:120]}"
    return None


@contextmanager
def postgres_schema() -> Iterator[str]:
    """A database URL whose tables live in a fresh schema, dropped afterwards."""
    import psycopg

    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(POSTGRES, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    try:
        yield f"{POSTGRES}?options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(POSTGRES, autocommit=True) as connection:
            connection.execute(f"DROP SCHEMA {schema} CASCADE")


@contextmanager
def database(kind: str, folder: Path) -> Iterator[str]:
    """A fresh database URL of the kind ``sqlite`` or ``postgresql``."""
    if kind == "sqlite":
        yield f"sqlite:///{folder / f'games-{secrets.token_hex(4)}.sqlite'}"
        return
    import pytest

    problem = postgres_problem()
    if problem is not None:
        pytest.skip(f"PostgreSQL tests skipped: {problem}")
    with postgres_schema() as url:
        yield url


class Server:
    """A `shutthebox serve` process: started, killed (-9) and restarted on one database."""

    def __init__(self, home: Path, workers: int = 1, database_url: str | None = None,
                 computer_delay: float = 0.0, rate_limit: float = 0.0,
                 extra: tuple[str, ...] = ()) -> None:
        self.home = home
        self.workers = workers
        self.database_url = database_url
        self.computer_delay = computer_delay
        self.rate_limit = rate_limit
        self.extra = extra
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Server:
        # The log file is for what went wrong: warnings and worse, unless the test says
        # (a variable, not --log-level, so that an older release's server starts too, as
        # the benchmarks start them side by side).
        env = {"SHUTTHEBOX_LOG_LEVEL": "warning", **os.environ,
               "SHUTTHEBOX_HOME": str(self.home)}
        command = [sys.executable, "-m", "shutthebox", "serve", "--port", str(self.port),
                   "--workers", str(self.workers), "--computer-delay",
                   str(self.computer_delay), "--rate-limit", str(self.rate_limit),
                   *self.extra]
        if self.database_url:
            command += ["--database-url", self.database_url]
        self.log = self.home / f"serve-{self.port}.log"   # the server's errors, if any
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                                            stderr=log, start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/api/presets", timeout=1, verify=PLAIN).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        self.kill()         # (not left running after the test, with whatever it holds)
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        """Stop the server at once, as a crash would (SIGKILL): its uvicorn workers and
        solver workers too (its process group), which would outlive their parent."""
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
            self.process = None

    def post(self, path: str, body: dict[str, Any] | None = None,
             token: str | None = None, key: str | None = None,
             player: str | None = None) -> httpx.Response:
        """POST ``body``, with a seat ``token``, an Idempotency-Key and a ``player``
        token (``X-Player-Token``) if given."""
        headers = {}
        if player:
            headers["X-Player-Token"] = player
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if key:
            headers["Idempotency-Key"] = key
        return httpx.post(f"{self.url}{path}", json=body or {}, headers=headers, timeout=30,
                          verify=PLAIN)

    def get(self, path: str, token: str | None = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.get(f"{self.url}{path}", headers=headers, timeout=30, verify=PLAIN)


@contextmanager
def two_servers_on_postgresql(folder: Path) -> Iterator[tuple[Server, Server]]:
    """Two server processes on one fresh PostgreSQL schema, each with a home of its own in
    ``folder`` (the test is skipped when PostgreSQL does not answer); both killed after."""
    with database("postgresql", folder) as url:
        servers: list[Server] = []
        try:
            for home in ("one", "two"):
                (folder / home).mkdir()
                servers.append(Server(folder / home, database_url=url).start())
            yield servers[0], servers[1]
        finally:
            for server in servers:
                server.kill()


def until_human(server: Server, state: dict[str, Any], timeout: float = 30) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while state["status"] != "over" and not state["pending"]["human"]:
        assert time.monotonic() < deadline, state["pending"]
        time.sleep(0.05)
        state = server.get(f"/api/games/{state['id']}").json()
    return state


def play(server: Server, state: dict[str, Any], tokens: dict[str, str],
         moves: int = 10_000) -> dict[str, Any]:
    """Play the humans' first legal moves (``moves`` of them, or to the end); the last
    acknowledged state."""
    for _ in range(moves):
        state = until_human(server, state)
        if state["status"] == "over":
            return state
        path, body = first_legal(state)
        answer = server.post(path, body, token=tokens[str(state["pending"]["seat"])])
        assert answer.status_code == 200, answer.text
        state = answer.json()
    return state


class Proxy:
    """A TCP proxy in front of a server (PostgreSQL, say) that a test can cut and restore,
    as a network or a database restart would."""

    def __init__(self, target_port: int, target_host: str = "127.0.0.1") -> None:
        self.target = (target_host, target_port)
        self.port = free_port()
        self._listener: socket.socket | None = None
        self._open: list[socket.socket] = []
        self._lock = threading.Lock()

    def start(self) -> Proxy:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()
        return self

    def stop(self) -> None:
        """Refuse new connections and cut the open ones."""
        if self._listener is not None:
            with contextlib.suppress(OSError):   # wakes the thread blocked in accept()
                self._listener.shutdown(socket.SHUT_RDWR)
            self._listener.close()
            self._listener = None
        with self._lock:
            for connection in self._open:
                with contextlib.suppress(OSError):
                    connection.shutdown(socket.SHUT_RDWR)
                connection.close()
            self._open.clear()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self._lock:
                self._open += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            with contextlib.suppress(OSError):
                sink.shutdown(socket.SHUT_WR)
