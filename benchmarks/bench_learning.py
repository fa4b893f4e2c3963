"""What the learner's pages cost the server: the review (the coach's analysis of a game with
its chart in words, as the solver worker answers it) of a classic single round and of a
``rounds:3`` match, against the bare review of every decision; and the ratings worked out
from scratch over 200 finished two- and three-player games on SQLite (replayed in order),
then again with nothing new (the kept ratings). Prints the figures; asserts nothing.

    python benchmarks/bench_learning.py [--runs 2] [--markdown]
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from report import Figures, run

from shutthebox.coach import review
from shutthebox.match import GameFormat, Match, MatchConfig, play_out
from shutthebox.rules import Rules
from shutthebox.strategies import make_strategy
from shutthebox.web.solving import workers as advice

GAMES = 20
RATED = 200


def logs(fmt: str) -> list[dict[str, Any]]:
    rules = Rules()
    found = []
    for seed in range(GAMES):
        match = Match(MatchConfig(rules, GameFormat.parse(fmt), ("Ann", "Bo")))
        play_out(match, {0: make_strategy("highest-first", rules, random.Random(seed)),
                         1: make_strategy("random", rules, random.Random(seed + 100))},
                 random.Random(seed))
        found.append(match.to_log())
    return found


def per_game(function: Any, games: list[dict[str, Any]]) -> float:
    began = time.perf_counter()
    for log in games:
        function(log)
    return (time.perf_counter() - began) / len(games)


def ratings(figures: Figures) -> None:
    from fastapi.testclient import TestClient

    from shutthebox.web import create_app
    from shutthebox.web.api.checks import RateLimits
    from shutthebox.web.records.ratings import current_ratings
    from shutthebox.web.solving.workers import SolverPool
    from shutthebox.web.storage import make_engine
    from tests.web.client import play_out as play_api

    names = ["Ann", "Bo", "Cy", "Di"]
    pool = SolverPool()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/games.sqlite"
        app = create_app(url, allowed_hosts=("testserver",), computer_delay=0,
                         limits=RateLimits(0, 0), pool=pool)
        with TestClient(app) as client:
            for i in range(RATED):
                players = [{"name": names[i % 4]}, {"name": names[(i + 1) % 4]}]
                if i % 3 == 0:
                    players.append({"name": "Bot", "computer": "easy"})
                state = client.post("/api/games", json={"players": players}).json()
                play_api(client, state, state["tokens"])
        pool.close()
        engine = make_engine(url)
        began = time.perf_counter()
        current_ratings(engine)
        cold = time.perf_counter() - began
        began = time.perf_counter()
        current_ratings(engine)
        warm = time.perf_counter() - began
        engine.dispose()
    figures.add(f"ratings from scratch, {RATED} games", cold * 1000, "ms", "", 0)
    figures.add("ratings from scratch, a game", cold / RATED * 1000, "ms", "", 2)
    figures.add("ratings with nothing new", warm * 1000, "ms", "", 1)


def measure(figures: Figures) -> None:
    for fmt in ("single", "rounds:3"):
        games = logs(fmt)
        review(games[0])       # the solver's tables, once
        advice.review("warm", games[0])
        figures.add(f"`{fmt}`: the page's review (analysis and chart words), a game",
                    per_game(lambda log: advice.review("g", log), games) * 1000, "ms", "", 1)
        figures.add(f"`{fmt}`: the bare review of every decision, a game",
                    per_game(review, games) * 1000, "ms", "", 1)
    ratings(figures)


if __name__ == "__main__":
    run("bench_learning", __doc__.splitlines()[0], measure)
