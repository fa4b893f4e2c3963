"""A database by URL: SQLite (a file in the data folder) by default, PostgreSQL (or any
database SQLAlchemy knows) otherwise; its engine made with the settings each needs, its
schema migrated by Alembic, and its errors told without the URL's password."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError

from shutthebox.errors import ShutTheBoxError
from shutthebox.paths import data_dir

MIGRATIONS = Path(__file__).parent / "migrations"


POOL_SIZE = 10
"""Database connections a server process holds at most (besides, on PostgreSQL, one that
listens for the other processes' news and one that sends this one's): on PostgreSQL,
:data:`REQUEST_POOL` for the requests' work and :data:`BACKGROUND_POOL` for the server's
background tasks (see :class:`~shutthebox.web.storage.PooledStore`)."""
BACKGROUND_POOL = 2
REQUEST_POOL = POOL_SIZE - BACKGROUND_POOL
POOL_WAIT = 30.0
"""Seconds a request waits for a free connection of the pool before it fails (503)."""


class StorageError(ShutTheBoxError):
    """A database that cannot be used."""


def default_url() -> str:
    return f"sqlite:///{data_dir() / 'shutthebox.sqlite'}"


def safe_url(url: str) -> str:
    """The URL as it may be shown: the password masked.

    >>> safe_url("postgresql+psycopg://ann:secret@db.example/games")
    'postgresql+psycopg://ann:***@db.example/games'
    """
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "<an unreadable database URL>"


def is_postgresql(engine: Engine) -> bool:
    return engine.dialect.name == "postgresql"


def make_engine(url: str | None = None, migrate: bool = True,
                pool_size: int | None = None) -> Engine:
    """An engine for the URL (the default SQLite file if None), its schema migrated to the
    newest version, with at most ``pool_size`` connections open (by default
    :data:`POOL_SIZE`; on PostgreSQL :data:`BACKGROUND_POOL`, the requests' work having
    a pool of its own, :class:`~shutthebox.web.storage.PooledStore`)."""
    url = url or default_url()
    try:
        parsed = make_url(url)
        if parsed.drivername in ("postgresql", "postgres"):
            parsed = parsed.set(drivername="postgresql+psycopg")
        sqlite = parsed.get_backend_name() == "sqlite"
        if pool_size is None:
            pool_size = POOL_SIZE if sqlite else BACKGROUND_POOL
        # One bounded pool a process: at most ``pool_size`` connections, never more
        # ("overflow" none), so that the processes a host runs fit the database's
        # max_connections (the manual's deploying page says how to size it). A request
        # finding every connection in use waits for one (up to ``POOL_WAIT`` seconds)
        # rather than being refused. No ping before each use: a connection found dead
        # fails its request (503) and has the pool drop every connection made before it,
        # so the next request connects afresh.
        engine = create_engine(
            parsed, connect_args={"check_same_thread": False} if sqlite else {},
            pool_size=pool_size, max_overflow=0, pool_timeout=POOL_WAIT)
    except (ArgumentError, NoSuchModuleError, ImportError) as error:
        raise StorageError(f"cannot use the database URL {safe_url(url)!r}: "
                           f"{_scrub(str(error), url)}") from None
    if sqlite:
        @event.listens_for(engine, "connect")
        def _pragmas(connection: Any, _record: Any) -> None:
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA busy_timeout=5000")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()
    if migrate:
        try:
            upgrade(engine)
        except StorageError:
            engine.dispose()
            raise
        except DBAPIError as error:
            engine.dispose()
            reason = _scrub(str(error.orig).strip().splitlines()[0] if str(error.orig).strip()
                            else type(error.orig).__name__, url)
            raise StorageError(f"cannot open the database {safe_url(url)!r}: {reason}") from None
    return engine


def _scrub(message: str, url: str) -> str:
    """A driver's message with the URL and its password taken out."""
    message = message.replace(url, safe_url(url))
    try:
        password = make_url(url).password
    except ArgumentError:
        return "the URL cannot be read"
    return message.replace(str(password), "***") if password else message


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Migrate the database to ``revision`` with Alembic. A database made by release 0.1
    (its tables, no version) is first marked as being at that release's schema."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import inspect

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        if is_postgresql(engine):   # one migration at a time across servers starting at once
            connection.execute(text("SELECT pg_advisory_xact_lock(7245102)"))
        config.attributes["connection"] = connection
        tables = set(inspect(connection).get_table_names())
        if "games" in tables and "alembic_version" not in tables:
            command.stamp(config, "0001")
        unknown = unknown_revisions(connection, config)
        if unknown:
            raise StorageError(
                f"the database {safe_url(engine.url.render_as_string(hide_password=False))!r} "
                f"is at revision {', '.join(map(repr, unknown))}, which this version of "
                "shutthebox does not know (a newer one migrated it?): run the newer version, "
                "or restore the database from a backup")
        command.upgrade(config, revision)


def unknown_revisions(connection: Connection, config: Any) -> list[str]:
    """The revisions the database says it is at that none of our migrations names (a newer
    release's): migrating from them would fail deep inside Alembic."""
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    known = {script.revision for script in ScriptDirectory.from_config(config).walk_revisions()}
    current = MigrationContext.configure(connection).get_current_heads()
    return [revision for revision in current if revision not in known]


def driver_error(connection: Connection, statement: str, params: Any,
                 error: Exception) -> DBAPIError:
    """A driver's error, from a statement run on the driver's own connection, as the
    SQLAlchemy error that statement would have raised through SQLAlchemy."""
    return cast(DBAPIError, DBAPIError.instance(  # a driver's error: a DBAPIError
        statement, params, error, connection.dialect.dbapi.Error))  # type: ignore[union-attr]
