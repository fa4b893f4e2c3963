"""What the server's host does to a player's name: rename it, or free it.

A claimed name (:mod:`~shutthebox.web.records.players`) is renamed with its player: the
claim, the statistics and the rating follow (they are the player's, by number). Freeing a
claimed name releases the claim, so that someone else can claim it: the old player is
renamed aside (``Name (1)``, the first free), their records and rating go with them, and
every device of theirs is signed out (its player token no longer works; the recovery code
still brings the aside name back to them). A name no one claimed only names results at the
table, which no statistics count: renaming or freeing it moves those results as before. A
game's own log keeps the names its players gave at the table."""

from __future__ import annotations

from sqlalchemy import func, select, update
from sqlalchemy.engine import Connection, Engine

from shutthebox.errors import ShutTheBoxError
from shutthebox.language import _
from shutthebox.names import MAX_NAME as MAX_CLAIMED
from shutthebox.web.records import players
from shutthebox.web.storage.schema import RESULTS, SERIES

MAX_NAME = 80


class PlayerNameError(ShutTheBoxError):
    """A name that cannot be renamed or freed as asked."""


def _check(name: str) -> str:
    name = name.strip()
    if not name or len(name) > MAX_NAME or not name.isprintable():
        raise PlayerNameError(_("{name!r} is not a player's name (1 to {most} printable "
                           "characters)").format(name=name[:MAX_NAME], most=MAX_NAME))
    return name


def games_of(connection: Connection, name: str) -> int:
    """The finished games the records hold under ``name``."""
    return int(connection.execute(select(func.count()).select_from(RESULTS)
                                  .where(RESULTS.c.player == name)).scalar_one())


def rename(engine: Engine, old: str, new: str) -> int:
    """Rename the claimed player ``old`` to ``new`` (their records follow), or give the
    records of the unclaimed name ``old`` to ``new`` (which must have none); the finished
    games renamed.

    :raises PlayerNameError: a bad name, no player nor records of ``old``, or records of
        ``new`` already.
    :raises NameClaimedError: ``new`` is another player's claimed name (409).
    """
    old, new = _check(old), _check(new)
    with engine.begin() as connection:
        player = players.holder_of(connection, old)
        if player is None:
            return _rename_unclaimed(connection, old, new)
        players.rename_player(connection, player, new)
        return int(connection.execute(select(func.count()).select_from(RESULTS).where(
            RESULTS.c.player_id == player.id)).scalar_one())


def _rename_unclaimed(connection: Connection, old: str, new: str) -> int:
    held = connection.execute(select(func.count()).select_from(RESULTS).where(
        RESULTS.c.player == old, RESULTS.c.player_id.is_(None))).scalar_one()
    if not held:
        raise PlayerNameError(_("no finished game has a player named {name!r}").format(
            name=old))
    holder = players.holder_of(connection, new)
    if holder is not None:
        raise players.NameClaimedError(_("{name!r} belongs to another player on this "
                                         "server").format(name=holder.name))
    if old != new and games_of(connection, new):
        raise PlayerNameError(_("{name!r} has games of its own: free it first").format(
            name=new))
    connection.execute(update(RESULTS).where(RESULTS.c.player == old,
                                             RESULTS.c.player_id.is_(None))
                       .values(player=new))
    connection.execute(update(SERIES).where(SERIES.c.started_by == old)
                       .values(started_by=new))
    return int(held)


def free(engine: Engine, name: str) -> str:
    """Free ``name``: a claimed name's player is renamed aside and signed out everywhere
    (the claim is released), an unclaimed name's records are set aside; the name aside
    (``name (1)``, the first one free).

    :raises PlayerNameError: a bad name, or no player nor records of it.
    """
    name = _check(name)
    with engine.begin() as connection:
        player = players.holder_of(connection, name)
        if player is None:
            aside = _aside(connection, name, MAX_NAME)
            _rename_unclaimed(connection, name, aside)
            return aside
        aside = _aside(connection, player.name, MAX_CLAIMED)
        players.rename_player(connection, player, aside)
        players.sign_out_everywhere(connection, player)
        return aside


def _aside(connection: Connection, name: str, longest: int) -> str:
    """The first of ``name (1)``, ``name (2)``... that no player claimed and no results
    name, at most ``longest`` characters."""
    number = 1
    while True:
        suffix = f" ({number})"
        aside = f"{name[:longest - len(suffix)]}{suffix}"
        if not games_of(connection, aside) and players.holder_of(connection, aside) is None:
            return aside
        number += 1
