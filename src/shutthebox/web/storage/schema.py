"""The tables: games, their event logs, seats, the answers to repeated requests, the
results of finished games, the series of games played again, the score sheets of real
tables, the players who claimed their names, the server's secrets and the daily turns.
Alembic's migrations (``shutthebox/web/migrations``) build and change them in a database;
these declarations are what the code reads and writes."""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String, Table, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[list[Any]] = mapped_column(JSON)
    """Per seat: null for a human, or the computer strategy's name."""
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``waiting`` (for friends to take open seats), ``playing`` or ``over``."""
    waiting_for: Mapped[str] = mapped_column(String(8), index=True, default="human")
    """Who acts next: ``join``, ``human``, ``server`` (dice or a computer) or ``nobody``."""
    event_count: Mapped[int] = mapped_column(Integer, default=0)
    created: Mapped[datetime] = mapped_column(DateTime)
    updated: Mapped[datetime] = mapped_column(DateTime)
    deadline: Mapped[datetime | None] = mapped_column(DateTime, nullable=True, index=True)
    """When the turn clock runs out for the decision the game waits for (null: no clock
    runs), stored with the events that began the wait."""


class EventRow(Base):
    __tablename__ = "events"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    data: Mapped[str] = mapped_column(Text)


class SeatRow(Base):
    """Who holds a seat: its kind, name, the hash of its secret token and its invite."""

    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    """``here`` (a human at the creator's device), ``computer`` or ``open`` (for a friend)."""
    name: Mapped[str] = mapped_column(String(80))
    computer: Mapped[str | None] = mapped_column(String(40), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    invite: Mapped[str | None] = mapped_column(String(16), nullable=True, unique=True)
    joined: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    player_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The claimed player who holds the seat (null: a name given at the table)."""


class AnswerRow(Base):
    """The first answer to an action sent with an ``Idempotency-Key``."""

    __tablename__ = "answers"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(128), primary_key=True)
    status: Mapped[int] = mapped_column(Integer)
    body: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime)


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
    player_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    """The claimed player who held the seat (null: unclaimed, left out of the statistics
    and ratings)."""


class SeriesRow(Base):
    """A game's place in a series of games played again ("Play again"): the series (the id
    of its first game), the game's number in it, the game it was played again from (one
    rematch a game: unique), the series player at each of its seats (the seats rotate, the
    players stay) and who asked for it."""

    __tablename__ = "series"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    series_id: Mapped[str] = mapped_column(String(32), index=True)
    number: Mapped[int] = mapped_column(Integer)
    previous: Mapped[str | None] = mapped_column(ForeignKey("games.id"), nullable=True,
                                                 unique=True)
    players: Mapped[list[int]] = mapped_column(JSON)
    started_by: Mapped[str | None] = mapped_column(String(80), nullable=True)
    """The name of the player who played the previous game again."""


class ScoreSheetRow(Base):
    """A real table's score sheet (:class:`~shutthebox.match.ScoreSheet`): what was typed in
    (its configuration and each round's scores), held by whoever has its secret token (the
    database keeps the token's SHA-256, as for seats)."""

    __tablename__ = "score_sheets"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    sheet: Mapped[dict[str, Any]] = mapped_column(JSON)
    rounds: Mapped[int] = mapped_column(Integer, default=0)
    """The rounds entered: a change names the count it was made on, so that two phones
    typing at once cannot overwrite each other's rounds."""
    created: Mapped[datetime] = mapped_column(DateTime)
    updated: Mapped[datetime] = mapped_column(DateTime)


class PlayerRow(Base):
    """A claimed name: as shown, its key (names that look the same share one key, see
    :func:`shutthebox.names.name_key`), the SHA-256 of its recovery code, and the recovery
    attempts that missed since the last that matched (bounded)."""

    __tablename__ = "players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(80))
    name_key: Mapped[str] = mapped_column(String(160), unique=True)
    recovery_hash: Mapped[str] = mapped_column(String(64))
    recovery_misses: Mapped[int] = mapped_column(Integer, default=0)
    created: Mapped[datetime] = mapped_column(DateTime)


class PlayerTokenRow(Base):
    """A device's player token (its SHA-256) and whose it is."""

    __tablename__ = "player_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    created: Mapped[datetime] = mapped_column(DateTime)


class ServerSecretRow(Base):
    """A secret the server made at its first start (shared by every process)."""

    __tablename__ = "server_secrets"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


class DailyTurnRow(Base):
    """A claimed player's turn of one day's box: the decisions stored so far (a change
    names their count, so that two requests at once cannot both move), and the finished
    game kept for the day's table once the turn is over."""

    __tablename__ = "daily_turns"

    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    moves: Mapped[list[Any]] = mapped_column(JSON)
    decisions: Mapped[int] = mapped_column(Integer, default=0)
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime)
    updated: Mapped[datetime] = mapped_column(DateTime)


GAMES = cast(Table, GameRow.__table__)
EVENTS = cast(Table, EventRow.__table__)
SEATS = cast(Table, SeatRow.__table__)
ANSWERS = cast(Table, AnswerRow.__table__)
RESULTS = cast(Table, PlayerResultRow.__table__)
SERIES = cast(Table, SeriesRow.__table__)
SCORE_SHEETS = cast(Table, ScoreSheetRow.__table__)
PLAYERS = cast(Table, PlayerRow.__table__)
PLAYER_TOKENS = cast(Table, PlayerTokenRow.__table__)
SERVER_SECRETS = cast(Table, ServerSecretRow.__table__)
DAILY_TURNS = cast(Table, DailyTurnRow.__table__)
"""The tables themselves: the hot path of a move uses plain Core statements on them, which
costs a fraction of the ORM's bookkeeping."""
