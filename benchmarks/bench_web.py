"""Moves per second through the web API with SQLite storage, 50 games played at once over
loopback. Goals: at least 500 moves/s, 99th percentile answer under 50 ms. Two runs: the
games paced to 500 moves/s together (the answer time at that load), and the games moving as
fast as they can (the most the server takes; there the answer time is mostly queueing,
since 50 clients wait on one another). The client runs on the same two cores. Prints
figures; asserts nothing.

    python benchmarks/bench_web.py [--games 50] [--seconds 15]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.webserver import Server

CLIENT_PROCESSES = 2


def player(url: str, stop: float, latencies: list[float], lock: threading.Lock,
           interval: float) -> None:
    """Play games until ``stop``, one move every ``interval`` seconds (0: as fast as it can)."""
    next_move = time.monotonic()
    with httpx.Client(base_url=url, timeout=30) as client:
        while time.monotonic() < stop:
            state = client.post("/api/games", json={"players": [{"name": "Bench"}]}).json()
            while state["status"] != "over" and time.monotonic() < stop:
                pending = state["pending"]
                game = f"/api/games/{state['id']}"
                if interval:
                    next_move += interval
                    time.sleep(max(0.0, next_move - time.monotonic()))
                began = time.perf_counter()
                if pending["kind"] == "roll":
                    response = client.post(f"{game}/roll")
                elif pending["kind"] == "choose-dice":
                    response = client.post(f"{game}/dice", json={"dice": 2})
                else:
                    response = client.post(f"{game}/shut", json={"tiles": pending["legal"][0]})
                elapsed = time.perf_counter() - began
                response.raise_for_status()
                state = response.json()
                with lock:
                    latencies.append(elapsed)


def run(url: str, games: int, seconds: float, interval: float) -> tuple[list[float], float]:
    """The games split over two client processes (one Python process alone cannot drive 50
    games without its own threads queueing on one another)."""
    with ProcessPoolExecutor(CLIENT_PROCESSES) as pool:
        shares = [games // CLIENT_PROCESSES + (i < games % CLIENT_PROCESSES)
                  for i in range(CLIENT_PROCESSES)]
        parts = list(pool.map(run_threads, [url] * CLIENT_PROCESSES, shares,
                              [seconds] * CLIENT_PROCESSES, [interval] * CLIENT_PROCESSES))
    return [t for part, _ in parts for t in part], max(elapsed for _, elapsed in parts)


def run_threads(url: str, games: int, seconds: float,
                interval: float) -> tuple[list[float], float]:
    latencies: list[float] = []
    lock = threading.Lock()
    stop = time.monotonic() + seconds
    threads = [threading.Thread(target=player, args=(url, stop, latencies, lock, interval))
               for _ in range(games)]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies, time.monotonic() - began


def report(label: str, latencies: list[float], elapsed: float) -> None:
    ordered = sorted(latencies)
    rate = len(ordered) / elapsed
    p50 = statistics.median(ordered) * 1000
    p99 = ordered[int(0.99 * (len(ordered) - 1))] * 1000
    print(f"{label}: {len(ordered)} moves in {elapsed:.1f} s, {rate:.0f} moves/s "
          f"(goal 500: {rate / 500:.2f}x); p50 {p50:.1f} ms, p99 {p99:.1f} ms "
          f"(goal 50 ms: {p99 / 50:.2f}x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--workers", type=int, default=1, help="server processes")
    parser.add_argument("--rate", type=float, default=530.0,
                        help="moves per second asked of the paced run, over all games (a "
                        "little over 500, for the time spent starting new games)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        server = Server(Path(home), workers=args.workers).start()
        try:
            label = f"{args.games} games at once, SQLite, {args.workers} server process(es)"
            report(f"{label}, paced to {args.rate:.0f} moves/s",
                   *run(server.url, args.games, args.seconds, args.games / args.rate))
            report(f"{label}, as fast as they can",
                   *run(server.url, args.games, args.seconds, 0.0))
        finally:
            server.kill()


if __name__ == "__main__":
    main()
