"""The server's ratings: each claimed player's Elo rating from their finished games with
others (:mod:`shutthebox.coach.ratings`), replayed in the order they finished, the computer
seats at their fixed ratings.

Who is rated: a finished game with a result for two seats or more (a battle records none, a
solo game one) whose every seat of a person is held by a claimed player
(:mod:`~shutthebox.web.records.seating`), all different. A seat named at the table makes
the game unrated, so a hot-seat game (the creator's other seats at one screen), a game with
a friend who did not claim a name, and a game against oneself are never rated. A computer
seat plays at the fixed rating of its strategy
(:data:`~shutthebox.coach.ratings.COMPUTER_RATINGS`, a strength by the strategy it names); a
computer whose strategy has no fixed rating is left out of the game's places.

A rating is a player's, by their number on the server, not their name: a rename follows it,
the name shown is the current one, and no one moves another's rating by playing under their
name (a claimed name is refused to anyone without its token).

**The daily pair cap.** Two players count at most :data:`PAIR_GAMES_A_DAY` games against
each other toward their ratings each UTC day (the games of a day in the order they finished;
a game of three or more counts only while each of its pairs is under the cap). One person
holding two claimed names, at one screen or on two devices, can otherwise pass rating from
one to the other as fast as games are played; the cap bounds that to a few games a day,
about as many as a pair of friends play in an evening, without counting addresses (a
household or a café shares one; a farmer changes theirs cheaply).

A process keeps the ratings it worked out for each database and rates only the games
finished since; if a game turns up that finished before the last one it rated (another
process stored it late), it rates everything again, so the order is always that of the
stored finishing times.

>>> key_of(Seat(1, SeatKind.COMPUTER, "Bot", "hard"), None)
'\\x00computer 1 optimal'
>>> key_of(Seat(0, SeatKind.HERE, "Ann"), 7), key_of(Seat(0, SeatKind.HERE, "Ann"), None)
('\\x00player 7', None)
>>> key_of(Seat(2, SeatKind.COMPUTER, "X", "optimal:round"), None) is None
True
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass, field
from datetime import date
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
from shutthebox.web.records.players import Player
from shutthebox.web.storage import RESULTS

COMPUTER_KEY = "\x00computer"
PLAYER_KEY = "\x00player"
"""How a computer seat and a claimed player are named in the ratings: by their strategy
and by their number on the server, never by a name (no name starts with a control
character)."""

PAIR_GAMES_A_DAY = 3
"""The games two players count against each other toward their ratings each UTC day (see
the module): a best of three."""


def key_of(seat: Seat, player_id: int | None) -> str | None:
    """The key a seat is rated under: its claimed player's, a computer seat's own at its
    strategy's fixed rating, or None (a seat no claimed player holds, or a computer with no
    fixed rating)."""
    if seat.kind is not SeatKind.COMPUTER:
        return None if player_id is None else f"{PLAYER_KEY} {player_id}"
    strategy = STRENGTHS.get(seat.computer or "", seat.computer or "")
    if strategy not in COMPUTER_RATINGS:
        return None
    return f"{COMPUTER_KEY} {seat.seat} {strategy}"


def _fixed(key: str) -> float:
    return COMPUTER_RATINGS[key.rsplit(" ", 1)[1]]


def rated_result(db: Connection, game_id: str) -> GameResult | None:
    """The places of a stored finished game under its rated keys, or None if it is not
    rated (see the module)."""
    loaded = read_game(db, game_id)
    match = loaded.match
    if match is None or not match.is_over:
        return None
    held = {seat: player for seat, player in db.execute(
        select(RESULTS.c.seat, RESULTS.c.player_id).where(RESULTS.c.game_id == game_id))}
    keys: dict[str, str | None] = {}
    for seat, name in zip(loaded.seats, match.players, strict=True):
        key = keys[name] = key_of(seat, held.get(seat.seat))
        if key is None and seat.kind is not SeatKind.COMPUTER:
            return None                 # a seat named at the table: unrated
    rated = [key for key in keys.values() if key is not None]
    if len(keys) != len(match.players) or len(set(rated)) != len(rated):
        return None                     # two seats of one name, or of one player
    try:
        result = GameResult.of_match(match)
        places = [tuple(key for name in place if (key := keys[name]) is not None)
                  for place in result.places]
        return GameResult(tuple(place for place in places if place))
    except RatingError:
        return None


def _pairs(result: GameResult) -> list[tuple[str, str]]:
    """The pairs of players (no computer) a rated game sets against each other."""
    people = sorted(key for key in result.players if key.startswith(PLAYER_KEY))
    return [(one, other) for i, one in enumerate(people) for other in people[i + 1:]]


@dataclass
class _Book:
    """One database's ratings and the games they rest on, in the order they finished."""

    computers: dict[str, float] = field(default_factory=dict)
    """The computer seats met so far, at their fixed ratings."""
    ratings: Ratings = field(default_factory=Ratings)
    rated: list[tuple[str, Any]] = field(default_factory=list)
    pairs: dict[tuple[date, str, str], int] = field(default_factory=dict)
    """The games each pair of players counted on each UTC day."""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.ratings = Ratings(self.computers)

    def start_again(self) -> None:
        self.ratings, self.rated, self.pairs = Ratings(self.computers), [], {}

    def counts(self, result: GameResult, day: date) -> bool:
        """Whether the game counts under the daily pair cap (and count it if so)."""
        pairs = [(day, one, other) for one, other in _pairs(result)]
        if any(self.pairs.get(pair, 0) >= PAIR_GAMES_A_DAY for pair in pairs):
            return False
        for pair in pairs:
            self.pairs[pair] = self.pairs.get(pair, 0) + 1
        return True


_BOOKS: weakref.WeakKeyDictionary[Engine, _Book] = weakref.WeakKeyDictionary()
_BOOKS_LOCK = threading.Lock()


def _finished_games(db: Connection) -> list[tuple[str, Any]]:
    """Every game with results for two seats or more, one a claimed player's at least,
    with when it finished, in order."""
    finished = func.max(RESULTS.c.finished)
    return [(game_id, when) for game_id, when in db.execute(
        select(RESULTS.c.game_id, finished).group_by(RESULTS.c.game_id)
        .having(func.count() >= 2, func.count(RESULTS.c.player_id) >= 1)
        .order_by(finished, RESULTS.c.game_id))]


def current_ratings(engine: Engine) -> Ratings:
    """The ratings after every rated game stored in ``engine``'s database."""
    with _BOOKS_LOCK:
        book = _BOOKS.setdefault(engine, _Book())
    with book.lock, engine.connect() as db:
        games = _finished_games(db)
        if games[:len(book.rated)] != book.rated:
            book.start_again()
        for game_id, when in games[len(book.rated):]:
            result = rated_result(db, game_id)
            if result is not None and book.counts(result, when.date()):
                for key in result.players:
                    if key.startswith(COMPUTER_KEY):
                        book.computers[key] = _fixed(key)
                book.ratings.record(result)
            book.rated.append((game_id, when))
        return book.ratings


def player_rating(engine: Engine, player: Player) -> dict[str, Any] | None:
    """The claimed player's rating as the statistics show it: ``rating``, rated ``games``,
    its ``history`` (the rating after each of them, from :data:`START` before the first),
    ``like`` (what it plays like), ``text`` (all of it in a sentence) and the history's
    chart in words (``history_title``, ``history_text``); None if no game of theirs is
    rated."""
    ratings = current_ratings(engine)
    key, name = f"{PLAYER_KEY} {player.id}", player.name
    if key not in ratings.ratings:
        return None
    rating, games = ratings.ratings[key], ratings.games[key]
    like = likeness(rating)
    history = [START, *ratings.history[key]]
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
