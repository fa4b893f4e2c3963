"""``shutthebox backup`` and ``shutthebox restore``: the server's database copied while it
runs, and a copy restored into an empty data folder or database
(:mod:`shutthebox.web.storage.backups`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from shutthebox.language import N_, _

DATABASE_HELP = N_("SQLAlchemy URL of the database (default: SHUTTHEBOX_DATABASE_URL, else the "
                   "SQLite file in the data folder)")


def database_url(given: str | None) -> str:
    """The database the command acts on: the option, else the server's setting, else the
    SQLite file of the data folder."""
    from shutthebox.web.settings import read_settings
    from shutthebox.web.storage import default_url

    return read_settings(database_url=given).database_url or default_url()


def summary(counts: dict[str, int]) -> str:
    return _("{games} games, {rows} rows in all").format(
        games=counts.get("games", 0), rows=sum(counts.values()))


def backup_command(
    file: Annotated[Path, typer.Argument(help=N_("the backup file to write (a new file)"))],
    database: Annotated[str | None, typer.Option("--database-url", help=DATABASE_HELP)] = None,
) -> None:
    """Back up the server's games while it runs: SQLite through its online backup (the copy
    is a SQLite file), PostgreSQL as one consistent export (a gzip file of JSON lines)."""
    from shutthebox.web.storage import safe_url
    from shutthebox.web.storage.backups import backup

    url = database_url(database)
    made = backup(url, file)
    print(_("Backed up {database} into {file}: {summary}").format(
        database=safe_url(url), file=file, summary=summary(made["rows"])))


def restore_command(
    file: Annotated[Path, typer.Argument(help=N_("a file written by shutthebox backup"))],
    database: Annotated[str | None, typer.Option("--database-url", help=DATABASE_HELP)] = None,
) -> None:
    """Restore a backup into an empty database (either kind, from either kind), migrated to
    this version's schema; stop the server first, start it after."""
    from shutthebox.web.storage import safe_url
    from shutthebox.web.storage.backups import restore

    url = database_url(database)
    counts = restore(file, url)
    print(_("Restored {file} into {database}: {summary}").format(
        database=safe_url(url), file=file, summary=summary(counts)))


def register(app: typer.Typer) -> None:
    """Add the backup and restore commands."""
    app.command("backup")(backup_command)
    app.command("restore")(restore_command)
