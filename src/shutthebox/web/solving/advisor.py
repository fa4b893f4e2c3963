"""The advisor's work in the solver worker: the moves of a position on a real table's box,
ranked by the coach (:func:`shutthebox.coach.rank`) as a game's hint is, by the expected
score alone or, in a match with totals and posted scores, by the chance to win.

The arguments are JSON values (cheap to send to the worker); the route has checked them with
:func:`shutthebox.coach.situations.table_situation` and
:func:`~shutthebox.coach.situations.table_position` before sending them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from shutthebox.dice import format_roll
from shutthebox.language import _, ngettext
from shutthebox.match import GameFormat
from shutthebox.players.base import Role
from shutthebox.rules import Rules
from shutthebox.tiles import format_tiles, tiles_of
from shutthebox.turn import Phase
from shutthebox.web.solving.tables import approximate_note, table_ready


def advise(rules_data: Mapping[str, Any], open_tiles: Sequence[int],
           roll: Sequence[int] | None, game_format: str | None, totals: Sequence[int],
           posted: Sequence[int], round_number: int, role: str | None) -> dict[str, Any]:
    """Every choice of the position, best first: ``phase`` (``shut``, ``choose-dice``, or
    ``roll`` and ``over`` when there is nothing to choose), ``measure`` (what the values
    are: ``expected score`` or ``chance to win``), ``options`` (each with its ``tiles`` or
    ``dice``, ``text``, ``value``, ``loss`` against the best, ``p_shut`` and
    ``expected_score``), ``message`` (when there is nothing to rank, why) and ``note``
    (ranked by expected score for want of the match's table)."""
    from shutthebox.coach import aim, describe_action, rank
    from shutthebox.coach.situations import match_situation, table_position
    from shutthebox.solver.matchplay import table_needed

    rules = Rules.from_dict(dict(rules_data))
    state = table_position(rules, open_tiles, roll)
    situation, note = None, None
    if game_format is not None:
        fmt = GameFormat.parse(game_format)
        situation = match_situation(fmt, totals, posted, round_number,
                                    Role(role) if role else None)
        table = table_needed(fmt, max(len(totals), 2))
        if table is not None and not table_ready(rules, table):
            note = approximate_note(str(table))
    answer: dict[str, Any] = {"phase": state.phase.value, "measure": None, "options": [],
                              "message": None, "note": note}
    if not state.is_decision:
        if state.phase is Phase.OVER:
            assert state.roll is not None
            answer["message"] = _("Roll {roll} allows no move with {tiles} open: the turn ends "
                                  "with score {score}.").format(
                roll=format_roll(state.roll), tiles=format_tiles(state.open_tiles),
                score=rules.score(state.open_tiles))
        else:
            answer["message"] = ngettext("Nothing to choose before this roll: roll {count} "
                                         "die, then tap what it shows.",
                                         "Nothing to choose before this roll: roll {count} "
                                         "dice, then tap what they show.",
                                         state.dice).format(count=state.dice)
        return answer
    ranked = rank(state, aim(rules, situation, match_tables=note is None))
    by_dice = ranked.phase is Phase.CHOOSE_DICE
    answer["measure"] = _(ranked.measure)
    answer["options"] = [
        {**({"dice": c.action} if by_dice else {"tiles": list(tiles_of(c.action))}),
         "text": describe_action(ranked.phase, c.action), "value": c.value, "loss": c.loss,
         "p_shut": c.p_shut, "expected_score": c.expected_score} for c in ranked.choices]
    answer["chance"] = not ranked.is_score
    return answer
