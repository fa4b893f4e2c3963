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
) -> None:
    """Serve the web app: play in the browser, with hints, history and statistics."""
    import uvicorn

    from shutthebox.web.app import create_app
    from shutthebox.web.storage import default_url

    app = create_app(database_url)
    print(f"Shut the Box is at http://{host}:{port}/  (games stored in "
          f"{database_url or default_url()}; Ctrl+C stops)", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")


def register(app: typer.Typer) -> None:
    """Add the serve command."""
    app.command("serve")(serve_command)
