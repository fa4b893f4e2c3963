"""A player's name as the records know it (the results of finished games, what the
statistics and ratings read): renamed, or freed (its records set aside under another name,
so that the name starts afresh). A game's own log keeps the names its players gave at the
table. (When names can be claimed, freeing one will also release its claim.)"""

from __future__ import annotations

from sqlalchemy import func, select, update
from sqlalchemy.engine import Engine

from shutthebox.errors import ShutTheBoxError
from shutthebox.language import _
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


def games_of(engine: Engine, name: str) -> int:
    """The finished games the records hold for ``name``."""
    with engine.connect() as connection:
        return int(connection.execute(select(func.count()).select_from(RESULTS)
                                      .where(RESULTS.c.player == name)).scalar_one())


def rename(engine: Engine, old: str, new: str) -> int:
    """Give ``old``'s records to ``new`` (which must have none); the games renamed.

    :raises PlayerNameError: a bad name, no records of ``old``, or records of ``new`` already.
    """
    old, new = _check(old), _check(new)
    with engine.begin() as connection:
        held = connection.execute(select(func.count()).select_from(RESULTS)
                                  .where(RESULTS.c.player == old)).scalar_one()
        if not held:
            raise PlayerNameError(_("no finished game has a player named {name!r}").format(
                name=old))
        if old != new and connection.execute(
                select(func.count()).select_from(RESULTS)
                .where(RESULTS.c.player == new)).scalar_one():
            raise PlayerNameError(_("{name!r} has games of its own: free it first").format(
                name=new))
        connection.execute(update(RESULTS).where(RESULTS.c.player == old)
                           .values(player=new))
        connection.execute(update(SERIES).where(SERIES.c.started_by == old)
                           .values(started_by=new))
    return int(held)


def free(engine: Engine, name: str) -> str:
    """Set ``name``'s records aside under a name of their own (``name (1)``, the first
    one free), so that ``name`` starts afresh; that name.

    :raises PlayerNameError: a bad name, or no records of it.
    """
    name = _check(name)
    number = 1
    while games_of(engine, aside := f"{name[:MAX_NAME - 8]} ({number})"):
        number += 1
    rename(engine, name, aside)
    return aside
