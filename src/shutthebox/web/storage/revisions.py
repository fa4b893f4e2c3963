"""Schema revisions: the one this version's code migrates to, and the one a database is
at (Alembic's ``alembic_version`` table)."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from sqlalchemy import inspect, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError

from shutthebox.language import _
from shutthebox.web.storage.engine import MIGRATIONS, StorageError, safe_url

VERSION_TABLE = "alembic_version"


@functools.cache
def _scripts() -> Any:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return ScriptDirectory.from_config(config)


def code_revision() -> str:
    """The schema revision this version of the code migrates to (Alembic's head)."""
    return str(_scripts().get_current_head())


def known_revisions() -> set[str]:
    """Every revision this version's migrations name."""
    return {script.revision for script in _scripts().walk_revisions()}


def checked_revision(engine: Engine) -> str:
    """The database's revision, one this version knows.

    :raises StorageError: it holds no shutthebox schema, or a newer version migrated it.
    """
    found = database_revision(engine)
    if found not in known_revisions():
        raise StorageError(_(
            "the database {database!r} is at revision {revision!r}, which this version of "
            "shutthebox does not know (a newer one migrated it?): run the newer version, or "
            "restore the database from a backup").format(
                database=safe_url(engine.url.render_as_string(False)), revision=found))
    return found


def database_revision(engine: Engine) -> str:
    """The schema revision the database is at.

    :raises StorageError: it cannot be opened, or holds no shutthebox schema."""
    shown = safe_url(engine.url.render_as_string(False))
    database = engine.url.database
    if engine.url.get_backend_name() == "sqlite" and database and database != ":memory:" \
            and not Path(database).exists():    # (connecting would make an empty file)
        raise StorageError(_("{database!r} holds no shutthebox database: no such "
                             "file").format(database=shown))
    try:
        with engine.connect() as connection:
            if VERSION_TABLE not in inspect(connection).get_table_names():
                raise StorageError(_("{database!r} holds no shutthebox database").format(
                    database=shown))
            found = connection.execute(
                text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar()
    except DBAPIError as error:
        reason = str(error.orig).strip().splitlines()[0] if str(error.orig).strip() \
            else type(error.orig).__name__
        raise StorageError(_("cannot open the database {database!r}: {reason}").format(
            database=shown, reason=reason)) from None
    return str(found)
