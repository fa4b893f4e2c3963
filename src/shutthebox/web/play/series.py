"""Play again: a finished game's rematch, the same players, rules, format and stake in a new
game, the order of play rotated by one seat, and the running tally of the series.

A game is played again once (the ``series`` table's ``previous`` is unique): players who ask
at once get the same new game. The new game's human seats are made without tokens; each
player claims their own seat with the token of their seat in the finished game, which only
they hold, and receives the new seat's token in the answer to their own request. The new
token is derived from the old one (an HMAC of the new game's id keyed by it), so a claim
asked again (a lost answer) gets the same token, and no seat's token ever travels to
another player: the server keeps only its hash, as of every token.

The series is stored (a row per game: its series, number, previous game and the series
player at each seat), so a restart keeps it; its tally is counted from the finished games'
logs when asked for.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from datetime import timedelta
from typing import Any

from cachetools import FIFOCache
from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from shutthebox.errors import ShutTheBoxError
from shutthebox.language import _
from shutthebox.rules import Rules
from shutthebox.table_talk import ledger_text, next_game_text, rematch_text, tally_text
from shutthebox.web.codec import dumps
from shutthebox.web.play.creating import SeatSpec, new_game
from shutthebox.web.play.memory import GameNotFoundError, LoadedGame, read_game, waiting_for
from shutthebox.web.play.seats import Seat, SeatKind, SeatTakenError, token_hash
from shutthebox.web.play.service import GameService
from shutthebox.web.play.table import TableState
from shutthebox.web.storage import (
    GAMES,
    SEATS,
    SERIES,
    NewGame,
    event_count,
    now,
    store_new_game,
)

MAX_SERIES = 100
"""Games in one series at most: its tally reads every finished game of it."""


OUTCOMES_KEPT = 10_000
"""Finished games whose winners and payouts a process keeps at hand for the tallies."""


class RematchError(ShutTheBoxError):
    """A game that cannot be played again: not over yet, or its series is full (409)."""


def rematch_token(old_token: str, game_id: str) -> str:
    """The token of the seat in the rematch ``game_id`` claimed with ``old_token``: only its
    holder can make it, and the same claim makes the same token.

    >>> rematch_token("abc", "0f" * 16) == rematch_token("abc", "0f" * 16) != \\
    ...     rematch_token("abd", "0f" * 16)
    True
    """
    digest = hmac.new(old_token.encode(), f"rematch:{game_id}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(digest.digest()[:24]).decode()


def speak(data: dict[str, Any]) -> str:
    """The live message, on the finished game's feeds, that its next game has started (the
    new game's id and number, and who started it), in the language of the feed."""
    return dumps({"type": "rematch", "game_id": data["game_id"], "number": data["number"],
                  "text": rematch_text(str(data["name"]), int(data["number"]))})


class Series:
    """Plays finished games again and tells a series' tally."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self._outcomes: FIFOCache[str, tuple[set[int], dict[int, int]]] = FIFOCache(
            OUTCOMES_KEPT)

    def play_again(self, game_id: str, tokens: list[str]) -> dict[str, Any]:
        """The finished game's rematch (made now if it has none), with the seats of the
        players holding ``tokens`` (seat tokens of the finished game) claimed: the new game's
        id, its number in the series, whether this request made it, the news for the
        finished game's board, and the new seats' tokens and state.

        :raises UnauthorizedError: no token, or one that holds no seat (401).
        :raises ForbiddenError: a token of another game's seat (403).
        :raises GameNotFoundError: no such game (404).
        :raises RematchError: the game is not over, or its series is full (409).
        """
        service = self.service
        seats = [service.seat_of(game_id, [token]) for token in tokens] or \
            [service.seat_of(game_id, [])]
        with service.changes.memory.lock(game_id):
            found = self._next(game_id)
            created = False
            if found is None:
                found, created = self._create(game_id, seats[0])
        new_id, number, name = found
        claimed: dict[str, str] = {}
        with service.changes.transaction() as db:
            old = self._players(db, game_id)
            new = self._players(db, new_id)
            for seat, token in zip(seats, tokens, strict=True):
                mine = new.index(old[seat])     # (a token's seat is a person's, in both)
                claimed[str(mine)] = self._claim(db, new_id, mine, token)
        for seat_text, token in claimed.items():
            service.cache.know(token_hash(token), (new_id, int(seat_text)))
        return {"game_id": new_id, "number": number, "created": created, "by": name,
                "text": rematch_text(name, number), "tokens": claimed,
                "state": service.state(new_id, 0, list(claimed.values()))}

    def _next(self, game_id: str) -> tuple[str, int, str] | None:
        """The rematch of the game, its number and the name of who started it, if made."""
        with self.service.changes.store.connect() as db:
            row = db.execute(select(SERIES.c.game_id, SERIES.c.number, SERIES.c.started_by)
                             .where(SERIES.c.previous == game_id)).first()
            return None if row is None else (row.game_id, row.number, row.started_by or "")

    def _create(self, game_id: str, seat: int) -> tuple[tuple[str, int, str], bool]:
        """Store the finished game's rematch, asked for by ``seat``, and say so (True); or
        answer another process's if it stored one first (False)."""
        service = self.service
        try:
            with service.changes.transaction() as db:
                found = db.execute(select(SERIES.c.game_id, SERIES.c.number,
                                          SERIES.c.started_by)
                                   .where(SERIES.c.previous == game_id)).first()
                if found is not None:
                    return (found.game_id, found.number, found.started_by or ""), False
                made = self._store(db, game_id, seat)
        except IntegrityError:           # another server process stored its rematch first
            theirs = self._next(game_id)
            if theirs is None:
                raise
            return theirs, False
        game, loaded, number, name = made
        service.changes.created(game, loaded, {})
        return (game.game_id, number, name), True

    def _store(self, db: Connection, game_id: str, seat: int) -> tuple[Any, Any, int, str]:
        loaded = self.service.changes.memory.load(db, game_id)
        if not loaded.over:
            raise RematchError(_("this game is not over yet: play it to the end, then play "
                                 "again"))
        row = db.execute(select(SERIES).where(SERIES.c.game_id == game_id)).first()
        count = len(loaded.seats)
        if row is None:
            series_id, number, players = game_id, 1, list(range(count))
            db.execute(insert(SERIES).values(game_id=game_id, series_id=series_id,
                                             number=1, previous=None, players=players))
        else:
            series_id, number, players = row.series_id, row.number, list(row.players)
        if number >= MAX_SERIES:
            raise RematchError(_("this series has {number} games, the most one series "
                                 "holds: start a new game").format(number=number))
        order = [(j + 1) % count for j in range(count)]     # who sat second now starts
        held = {seat: player for seat, player in db.execute(     # the players stay
            select(SEATS.c.seat, SEATS.c.player_id).where(SEATS.c.game_id == game_id))}
        specs = [SeatSpec(old.name, SeatKind.COMPUTER if old.kind is SeatKind.COMPUTER
                          else SeatKind.HERE, old.computer, held.get(old.seat))
                 for old in (loaded.seats[i] for i in order)]
        config = loaded.config
        name = loaded.seats[seat].name
        made = new_game(Rules.from_dict(config["rules"]), str(config["format"]),
                        int(config.get("stake", 0)), specs, loaded.pace)
        game, new = made.game, made.loaded
        self._same_table(loaded, new, game, order)
        game.waiting = waiting_for(new)
        store_new_game(db, game)
        if new.table.clock is not None:         # the first decision's clock runs now
            new.table.deadline = now() + timedelta(seconds=new.table.clock) \
                if new.table.clock_runs(game.waiting) else None
            db.execute(update(GAMES).where(GAMES.c.id == game.game_id).values(
                deadline=new.table.deadline))
        db.execute(insert(SERIES).values(game_id=game.game_id, series_id=series_id,
                                         number=number + 1, previous=game_id,
                                         players=[players[i] for i in order],
                                         started_by=name))
        return game, new, number + 1, name

    @staticmethod
    def _same_table(old: LoadedGame, new: LoadedGame, game: NewGame, order: list[int]
                    ) -> None:
        """Make the new game's table the old one's, its seats turned by ``order`` (new seat
        j is old seat ``order[j]``): a friend's seat stays a friend's (taken), the host
        stays the host, the turn clock stays; no seat has a token until its player claims
        it (see the module)."""
        new.seats = [Seat(j, old.seats[i].kind, seat.name, seat.computer, True)
                     for j, (i, seat) in enumerate(zip(order, new.seats, strict=True))]
        host = order.index(old.table.host) if old.table.host is not None else None
        new.table = TableState(clock=old.table.clock, host=host)
        head = new.prefix[0]
        head["seats"] = [seat.to_dict() for seat in new.seats]
        head["host"] = host
        if old.table.clock is not None:
            head["clock"] = old.table.clock
        for row, seat in zip(game.seats, new.seats, strict=True):
            row.update(kind=seat.kind.value, token_hash=None, invite=None, joined=True)
        game.events = new.log(0)

    @staticmethod
    def _players(db: Connection, game_id: str) -> list[int]:
        players = db.scalar(select(SERIES.c.players).where(SERIES.c.game_id == game_id))
        return list(players or [])

    @staticmethod
    def _claim(db: Connection, game_id: str, seat: int, old_token: str) -> str:
        """The new seat's token, claimed with the old seat's (again: the same token)."""
        token = rematch_token(old_token, game_id)
        hashed = token_hash(token)
        taken = db.execute(update(SEATS).where(
            SEATS.c.game_id == game_id, SEATS.c.seat == seat, SEATS.c.token_hash.is_(None),
            SEATS.c.computer.is_(None)).values(token_hash=hashed))
        if taken.rowcount != 1 and db.scalar(select(SEATS.c.token_hash).where(
                SEATS.c.game_id == game_id, SEATS.c.seat == seat)) != hashed:
            raise SeatTakenError(_("seat {seat} of the next game is held by another "
                                   "token").format(seat=seat))
        return token

    def tally(self, game_id: str) -> dict[str, Any]:
        """The game's series: its number, the games before and after it, and each player's
        wins (and money, with a stake) over the series' finished games, also in words.

        :raises GameNotFoundError: no such game (404).
        """
        with self.service.changes.store.connect() as db:
            if event_count(db, game_id) is None:
                raise GameNotFoundError(_("no game {game_id!r}: check the link").format(
                                          game_id=game_id))
            row = db.execute(select(SERIES).where(SERIES.c.game_id == game_id)).first()
            after = db.execute(select(SERIES.c.game_id, SERIES.c.number).where(
                SERIES.c.previous == game_id)).first()
            answer: dict[str, Any] = {
                "series": None, "number": 1, "previous": None,
                "next": None if after is None else after.game_id,
                "next_text": None if after is None else next_game_text(after.number),
                "games": 0, "players": [], "wins": [], "net": None, "tally_text": None,
                "ledger_text": None}
            if row is None:
                return answer
            games = db.execute(select(SERIES.c.game_id, SERIES.c.players, GAMES.c.status,
                                      GAMES.c.config)
                               .join(GAMES, GAMES.c.id == SERIES.c.game_id)
                               .where(SERIES.c.series_id == row.series_id)
                               .order_by(SERIES.c.number)).all()
            names = list(db.execute(select(SEATS.c.name).where(
                SEATS.c.game_id == row.series_id).order_by(SEATS.c.seat)).scalars())
            wins = [0.0] * len(names)
            net = [0] * len(names)
            finished = 0
            for game in games:
                outcome = self._outcome(db, game.game_id) if game.status == "over" else None
                if outcome is None:
                    continue
                finished += 1
                winners, payouts = outcome
                for seat, player in enumerate(game.players):
                    wins[player] += 1 / len(winners) if seat in winners else 0.0
                    net[player] += payouts.get(seat, 0) - int(game.config.get("stake", 0))
        staked = int(games[0].config.get("stake", 0)) > 0
        return {**answer, "series": row.series_id, "number": row.number,
                "previous": row.previous, "games": finished, "players": names,
                "wins": wins, "net": net if staked else None,
                "tally_text": tally_text(names, wins, finished) if finished else None,
                "ledger_text": ledger_text(names, net) if staked and finished else None}

    def _outcome(self, db: Connection, game_id: str) -> tuple[set[int], dict[int, int]] | None:
        """A finished game's winners and payouts by seat (None: not finished), kept once
        read: a finished game does not change, and a series' tally reads them all."""
        found = self._outcomes.get(game_id)
        if found is None:
            match = read_game(db, game_id).match
            if match is None or not match.is_over:
                return None
            found = self._outcomes[game_id] = (set(match.winners), dict(match.payouts))
        return found
