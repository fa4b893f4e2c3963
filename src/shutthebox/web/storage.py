"""Storage with SQLAlchemy 2: one row per game, one row per event of its log.

SQLite (a file in the data folder) by default; any database by URL. A game's events are
appended in the same transaction that moves its ``event_count`` on, so a request that acts
on a game either stores all it did or nothing.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import (
    JSON,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, OperationalError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

from shutthebox.errors import ShutTheBoxError
from shutthebox.paths import data_dir


class StorageError(ShutTheBoxError):
    """A database that cannot be used."""


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[list[Any]] = mapped_column(JSON)
    """Per seat: null for a human, or the computer strategy's name."""
    status: Mapped[str] = mapped_column(String(16), index=True)
    event_count: Mapped[int] = mapped_column(Integer, default=0)
    created: Mapped[datetime] = mapped_column(DateTime)
    updated: Mapped[datetime] = mapped_column(DateTime)


class EventRow(Base):
    __tablename__ = "events"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    data: Mapped[str] = mapped_column(Text)


class PlayerResultRow(Base):
    """One finished turn-based game's result for one human or computer player."""

    __tablename__ = "results"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player: Mapped[str] = mapped_column(String(80), index=True)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    format: Mapped[str] = mapped_column(String(32))
    won: Mapped[float] = mapped_column()
    scores: Mapped[list[int]] = mapped_column(JSON)
    """The player's turn scores in this game."""
    shut_boxes: Mapped[int] = mapped_column(Integer)
    finished: Mapped[datetime] = mapped_column(DateTime)


GAMES = cast(Table, GameRow.__table__)
EVENTS = cast(Table, EventRow.__table__)
RESULTS = cast(Table, PlayerResultRow.__table__)
"""The tables themselves: the hot path of a move uses plain Core statements on them, which
costs a fraction of the ORM's bookkeeping."""


def default_url() -> str:
    return f"sqlite:///{data_dir() / 'shutthebox.sqlite'}"


def make_engine(url: str | None = None) -> Engine:
    """An engine for the URL (the default SQLite file if None), with the tables created."""
    url = url or default_url()
    sqlite = url.startswith("sqlite")
    try:
        engine = create_engine(url, connect_args={"check_same_thread": False} if sqlite else {},
                               pool_pre_ping=not sqlite)
    except (ArgumentError, NoSuchModuleError, ImportError) as error:
        raise StorageError(f"cannot use the database URL {url!r}: {error}") from None
    if sqlite:
        @event.listens_for(engine, "connect")
        def _pragmas(connection: Any, _record: Any) -> None:
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA busy_timeout=5000")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()
    try:
        Base.metadata.create_all(engine)
    except OperationalError as error:
        raise StorageError(f"cannot open the database {url!r}: {error.orig}") from None
    return engine


def sessions(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)


def now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def load_events(session: Session, game_id: str, since: int = 0) -> list[dict[str, Any]]:
    rows = session.scalars(select(EventRow).where(EventRow.game_id == game_id,
                                                  EventRow.position >= since)
                           .order_by(EventRow.position))
    return [json.loads(row.data) for row in rows]


def append_events(session: Session, game_id: str, start: int, events: list[dict[str, Any]],
                  status: str) -> bool:
    """Append events after the first ``start`` ones; False (and nothing written) if the game
    no longer has ``start`` events, because another request got there first."""
    moved = session.execute(
        update(GAMES).where(GAMES.c.id == game_id, GAMES.c.event_count == start)
        .values(event_count=start + len(events), status=status, updated=now()))
    if moved.rowcount != 1:  # type: ignore[attr-defined]
        return False
    if events:
        session.execute(insert(EVENTS), [
            {"game_id": game_id, "position": start + offset, "data": json.dumps(item)}
            for offset, item in enumerate(events)])
    return True
