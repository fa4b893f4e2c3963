"""The server under attack, as strangers would try it, and how everyone else fares meanwhile.

A real `shutthebox serve` with its default limits, on SQLite and on PostgreSQL (when it
answers on 127.0.0.1:5432). During each attack another client (from another loopback
address, 127.0.0.2) asks for ``/api/presets`` every 50 ms; for each attack the script prints
what was sent, what came back, the attack's 5xx count and the other client's answer times
(p50, p99, max) and failures. At the end it counts tracebacks in the server's log. Prints
figures; asserts nothing (``tests/web/test_attacks.py`` holds the server to its answers).

    python benchmarks/bench_attacks.py [--database sqlite|postgresql|both] [--markdown]
"""

from __future__ import annotations

import argparse
import contextlib
import socket
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Origin

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from report import Figures, add_arguments

from tests.web.webserver import Server, postgres_problem, postgres_schema

MINIMUM = 2.0
"""Seconds the other client asks during each attack, at least (the attack and after it)."""


class Bystander:
    """Another client asking for the presets every ``every`` seconds (50 ms), timing each
    answer."""

    def __init__(self, url: str, every: float = 0.05) -> None:
        self.url = url
        self.every = every
        self.times: list[float] = []
        self.failures = 0
        self.started = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._ask, daemon=True)

    def _ask(self) -> None:
        transport = httpx.HTTPTransport(local_address="127.0.0.2")
        with httpx.Client(transport=transport, timeout=30) as client:
            while not self._stop.is_set():
                started = time.perf_counter()
                try:
                    ok = client.get(f"{self.url}/api/presets").status_code == 200
                except httpx.HTTPError:
                    ok = False
                self.times.append(time.perf_counter() - started)
                self.failures += not ok
                self._stop.wait(self.every)

    def __enter__(self) -> Bystander:
        self.started = time.monotonic()
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.wait(max(0.0, self.started + MINIMUM - time.monotonic()))
        self._stop.set()
        self._thread.join()

    def summary(self) -> str:
        ordered = sorted(self.times) or [0.0]
        p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
        return (f"others: {len(ordered)} requests, p50 {ordered[len(ordered) // 2] * 1000:.1f} "
                f"ms, p99 {p99 * 1000:.1f} ms, max {ordered[-1] * 1000:.1f} ms, "
                f"{self.failures} failed")

    def p99(self) -> float:
        ordered = sorted(self.times) or [0.0]
        return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def expensive_create(server: Server) -> str:
    body = {"players": [{"name": "A", "computer": "hard"}, {"name": "B", "computer": "hard"}],
            "rules": {"tiles": 12}, "format": "loser-at:10000"}
    started = time.perf_counter()
    answer = server.post("/api/games", body)
    took = time.perf_counter() - started
    return (f"POST /api/games box-12 loser-at:10000, two hard computers: {answer.status_code} "
            f"in {took * 1000:.0f} ms: {answer.json()['detail'][:80]}...")


def slow_headers(server: Server) -> str:
    """500 connections from ten addresses, a header line a second, never finished."""
    sockets = []
    for i in range(500):
        s = socket.socket()
        s.bind((f"127.0.1.{i % 10 + 1}", 0))
        s.connect(("127.0.0.1", server.port))
        s.sendall(b"GET /api/presets HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        s.setblocking(False)
        sockets.append(s)
    started = time.monotonic()
    replies: Counter[bytes] = Counter()
    open_ = set(range(len(sockets)))
    while open_ and time.monotonic() - started < 20:
        for index in list(open_):
            s = sockets[index]
            try:
                data = s.recv(12)
            except BlockingIOError:
                with contextlib.suppress(OSError):
                    s.send(b"X-Slow: 1\r\n")
                continue
            except OSError:
                data = b"reset"
            replies[data or b"closed"] += 1
            open_.discard(index)
        time.sleep(0.5)
    for s in sockets:
        s.close()
    return (f"500 connections sending a header line every 0.5 s: all ended after "
            f"{time.monotonic() - started:.1f} s ({dict(replies)}; {len(open_)} still open)")


def huge_head(server: Server) -> str:
    """A header of up to 128 MiB."""
    sent = 0
    started = time.perf_counter()
    reply = b""
    with socket.create_connection(("127.0.0.1", server.port)) as s:
        s.sendall(b"GET /api/presets HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ")
        chunk = b"a" * 65536
        try:
            while sent < 128 * 1024 * 1024:
                s.sendall(chunk)
                sent += len(chunk)
        except OSError:
            pass
        s.settimeout(10)
        with contextlib.suppress(OSError):
            reply = s.recv(40)
    return (f"a 128 MiB header: refused after {sent // 1024} KiB sent, "
            f"{(time.perf_counter() - started) * 1000:.0f} ms: {reply[:40]!r}")


def spoofed_forwarding(server: Server) -> str:
    statuses: Counter[int] = Counter()
    started = time.perf_counter()
    with httpx.Client(base_url=server.url) as client:
        for i in range(300):
            statuses[client.get(f"/api/invites/{i:010d}", headers={
                "X-Forwarded-For": f"198.51.100.{i % 250}"}).status_code] += 1
    took = time.perf_counter() - started
    return (f"300 invite guesses, each with a new X-Forwarded-For, in {took:.1f} s: "
            f"{dict(statuses)} ({statuses[404] / took:.1f} guesses/s reached the lookup)")


def bad_text(server: Server) -> str:
    statuses: Counter[int] = Counter()
    for name in ["Ann\x00", "Ann\n", "Ann\x1b[2J", "A\u202enn"]:
        statuses[server.post("/api/games", {"players": [{"name": name}]}).status_code] += 1
        statuses[httpx.get(f"{server.url}/api/stats", params={"player": name}).status_code] += 1
    for path in ["/api/games/%00", "/api/games/" + "a" * 31 + "%00", "/api/players/%00/stats",
                 "/api/invites/%00"]:
        statuses[httpx.get(f"{server.url}{path}").status_code] += 1
    return f"NUL, newline, escape and bidi override in names, ids, stats: {dict(statuses)}"


def many_tokens(server: Server) -> str:
    tokens = ",".join(f"unknown-{i}" for i in range(200))
    started = time.perf_counter()
    answer = httpx.get(f"{server.url}/api/games", headers={"X-Seat-Tokens": tokens})
    return (f"200 unknown seat tokens: {answer.status_code} in "
            f"{(time.perf_counter() - started) * 1000:.1f} ms")


def foreign_origin(server: Server) -> str:
    game = server.post("/api/games", {"players": [{"name": "Ann"}]}).json()
    try:
        with connect(f"ws://127.0.0.1:{server.port}/api/games/{game['id']}/live",
                     origin=Origin("https://evil.example"), open_timeout=10):
            return "a live feed from https://evil.example: accepted"
    except InvalidStatus as refused:
        return f"a live feed from https://evil.example: {refused.response.status_code}"


ATTACKS: list[tuple[str, Callable[[Server], str]]] = [
    ("expensive create", expensive_create), ("slow headers", slow_headers),
    ("huge header", huge_head), ("spoofed X-Forwarded-For", spoofed_forwarding),
    ("NUL and control characters", bad_text), ("200 seat tokens", many_tokens),
    ("foreign WebSocket origin", foreign_origin),
]


@contextlib.contextmanager
def database(kind: str, folder: Path) -> Iterator[str | None]:
    if kind == "sqlite":
        yield None
        return
    with postgres_schema() as url:
        yield url


def chosen_databases(choice: str) -> list[str]:
    """The databases of ``--database`` (sqlite, postgresql or both), PostgreSQL left out,
    saying so, when it does not answer."""
    kinds = ["sqlite", "postgresql"] if choice == "both" else [choice]
    if "postgresql" in kinds and postgres_problem() is not None:
        print(f"PostgreSQL skipped: {postgres_problem()}")
        kinds.remove("postgresql")
    return kinds


def attack(kind: str, figures: Figures) -> None:
    with tempfile.TemporaryDirectory() as home, database(kind, Path(home)) as url:
        server = Server(Path(home), database_url=url, rate_limit=50.0).start()
        try:
            for name, run in ATTACKS:
                with Bystander(server.url) as others:
                    what = run(server)
                print(f"{kind}: {name}: {what}; {others.summary()}")
                figures.add(f"{kind}, {name}: others' p99", others.p99() * 1000, "ms", "", 1)
                figures.add(f"{kind}, {name}: others' failed requests", others.failures, "",
                            "0", 0)
        finally:
            server.stop()
        log = server.log.read_text(errors="replace")
        print(f"{kind}: server log: {log.count('Traceback')} tracebacks, "
              f"{len(log.splitlines())} lines")
        figures.add(f"{kind}: tracebacks in the server's log", log.count("Traceback"), "", "0",
                    0)


def on_databases(name: str, description: str, attack: Callable[[str, Figures], None],
                 runs: int = 2) -> None:
    """The command line of an attack benchmark: ``attack(kind, figures)`` on each database
    of ``--database``, ``--runs`` times, its table written with ``--markdown``."""
    parser = argparse.ArgumentParser(description=description)
    add_arguments(parser, runs)
    parser.add_argument("--database", choices=["sqlite", "postgresql", "both"], default="both")
    args = parser.parse_args()
    kinds = chosen_databases(args.database)

    def measure(figures: Figures) -> None:
        for kind in kinds:
            attack(kind, figures)

    Figures(name, f"python3 benchmarks/{name}.py --markdown").repeat(
        args.runs, measure, args.markdown)


def main() -> None:
    on_databases("bench_attacks", __doc__.splitlines()[0], attack)


if __name__ == "__main__":
    main()
