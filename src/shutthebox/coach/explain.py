"""Why the best choice was better, in one sentence: what each choice keeps open, what it risks
(the chance that the next roll fits nothing) and the chance to shut the box from each.

One function for the terminal, the command line and the page, so a learner reads the same
reason everywhere.

>>> from shutthebox.rules import Rules
>>> from shutthebox.turn import TurnState
>>> state = TurnState.start(Rules()).apply_roll((4, 5))
>>> print(explain(state, 0b10000001, 0b100000000))   # played 1 8, the best was 9
Shutting 1 8 keeps 2 3 4 5 6 7 9 open: 5.2 % to shut the box, and every roll fits a move; \
9 was better: it keeps 1 2 3 4 5 6 7 8 open: 10.2 % to shut, every roll fits a move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shutthebox.dice import roll_outcomes
from shutthebox.language import _
from shutthebox.strategies import format_move
from shutthebox.tiles import Tiles, format_tiles
from shutthebox.turn import Phase, TurnState, legal_moves

if TYPE_CHECKING:
    from shutthebox.coach.aims import Aim
    from shutthebox.rules import Rules


def dead_roll_chance(rules: Rules, open_tiles: Tiles, dice: int) -> float:
    """The chance that a roll of ``dice`` dice fits no move with these tiles open.

    >>> from shutthebox.rules import Rules
    >>> dead_roll_chance(Rules(), 0b1, 2)   # only the 1 open: every two-dice roll is dead
    1.0
    """
    if open_tiles == 0:
        return 0.0
    return float(sum(p for roll, p in roll_outcomes(dice)
                     if not legal_moves(rules, open_tiles, roll)))


def _next_dice(rules: Rules, open_tiles: Tiles) -> int:
    """The dice the chance-to-shut player rolls next with these tiles open."""
    from shutthebox.solver import solve

    choices = rules.dice_choices(open_tiles)
    if len(choices) == 1:
        return choices[0]
    return int(solve(rules, "shut").best_dice(open_tiles))


def _percent(p: float) -> str:
    return f"{p * 100:.1f} %"


def _outlook(rules: Rules, open_tiles: Tiles, dice: int | None = None) -> tuple[float, float]:
    """(chance to shut the box, chance that the next roll fits nothing) with these tiles
    open, the next roll of ``dice`` dice (by default the dice the shutting player picks)."""
    from shutthebox.solver import solve

    shut = solve(rules, "shut")
    if open_tiles == 0:
        return 1.0, 0.0
    if dice is None:
        return float(shut.value(open_tiles)), dead_roll_chance(
            rules, open_tiles, _next_dice(rules, open_tiles))
    return float(shut.dice_value(open_tiles, dice)), dead_roll_chance(rules, open_tiles, dice)


def _by_aim(judged_by: Aim | None, played_value: float | None,
            best_value: float | None) -> str:
    if judged_by is None or played_value is None or best_value is None:
        return ""
    if judged_by.is_score:
        return _(" (expected score {played} against {best} after the best)").format(
            played=f"{played_value:.2f}", best=f"{best_value:.2f}")
    return _(" ({measure} {played} against {best} after the best)").format(
        measure=_(judged_by.measure), played=_percent(played_value),
        best=_percent(best_value))


def explain(state: TurnState, played: int, best: int, judged_by: Aim | None = None,
            played_value: float | None = None, best_value: float | None = None) -> str:
    """Why ``best`` was better than ``played`` at this decision, in one sentence: what each
    keeps open, the chance to shut the box from each, and the chance that the next roll fits
    nothing; with the aim and both values, what each is worth in the aim's unit.

    :raises ValueError: the state is not a decision.
    """
    rules = state.rules
    tail = _by_aim(judged_by, played_value, best_value)
    if state.phase is Phase.CHOOSE_DICE:
        p_shut, dead = _outlook(rules, state.open_tiles, played)
        b_shut, b_dead = _outlook(rules, state.open_tiles, best)
        return _("Rolling {dice} with {open} open gives {shut} to shut the box and {risk}; "
                 "{best} was better: {best_shut} to shut, {best_risk}{aim}.").format(
            dice=_dice(played), open=format_tiles(state.open_tiles), shut=_percent(p_shut),
            risk=_risk(dead), best=_dice(best), best_shut=_percent(b_shut),
            best_risk=_risk(b_dead), aim=tail)
    if state.phase is not Phase.SHUT:
        raise ValueError(_("no decision to explain: the turn is at {value!r}").format(
                           value=state.phase.value))
    return _("Shutting {tiles} {keeps}; {best} was better: it {best_keeps}{aim}.").format(
        tiles=format_move(played), keeps=_keeps(rules, state.open_tiles & ~played),
        best=format_move(best), best_keeps=_keeps(rules, state.open_tiles & ~best, short=True),
        aim=tail)


def _dice(count: int) -> str:
    return _("1 die") if count == 1 else _("{count} dice").format(count=count)


def _keeps(rules: Rules, left: Tiles, *, short: bool = False) -> str:
    if left == 0:
        return _("shuts the box")
    p_shut, dead = _outlook(rules, left)
    return (_("keeps {open} open: {shut} to shut, {risk}") if short else
            _("keeps {open} open: {shut} to shut the box, and {risk}")).format(
        open=format_tiles(left), shut=_percent(p_shut), risk=_risk(dead, next_roll=True))


def _risk(dead: float, next_roll: bool = False) -> str:
    if dead == 0:
        return _("every roll fits a move")
    return (_("{chance} that the next roll fits nothing") if next_roll else
            _("{chance} that the roll fits nothing")).format(chance=_percent(dead))
