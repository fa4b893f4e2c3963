"""Who sits at a game: a claimed player under their own name, anyone else under a name no
one has claimed.

A device that sends its player token (``X-Player-Token``) when it makes a game holds the
game's first seat at this screen as its player, under the claimed name, whatever name the
form gave that seat; one that sends it when it joins by invite holds the joined seat so. The
other seats at the screen are named at the table, as without a token: a name that is, or
looks like (:func:`shutthebox.names.name_key`), a claimed name is refused, since a seat under
someone's name is theirs only with their token; and no seat is stored as "You". A seat's
claimed player is what the statistics and the ratings count
(:mod:`~shutthebox.web.records.stats`, :mod:`~shutthebox.web.records.ratings`), never its
name.

The computer seats and the open seats' names before a friend joins are left as given:
they are never a person's record, and a name claimed by someone cannot take the words the
page names them with away from everyone else.
"""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy.engine import Connection

from shutthebox.language import _
from shutthebox.web.play.creating import SeatSpec
from shutthebox.web.play.seats import SeatKind, SeatTakenError, stored_name
from shutthebox.web.records.players import NameClaimedError, Player, holder_of, player_of


def table_name(db: Connection, name: str, player: Player | None = None) -> str:
    """``name`` for a seat named at the table (no claimed player holds it), as stored;
    ``player``: the claimed player at the same table, if any.

    :raises PlayerNameError: not a name, or "You" (400).
    :raises NameClaimedError: a claimed name, or one that looks the same (409).
    :raises SeatTakenError: ``player``'s own name, for a second seat (409).
    """
    name = stored_name(name)
    holder = holder_of(db, name)
    if holder is None:
        return name
    if player is not None and holder.id == player.id:
        raise SeatTakenError(_("{name!r} holds a seat at this game already: a player holds "
                               "one seat of a game").format(name=holder.name))
    raise NameClaimedError(_("{name!r} belongs to another player on this server: a seat "
                             "plays under it only from that player's device; choose "
                             "another name").format(name=name))


def new_seats(db: Connection, seats: list[SeatSpec], token: str | None) -> list[SeatSpec]:
    """The seats of a new game as asked, the first seat here held by the player of
    ``token`` (under their claimed name), the other seats here named at the table.

    :raises PlayerTokenError: a player token the server does not know (401).
    :raises PlayerNameError: a name that cannot be one, or "You" (400).
    :raises NameClaimedError: a seat here named with a claimed name (409).
    """
    player = player_of(db, token)
    seated: list[SeatSpec] = []
    for spec in seats:
        if spec.kind is not SeatKind.HERE:
            seated.append(spec)
        elif player is not None and not any(s.player_id for s in seated):
            seated.append(replace(spec, name=player.name, player_id=player.id))
        else:
            seated.append(replace(spec, name=table_name(db, spec.name, player)))
    return seated


def joiner(db: Connection, name: str | None, token: str | None) -> tuple[str, int | None]:
    """The name and claimed player (None: none) that take an open seat: the player of
    ``token`` under their claimed name, else ``name`` named at the table.

    :raises PlayerTokenError: a player token the server does not know (401).
    :raises PlayerNameError: no name, a name that cannot be one, or "You" (400).
    :raises NameClaimedError: a claimed name, or one that looks the same (409).
    """
    player = player_of(db, token)
    if player is not None:
        return player.name, player.id
    return table_name(db, name or ""), None
