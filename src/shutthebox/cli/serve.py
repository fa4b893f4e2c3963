"""``shutthebox serve``: the web app."""

from __future__ import annotations

from types import FrameType
from typing import Annotated

import typer

from shutthebox.web.settings import describe


def serve_command(
    host: Annotated[str | None, typer.Option("--host", help=describe("host"))] = None,
    port: Annotated[int | None, typer.Option("--port", help=describe("port"))] = None,
    database_url: Annotated[str | None, typer.Option(
        "--database-url", help=describe("database_url"))] = None,
    workers: Annotated[int | None, typer.Option("--workers", help=describe("workers"))] = None,
    allowed_hosts: Annotated[str | None, typer.Option(
        "--allowed-hosts", help=describe("allowed_hosts"))] = None,
    computer_delay: Annotated[float | None, typer.Option(
        "--computer-delay", help=describe("computer_delay"))] = None,
    rate_limit: Annotated[float | None, typer.Option(
        "--rate-limit", help=describe("rate_limit"))] = None,
    solver_budget: Annotated[float | None, typer.Option(
        "--solver-budget", help=describe("solver_budget"))] = None,
    trusted_proxies: Annotated[str | None, typer.Option(
        "--trusted-proxies", help=describe("trusted_proxies"))] = None,
    max_connections: Annotated[int | None, typer.Option(
        "--max-connections", help=describe("max_connections"))] = None,
    max_connections_per_client: Annotated[int | None, typer.Option(
        "--max-connections-per-client", help=describe("max_connections_per_client"))] = None,
    http: Annotated[str | None, typer.Option("--http", help=describe("http"))] = None,
    log_level: Annotated[str | None, typer.Option(
        "--log-level", help=describe("log_level"))] = None,
    access_log: Annotated[bool | None, typer.Option(
        "--access-log/--no-access-log", help=describe("access_log"))] = None,
    log_format: Annotated[str | None, typer.Option(
        "--log-format", help=describe("log_format"))] = None,
    metrics: Annotated[bool | None, typer.Option(
        "--metrics/--no-metrics", help=describe("metrics"))] = None,
    metrics_from: Annotated[str | None, typer.Option(
        "--metrics-from", help=describe("metrics_from"))] = None,
    metrics_token: Annotated[str | None, typer.Option(
        "--metrics-token", help=describe("metrics_token"))] = None,
    admin_token: Annotated[str | None, typer.Option(
        "--admin-token", help=describe("admin_token"))] = None,
    admin_from: Annotated[str | None, typer.Option(
        "--admin-from", help=describe("admin_from"))] = None,
) -> None:
    """Serve the web app: play in the browser with friends, with hints, history and
    statistics. Games are stored before each answer, so a restart resumes every game.
    Every option can be set by its environment variable instead (an option given wins)."""
    import os
    import shutil
    import signal
    import tempfile

    import uvicorn

    from shutthebox.cli import fail
    from shutthebox.language import _
    from shutthebox.paths import data_dir
    from shutthebox.web.api.checks import SECURITY_HEADERS
    from shutthebox.web.api.descriptors import connection_limit
    from shutthebox.web.limits import TABLE_VARIABLE, table_file
    from shutthebox.web.logs import logging_config
    from shutthebox.web.metrics import MULTIPROCESS_VARIABLE
    from shutthebox.web.settings import read_settings
    from shutthebox.web.storage import default_url, make_engine, safe_url

    settings = read_settings(
        host=host, port=port, database_url=database_url, workers=workers,
        allowed_hosts=allowed_hosts, computer_delay=computer_delay, rate_limit=rate_limit,
        solver_budget=solver_budget, trusted_proxies=trusted_proxies,
        max_connections=max_connections, max_connections_per_client=max_connections_per_client,
        http=http, log_level=log_level, access_log=access_log, log_format=log_format,
        metrics=metrics, metrics_from=metrics_from, metrics_token=metrics_token,
        admin_token=admin_token, admin_from=admin_from)
    problem = listen_problem(settings.host, settings.port)
    if problem is not None:
        fail(problem)
    url = settings.database_url or default_url()
    make_engine(url).dispose()   # a bad URL fails here, with a clear message; migrates
    os.environ.update(settings.environment())       # what the worker processes read
    os.environ["SHUTTHEBOX_DATABASE_URL"] = url
    shown = f"[{settings.host}]" if ":" in settings.host else settings.host
    print(_("Shut the Box is at {address}  (games stored in {database}; Ctrl+C stops)").format(
          address=f"http://{shown}:{settings.port}/", database=safe_url(url)), flush=True)
    # uvicorn stops gracefully on SIGTERM (what `systemctl stop` and `docker stop` send),
    # then raises the signal again: under the signal's default action the process would die
    # of it (exit status -15) without Python's exit handlers, and a service manager would
    # call a clean stop a failure. So the signal ends the process through them, status 0.
    # (uvicorn's worker processes, under --workers N, still die of the signal: the solver
    # pool frees its own queues as the app stops, SolverPool.close.)
    signal.signal(signal.SIGTERM, _exit_quietly)
    rates = table_file(data_dir(), settings.port)   # the workers' rate limits (web/limits.py)
    os.environ[TABLE_VARIABLE] = str(rates)
    figures = None
    if settings.metrics:    # each process's figures in files there, summed at a scrape
        figures = tempfile.mkdtemp(prefix="shutthebox-metrics-")
        os.environ[MULTIPROCESS_VARIABLE] = figures
    try:
        # The standard asyncio loop, not uvloop: under a saturating load uvloop leaves new
        # connections unanswered (a friend could not even open the page), where asyncio
        # answers them (the manual's architecture page gives the measurement). The
        # sans-I/O WebSocket protocol runs no task of its own per live feed. Forwarded
        # headers only from the proxies named: uvicorn's own default believes them from
        # 127.0.0.1, so any local client could be a new address at every request (and
        # escape the rate limits). A stop waits at most a few seconds for answers under
        # way (a hint waiting on a long solve must not hold the server up). The security
        # headers go on every answer, uvicorn's own (400, 503) too.
        uvicorn.run("shutthebox.web.app:app_from_environment", factory=True,
                    host=settings.host, port=settings.port, workers=settings.workers,
                    log_config=logging_config(settings.log_level, settings.log_format),
                    log_level=settings.log_level, access_log=False, loop="asyncio",
                    http=settings.http, h11_max_incomplete_event_size=MAX_HEAD,
                    ws="websockets-sansio", ws_max_size=WS_MAX_SIZE,
                    ws_per_message_deflate=False,
                    limit_concurrency=connection_limit(settings.max_connections),
                    headers=[(name.decode(), value.decode())
                             for name, value in SECURITY_HEADERS],
                    proxy_headers=bool(settings.proxies),
                    forwarded_allow_ips=settings.proxies or None,
                    timeout_graceful_shutdown=GRACE_SECONDS)
    finally:
        rates.unlink(missing_ok=True)
        if figures is not None:
            shutil.rmtree(figures, ignore_errors=True)


MAX_HEAD = 16 * 1024
"""Bytes of a request's line and headers (with ``--http h11``; 400 beyond)."""
WS_MAX_SIZE = 64 * 1024
"""Bytes of one message a live feed takes (the socket is closed, 1009, beyond)."""
GRACE_SECONDS = 3
"""Seconds a stopping server waits for the answers under way."""


def listen_problem(host: str, port: int) -> str | None:
    """Why the server could not listen at ``host:port`` (a name that does not resolve, an
    address not of this machine, a port in use or not allowed), or None if it can."""
    import socket

    from shutthebox.language import _

    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as error:
        return _("--host {host!r}: not an address or name this machine can listen on "
                 "({error})").format(host=host, error=error)
    family, kind, proto, _name, address = found[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            reason = (_("the port is in use: stop what uses it or choose another with --port")
                      if error.errno == 98 else error.strerror or str(error))
            return _("cannot listen at {host}:{port}: {reason}").format(
                host=host, port=port, reason=reason)
    return None


def _exit_quietly(signum: int, frame: FrameType | None) -> None:
    """SIGTERM, once the server has stopped: a normal exit, with Python's exit handlers."""
    raise SystemExit(0)


def register(app: typer.Typer) -> None:
    """Add the serve command."""
    app.command("serve")(serve_command)
