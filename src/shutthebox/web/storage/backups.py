"""Backups of the server's database while it runs, and their restore into an empty one.

A SQLite database is copied with SQLite's online backup API: the copy is a SQLite file
holding every transaction committed when the copy ended (its write-ahead log included),
which SQLite itself can open. Any other database (PostgreSQL) is exported row by row inside
one ``REPEATABLE READ`` transaction, so the export is one moment of the database: a gzip
file of JSON lines, a header first (the schema revision, the version that made it), then
one line a row, the tables in the order their foreign keys need.

A restore takes either kind of backup into an empty database of either kind: the schema is
made at the backup's revision, the rows copied, then the schema migrated to this version's
(so a backup made by an older version restores into a newer one).
"""

from __future__ import annotations

import gzip
import json
import shutil
import sqlite3
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from sqlalchemy import MetaData, Table, create_engine, func, insert, select, text
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.types import DateTime

from shutthebox.language import _
from shutthebox.web.storage.engine import (
    StorageError,
    default_url,
    make_engine,
    safe_url,
    upgrade,
)
from shutthebox.web.storage.revisions import VERSION_TABLE, database_revision

FORMAT = "shutthebox-backup"
SQLITE_MAGIC = b"SQLite format 3\x00"
GZIP_MAGIC = b"\x1f\x8b"
BATCH = 500
"""Rows inserted at once by a restore."""


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite URL, or None for another database."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return None
    if not parsed.database or parsed.database == ":memory:":
        raise StorageError(_("a backup needs a database file, not {database!r}").format(
            database=safe_url(url)))
    return Path(parsed.database)


def backup(url: str | None, target: Path) -> dict[str, Any]:
    """Back up the database at ``url`` (the default SQLite file if None) into ``target``
    (which must not exist); what was copied: its kind and the rows of each table."""
    url = url or default_url()
    if target.exists():
        raise StorageError(_("{file!r} exists already: name a new file").format(
            file=str(target)))
    engine = make_engine(url, migrate=False, pool_size=1)
    try:
        database_revision(engine)       # (a database that is not ours fails here)
        partial = target.with_name(target.name + ".partial")
        source = sqlite_file(url)
        if source is not None:
            _sqlite_copy(source, partial)
            kind = "sqlite"
        else:
            with gzip.open(partial, "wt", encoding="utf-8") as out:
                _export(engine, out)
            kind = "export"
        partial.replace(target)
    finally:
        engine.dispose()
    return {"kind": kind, "rows": counts_in(target)}


def _sqlite_copy(source: Path, target: Path) -> None:
    """SQLite's online backup: pages are copied while others write; the copy holds every
    transaction committed when it ended."""
    with sqlite3.connect(f"file:{source}?mode=ro", uri=True) as reading, \
            sqlite3.connect(target) as writing:
        reading.execute("PRAGMA busy_timeout=5000")
        reading.backup(writing)
    with sqlite3.connect(target) as written:   # one file, readable without a WAL beside it
        written.execute("PRAGMA journal_mode=DELETE")
    reading.close()
    writing.close()
    written.close()


def _tables(connection: Connection) -> list[Table]:
    """The database's own tables (not Alembic's), parents before children."""
    metadata = MetaData()
    metadata.reflect(connection)
    return [table for table in metadata.sorted_tables if table.name != VERSION_TABLE]


def _export(engine: Engine, out: IO[str]) -> None:
    from shutthebox import __version__

    with engine.connect().execution_options(isolation_level="REPEATABLE READ") as connection, \
            connection.begin():
        found = connection.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar()
        tables = _tables(connection)
        out.write(json.dumps({"format": FORMAT, "revision": found, "made_by": __version__,
                              "tables": [table.name for table in tables]}) + "\n")
        for table in tables:
            rows = connection.execution_options(stream_results=True, yield_per=BATCH).execute(
                select(table).order_by(*table.primary_key.columns))
            for row in rows.mappings():
                out.write(json.dumps({"table": table.name, "row": dict(row)},
                                     default=_encode) + "\n")


def _encode(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"cannot write {type(value).__name__} in a backup")


def kind_of(source: Path) -> str:
    """``sqlite`` or ``export``, by the file's first bytes."""
    with source.open("rb") as start:
        head = start.read(16)
    if head == SQLITE_MAGIC:
        return "sqlite"
    if head[:2] == GZIP_MAGIC:
        return "export"
    raise StorageError(_("{file!r} is not a shutthebox backup").format(file=str(source)))


def _export_header(source: Path) -> dict[str, Any]:
    try:
        with gzip.open(source, "rt", encoding="utf-8") as lines:
            header: dict[str, Any] = json.loads(lines.readline())
    except (OSError, ValueError, EOFError):
        header = {}
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise StorageError(_("{file!r} is not a shutthebox backup").format(file=str(source)))
    return header


def _export_rows(source: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    with gzip.open(source, "rt", encoding="utf-8") as lines:
        lines.readline()
        for line in lines:
            item = json.loads(line)
            yield item["table"], item["row"]


def _sqlite_rows(engine: Engine) -> Iterator[tuple[str, dict[str, Any]]]:
    with engine.connect() as connection:
        for table in _tables(connection):
            for row in connection.execute(select(table)).mappings():
                yield table.name, dict(row)


def counts_in(source: Path) -> dict[str, int]:
    """The rows of each table a backup holds."""
    counts: dict[str, int] = {}
    if kind_of(source) == "export":
        for table in _export_header(source)["tables"]:
            counts[table] = 0
        for table, _row in _export_rows(source):
            counts[table] += 1
        return counts
    engine = create_engine(f"sqlite:///{source}")
    try:
        with engine.connect() as connection:
            for table in _tables(connection):
                counts[table.name] = connection.execute(
                    select(func.count()).select_from(table)).scalar_one()
    finally:
        engine.dispose()
    return counts


def restore(source: Path, url: str | None) -> dict[str, int]:
    """Restore the backup ``source`` into the empty database at ``url`` (the default SQLite
    file if None); the rows of each table restored.

    :raises StorageError: the backup cannot be read, the database is not empty, or the
        backup is of a revision this version does not know.
    """
    url = url or default_url()
    if not source.is_file():
        raise StorageError(_("no backup file {file!r}").format(file=str(source)))
    kind = kind_of(source)
    target = sqlite_file(url)
    if target is not None and kind == "sqlite" and not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)         # the backup is the database itself
        make_engine(url).dispose()              # migrated to this version's schema
        return counts_in(source)
    reading: Engine | None = None
    if kind == "sqlite":
        reading = create_engine(f"sqlite:///{source}")
        found = database_revision(reading)
        rows = _sqlite_rows(reading)
    else:
        found = str(_export_header(source)["revision"])
        rows = _export_rows(source)
    engine = make_engine(url, migrate=False)
    try:
        try:
            _refuse_unless_empty(engine, url)
        except DBAPIError as error:
            raise StorageError(_("cannot open the database {database!r}: {reason}").format(
                database=safe_url(url),
                reason=str(error.orig).strip().splitlines()[0])) from None
        try:
            upgrade(engine, found)
        except Exception as error:
            raise StorageError(_("the backup is at revision {revision!r}, which this "
                                 "version cannot make: {reason}").format(
                revision=found, reason=str(error).splitlines()[0])) from None
        counts = _insert(engine, rows)
        upgrade(engine)
    finally:
        engine.dispose()
        if reading is not None:
            reading.dispose()
    return counts


def _refuse_unless_empty(engine: Engine, url: str) -> None:
    with engine.connect() as connection:
        for table in _tables(connection):
            if connection.execute(select(func.count()).select_from(table)).scalar_one():
                raise StorageError(_("{database!r} is not empty (its table {table!r} has "
                                     "rows): restore into a new database").format(
                    database=safe_url(url), table=table.name))


def _insert(engine: Engine, rows: Iterator[tuple[str, dict[str, Any]]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    with engine.begin() as connection:
        tables = {table.name: table for table in _tables(connection)}
        waiting: list[dict[str, Any]] = []
        current: Table | None = None
        for name, row in rows:
            table = tables.get(name)
            if table is None:
                raise StorageError(_("the backup has a table {table!r} its revision does "
                                     "not").format(table=name))
            if table is not current:
                _flush(connection, current, waiting)
                current = table
            waiting.append(_decoded(table, row))
            counts[name] = counts.get(name, 0) + 1
            if len(waiting) >= BATCH:
                _flush(connection, current, waiting)
        _flush(connection, current, waiting)
    return counts


def _decoded(table: Table, row: dict[str, Any]) -> dict[str, Any]:
    """A row as read back from JSON: its times as times again."""
    for column in table.columns:
        value = row.get(column.name)
        if isinstance(value, str) and isinstance(column.type, DateTime):
            row[column.name] = datetime.fromisoformat(value)
    return row


def _flush(connection: Connection, table: Table | None, rows: list[dict[str, Any]]) -> None:
    if table is not None and rows:
        connection.execute(insert(table), rows)
    rows.clear()
