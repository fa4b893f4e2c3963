"""Hints: every choice of a decision ranked in the unit of what the optimal player aims at,
with the chance to shut and the expected score after each."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from shutthebox.coach.aims import EXPECTED_SCORE, Aim, NoDecisionError, aim
from shutthebox.language import _
from shutthebox.match import Match
from shutthebox.strategies import format_move
from shutthebox.turn import Phase, TurnState

if TYPE_CHECKING:
    from shutthebox.solver.solve import Solution

@dataclass(frozen=True)
class Choice:
    """One legal choice of a decision: a dice count or the tiles to shut (a mask)."""

    action: int
    value: float
    """In the unit of the aim: an expected score or a chance from 0 to 1."""
    loss: float
    """What it gives up against the best choice, in the same unit (0 for the best)."""
    p_shut: float
    """The chance to shut the box after it, playing on for that."""
    expected_score: float
    """The expected score after it, playing on for that."""


@dataclass(frozen=True)
class Hint:
    """The choices of one decision, best first, in the unit of ``measure``."""

    phase: Phase
    """:attr:`Phase.CHOOSE_DICE` (the choices are dice counts) or :attr:`Phase.SHUT`
    (tile masks)."""
    measure: str
    choices: tuple[Choice, ...]

    @property
    def is_score(self) -> bool:
        return self.measure == EXPECTED_SCORE

    def describe(self, choice: Choice) -> str:
        """A choice in words: ``'2 dice'`` or the tiles, lowest first (``'3 5'``)."""
        return describe_action(self.phase, choice.action)


def describe_action(phase: str, action: int) -> str:
    """A dice count or a move in words.

    >>> describe_action("choose-dice", 1), describe_action("shut", 0b10100)
    ('1 die', '3 5')
    """
    if phase == Phase.CHOOSE_DICE:
        return _("1 die") if action == 1 else _("{count} dice").format(count=action)
    return format_move(action)


def rank(state: TurnState, judged_by: Aim) -> Hint:
    """Every legal choice of a decision, best first, with its value under ``judged_by``, its
    loss against the best, and its chance to shut and expected score.

    :raises NoDecisionError: the state is not a decision.
    """
    from shutthebox.solver.objectives import SCORE, SHUT
    from shutthebox.solver.solve import solve

    ranked = judged_by.ranked(state)
    rules, open_tiles = judged_by.rules, state.open_tiles
    shut, score = solve(rules, SHUT), solve(rules, SCORE)
    dice = state.phase is Phase.CHOOSE_DICE

    def after(solution: Solution, action: int) -> float:
        return float(solution.dice_value(open_tiles, action) if dice
                     else solution.after_move(open_tiles, action))

    best = ranked[0][1] if ranked else 0.0
    return Hint(state.phase, judged_by.measure, tuple(
        Choice(action, value, abs(best - value), after(shut, action), after(score, action))
        for action, value in ranked))


def hint(match: Match, *, match_tables: bool = True) -> Hint:
    """The choices of the decision the match waits for, ranked by what the optimal player
    aims at there (see :func:`aim` for ``match_tables``).

    :raises NoDecisionError: the match waits for a roll, or is over.
    """
    pending = match.pending
    if pending.turn is None or not pending.is_decision:
        raise NoDecisionError(_("no decision to hint: the match waits for {value!r}").format(
                                value=pending.kind.value))
    return rank(pending.turn, aim(match.rules, match.situation(), match_tables=match_tables))


@dataclass(frozen=True)
class Chances:
    """The chance to shut the box and the expected score from a position, each played for."""

    p_shut: float
    expected_score: float


def chances(match: Match) -> Chances | None:
    """The chances of the turn under way from where it stands (after a roll: playing that
    roll's best move); ``None`` when no turn is under way."""
    from shutthebox.solver import solve

    turn = match.pending.turn
    if turn is None:
        return None
    shut, score = solve(match.rules, "shut"), solve(match.rules, "score")
    if turn.phase is Phase.SHUT and turn.roll is not None:
        return Chances(float(shut.after_roll(turn.open_tiles, turn.roll)),
                       float(score.after_roll(turn.open_tiles, turn.roll)))
    return Chances(float(shut.value(turn.open_tiles)), float(score.value(turn.open_tiles)))
