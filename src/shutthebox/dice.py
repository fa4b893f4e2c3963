"""Exact roll distributions and the seedable roller.

A roll is the faces shown, lowest first: ``(2, 6)`` for two dice, ``(4,)`` for one.

>>> [(roll, str(p)) for roll, p in roll_outcomes(2)][:3]
[((1, 1), '1/36'), ((1, 2), '1/18'), ((1, 3), '1/18')]
>>> len(roll_outcomes(2)), len(roll_outcomes(1))
(21, 6)
>>> str(total_distribution(2)[7])
'1/6'
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache

from shutthebox.errors import ShutTheBoxError
from shutthebox.language import _

Roll = tuple[int, ...]
"""The faces of one roll, lowest first."""

FACES = 6


@cache
def roll_outcomes(dice: int) -> tuple[tuple[Roll, Fraction], ...]:
    """Every distinct roll of ``dice`` dice (1 or 2) with its exact probability."""
    if dice == 1:
        return tuple(((face,), Fraction(1, FACES)) for face in range(1, FACES + 1))
    if dice == 2:
        return tuple(((a, b), Fraction(1 if a == b else 2, FACES * FACES))
                     for a in range(1, FACES + 1) for b in range(a, FACES + 1))
    raise ShutTheBoxError(_("a roll uses 1 or 2 dice, not {dice!r}").format(dice=dice))


@cache
def total_distribution(dice: int) -> dict[int, Fraction]:
    """The exact distribution of the dice total."""
    totals: dict[int, Fraction] = {}
    for roll, p in roll_outcomes(dice):
        totals[sum(roll)] = totals.get(sum(roll), Fraction(0)) + p
    return totals


def roll_dice(rng: random.Random, dice: int) -> Roll:
    """Roll ``dice`` dice with a seedable generator.

    >>> roll_dice(random.Random(7), 2)
    (2, 3)
    """
    if dice not in (1, 2):
        raise ShutTheBoxError(_("a roll uses 1 or 2 dice, not {dice!r}").format(dice=dice))
    return tuple(sorted(rng.randint(1, FACES) for _ in range(dice)))


def format_roll(roll: Roll) -> str:
    """A roll as people say it: ``'2+6=8'``, ``'4'``."""
    if len(roll) == 1:
        return str(roll[0])
    return "+".join(map(str, roll)) + f"={sum(roll)}"


def parse_roll(text: str) -> Roll:
    """Read a roll written as ``'3,5'``, ``'3 5'`` or ``'4'``.

    >>> parse_roll("5,3")
    (3, 5)
    """
    words = [w for w in text.replace(",", " ").replace("+", " ").split() if w]
    if not 1 <= len(words) <= 2 or not all(w.isdigit() and 1 <= int(w) <= FACES for w in words):
        raise ShutTheBoxError(
            _("cannot read the roll {text!r}: give one or two dice faces from 1 to 6, "
              "like 3,5").format(text=text))
    return tuple(sorted(int(w) for w in words))
