"""The server's ratings: each player name's Elo rating from its finished games with others
(:mod:`shutthebox.coach.ratings`), replayed in the order they finished, the computer seats
at their fixed ratings.

A finished game with a result for two seats or more is rated (a battle records none, a solo
game one). A computer seat plays at the fixed rating of its strategy
(:data:`~shutthebox.coach.ratings.COMPUTER_RATINGS`, a strength by the strategy it names); a
computer whose strategy has no fixed rating is left out of the game's places, and a game
where two seats share a name is not rated (a name is one player). A process keeps the
ratings it worked out for each database and rates only the games finished since; if a game
turns up that finished before the last one it rated (another process stored it late), it
rates everything again, so the order is always that of the stored finishing times.

>>> key_of(Seat(1, SeatKind.COMPUTER, "Bot", "hard"), "Bot")
'\\x00computer 1 optimal'
>>> key_of(Seat(0, SeatKind.HERE, "Ann"), "Ann"), key_of(Seat(2, SeatKind.COMPUTER, "X",
...     "optimal:round"), "X") is None
('Ann', True)
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Connection, Engine

from shutthebox.coach.ratings import (
    COMPUTER_RATINGS,
    START,
    GameResult,
    RatingError,
    Ratings,
    likeness,
)
from shutthebox.language import _, ngettext
from shutthebox.strategies import STRENGTHS
from shutthebox.web.play.memory import read_game
from shutthebox.web.play.seats import Seat, SeatKind
from shutthebox.web.storage import RESULTS

COMPUTER_KEY = "\x00computer"
"""How a computer seat is named in the ratings: no player's name can start with a control
character, so no person is ever taken for a computer."""


def key_of(seat: Seat, name: str) -> str | None:
    """The name a seat is rated under: the player's name, a computer seat's own key at its
    strategy's fixed rating, or None for a computer with no fixed rating."""
    if seat.kind is not SeatKind.COMPUTER:
        return name
    strategy = STRENGTHS.get(seat.computer or "", seat.computer or "")
    if strategy not in COMPUTER_RATINGS:
        return None
    return f"{COMPUTER_KEY} {seat.seat} {strategy}"


def _fixed(key: str) -> float:
    return COMPUTER_RATINGS[key.rsplit(" ", 1)[1]]


def rated_result(db: Connection, game_id: str) -> GameResult | None:
    """The places of a stored finished game under its rated names, or None if it is not
    rated."""
    loaded = read_game(db, game_id)
    match = loaded.match
    if match is None or not match.is_over:
        return None
    keys = {name: key_of(seat, name) for seat, name in zip(loaded.seats, match.players,
                                                            strict=True)}
    if len(keys) != len(match.players):
        return None
    try:
        result = GameResult.of_match(match)
        places = [tuple(key for name in place if (key := keys[name]) is not None)
                  for place in result.places]
        return GameResult(tuple(place for place in places if place))
    except RatingError:
        return None


@dataclass
class _Book:
    """One database's ratings and the games they rest on, in the order they finished."""

    computers: dict[str, float] = field(default_factory=dict)
    """The computer seats met so far, at their fixed ratings."""
    ratings: Ratings = field(default_factory=Ratings)
    rated: list[tuple[str, Any]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.ratings = Ratings(self.computers)


_BOOKS: weakref.WeakKeyDictionary[Engine, _Book] = weakref.WeakKeyDictionary()
_BOOKS_LOCK = threading.Lock()


def _finished_games(db: Connection) -> list[tuple[str, Any]]:
    """Every game with results for two seats or more, with when it finished, in order."""
    finished = func.max(RESULTS.c.finished)
    return [(game_id, when) for game_id, when in db.execute(
        select(RESULTS.c.game_id, finished).group_by(RESULTS.c.game_id)
        .having(func.count() >= 2).order_by(finished, RESULTS.c.game_id))]


def current_ratings(engine: Engine) -> Ratings:
    """The ratings after every rated game stored in ``engine``'s database."""
    with _BOOKS_LOCK:
        book = _BOOKS.setdefault(engine, _Book())
    with book.lock, engine.connect() as db:
        games = _finished_games(db)
        if games[:len(book.rated)] != book.rated:
            book.ratings, book.rated = Ratings(book.computers), []
        for game_id, when in games[len(book.rated):]:
            result = rated_result(db, game_id)
            if result is not None:
                for key in result.players:
                    if key.startswith(COMPUTER_KEY):
                        book.computers[key] = _fixed(key)
                book.ratings.record(result)
            book.rated.append((game_id, when))
        return book.ratings


def player_rating(engine: Engine, name: str) -> dict[str, Any] | None:
    """``name``'s rating as the statistics show it: ``rating``, rated ``games``, its
    ``history`` (the rating after each of them, from :data:`START` before the first),
    ``like`` (what it plays like), ``text`` (all of it in a sentence) and the history's
    chart in words (``history_title``, ``history_text``); None if no game of theirs is
    rated."""
    ratings = current_ratings(engine)
    if name not in ratings.ratings:
        return None
    rating, games = ratings.ratings[name], ratings.games[name]
    like = likeness(rating)
    history = [START, *ratings.history[name]]
    return {"rating": rating, "games": games, "history": history, "like": like,
            "history_title": _("{name}'s rating, game by game").format(name=name),
            "history_text": _("From the start, then after each rated game: {ratings}.").format(
                ratings=_(", ").join(f"{value:.0f}" for value in history)),
            "text": ngettext("{name}'s rating is {rating} after {games} rated game (Elo, every "
                             "player starting at {start}): {name} {like}.",
                             "{name}'s rating is {rating} after {games} rated games (Elo, "
                             "every player starting at {start}): {name} {like}.", games).format(
                name=name, rating=f"{rating:.0f}", games=games, start=f"{START:.0f}",
                like=like)}

