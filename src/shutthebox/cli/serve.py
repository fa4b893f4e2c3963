"""``shutthebox serve``: the web app."""

from __future__ import annotations

from typing import Annotated

import typer


def serve_command(
    host: Annotated[str, typer.Option("--host", help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="port")] = 8000,
    database_url: Annotated[str | None, typer.Option(
        "--database-url", help="SQLAlchemy URL of the database (default: a SQLite file in "
        "the data folder, see the README)")] = None,
    workers: Annotated[int, typer.Option(
        "--workers", min=1, max=16, help="server processes (they share the database)")] = 1,
) -> None:
    """Serve the web app: play in the browser, with hints, history and statistics."""
    import os

    import uvicorn

    from shutthebox.web.storage import default_url, make_engine

    url = database_url or default_url()
    make_engine(url).dispose()   # a bad URL fails here, with a clear message
    os.environ["SHUTTHEBOX_DATABASE_URL"] = url
    print(f"Shut the Box is at http://{host}:{port}/  (games stored in {url}; "
          "Ctrl+C stops)", flush=True)
    uvicorn.run("shutthebox.web.app:app_from_environment", factory=True, host=host,
                port=port, workers=workers, log_level="warning")


def register(app: typer.Typer) -> None:
    """Add the serve command."""
    app.command("serve")(serve_command)
