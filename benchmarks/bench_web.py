"""Moves per second through the web API, with a live client watching every game.

A real `shutthebox serve` on 127.0.0.1 (SQLite, and PostgreSQL when it answers on
127.0.0.1:5432); 100 solo games at once, each with a player (POST with its seat token and the
event number) and a watcher (the game's WebSocket). The client runs in two processes on the
same two cores as the server. The players arrive over the first second; each run measures
from its third second on (the first two are a warm-up), and a new server first serves 6 s
of the paced load unmeasured (a server that has just started grows its memory and database
to their working size meanwhile, at a tenth more CPU per move). Four runs per database:

1. paced to 1,000 moves/s over all games: the goal (at least 1,000 moves/s with p99 under
   50 ms, and watchers seeing each move within 200 ms);
2. as fast as the players can: the most the server takes;
3. paced to 400 moves/s (``--steady``), a load the server carries: answer and live times;
4. the same while the server's solver worker plays the first decisions of 12-tile
   digit-scoring rounds, a rule set not solved before in each (about 5 s each): the answer
   time of everyone else meanwhile (goal: p99 under 50 ms).

On PostgreSQL, then, the most ``--two`` server processes (2) on the one database carry, as
fast as the players can: what a second process adds.

Prints figures and ratios to the goals; asserts nothing. Each part also prints how busy the
server's processes were (their CPU time over the part's time, in cores, and per move), on
PostgreSQL how busy PostgreSQL's own processes were (when it runs on this machine: other
work on it counts too), the load average, and a gauge of the machine's speed just before
it (a fixed pure-Python loop, in ns a step): machines of one kind, and one machine from
minute to minute, differ by a third or more, and near 1,000 moves/s the answers' tail
follows that speed. Some slow spells the loop does not
see: in them a move costs the server a quarter more CPU (the "us a move" figure) while the
loop runs as fast as ever.

    python benchmarks/bench_web.py [--games 100] [--seconds 15] [--rate 1000] [--workers 1]
        [--database both] [--two 2] [--runs 2] [--markdown]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import httpx
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.web.webserver import Server, postgres_problem, postgres_schema

sys.path.insert(0, str(Path(__file__).resolve().parent))
from report import Figures as Table
from report import add_arguments

CLIENT_PROCESSES = 2
ARRIVAL = 1.0
"""Seconds over which the players arrive (each at a random moment)."""
WARMUP = 2.0
"""Seconds of each run not measured: the players arrive and the server warms up."""
SERVER_WARMUP = 6.0
"""Seconds of play, not measured, between a server's start and its first measured run."""
Figures = dict[str, Any]


class Client:
    """A lean HTTP/1.1 client on one kept-alive connection per game, so that the client's
    own cost (httpx spends about half a millisecond of CPU per request) does not hide the
    server's on these two shared cores. JSON in, (status, JSON) out."""

    def __init__(self, url: str) -> None:
        host, _, port = url.removeprefix("http://").partition(":")
        self.host, self.port = host, int(port)
        self._streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def request(self, method: str, path: str, body: Any = None,
                      headers: dict[str, str] | None = None) -> tuple[int, Any]:
        if self._streams is None:
            self._streams = await asyncio.open_connection(self.host, self.port)
        reader, writer = self._streams
        data = b"" if body is None else json.dumps(body).encode()
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}",
                f"Content-Length: {len(data)}"]
        if body is not None:
            head.append("Content-Type: application/json")
        head += [f"{k}: {v}" for k, v in (headers or {}).items()]
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
        header = await reader.readuntil(b"\r\n\r\n")       # the status line and headers
        at = header.lower().find(b"\r\ncontent-length:")
        length = int(header[at + 17:header.index(b"\r\n", at + 2)]) if at >= 0 else 0
        payload = await reader.readexactly(length)
        return int(header.split(b" ", 2)[1]), json.loads(payload) if payload else None

    def close(self) -> None:
        if self._streams is not None:
            self._streams[1].close()


class Watcher:
    """A lean live client: the websockets library's protocol (handshake, frames, close)
    driven over plain asyncio streams, without its connection layer's tasks and timers,
    which cost the client about as much as the server's whole answer."""

    def __init__(self, url: str) -> None:
        self.uri = parse_uri(url)
        self.protocol = ClientProtocol(self.uri, max_size=2**22)
        self._streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        self._events: list[Any] = []
        self._ended = False

    async def open(self) -> None:
        self._streams = await asyncio.open_connection(self.uri.host, self.uri.port)
        self.protocol.send_request(self.protocol.connect())
        self._flush()
        answer = await self._event()
        while answer is not None and not isinstance(answer, Response):
            answer = await self._event()
        if self.protocol.handshake_exc is not None:
            raise self.protocol.handshake_exc
        if answer is None:
            raise ConnectionError(f"{self.uri.resource_name}: closed before the handshake")

    async def recv(self) -> str | None:
        """The next text message; None once the server closed the feed."""
        while (event := await self._event()) is not None:
            if isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                assert event.fin, "the server sends whole messages"
                return bytes(event.data).decode()
        return None

    async def _event(self) -> Response | Frame | None:
        assert self._streams is not None
        reader = self._streams[0]
        while not self._events:
            self._events.extend(self.protocol.events_received())
            self._flush()               # pongs and the closing handshake's answers
            if self._events or self._ended:
                break
            data = await reader.read(65536)
            if data:
                self.protocol.receive_data(data)
            else:
                self.protocol.receive_eof()
                self._ended = True
        return self._events.pop(0) if self._events else None

    def _flush(self) -> None:
        assert self._streams is not None
        out = self.protocol.data_to_send()
        if out:
            self._streams[1].write(b"".join(out))

    def close(self) -> None:
        if self._streams is not None:
            self._streams[1].close()


async def watch(url: str, game_id: str, since: int, sent: dict[int, float],
                seen: list[float], stop: float) -> None:
    """The game's live client: for each move, the time from its request to the watcher."""
    live = Watcher(url.replace("http://", "ws://") + f"/api/games/{game_id}/live?since={since}")
    await live.open()
    try:
        while time.monotonic() < stop:
            text = await live.recv()        # (the player cancels this task at the end)
            if text is None:
                return
            message = json.loads(text)
            if message.get("type") != "state":
                continue
            arrived = time.perf_counter()
            for count in list(sent):
                if count < message["event_count"]:
                    seen.append(arrived - sent.pop(count))
            if message["status"] == "over":
                return
    finally:
        live.close()


async def player(url: str, stop: float, interval: float, latencies: list[float],
                 seen: list[float], setup: dict[str, Any], measure_from: float) -> None:
    """Play games until ``stop``, one move every ``interval`` seconds (0: at once); the
    moves made from ``measure_from`` on are measured."""
    client = Client(url)
    await asyncio.sleep(random.uniform(0, ARRIVAL))               # players arrive in turn
    next_move = time.monotonic() + random.uniform(0, interval)   # and are not in step
    while time.monotonic() < stop:
        status, state = await client.request("POST", "/api/games", setup)
        token = {"Authorization": f"Bearer {state['tokens']['0']}"}
        sent: dict[int, float] = {}
        watcher = asyncio.create_task(watch(url, state["id"], state["event_count"], sent,
                                            seen, stop))
        await asyncio.sleep(0.05)          # the watcher is connected before the first move
        while state["status"] != "over" and time.monotonic() < stop:
            pending = state["pending"]
            game = f"/api/games/{state['id']}"
            if interval:
                next_move += interval
                await asyncio.sleep(max(0.0, next_move - time.monotonic()))
                if time.monotonic() >= stop:    # no move begins after the window
                    break
            body: dict[str, Any] = {"event": state["event_count"]}
            if pending["kind"] == "roll":
                path = f"{game}/roll"
            elif pending["kind"] == "choose-dice":
                path, body["dice"] = f"{game}/dice", 2
            else:
                path, body["tiles"] = f"{game}/shut", pending["legal"][0]
            measured = time.monotonic() >= measure_from
            began = time.perf_counter()
            if measured:
                sent[state["event_count"]] = began
            status, answer = await client.request("POST", path, body, token)
            if measured:
                latencies.append(time.perf_counter() - began)
            if status != 200:
                raise RuntimeError(f"{path}: {status} {answer}")
            state = answer
        if watcher.done() and watcher.exception() is not None:
            raise RuntimeError(f"the live client failed: {watcher.exception()!r}")
        watcher.cancel()
    client.close()


SOLVER_RULES = [{"tiles": 12, "scoring": "digits", "one_die": one_die, "moves": moves,
                 "max_tiles": most}
                for most in (None, 4, 3, 2) for moves in ("any", "dice")
                for one_die in ("never", "low-sum", "high-shut")]
"""Rule sets whose first decisions are seconds-long solves: each solver-heavy game takes the
next one, so that the worker never answers from its caches."""


async def solver_load(client: httpx.AsyncClient, stop: float, started: list[float]) -> None:
    """Keep the solver worker busy: rounds of 12 tiles scored by digits in which the exact
    computer plays first, against a later player (the exact N-player round: about 5 s for
    the first decision of each rule set, here a new rule set each game)."""
    while time.monotonic() < stop and len(started) < len(SOLVER_RULES):
        game = (await client.post("/api/games", json={
            "players": [{"name": "Solver", "kind": "computer", "computer": "hard"},
                        {"name": "Later", "kind": "computer", "computer": "easy"}],
            "rules": SOLVER_RULES[len(started)], "pace": "instant"})).json()
        started.append(time.monotonic())
        while time.monotonic() < stop:
            state = (await client.get(f"/api/games/{game['id']}")).json()
            if state["status"] == "over":
                break
            await asyncio.sleep(0.2)


async def drive(url: str, games: int, seconds: float, interval: float,
                with_solver: bool) -> Figures:
    latencies: list[float] = []
    seen: list[float] = []
    solver_games: list[float] = []
    stop = time.monotonic() + seconds
    measure_from = time.monotonic() + WARMUP
    setup = {"players": [{"name": "Bench"}]}
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        tasks = [player(url, stop, interval, latencies, seen, setup, measure_from)
                 for _ in range(games)]
        if with_solver:
            tasks.append(solver_load(client, stop, solver_games))
        await asyncio.gather(*tasks)
    # The measured moves are those begun in [measure_from, stop): the rate is theirs over
    # that window (not over the time the last answers took to arrive after it).
    elapsed = stop - measure_from
    return {"latencies": latencies, "seen": seen, "elapsed": elapsed,
            "solver_games": len(solver_games)}


def run_part(url: str, games: int, seconds: float, interval: float,
             with_solver: bool) -> Figures:
    # The client's start-up objects (httpx, websockets and all) out of its garbage
    # collector, as the server does: a full collection of them stalled a client process up
    # to 80 ms, time its players then counted against the server's answers.
    gc.collect()
    gc.freeze()
    return asyncio.run(drive(url, games, seconds, interval, with_solver))


def run(url: str, games: int, seconds: float, rate: float, with_solver: bool = False
        ) -> Figures:
    """The games split over the client processes."""
    shares = [games // CLIENT_PROCESSES + (i < games % CLIENT_PROCESSES)
              for i in range(CLIENT_PROCESSES)]
    intervals = [games / rate if rate else 0.0 for _ in shares]   # each game's pace
    solver = [with_solver and i == 0 for i in range(CLIENT_PROCESSES)]
    with ProcessPoolExecutor(CLIENT_PROCESSES) as pool:
        parts = list(pool.map(run_part, [url] * CLIENT_PROCESSES, shares,
                              [seconds] * CLIENT_PROCESSES, intervals, solver))
    return {"latencies": [t for p in parts for t in p["latencies"]],
            "seen": [t for p in parts for t in p["seen"]],
            "elapsed": max(p["elapsed"] for p in parts),
            "solver_games": sum(p["solver_games"] for p in parts)}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[int(q * (len(ordered) - 1))] * 1000 if ordered else float("nan")


def report(label: str, figures: Figures, table: Table | None = None, part: str = "") -> None:
    """Print a part's figures (and add them to the table as ``part``)."""
    latencies, seen = figures["latencies"], figures["seen"]
    rate = len(latencies) / figures["elapsed"]
    p99 = percentile(latencies, 0.99)
    live99 = percentile(seen, 0.99)
    extra = (f"; {figures['solver_games']} solver-heavy games started"
             if figures["solver_games"] else "")
    postgres = figures.get("database_busy")
    database = (f"; PostgreSQL busy {postgres:.2f} cores ({postgres / rate * 1e6:.0f} us a "
                "move)" if postgres is not None and "PostgreSQL" in label else "")
    print(f"{label}: {len(latencies)} moves in {figures['elapsed']:.1f} s measured, "
          f"{rate:.0f} moves/s (goal 1000: {rate / 1000:.2f}x); answer p50 "
          f"{statistics.median(latencies) * 1000:.1f} ms, p90 {percentile(latencies, 0.9):.1f} "
          f"ms, p99 {p99:.1f} ms (goal 50 ms: "
          f"{p99 / 50:.2f}x); seen live p50 {percentile(seen, 0.5):.1f} ms, p99 "
          f"{live99:.1f} ms (goal 200 ms: {live99 / 200:.2f}x); server busy "
          f"{figures['busy']:.2f} cores ({figures['busy'] / rate * 1e6:.0f} us a move)"
          f"{database}; machine gauge {figures['speed']:.0f} ns a loop step (lower is "
          f"faster); load average {figures['load']:.1f}{extra}", flush=True)
    if table is not None:
        table.add(f"{part}: moves/s", rate, "", "1,000" if "1,000" in part else "", 0)
        paced = "as fast" not in part           # the goals are for a load the server carries
        table.add(f"{part}: answer p99", p99, "ms", "under 50 ms" if paced else "", 1)
        table.add(f"{part}: seen live p99", live99, "ms", "under 200 ms" if paced else "", 1)
        table.add(f"{part}: server CPU a move", figures["busy"] / rate * 1e6, "us", "", 0)
        if postgres is not None and "PostgreSQL" in part:
            table.add(f"{part}: PostgreSQL's CPU a move", postgres / rate * 1e6, "us", "", 0)


def gauge() -> float:
    """The machine's speed now: ns a step of a fixed pure-Python loop, best of five."""
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        total = 0
        for i in range(1_000_000):
            total += i
        best = min(best, time.perf_counter() - start)
    return best * 1000


def cpu_seconds(group: int) -> float:
    """CPU time so far of the live processes of one process group (the server's)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:         # the process has ended meanwhile
            continue
        if int(fields[2]) == group:     # fields from the state on: pgrp is the third
            total += int(fields[11]) + int(fields[12])      # utime, stime
    return total / tick


def postgres_cpu_seconds() -> float | None:
    """CPU time so far of this machine's PostgreSQL (its processes, and those that ended,
    which their parent has counted), or None if none runs here. Other work on the same
    cluster counts too: the figure is an upper bound."""
    tick = os.sysconf("SC_CLK_TCK")
    total, found = 0, False
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        name, _, rest = text.partition(" (")[2].rpartition(")")
        if name != "postgres":
            continue
        found = True
        fields = rest.split()
        total += int(fields[11]) + int(fields[12])          # utime, stime
        parent = Path(f"/proc/{fields[1]}/comm")
        try:
            child = parent.read_text().strip() == "postgres"
        except OSError:
            child = False
        if not child:           # the postmaster: its ended backends' time, too
            total += int(fields[13]) + int(fields[14])      # cutime, cstime
    return total / tick if found else None


def measured(group: int, *part: Any, **options: Any) -> Figures:
    """:func:`run`, with how busy the server and PostgreSQL were meanwhile (cores) and the
    machine's speed just before (:func:`gauge`)."""
    speed = gauge()
    cpu, database, wall = cpu_seconds(group), postgres_cpu_seconds(), time.monotonic()
    figures = run(*part, **options)
    elapsed = time.monotonic() - wall
    figures["busy"] = (cpu_seconds(group) - cpu) / elapsed
    after = postgres_cpu_seconds()
    figures["database_busy"] = (after - database) / elapsed \
        if after is not None and database is not None else None
    figures["speed"] = speed
    figures["load"] = os.getloadavg()[0]
    return figures


def bench(url: str, name: str, args: argparse.Namespace, group: int,
          table: Table | None = None) -> None:
    label = f"{args.games} games, {name}, {args.workers} server process(es)"
    if args.only_most:
        run(url, args.games, SERVER_WARMUP, 0.0)
        report(f"{label}, as fast as they can",
               measured(group, url, args.games, args.seconds, 0.0), table,
               f"{name}, {args.workers} server processes, as fast as the clients go")
        return
    # A server that has just started first grows its memory and database to their working
    # size (its first seconds cost a tenth more CPU per move): the parts measure one that
    # has been serving, as a server mostly is.
    run(url, args.games, SERVER_WARMUP, args.rate)
    report(f"{label}, paced to {args.rate:.0f} moves/s",
           measured(group, url, args.games, args.seconds, args.rate), table,
           f"{name}, paced to {args.rate:,.0f} moves/s")
    report(f"{label}, as fast as they can",
           measured(group, url, args.games, args.seconds, 0.0), table,
           f"{name}, as fast as the clients go")
    report(f"{label}, paced to {args.steady:.0f} moves/s",
           measured(group, url, args.games, args.seconds, args.steady), table,
           f"{name}, paced to {args.steady:,.0f} moves/s")
    report(f"{label}, paced to {args.steady:.0f} moves/s, solver busy",
           measured(group, url, args.games, args.seconds, args.steady, with_solver=True),
           table, f"{name}, paced to {args.steady:,.0f} moves/s, solver busy")


def group(server: Server) -> int:
    """The server's process group (it starts a session of its own)."""
    assert server.process is not None, "the server has not started"
    return server.process.pid


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--workers", type=int, default=1, help="server processes")
    parser.add_argument("--rate", type=float, default=1000.0,
                        help="moves per second asked of the paced runs, over all games")
    parser.add_argument("--steady", type=float, default=400.0,
                        help="moves per second of the runs at a load the server carries")
    parser.add_argument("--database", choices=["sqlite", "postgresql", "both"],
                        default="both")
    parser.add_argument("--two", type=int, default=2, metavar="N",
                        help="on PostgreSQL, also the most N server processes carry "
                        "(0: not)")
    add_arguments(parser, runs=1)
    args = parser.parse_args()
    args.only_most = False
    Table("bench_web", "python3 benchmarks/bench_web.py --database both --runs 2 "
          "--markdown").repeat(args.runs, lambda table: serve_and_bench(args, table),
                               args.markdown)


def serve_and_bench(args: argparse.Namespace, table: Table) -> None:
    with tempfile.TemporaryDirectory() as home:
        if args.database in ("sqlite", "both"):
            server = Server(Path(home), workers=args.workers).start()
            try:
                bench(server.url, "SQLite", args, group(server), table)
            finally:
                server.kill()
        if args.database in ("postgresql", "both"):
            problem = postgres_problem()
            if problem is not None:
                print(f"PostgreSQL skipped: {problem}")
                return
            with postgres_schema() as url:
                server = Server(Path(home), workers=args.workers, database_url=url).start()
                try:
                    bench(server.url, "PostgreSQL", args, group(server), table)
                finally:
                    server.kill()
            if args.two > args.workers:     # what more processes on one database carry
                with postgres_schema() as url:
                    more = argparse.Namespace(**{**vars(args), "workers": args.two,
                                                 "only_most": True})
                    server = Server(Path(home), workers=args.two, database_url=url).start()
                    try:
                        bench(server.url, "PostgreSQL", more, group(server), table)
                    finally:
                        server.kill()


if __name__ == "__main__":
    main()
