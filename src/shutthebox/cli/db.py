"""``shutthebox db current`` and ``shutthebox db upgrade``: the server database's schema
revision, and its migration to this version's (which ``shutthebox serve`` also does as it
starts). A database migrated by a newer version is refused in one line."""

from __future__ import annotations

from typing import Annotated

import typer

from shutthebox.cli.backup import DATABASE_HELP, database_url
from shutthebox.language import N_, _

CURRENT = N_("Say the database's schema revision and this version's.")
UPGRADE = N_("Migrate the database to this version's schema revision.")

Database = Annotated[str | None, typer.Option("--database-url", help=DATABASE_HELP)]


def current_command(database: Database = None) -> None:
    """Say the database's schema revision and this version's (see :data:`CURRENT`)."""
    from shutthebox.web.storage import make_engine, safe_url
    from shutthebox.web.storage.revisions import checked_revision, code_revision

    url = database_url(database)
    engine = make_engine(url, migrate=False, pool_size=1)
    try:
        found, wanted = checked_revision(engine), code_revision()
    finally:
        engine.dispose()
    if found == wanted:
        print(_("{database}: revision {revision}, this version's").format(
            database=safe_url(url), revision=found))
    else:
        print(_("{database}: revision {revision}, behind this version's {wanted}: run "
                "shutthebox db upgrade (or start the server)").format(
                    database=safe_url(url), revision=found, wanted=wanted))


def upgrade_command(database: Database = None) -> None:
    """Migrate the database to this version's schema revision (see :data:`UPGRADE`)."""
    from shutthebox.web.storage import make_engine, safe_url
    from shutthebox.web.storage.engine import StorageError
    from shutthebox.web.storage.revisions import checked_revision, code_revision

    url = database_url(database)
    engine = make_engine(url, migrate=False, pool_size=1)
    try:
        before: str | None = checked_revision(engine)
    except StorageError as error:
        if "holds no shutthebox database" not in str(error):
            raise
        before = None           # (a new database: made now)
    finally:
        engine.dispose()
    make_engine(url).dispose()
    print(_("{database}: revision {before} -> {after}").format(
        database=safe_url(url), before=before or _("none"), after=code_revision()))


def register(app: typer.Typer) -> None:
    """Add the db command and its own."""
    from shutthebox.cli import SpokenGroup, SpokenTyper

    db = SpokenTyper(no_args_is_help=True, cls=SpokenGroup)
    db.command("current", help=CURRENT)(current_command)
    db.command("upgrade", help=UPGRADE)(upgrade_command)
    app.add_typer(db, name="db")
