"""The server's metrics in the Prometheus text format (``/metrics``), through
``prometheus_client``; off unless the host turns them on (``--metrics``), and then nothing
is loaded or counted before :func:`enable`.

Under ``--workers N`` each server process writes its figures to files in the folder named
by ``PROMETHEUS_MULTIPROC_DIR`` (``shutthebox serve`` makes a fresh one and removes it as it
stops), and the process that answers a scrape adds up every process's figures
(prometheus_client's multiprocess mode). What the database holds (the games open) is read
from it at each scrape, so it is right whichever process answers.

The functions here are what the rest of the server calls; each does nothing while the
metrics are off.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

MULTIPROCESS_VARIABLE = "PROMETHEUS_MULTIPROC_DIR"
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0)
"""Seconds: a move takes a few milliseconds, a hint up to seconds."""


class _Figures:
    """The metrics themselves, made once a process by :func:`enable`."""

    def __init__(self) -> None:
        from prometheus_client import Counter, Gauge, Histogram

        self.requests = Counter("shutthebox_requests", "requests answered, by route and status",
                                ["route", "method", "status"])
        self.latency = Histogram("shutthebox_request_seconds", "time to answer a request, "
                                 "by route", ["route"], buckets=LATENCY_BUCKETS)
        self.refusals = Counter("shutthebox_refusals", "requests refused, by reason",
                                ["reason"])
        self.moves = Counter("shutthebox_moves_stored", "changes of games stored: a "
                             "person's move, or the server's roll or computer's move")
        self.feeds = Gauge("shutthebox_live_feeds", "live feeds open",
                           multiprocess_mode="livesum")
        self.queue = Gauge("shutthebox_solver_queue", "solver calls under way or waiting, "
                           "match tables waiting or being built", multiprocess_mode="livesum")
        self.builds = Counter("shutthebox_table_builds", "match tables built, by outcome",
                              ["outcome"])
        self.database_errors = Counter("shutthebox_database_errors", "requests that failed "
                                       "because the database did not answer")


_figures: _Figures | None = None


def enable() -> None:
    """Turn the metrics on in this process (again: nothing more)."""
    global _figures
    if _figures is None:
        _figures = _Figures()


def enabled() -> bool:
    return _figures is not None


def answered(route: str, method: str, status: int, seconds: float) -> None:
    """A request answered (a live feed: when it ends)."""
    if _figures is not None:
        _figures.requests.labels(route, method, str(status)).inc()
        _figures.latency.labels(route).observe(seconds)


def refused(reason: str) -> None:
    """A request refused, for ``reason`` (a short name: ``rate-limit``, ``NotYourTurn``)."""
    if _figures is not None:
        _figures.refusals.labels(reason).inc()


def moves_stored() -> None:
    """A change of a game stored: a person's move, or a step of the server's (a roll, a
    computer's move)."""
    if _figures is not None:
        _figures.moves.inc()


def feed_opened(change: int) -> None:
    """A live feed opened (1) or closed (-1)."""
    if _figures is not None:
        _figures.feeds.inc(change)


def solver_queue(length: int) -> None:
    if _figures is not None:
        _figures.queue.set(length)


def table_built(outcome: str) -> None:
    """A match table's build ended: ``built``, ``dropped`` or ``failed``."""
    if _figures is not None:
        _figures.builds.labels(outcome).inc()


def database_error() -> None:
    if _figures is not None:
        _figures.database_errors.inc()


def process_ended() -> None:
    """This server process stops: its live gauges leave the sums (multiprocess mode)."""
    if _figures is not None and os.environ.get(MULTIPROCESS_VARIABLE):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(os.getpid())  # type: ignore[no-untyped-call]


def scrape(games_open: Callable[[], dict[str, int]]) -> tuple[bytes, str]:
    """The text of a scrape and its content type: every process's figures, and
    ``games_open()`` (the games by status, as the database holds them)."""
    from prometheus_client import (
        CONTENT_TYPE_LATEST,
        REGISTRY,
        CollectorRegistry,
        generate_latest,
    )
    from prometheus_client.core import GaugeMetricFamily

    enable()
    if os.environ.get(MULTIPROCESS_VARIABLE):
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    else:
        registry = REGISTRY

    class _Games:
        def collect(self) -> Iterator[Any]:
            family = GaugeMetricFamily("shutthebox_games", "games held, by status",
                                       labels=["status"])
            for status, count in sorted(games_open().items()):
                family.add_metric([status], count)
            yield family

    games = CollectorRegistry(auto_describe=False)
    games.register(_Games())
    return generate_latest(registry) + generate_latest(games), CONTENT_TYPE_LATEST
