"""Why the best choice was better, in one sentence: what each choice keeps open, what it risks
(the chance that the next roll fits nothing) and the chance to shut the box from each.

One function for the terminal, the command line and the page, so a learner reads the same
reason everywhere.

>>> from shutthebox.rules import Rules
>>> from shutthebox.turn import TurnState
>>> state = TurnState.start(Rules()).apply_roll((4, 5))
>>> print(explain(state, 0b10000001, 0b100000000))   # played 8 1, the best was 9
Shutting 8 1 keeps 2 3 4 5 6 7 9 open: 5.2 % to shut the box, and every roll fits a move; \
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
        return (f" (expected score {played_value:.2f} against {best_value:.2f} after the "
                "best)")
    return (f" ({judged_by.measure} {_percent(played_value)} against "
            f"{_percent(best_value)} after the best)")


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
        return (f"Rolling {_dice(played)} with {format_tiles(state.open_tiles)} open gives "
                f"{_percent(p_shut)} to shut the box and {_risk(dead)}; {_dice(best)} was "
                f"better: {_percent(b_shut)} to shut, {_risk(b_dead)}{tail}.")
    if state.phase is not Phase.SHUT:
        raise ValueError(_("no decision to explain: the turn is at {value!r}").format(
                           value=state.phase.value))
    return (f"Shutting {format_move(played)} {_keeps(rules, state.open_tiles & ~played)}; "
            f"{format_move(best)} was better: it "
            f"{_keeps(rules, state.open_tiles & ~best, short=True)}{tail}.")


def _dice(count: int) -> str:
    return f"{count} di{'e' if count == 1 else 'ce'}"


def _keeps(rules: Rules, left: Tiles, *, short: bool = False) -> str:
    if left == 0:
        return "shuts the box"
    p_shut, dead = _outlook(rules, left)
    return (f"keeps {format_tiles(left)} open: {_percent(p_shut)} to shut"
            f"{'' if short else ' the box'}, {'' if short else 'and '}{_risk(dead, 'next ')}")


def _risk(dead: float, which: str = "") -> str:
    if dead == 0:
        return "every roll fits a move"
    return f"{_percent(dead)} that the {which}roll fits nothing"
