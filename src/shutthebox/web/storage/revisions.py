"""Schema revisions: the one this version's code migrates to, and the one a database is
at (Alembic's ``alembic_version`` table)."""

from __future__ import annotations

import functools
from typing import Any

from sqlalchemy import inspect, text
from sqlalchemy.engine import Engine

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
        raise StorageError(
            f"the database {safe_url(engine.url.render_as_string(False))!r} is at revision "
            f"{found!r}, which this version of shutthebox does not know (a newer one "
            "migrated it?): run the newer version, or restore the database from a backup")
    return found


def database_revision(engine: Engine) -> str:
    """The schema revision the database is at.

    :raises StorageError: it holds no shutthebox schema."""
    with engine.connect() as connection:
        if VERSION_TABLE not in inspect(connection).get_table_names():
            raise StorageError(f"{safe_url(engine.url.render_as_string(False))!r} holds no "
                               "shutthebox database")
        found = connection.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar()
    return str(found)
