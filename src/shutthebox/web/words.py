"""Formats and rules in words for the page: "Round 2 of 3", "Out at 45 points".

>>> from shutthebox.match import GameFormat
>>> format_text(GameFormat.parse("rounds:3"), 2)
'Round 2 of 3'
>>> format_text(GameFormat.parse("elimination:45"), None)
'Elimination: out at 45 points'
"""

from __future__ import annotations

import functools

from shutthebox.match import FormatKind, GameFormat
from shutthebox.rules import Rules


@functools.lru_cache(maxsize=1024)
def format_text(fmt: GameFormat, round_number: int | None) -> str:
    """The format, and the round being played if there is one, in plain words."""
    kind = fmt.kind
    limit = fmt.limit
    at = f", round {round_number}" if round_number else ""
    if kind is FormatKind.SOLO:
        return "Solo game"
    if kind is FormatKind.SINGLE:
        return "One round: the best score wins"
    if kind is FormatKind.ROUNDS:
        return (f"Round {round_number} of {limit}" if round_number
                else f"{limit} rounds: the best total wins")
    if kind is FormatKind.ELIMINATION:
        return f"Elimination: out at {limit} points{at}"
    if kind is FormatKind.LOSER_AT:
        return f"Game to {limit} points: the highest total loses{at}"
    if kind is FormatKind.RACE:
        return f"Race to {limit} points{at}"
    reading = str(fmt).partition(":")[2]
    return "Battle: " + ("one roll at a time" if reading == "rolls"
                         else "a whole turn at a time")


def rules_text(rules: Rules) -> str:
    """The rules in one line of words."""
    return "; ".join(f"{name}: {meaning}" for name, meaning in rules.describe())
