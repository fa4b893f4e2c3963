"""The floods of issue 36 against a real `shutthebox serve`, and how everyone else fares.

Four attacks, each on a fresh server (SQLite, and PostgreSQL when it answers on
127.0.0.1:5432), while another client (127.0.0.2) asks for ``/api/presets`` every 10 ms:

- **WebSocket flood**: one live feed, no token, sent about 50,000 one-byte messages a second
  for 5 s: how many the server took before it closed the feed (or none), its close code,
  and the others' p99 against their p99 with no attack (the move of the p99).
- **presence churn**: a page that opens its game's live feed, says hello with its seat's
  token and leaves, 200 times over: how many presence messages another seat's feed heard.
- **slow bodies**: 8,000 connections (from 100 loopback addresses) that send a request's
  head and one byte of its body, then nothing, until the server gives up on them: the
  others' slowest answer while the server takes them in (the first 6 s), and while the
  8,000 expire (from then on).
- **connection waves**: five waves of 2,000 live feeds that open (each reads its game's
  state) and close: the server's resident memory after each wave.

Prints figures; asserts nothing (the tests under ``tests/`` hold the protections).

    python benchmarks/bench_floods.py [--database sqlite|postgresql|both] [--only NAME]

Run it against another commit's code with ``PYTHONPATH=that/src`` (the server is started
with this process's environment).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import resource
import socket
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench_attacks import Bystander
from report import Figures, add_arguments

from tests.web.webserver import Server, postgres_problem, postgres_schema


def frame(payload: bytes) -> bytes:
    """A client's masked text frame (a zero mask: the bytes stay as they are)."""
    return bytes([0x81, 0x80 | len(payload)]) + b"\0\0\0\0" + payload


def handshake(port: int, path: str) -> socket.socket:
    """A raw WebSocket to ``path``, its handshake's answer read."""
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
              "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
              "Sec-WebSocket-Version: 13\r\n\r\n".encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += s.recv(4096)
    return s


def quiet_p99(server: Server) -> float:
    with Bystander(server.url, every=0.01) as others:
        time.sleep(3)
    return others.p99() * 1000


def ws_flood(server: Server, figures: Figures, kind: str) -> None:
    game = server.post("/api/games", {"players": [{"name": "Ann"}]}).json()
    before = quiet_p99(server)
    s = handshake(server.port, f"/api/games/{game['id']}/live")
    s.settimeout(0.001)
    burst = frame(b"x") * 500
    sent, closed_after, code = 0, None, None
    started = time.monotonic()
    with Bystander(server.url, every=0.01) as others:
        while time.monotonic() - started < 5:
            tick = time.monotonic()
            try:
                s.sendall(burst)
                sent += 500
            except OSError:
                closed_after = closed_after or time.monotonic() - started
                break
            with contextlib.suppress(TimeoutError, BlockingIOError):
                data = s.recv(65536)
                if data == b"":
                    closed_after = closed_after or time.monotonic() - started
                elif b"\x88" in data and code is None:    # a close frame
                    at = data.index(b"\x88")
                    code = int.from_bytes(data[at + 2:at + 4], "big")
                    closed_after = time.monotonic() - started
            time.sleep(max(0.0, 0.01 - (time.monotonic() - tick)))
    s.close()
    moved = others.p99() * 1000 - before
    print(f"{kind}: ws flood: {sent} messages sent in {time.monotonic() - started:.1f} s "
          f"({sent / max(time.monotonic() - started, 1e-9):,.0f}/s); closed "
          f"{'never' if closed_after is None else f'after {closed_after:.2f} s'} (code {code});"
          f" others' p99 {before:.1f} ms quiet, {others.summary()}; moved by {moved:+.1f} ms")
    figures.add(f"{kind}, WebSocket flood: feed closed after", closed_after or float("nan"),
                "s", "closed", 2)
    figures.add(f"{kind}, WebSocket flood: others' p99 moved by", moved, "ms", "under 20 ms")


def presence_churn(server: Server, figures: Figures, kind: str) -> None:
    game = server.post("/api/games", {"players": [{"name": "Ann"}, {"name": "Bob"}]}).json()
    tokens = game["tokens"]
    ann, bob = tokens["0"], tokens["1"]
    url = f"ws://127.0.0.1:{server.port}/api/games/{game['id']}/live?table=1"

    async def churn() -> int:
        heard = 0
        async with connect(url) as watcher:
            await watcher.send(json.dumps({"type": "hello", "tokens": [ann]}))

            async def listen() -> None:
                nonlocal heard
                async for message in watcher:
                    heard += '"type": "presence"' in str(message)

            listening = asyncio.ensure_future(listen())
            await asyncio.sleep(1.0)
            first = heard
            for _ in range(200):
                async with connect(url) as page:
                    await page.send(json.dumps({"type": "hello", "tokens": [bob]}))
                    await page.recv()
            await asyncio.sleep(2.0)
            listening.cancel()
            return heard - first

    started = time.monotonic()
    heard = asyncio.run(churn())
    print(f"{kind}: presence churn: 200 comings and goings in "
          f"{time.monotonic() - started:.1f} s: the other seat's feed heard {heard} presence "
          "messages")
    figures.add(f"{kind}, presence churn (200 comings and goings): messages heard", heard,
                "", "coalesced", 0)


def slow_bodies(server: Server, figures: Figures, kind: str) -> None:
    count = 8000
    sockets = []
    head = (b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
            b"\r\nContent-Length: 100\r\n\r\n{")
    started = time.monotonic()
    for i in range(count):
        s = socket.socket()
        s.bind((f"127.0.3.{i % 100 + 1}", 0))
        s.connect(("127.0.0.1", server.port))
        s.sendall(head)
        sockets.append(s)
    opened = time.monotonic() - started
    with Bystander(server.url, every=0.01) as arriving:   # the server takes the heads in
        time.sleep(max(0.0, started + 6.0 - time.monotonic()))
    with Bystander(server.url, every=0.01) as others:     # from before the first expires
        deadline = time.monotonic() + 40
        for s in sockets:
            s.settimeout(max(0.01, deadline - time.monotonic()))
            with contextlib.suppress(OSError):
                s.recv(64)
        took = time.monotonic() - started
    for s in sockets:
        s.close()
    print(f"{kind}: slow bodies: {count} opened in {opened:.1f} s ({arriving.summary()}), "
          f"all ended {took:.1f} s after the first; while they expired: {others.summary()}")
    figures.add(f"{kind}, 8,000 slow bodies arriving: others' slowest answer",
                max(arriving.times, default=0.0) * 1000, "ms", "", 0)
    figures.add(f"{kind}, 8,000 slow bodies expiring: others' slowest answer",
                max(others.times, default=0.0) * 1000, "ms", "under 200 ms", 0)


def resident_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def connection_waves(server: Server, figures: Figures, kind: str) -> None:
    game = server.post("/api/games", {"players": [{"name": "Ann"}]}).json()
    assert server.process is not None
    url = f"ws://127.0.0.1:{server.port}/api/games/{game['id']}/live"

    async def wave(index: int) -> None:
        feeds = []
        for i in range(2000):
            feeds.append(await connect(url, open_timeout=30, ping_interval=None,
                                       local_addr=(f"127.0.4.{(i + index * 7) % 200 + 1}", 0)))
            await feeds[-1].recv()
        await asyncio.gather(*(feed.close() for feed in feeds))

    after = []
    for index in range(5):
        asyncio.run(wave(index))
        time.sleep(2.0)
        after.append(resident_mb(server.process.pid))
    print(f"{kind}: connection waves: resident memory after each wave of 2,000 feeds: "
          f"{', '.join(f'{mb:.0f}' for mb in after)} MB")
    figures.add(f"{kind}, five waves of 2,000 feeds: memory after the fifth over the first",
                (after[-1] / after[0] - 1) * 100, "%", "within 5 %")


ATTACKS: dict[str, Callable[[Server, Figures, str], None]] = {
    "ws-flood": ws_flood, "presence": presence_churn, "slow-bodies": slow_bodies,
    "waves": connection_waves,
}


@contextlib.contextmanager
def database(kind: str) -> Iterator[str | None]:
    if kind == "sqlite":
        yield None
        return
    with postgres_schema() as url:
        yield url


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser)
    parser.add_argument("--database", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--only", choices=sorted(ATTACKS), action="append")
    args = parser.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    kinds = ["sqlite", "postgresql"] if args.database == "both" else [args.database]
    if "postgresql" in kinds and postgres_problem() is not None:
        print(f"PostgreSQL skipped: {postgres_problem()}")
        kinds.remove("postgresql")

    def measure(figures: Figures) -> None:
        for kind in kinds:
            for name in args.only or ATTACKS:
                with tempfile.TemporaryDirectory() as home, database(kind) as url:
                    extra: tuple[str, ...] = ("--max-connections-per-client", "0")
                    server = Server(Path(home), database_url=url, extra=extra).start()
                    try:
                        ATTACKS[name](server, figures, kind)
                    finally:
                        server.stop()
                    log: Any = server.log.read_text(errors="replace")
                    print(f"{kind}: {name}: server log: {log.count('Traceback')} tracebacks")

    Figures("bench_floods", "python3 benchmarks/bench_floods.py --markdown").repeat(
        args.runs, measure, args.markdown)


if __name__ == "__main__":
    main()
