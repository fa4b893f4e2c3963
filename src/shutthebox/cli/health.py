"""``shutthebox health``: ask the server on this machine whether it is ready (its
``/readyz``), for a service manager or a container's health check: exit status 0 if it is,
1 if not."""

from __future__ import annotations

from typing import Annotated

import typer

from shutthebox.language import N_, _


def health_command(
    url: Annotated[str | None, typer.Option("--url", help=N_(
        "the server's address (default: this machine's, at SHUTTHEBOX_PORT)"))] = None,
    wait: Annotated[float, typer.Option("--wait", min=0, max=3600, help=N_(
        "seconds to keep asking until it is ready (default: ask once)"))] = 0,
) -> None:
    """Ask the server on this machine whether it is ready: exit status 0 if it is, 1 if
    not (for a service manager or a container's health check)."""
    import time
    import urllib.error
    import urllib.request

    from shutthebox.web.settings import read_settings

    if url is None:
        settings = read_settings()
        host = settings.host if settings.host not in ("0.0.0.0", "::", "") else "127.0.0.1"
        host = f"[{host}]" if ":" in host else host
        url = f"http://{host}:{settings.port}"
    address = url.rstrip("/") + "/readyz"
    deadline = time.monotonic() + wait
    while True:
        try:
            with urllib.request.urlopen(address, timeout=5) as answer:
                print(answer.read().decode("utf-8", "replace"))
                return
        except urllib.error.HTTPError as error:
            said = error.read().decode("utf-8", "replace")
        except (OSError, ValueError) as error:
            said = str(error)
        if time.monotonic() >= deadline:
            print(_("not ready: {address}: {said}").format(address=address, said=said))
            raise SystemExit(1)
        time.sleep(1)


def register(app: typer.Typer) -> None:
    """Add the health command."""
    app.command("health")(health_command)
