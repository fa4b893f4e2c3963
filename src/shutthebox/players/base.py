"""The strategy interface: what a player knows when deciding, and how it answers.

A strategy sees the turn (a decision node of :class:`~shutthebox.turn.TurnState`) and the
:class:`Situation` around it, and returns an action: a dice count in ``CHOOSE_DICE``, a tile
mask in ``SHUT``.

>>> from shutthebox.formats import GameFormat
>>> situation = Situation(format=GameFormat.parse("battle:rolls"), role=Role.KNOCK)
>>> situation.role is Role.KNOCK, situation.by_rolls
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from shutthebox.formats import GameFormat
from shutthebox.turn import TurnState


class Role(StrEnum):
    """What a seat is doing in the match: its values are the words of the event log and the
    web API (``"turn"``, ``"knock"``, ``"stand"``, ``"roll-off"``), so logs read the same."""

    TURN = "turn"
    KNOCK = "knock"
    STAND = "stand"
    ROLL_OFF = "roll-off"

    @property
    def in_battle(self) -> bool:
        """The knocker or the stander of a battle."""
        return self._value_ in ("knock", "stand")   # by value: member lookups are slow


@dataclass(frozen=True)
class Situation:
    """What a player knows beyond the box when deciding (used by score-aware players).

    ``posted`` are the scores already posted this round by players still in the game,
    ``still_to_play`` how many play after this player in this round, ``totals`` the match
    totals (this player's first; a player who has played this round has their score in
    it), ``round`` counts from 1, ``decisive`` says that this round's scores alone decide the
    game (a single round), ``format`` is the match's format (``None`` outside a match) and
    ``role`` is :attr:`Role.TURN`, or :attr:`Role.KNOCK` / :attr:`Role.STAND` in a battle.
    """

    posted: tuple[int, ...] = ()
    still_to_play: int = 0
    totals: tuple[int, ...] = ()
    round: int = 1
    decisive: bool = False
    format: GameFormat | None = None
    role: Role = Role.TURN
    others_played: tuple[bool, ...] = ()
    """For each of the others in ``totals[1:]``, whether they have played this round."""

    @property
    def battle(self) -> GameFormat | None:
        """The battle's format when this is a knocker's or a stander's decision, else None."""
        fmt = self.format
        if fmt is None or not fmt.is_battle or not self.role.in_battle:
            return None
        return fmt

    @property
    def by_rolls(self) -> bool:
        """A battle read by rolls, with a role: each roll is decided on its own."""
        battle = self.battle
        return battle is not None and not battle.by_turns


class Strategy(Protocol):
    """A computer player."""

    @property
    def name(self) -> str: ...

    def choose(self, state: TurnState, situation: Situation) -> int:
        """The action to take at a decision node."""
        ...
