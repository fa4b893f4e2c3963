"""Players who own their names on a server.

A name is claimed once: the server answers a player token (the device keeps it and sends it
in the ``X-Player-Token`` header) and a recovery code (shown once, to carry the name to
another device). The database keeps only their SHA-256, as for seat tokens. Names that look
the same share one key (:func:`shutthebox.names.name_key`), so a claimed name cannot be
taken again in another case, width or alphabet. A recovery code is long enough that it
cannot be guessed within :data:`RECOVERY_TRIES` tries, after which the name's recovery is
closed until the host frees it.
"""

from __future__ import annotations

import functools
import hmac
import re
import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from shutthebox.errors import PlayerNameError
from shutthebox.language import LANGUAGES, N_, _, catalogue
from shutthebox.names import clean_name, name_key
from shutthebox.web.play.seats import (
    SeatTakenError,
    TooManyGuessesError,
    UnauthorizedError,
    stored_name,
    token_hash,
)
from shutthebox.web.storage.queries import now
from shutthebox.web.storage.schema import PLAYER_TOKENS, PLAYERS, RESULTS

PLAYER_TOKEN_HEADER = "X-Player-Token"
"""The header a device sends its player token in (``Authorization`` carries seat tokens)."""

RECOVERY_TRIES = 10
"""Wrong recovery codes a name takes before its recovery closes: with 80 random bits a code,
ten guesses find one with a chance under 1e-23."""

RECOVERY_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
RECOVERY_LENGTH = 16
"""A recovery code's characters (about 79 bits), written in groups of four."""


class NameClaimedError(SeatTakenError):
    """The name (or one that looks the same) is another player's."""


class PlayerTokenError(UnauthorizedError):
    """A player token the server does not know."""


class RecoveryCodeError(UnauthorizedError):
    """A recovery code that is not the name's."""


@dataclass(frozen=True)
class Player:
    """A claimed name: its number on this server and the name as shown."""

    id: int
    name: str

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name}


@dataclass(frozen=True)
class Claim:
    """What a claim answers once: the player, the device's token and the recovery code."""

    player: Player
    token: str
    recovery: str

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.player.name, "token": self.token, "recovery": self.recovery}


GIVEN_NAMES = (N_("Player {number}"), N_("Computer"), N_("Friend"))
"""The names the page gives seats by itself, in any language, with or without a number:
never claimed, or a claim would refuse every unnamed player's game."""


@functools.cache
def _given_patterns() -> re.Pattern[str]:
    # A number's key: its digits, with 0 and 1 drawn as the letters they look like.
    number = "[0-9ol]+"
    said = {_said_in(language, given) for language in LANGUAGES for given in GIVEN_NAMES}
    alternatives = [re.escape(name_key(text)).replace(re.escape("{number}"), number)
                    for text in said]
    return re.compile(rf"(?:{'|'.join(alternatives)})(?: {number})?")


def _said_in(language: str, message: str) -> str:
    return catalogue(language).messages.get(message, message)


def claimable_name(name: str) -> str:
    """``name`` cleaned (:func:`~shutthebox.names.clean_name`), refused if it is how the game
    addresses its reader or a name the page gives by itself (:data:`GIVEN_NAMES`).

    >>> claimable_name("Ann"), claimable_name("Player One")
    ('Ann', 'Player One')
    >>> claimable_name("joueur 2")
    Traceback (most recent call last):
    ...
    shutthebox.errors.PlayerNameError: 'joueur 2' is a name the game gives unnamed seats: \
choose a name of your own

    :raises PlayerNameError: not a name, "You", or a given name.
    """
    name = stored_name(name)
    if _given_patterns().fullmatch(name_key(name)):
        raise PlayerNameError(_("{name!r} is a name the game gives unnamed seats: choose a "
                                "name of your own").format(name=name))
    return name


def new_recovery_code() -> str:
    """A fresh recovery code, such as ``'K7QF-2M9X-RTAB-CD34'``."""
    code = "".join(secrets.choice(RECOVERY_ALPHABET) for _ in range(RECOVERY_LENGTH))
    return "-".join(code[i:i + 4] for i in range(0, RECOVERY_LENGTH, 4))


def normal_code(code: str) -> str:
    """A recovery code as typed (any case, spaces or dashes) in its hashed form.

    >>> normal_code(" k7qf-2m9x rtab cd34 ")
    'K7QF2M9XRTABCD34'
    """
    return "".join(c for c in code.upper() if c.isalnum())


def claim(db: Connection, name: str) -> Claim:
    """Claim ``name`` for a new player, in ``db``'s transaction.

    :raises PlayerNameError: not a name.
    :raises NameClaimedError: the name, or one that looks the same, is claimed.
    """
    name = claimable_name(name)
    recovery, token = new_recovery_code(), secrets.token_urlsafe(24)
    try:
        with db.begin_nested():
            made = db.execute(insert(PLAYERS).values(
                name=name, name_key=name_key(name),
                recovery_hash=token_hash(normal_code(recovery)), recovery_misses=0,
                created=now())).inserted_primary_key
            assert made is not None
            player_id = made[0]
    except IntegrityError:
        raise NameClaimedError(_("{name!r} belongs to another player on this server: "
                                 "choose another name, or bring yours here with its "
                                 "recovery code").format(name=name)) from None
    db.execute(insert(PLAYER_TOKENS).values(token_hash=token_hash(token),
                                            player_id=player_id, created=now()))
    return Claim(Player(int(player_id), name), token, recovery)


def player_of(db: Connection, token: str | None) -> Player | None:
    """The player of a player token, or None for no token.

    :raises PlayerTokenError: a token the server does not know.
    """
    if not token:
        return None
    row = db.execute(select(PLAYERS.c.id, PLAYERS.c.name).join(
        PLAYER_TOKENS, PLAYER_TOKENS.c.player_id == PLAYERS.c.id).where(
        PLAYER_TOKENS.c.token_hash == token_hash(token))).first()
    if row is None:
        raise PlayerTokenError(_("this device's player token is not known here: claim "
                                 "your name again, or bring it with its recovery code"))
    return Player(int(row.id), row.name)


def signed_in(engine: Engine, token: str | None, refusal: Exception) -> Player:
    """The claimed player whose token the device sent (the routes that are a claimed
    player's own: ``/api/players/me``, the daily box's turn).

    :raises: ``refusal`` when the device sent no token.
    :raises PlayerTokenError: a token the server does not know.
    """
    if not token:
        raise refusal
    with engine.connect() as db:
        player = player_of(db, token)
    assert player is not None
    return player


_HOLDER = select(PLAYERS.c.id, PLAYERS.c.name).where(PLAYERS.c.name_key == bindparam("key"))
"""(Built once: every seat of a new game named at the table is looked up.)"""


def holder_of(db: Connection, name: str) -> Player | None:
    """The player who claimed ``name`` (or a name that looks the same), if any."""
    row = db.execute(_HOLDER, {"key": name_key(name)}).first()
    return None if row is None else Player(int(row.id), row.name)


def recover(db: Connection, name: str, code: str) -> Claim:
    """A new device token for the player who claimed ``name``, given its recovery code (the
    code stays the same; the other devices keep theirs).

    :raises RecoveryCodeError: no such name, or a code that is not its own.
    :raises TooManyGuessesError: the name took :data:`RECOVERY_TRIES` wrong codes.
    """
    name = clean_name(name)
    row = db.execute(select(PLAYERS).where(PLAYERS.c.name_key == name_key(name))
                     .with_for_update()).mappings().first()
    wrong = RecoveryCodeError(_("{name!r} and this recovery code do not go together on this "
                                "server").format(name=name))
    if row is None:
        raise wrong
    if row["recovery_misses"] >= RECOVERY_TRIES:
        raise TooManyGuessesError(_("{name!r} took {count} wrong recovery codes: the server's "
                                    "host can free it").format(name=row["name"],
                                                               count=RECOVERY_TRIES))
    if not hmac.compare_digest(row["recovery_hash"], token_hash(normal_code(code))):
        db.execute(update(PLAYERS).where(PLAYERS.c.id == row["id"]).values(
            recovery_misses=PLAYERS.c.recovery_misses + 1))
        raise wrong
    token = secrets.token_urlsafe(24)
    db.execute(update(PLAYERS).where(PLAYERS.c.id == row["id"]).values(recovery_misses=0))
    db.execute(insert(PLAYER_TOKENS).values(token_hash=token_hash(token),
                                            player_id=row["id"], created=now()))
    return Claim(Player(int(row["id"]), row["name"]), token, "")


def rename_player(db: Connection, player: Player, new: str) -> Player:
    """Give ``player`` the name ``new`` (its results follow).

    :raises PlayerNameError: not a name.
    :raises NameClaimedError: ``new`` looks like another player's name.
    """
    new = claimable_name(new)
    holder = holder_of(db, new)
    if holder is not None and holder.id != player.id:
        raise NameClaimedError(_("{name!r} belongs to another player on this server").format(
                                 name=new))
    db.execute(update(PLAYERS).where(PLAYERS.c.id == player.id).values(
        name=new, name_key=name_key(new)))
    db.execute(update(RESULTS).where(RESULTS.c.player_id == player.id).values(player=new))
    return Player(player.id, new)


def sign_out_everywhere(db: Connection, player: Player) -> None:
    """Forget every device token of ``player`` (a freed name keeps no device)."""
    db.execute(delete(PLAYER_TOKENS).where(PLAYER_TOKENS.c.player_id == player.id))
