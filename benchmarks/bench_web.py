"""Moves per second through the web API with SQLite storage, 50 games played at once over
loopback. Goals: at least 500 moves/s, 99th percentile answer under 50 ms. Prints figures.

    python benchmarks/bench_web.py [--games 50] [--seconds 15]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.webserver import Server


def player(url: str, stop: float, latencies: list[float], lock: threading.Lock) -> None:
    with httpx.Client(base_url=url, timeout=30) as client:
        while time.monotonic() < stop:
            state = client.post("/api/games", json={"players": [{"name": "Bench"}]}).json()
            while state["status"] != "over" and time.monotonic() < stop:
                pending = state["pending"]
                game = f"/api/games/{state['id']}"
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--workers", type=int, default=2, help="server processes")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        server = Server(Path(home), workers=args.workers).start()
        try:
            latencies: list[float] = []
            lock = threading.Lock()
            stop = time.monotonic() + args.seconds
            threads = [threading.Thread(target=player, args=(server.url, stop, latencies, lock))
                       for _ in range(args.games)]
            began = time.monotonic()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            elapsed = time.monotonic() - began
        finally:
            server.kill()
    ordered = sorted(latencies)
    rate = len(ordered) / elapsed
    p50 = statistics.median(ordered) * 1000
    p99 = ordered[int(0.99 * (len(ordered) - 1))] * 1000
    print(f"{args.games} games at once, SQLite, {args.workers} server process(es), "
          f"{elapsed:.1f} s: {len(ordered)} moves, "
          f"{rate:.0f} moves/s (goal 500: {rate / 500:.2f}x); "
          f"p50 {p50:.1f} ms, p99 {p99:.1f} ms (goal 50 ms: {p99 / 50:.2f}x)")


if __name__ == "__main__":
    main()
