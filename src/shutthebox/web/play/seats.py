"""Seats at a web game: who may act for which seat.

A seat is held by whoever has its secret token (192 random bits from :mod:`secrets`), shown
once when the seat is taken; the database keeps only the token's SHA-256. An open seat has
an invite: a short room code (no look-alike letters) that a friend types or follows as the
link ``/join/<code>``.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from enum import StrEnum

from shutthebox.errors import PlayerNameError, ShutTheBoxError
from shutthebox.language import _
from shutthebox.names import MAX_NAME as MAX_NAME
from shutthebox.names import YOU, clean_name, name_key

INVITE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
INVITE_LENGTH = 10
"""31 ** 10 (8.2e14) codes: with 10,000 open invites, 1,000 addresses each guessing at the
server's limit for unknown invites (:data:`~shutthebox.web.api.checks.INVITE_MISSES`, one a
second) need 2.6 years on average to hit one. Read in two groups of five (``K7QF2-M9XRT``)."""
MAX_TOKENS = 20
"""Seat tokens one request may present (each unknown one is looked up in the database)."""


class SeatKind(StrEnum):
    HERE = "here"
    """A human on the creator's device (hot-seat)."""
    COMPUTER = "computer"
    OPEN = "open"
    """A seat for a friend to take with an invite."""


class SeatError(ShutTheBoxError):
    """A seat request that cannot be granted (a bad name, a bad invite)."""


class InviteNotFoundError(SeatError):
    """No open seat has this invite code."""


class TooManyGuessesError(SeatError):
    """A client that asked about too many unknown invites (429)."""


class SeatTakenError(SeatError):
    """The invite's seat has been taken already."""


class UnauthorizedError(ShutTheBoxError):
    """No token, or a token no seat has (401)."""


class ForbiddenError(ShutTheBoxError):
    """A real token, but of another seat or another game (403)."""


@dataclass(frozen=True)
class Seat:
    """One seat of a game as the page sees it."""

    seat: int
    kind: SeatKind
    name: str
    computer: str | None = None
    joined: bool = True

    def to_dict(self) -> dict[str, object]:
        return {"seat": self.seat, "kind": self.kind.value, "name": self.name,
                "computer": self.computer, "joined": self.joined}


def new_token() -> str:
    """A fresh secret seat token."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """What the database keeps of a token.

    >>> len(token_hash("abc"))
    64
    """
    return hashlib.sha256(token.encode()).hexdigest()


def new_invite() -> str:
    """A fresh room code, such as ``'K7QF2M9XRT'``."""
    return "".join(secrets.choice(INVITE_ALPHABET) for _ in range(INVITE_LENGTH))


def normal_invite(code: str) -> str:
    """An invite as typed (any case, spaces or dashes) in its stored form.

    >>> normal_invite(" k7qf-2m ")
    'K7QF2M'
    """
    return "".join(c for c in code.upper() if c.isalnum())


def stored_name(name: str) -> str:
    """``name`` as :func:`shutthebox.names.clean_name` makes it, refused if it is how the
    game addresses its reader (:data:`~shutthebox.names.YOU`, in any look): a name the
    server stores is one the others can read.

    >>> stored_name(" Ann ")
    'Ann'
    >>> stored_name("YOU")
    Traceback (most recent call last):
    ...
    shutthebox.errors.PlayerNameError: 'YOU' is how the game speaks to its reader, not a \
name: type the name the others will see

    :raises PlayerNameError: not a name, or "You".
    """
    name = clean_name(name)
    if name_key(name) == name_key(YOU):
        raise PlayerNameError(_("{name!r} is how the game speaks to its reader, not a "
                                "name: type the name the others will see").format(name=name))
    return name


def check_name(name: str, taken: list[str]) -> str:
    """A player name as :func:`stored_name` makes it; refused if it cannot be one or is
    already at the table (or one that looks the same, see :func:`~shutthebox.names.name_key`).

    :raises PlayerNameError: not a name, or "You".
    :raises SeatError: the name is taken.
    """
    name = stored_name(name)
    if name_key(name) in (name_key(other) for other in taken):
        raise SeatError(_("{name!r} is already playing in this game: choose another name").format(
                          name=name))
    return name


def bearer_tokens(authorization: str | None, extra: str | None = None) -> list[str]:
    """The tokens of an ``Authorization: Bearer`` header and an ``X-Seat-Tokens`` list.

    >>> bearer_tokens("Bearer abc", "d, e")
    ['abc', 'd', 'e']

    :raises SeatError: more than :data:`MAX_TOKENS` tokens.
    """
    tokens = []
    if authorization:
        scheme, _space, value = authorization.strip().partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            tokens.append(value.strip())
    if extra:
        tokens.extend(t.strip() for t in extra.split(",") if t.strip())
    if len(tokens) > MAX_TOKENS:
        raise SeatError(_("{count} seat tokens were sent: at most {MAX_TOKENS} a request").format(
                          count=len(tokens), MAX_TOKENS=MAX_TOKENS))
    return tokens
