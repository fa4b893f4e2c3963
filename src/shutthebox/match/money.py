"""Money: stakes written and shown, and the ledger of a betting session.

A stake is whole cents (an ``int``); each player antes it and the winners share the pot.

>>> parse_stake("0.5"), format_money(-25)
(50, '-0.25')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Protocol

from shutthebox.errors import FormatError
from shutthebox.language import _

MAX_STAKE = 1_000_000_00
"""The largest stake, in cents (a million)."""


def parse_stake(text: str) -> int:
    """A stake written in money units (``'1'``, ``'0.50'``) as whole cents.

    >>> parse_stake("0.5")
    50

    :raises FormatError: the text is not an amount of money, or not one from 0 to
        :data:`MAX_STAKE` in whole cents.
    """
    try:
        amount = Decimal(text.strip())
    except InvalidOperation:
        raise FormatError(_("stake {text!r} is not an amount of money").format(text=text)) from None
    if not amount.is_finite():
        raise FormatError(_("stake {text!r} is not an amount of money").format(text=text))
    if amount < 0 or amount.adjusted() > 8 or amount * 100 > MAX_STAKE:
        raise FormatError(_("stake {text!r} must be an amount from 0 to {most}").format(
                            text=text, most=format_money(MAX_STAKE)))
    cents = amount * 100
    if (amount and amount.adjusted() < -2) or cents != cents.to_integral_value():
        raise FormatError(_("stake {text!r} must be a positive amount in whole cents").format(
                            text=text))
    return int(cents)


def format_money(cents: int) -> str:
    """Cents as money: ``'1.50'``, ``'-0.25'``."""
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def share_pot(pot: int, winners: tuple[int, ...], players: int) -> dict[int, int]:
    """What each seat takes of the pot: the winners share it, the cents that do not divide
    going one each to the first winners.

    >>> share_pot(100, (0, 2), 3)
    {0: 50, 1: 0, 2: 50}
    >>> share_pot(100, (2, 0, 1), 3)
    {0: 33, 1: 33, 2: 34}
    """
    share, extra = divmod(pot, len(winners))
    return {seat: (share + (1 if winners.index(seat) < extra else 0)) if seat in winners else 0
            for seat in range(players)}


class SettledGame(Protocol):
    """What the ledger reads of a game (a :class:`~shutthebox.match.Match`)."""

    @property
    def is_over(self) -> bool: ...

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def stake(self) -> int: ...

    @property
    def payouts(self) -> Mapping[int, int]: ...


@dataclass
class Ledger:
    """The running money of a betting session: each player's net result in cents."""

    net: dict[str, int] = field(default_factory=dict)
    games: int = 0

    def record(self, match: SettledGame) -> None:
        """Add a finished match's antes and payouts.

        :raises FormatError: the match is not over.
        """
        if not match.is_over:
            raise FormatError(_("only a finished game can be entered in the ledger"))
        stake = match.stake
        for seat, name in enumerate(match.players):
            self.net[name] = self.net.get(name, 0) - stake + match.payouts.get(seat, 0)
        self.games += 1
