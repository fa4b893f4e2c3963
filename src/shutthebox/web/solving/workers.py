"""What the server's solver workers do: the functions run in a worker process, so that no
request waits on them.

Each function takes a game's stored log (JSON values, cheap to send between processes) and
answers JSON values. A worker keeps the matches it rebuilt and the computer players it made,
so a long match is not replayed from the start at every step.

:class:`~shutthebox.web.solving.pool.SolverPool` runs these functions in worker processes,
started once per server process: ``await pool.run(hint, game_id, log)`` never blocks the
event loop. (It and :class:`~shutthebox.web.solving.pool.WorkDroppedError`, and what
:mod:`shutthebox.web.solving.tables` says of the match tables, are named here too, where
their callers found them.)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from cachetools import LRUCache

from shutthebox.language import N_, _
from shutthebox.match import Match, PendingKind, replay
from shutthebox.strategies import Strategy, make_strategy
from shutthebox.tiles import tiles_of
from shutthebox.turn import Phase
from shutthebox.web.solving.pool import SolverPool, WorkDroppedError, report_progress
from shutthebox.web.solving.review import chart_words
from shutthebox.web.solving.tables import (
    INLINE_SECONDS,
    approximate_note,
    table_missing,
    table_ready,
)

__all__ = ["INLINE_SECONDS", "NOTHING_TO_HINT", "SolverPool", "WorkDroppedError",
           "approximate_note", "coach", "computer_action", "hint", "optimal_distribution",
           "prepare_match", "review", "table_missing", "table_ready", "warm_up"]

_KEEP = 256
"""How many matches and computer players a worker keeps, the least recently used going
first."""
_MATCHES: LRUCache[str, Match] = LRUCache(_KEEP)
_PLAYERS: LRUCache[tuple[str, int], Strategy] = LRUCache(_KEEP)

NOTHING_TO_HINT = N_("Roll the dice first: hints rank the moves after a roll.")


def _match(game_id: str, log: Mapping[str, Any]) -> Match:
    """The match of the log: the kept one moved on by the new events, or a replay."""
    events = log["events"]
    kept = _MATCHES.pop(game_id, None)
    match = kept if kept is not None and kept.events == events else replay(log)
    _MATCHES[game_id] = match
    return match


def computer_action(game_id: str, log: Mapping[str, Any], seat: int, strategy: str) -> int:
    """The computer player's action at the pending decision of the logged game. A computer
    that plays the match exactly plays each turn for its best expected score instead while
    the match's table is missing (the server builds it first when it fits its budget)."""
    match = _match(game_id, log)
    pending = match.pending
    assert pending.turn is not None and pending.seat == seat
    if strategy in ("hard", "optimal") and table_missing(log) is not None:
        strategy = "optimal:round"
    key = (game_id, seat)
    player = _PLAYERS.pop(key, None) or make_strategy(strategy, match.rules, random.Random())
    _PLAYERS[key] = player
    return player.choose(pending.turn, match.situation())


def hint(game_id: str, log: Mapping[str, Any]) -> dict[str, Any]:
    """Every legal action now, ranked by the coach, with its chance to shut (by expected
    score, and saying so, while the match's table is missing).

    :raises LogError: the log does not replay.
    """
    from shutthebox.coach import hint as ranked_hint
    from shutthebox.coach.hints import describe_action

    match = _match(game_id, log)
    pending = match.pending
    if pending.turn is None or not pending.is_decision:
        message = (_(NOTHING_TO_HINT) if pending.kind is PendingKind.ROLL else
                   _("The game is over: the review shows every move against the best.")
                   if pending.kind is PendingKind.OVER else _("Nothing to decide yet."))
        return {"kind": pending.kind, "measure": None, "options": [], "message": message}
    missing = table_missing(log)
    ranked = ranked_hint(match, match_tables=missing is None)
    by_dice = ranked.phase is Phase.CHOOSE_DICE
    options = [{**({"dice": c.action} if by_dice else {"tiles": list(tiles_of(c.action))}),
                "text": describe_action(ranked.phase, c.action), "value": c.value,
                "loss": c.loss, "p_shut": c.p_shut} for c in ranked.choices]
    return {"kind": pending.kind, "measure": ranked.measure, "options": options,
            "message": approximate_note(missing) if missing is not None else None}


def coach(game_id: str, log: Mapping[str, Any]) -> dict[str, Any]:
    """The exact chance to shut and expected score from the current position.

    :raises LogError: the log does not replay.
    """
    from shutthebox.coach import chances
    from shutthebox.narration import chances_text

    now = chances(_match(game_id, log))
    if now is None:
        return {"p_shut": None, "expected_score": None, "text": None}
    return {"p_shut": now.p_shut, "expected_score": now.expected_score,
            "text": chances_text(now.p_shut, now.expected_score)}


def review(game_id: str, log: Mapping[str, Any]) -> dict[str, Any]:
    """Every decision of the game against the best, its cost in the unit of the objective it
    is judged by (points of expected score, or percentage points of chance to win), whether
    the coach counts it a mistake, and the coach's verdict (one sentence per player who made
    a decision in ``verdicts``, all of them in ``verdict``); and the coach's analysis for a
    learner (:meth:`~shutthebox.coach.Analysis.to_dict`: ``players``, each with its
    ``verdict`` or None, ``marks``, ``moments``, ``thresholds``) with its chart in words
    (``chart``, see :func:`~shutthebox.web.solving.review.chart_words`).

    :raises LogError: the log does not replay.
    """
    from shutthebox.coach import analyse

    missing = table_missing(log)
    analysis = analyse(log, match_tables=missing is None)
    reviewed = analysis.review
    decisions = [{**d.to_dict(), "unit": d.shown_unit, "cost": d.shown_cost,
                  "costly": d.costly} for d in reviewed]
    learned = analysis.to_dict()
    said = dict(zip(reviewed.mistakes(), reviewed.verdicts(), strict=True))
    return {"decisions": decisions, "unit": reviewed.shown_unit,
            "total_cost": reviewed.shown_totals(), "mistakes": reviewed.mistakes(),
            "verdict": reviewed.verdict(), "verdicts": reviewed.verdicts(),
            "players": [{**p, "verdict": said.get(p["player"])} for p in learned["players"]],
            "marks": learned["marks"],
            "moments": learned["moments"], "thresholds": learned["thresholds"],
            "chart": chart_words(learned, decisions),
            "note": approximate_note(missing) if missing is not None else None}


def optimal_distribution(rules: Mapping[str, Any]) -> dict[str, float]:
    """The exact distribution of a turn's score under optimal play for expected score."""
    from shutthebox.rules import Rules
    from shutthebox.solver import solve

    return {str(s): p for s, p in solve(Rules.from_dict(dict(rules)), "score")
            .distribution.items()}


def prepare_match(rules: Mapping[str, Any], game_format: str) -> bool:
    """Work out (and keep on disk) the two-player match tables, telling the server how far
    it is."""
    from shutthebox.rules import Rules
    from shutthebox.solver.matchplay import solve_match

    report_progress(0.0)
    solve_match(Rules.from_dict(dict(rules)), game_format, progress=report_progress)
    report_progress(1.0)
    return True


def warm_up() -> bool:
    """Load the game engine in the worker, so that the first request does not wait on it."""
    return True
