"""How accurate a player was: each decision's size (inaccuracy, mistake, blunder) from what
it cost, and an accuracy out of 100, one scale in every format (halved by each costly
decision's threshold its cost makes)."""

from __future__ import annotations

import math

from shutthebox.coach.review import COSTLY, ReviewedDecision

__all__ = ["SIZES", "SIZE_FACTORS", "decision_accuracy", "game_accuracy", "size_of",
           "size_threshold"]

SIZES = ("inaccuracy", "mistake", "blunder")
"""The sizes of a costly-or-nearly decision, smallest first."""

SIZE_FACTORS = {"inaccuracy": 0.4, "mistake": 1.0, "blunder": 4.0}
"""From which cost a decision is of each size, as a multiple of :data:`COSTLY` in its unit:
an inaccuracy from 0.2 points of expected score (0.4 percentage points of a chance), a
mistake from 0.5 (1.0: the coach's threshold of a costly decision), a blunder from 2 (4)."""


def size_threshold(size: str, shown_unit: str) -> float:
    """From which cost, in ``shown_unit`` (``points`` or ``percentage points``), a decision
    is of ``size``.

    >>> size_threshold("blunder", "points"), size_threshold("inaccuracy", "percentage points")
    (2.0, 0.4)
    """
    return SIZE_FACTORS[size] * COSTLY[shown_unit]


def size_of(shown_cost: float, shown_unit: str) -> str | None:
    """The size of a decision that cost ``shown_cost`` (in ``shown_unit``): ``None`` below an
    inaccuracy.

    >>> size_of(0.1, "points"), size_of(0.6, "points"), size_of(5.0, "percentage points")
    (None, 'mistake', 'blunder')
    """
    found = None
    for size in SIZES:
        if shown_cost >= size_threshold(size, shown_unit):
            found = size
    return found


def decision_accuracy(shown_cost: float, shown_unit: str) -> float:
    """The accuracy of one decision: 100 for the best, halved by each mistake threshold its
    cost makes.

    >>> decision_accuracy(0.0, "points"), decision_accuracy(0.5, "points")
    (100.0, 50.0)
    >>> decision_accuracy(2.0, "percentage points")
    25.0
    """
    return 100.0 * float(2.0 ** -(shown_cost / COSTLY[shown_unit]))


def game_accuracy(decisions: list[ReviewedDecision]) -> float:
    """The average accuracy of these decisions (100 with none)."""
    if not decisions:
        return 100.0
    return math.fsum(decision_accuracy(d.shown_cost, d.shown_unit)
                     for d in decisions) / len(decisions)
