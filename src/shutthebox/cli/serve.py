"""``shutthebox serve``: the web app."""

from __future__ import annotations

from types import FrameType
from typing import Annotated

import typer

from shutthebox.language import N_


def serve_command(
    host: Annotated[str, typer.Option("--host", help=N_("address to listen on"))] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help=N_("port"))] = 8000,
    database_url: Annotated[str | None, typer.Option(
        "--database-url", help=N_("SQLAlchemy URL of the database (default: a SQLite file in "
        "the data folder, see the README); PostgreSQL: postgresql://user@host/db"))] = None,
    workers: Annotated[int, typer.Option(
        "--workers", min=1, max=16, help=N_("server processes (they share the database)"))] = 1,
    allowed_hosts: Annotated[str, typer.Option(
        "--allowed-hosts", help=N_("comma-separated host names the server answers for (the "
        "Host header); * for any. Add your machine's name or address to let friends on "
        "your network join"))] = "127.0.0.1,localhost,::1,[::1]",
    computer_delay: Annotated[float, typer.Option(
        "--computer-delay", min=0.0, max=10.0,
        help=N_("seconds between a computer player's steps, so they can be watched"))] = 0.5,
    rate_limit: Annotated[float, typer.Option(
        "--rate-limit", min=0.0, max=1_000_000.0,
        help=N_("requests a second per client address (a seat token gets 40 % of it; "
        "0: no limit)"))] = 50.0,
    solver_budget: Annotated[float, typer.Option(
        "--solver-budget", min=0.0, max=86_400.0,
        help=N_("seconds of solver time the server spends working out one match table; a new "
        "game whose computers need a dearer one is refused with what fits (or played "
        "approximately if its creator asks)"))] = 60.0,
    trusted_proxies: Annotated[str, typer.Option(
        "--trusted-proxies",
        help=N_("comma-separated addresses of reverse proxies whose X-Forwarded-For and "
        "X-Forwarded-Proto headers are believed (default: none; behind nginx on this "
        "machine: 127.0.0.1)"))] = "",
    max_connections: Annotated[int, typer.Option(
        "--max-connections", min=0, max=1_000_000,
        help=N_("open connections per server process (0: three quarters of the file "
        "descriptors it may open)"))] = 0,
    max_connections_per_client: Annotated[int, typer.Option(
        "--max-connections-per-client", min=0, max=1_000_000,
        help=N_("open connections from one client address (an IPv6 /64) per server process "
        "(0: no limit)"))] = 256,
) -> None:
    """Serve the web app: play in the browser with friends, with hints, history and
    statistics. Games are stored before each answer, so a restart resumes every game."""
    import os
    import signal

    import uvicorn

    from shutthebox.cli import fail
    from shutthebox.web.storage import default_url, make_engine, safe_url

    problem = listen_problem(host, port)
    if problem is not None:
        fail(problem)
    proxies = [p.strip() for p in trusted_proxies.split(",") if p.strip()]
    for proxy in proxies:
        if not _is_address(proxy):
            fail(f"--trusted-proxies: {proxy!r} is not an IP address or network")
    url = database_url or default_url()
    make_engine(url).dispose()   # a bad URL fails here, with a clear message; migrates
    os.environ["SHUTTHEBOX_DATABASE_URL"] = url
    os.environ["SHUTTHEBOX_ALLOWED_HOSTS"] = allowed_hosts
    os.environ["SHUTTHEBOX_COMPUTER_DELAY"] = str(computer_delay)
    os.environ["SHUTTHEBOX_RATE_LIMIT"] = str(rate_limit)
    os.environ["SHUTTHEBOX_SOLVER_BUDGET"] = str(solver_budget)
    os.environ["SHUTTHEBOX_MAX_CONNECTIONS"] = str(max_connections)
    os.environ["SHUTTHEBOX_MAX_CONNECTIONS_PER_CLIENT"] = str(max_connections_per_client)
    shown = f"[{host}]" if ":" in host else host
    print(f"Shut the Box is at http://{shown}:{port}/  (games stored in {safe_url(url)}; "
          "Ctrl+C stops)", flush=True)
    # The standard asyncio loop, not uvloop: under a saturating load uvloop leaves new
    # connections unanswered (a friend could not even open the page), where asyncio
    # answers them (the manual's architecture page gives the measurement).
    # uvicorn's protocols, leaving no garbage per connection (shutthebox.web.api.connections).
    from shutthebox.web.api.connections import HttpProtocol, WebSocketProtocol

    # uvicorn stops gracefully on SIGTERM (what `systemctl stop` and `docker stop` send),
    # then raises the signal again: under the signal's default action the process would die
    # of it (exit status -15) without Python's exit handlers, and a service manager would
    # call a clean stop a failure. So the signal ends the process through them, status 0.
    # (uvicorn's worker processes, under --workers N, still die of the signal: the solver
    # pool frees its own queues as the app stops, SolverPool.close.)
    signal.signal(signal.SIGTERM, _exit_quietly)
    # Forwarded headers only from the proxies named: uvicorn's own default believes them
    # from 127.0.0.1, so any local client could be a new address at every request (and
    # escape the rate limits). A stop waits at most a few seconds for answers under way (a
    # hint waiting on a long solve must not hold the server up).
    uvicorn.run("shutthebox.web.app:app_from_environment", factory=True, host=host,
                port=port, workers=workers, log_level="warning", access_log=False,
                loop="asyncio", http=HttpProtocol, ws=WebSocketProtocol,
                ws_max_size=65536, ws_per_message_deflate=False,
                proxy_headers=bool(proxies), forwarded_allow_ips=proxies or None,
                timeout_graceful_shutdown=GRACE_SECONDS)


GRACE_SECONDS = 3
"""Seconds a stopping server waits for the answers under way."""


def listen_problem(host: str, port: int) -> str | None:
    """Why the server could not listen at ``host:port`` (a name that does not resolve, an
    address not of this machine, a port in use or not allowed), or None if it can."""
    import socket

    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as error:
        return f"--host {host!r}: not an address or name this machine can listen on ({error})"
    family, kind, proto, _, address = found[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            reason = ("the port is in use: stop what uses it or choose another with --port"
                      if error.errno == 98 else error.strerror or str(error))
            return f"cannot listen at {host}:{port}: {reason}"
    return None


def _is_address(text: str) -> bool:
    import ipaddress

    try:
        ipaddress.ip_network(text, strict=False)
    except ValueError:
        return False
    return True


def _exit_quietly(signum: int, frame: FrameType | None) -> None:
    """SIGTERM, once the server has stopped: a normal exit, with Python's exit handlers."""
    raise SystemExit(0)


def register(app: typer.Typer) -> None:
    """Add the serve command."""
    app.command("serve")(serve_command)
