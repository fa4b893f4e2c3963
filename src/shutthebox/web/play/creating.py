"""Making a game and taking its seats: a new game stored with its seats (a token for each
seat at this screen, an invite for each open one), what an invite is for, and a friend's
joining by invite, which starts the match once every seat is taken."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update

from shutthebox.language import _
from shutthebox.match import GameFormat, Match, MatchConfig
from shutthebox.narration import format_text, rules_text
from shutthebox.rules import Rules
from shutthebox.strategies import check_strategy
from shutthebox.web.play.changes import GameChanges
from shutthebox.web.play.memory import LoadedGame, waiting_for
from shutthebox.web.play.seats import (
    InviteNotFoundError,
    Seat,
    SeatKind,
    SeatTakenError,
    check_name,
    new_invite,
    new_token,
    normal_invite,
    token_hash,
)
from shutthebox.web.play.table import TableState, check_clock
from shutthebox.web.storage import SEATS, NewGame, now


@dataclass(frozen=True)
class SeatSpec:
    """A seat at a new game: a name, its kind, the computer strategy of a computer, and the
    claimed player who holds it (None: a name given at the table)."""

    name: str
    kind: SeatKind = SeatKind.HERE
    computer: str | None = None
    player_id: int | None = None


@dataclass(frozen=True)
class Created:
    """A new game: as stored, as kept in memory, the tokens of its seats here and the
    invites of its open seats."""

    game: NewGame
    loaded: LoadedGame
    tokens: dict[int, str]
    invites: dict[int, str]


def new_game(rules: Rules, game_format: str, stake: int, seats: list[SeatSpec],
             pace: str = "watch", clock: int | None = None) -> Created:
    """A new game, not yet stored. ``clock``: seconds a decision (a game with an open seat
    only; None: no clock).

    :raises ShutTheBoxError: bad names, computers, clock or format for these rules.
    """
    clock = check_clock(clock, any(s.kind is SeatKind.OPEN for s in seats))
    fmt = GameFormat.parse(game_format)
    names = [check_name(s.name, []) for s in seats]
    for index, name in enumerate(names):
        check_name(name, names[:index])
    for spec in seats:
        if spec.kind is SeatKind.COMPUTER:
            check_strategy(spec.computer or "")     # made (and solved) by the worker
    config = MatchConfig(rules, fmt, tuple(names), stake)   # refuses what cannot be
    game_id = uuid.uuid4().hex
    tokens = {i: new_token() for i, s in enumerate(seats) if s.kind is SeatKind.HERE}
    invites = {i: new_invite() for i, s in enumerate(seats) if s.kind is SeatKind.OPEN}
    table = [Seat(i, s.kind, names[i], s.computer, s.kind is not SeatKind.OPEN)
             for i, s in enumerate(seats)]
    host = next((s.seat for s in table if s.kind is SeatKind.HERE), None)
    head: dict[str, Any] = {"type": "seats", "pace": pace,
                            "seats": [s.to_dict() for s in table], "host": host}
    if clock is not None:
        head["clock"] = clock
    loaded = LoadedGame(config.to_dict(), table, [head], None, pace,
                        table=TableState(clock=clock, host=host))
    if not invites:
        loaded.match = Match(config)
    game = NewGame(
        game_id, loaded.config,
        [s.computer if s.kind is SeatKind.COMPUTER else None for s in table],
        "playing" if loaded.match else "waiting", waiting_for(loaded), [
            {"seat": s.seat, "kind": s.kind.value, "name": s.name, "computer": s.computer,
             "token_hash": token_hash(tokens[s.seat]) if s.seat in tokens else None,
             "invite": invites.get(s.seat), "joined": s.joined,
             "player_id": seats[s.seat].player_id}
            for s in table], loaded.log(0))
    return Created(game, loaded, tokens, invites)


def invite(changes: GameChanges, code: str) -> dict[str, Any]:
    """What an invite is for: the game, the seat, the table and the rules.

    :raises InviteNotFoundError: no game has this invite (404).
    """
    code = normal_invite(code)
    with changes.store.connect() as db:
        row = db.execute(select(SEATS.c.game_id, SEATS.c.seat, SEATS.c.joined)
                         .where(SEATS.c.invite == code)).first()
    if row is None:
        raise InviteNotFoundError(_("no game has the invite {code!r}: check the "
                                    "code with the friend who sent it").format(code=code))
    loaded = changes.read(row.game_id)
    fmt = GameFormat.parse(loaded.config["format"])
    return {"code": code, "game_id": row.game_id, "seat": row.seat,
            "taken": row.joined is not None, "players": [s.name for s in loaded.seats],
            "format": str(fmt), "format_text": format_text(fmt, None),
            "rules": loaded.config["rules"],
            "rules_text": rules_text(Rules.from_dict(loaded.config["rules"]))}


def join(changes: GameChanges, game_id: str, code: str, name: str,
         player_id: int | None = None) -> tuple[int, str]:
    """Take the open seat of the invite under ``name``, for the claimed player
    ``player_id`` if given; answer the seat and its token.

    :raises InviteNotFoundError: the invite is not for this game (404).
    :raises SeatTakenError: its seat has been taken, or the player holds another seat of the
        game (409).
    """
    code = normal_invite(code)
    with changes.changing(game_id) as change:
        db, loaded = change.db, change.loaded
        row = db.execute(select(SEATS.c.seat, SEATS.c.joined).where(
            SEATS.c.game_id == game_id, SEATS.c.invite == code)).first()
        if row is None:
            raise InviteNotFoundError(_("the invite {code!r} is not for this game").format(
                                        code=code))
        seat = loaded.seats[row.seat]
        if row.joined is not None or seat.joined:
            raise SeatTakenError(_("the seat of invite {code!r} has been taken: ask "
                                   "for another invite").format(code=code))
        if player_id is not None and db.execute(select(SEATS.c.seat).where(
                SEATS.c.game_id == game_id, SEATS.c.player_id == player_id)).first():
            raise SeatTakenError(_("{name!r} holds a seat at this game already: a player "
                                   "holds one seat of a game").format(name=name))
        name = check_name(name, [s.name for s in loaded.seats if s.joined])
        token = new_token()
        taken = db.execute(update(SEATS).where(
            SEATS.c.game_id == game_id, SEATS.c.seat == seat.seat,
            SEATS.c.joined.is_(None)).values(
            name=name, token_hash=token_hash(token), joined=now(), player_id=player_id))
        if taken.rowcount != 1:
            raise SeatTakenError(_("the seat of invite {code!r} has been taken").format(
                                   code=code))
        loaded.seats[seat.seat] = Seat(seat.seat, SeatKind.HERE, name, None, True)
        loaded.prefix.append({"type": "join", "seat": seat.seat, "name": name})
        if all(s.joined for s in loaded.seats):
            loaded.table.deadline = None
            names = tuple(s.name for s in loaded.seats)
            config = MatchConfig.from_dict({**loaded.config, "players": names})
            loaded.config = config.to_dict()
            loaded.match = Match(config)
        change.fields["config"] = loaded.config
    changes.memory.know(token_hash(token), (game_id, seat.seat))
    return seat.seat, token
