"""The daily box on the server (:mod:`shutthebox.coach.daily`): today's solo turn, the same
dice for everyone, its result against perfect play on the same dice, and the day's table.

The page keeps the turn: it sends the decisions made so far, and the server replays them on
the day's dice (the i-th roll of the day is the same whatever was shut before), so no turn
is stored until it is finished and its result is sent. A result is stored as a finished solo
game whose id holds the day and a hash of the player's token, so that a token has one result
a day (a second is refused), and the game can be reviewed like any other.

>>> from datetime import date
>>> box = box_of("2026-11-24", now=date(2026, 11, 24))
>>> match = replayed(box, [[2, 1]])
>>> [str(e["type"]) for e in match.events][-3:], str(match.pending.kind)
(['roll', 'shut', 'roll'], 'shut')
>>> replayed(box, [[9]])
Traceback (most recent call last):
...
shutthebox.web.records.daily.DailyMoveError: move 1 ([9]) is not legal on the roll 1+2=3: \
the legal moves are 3 or 1 2
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from shutthebox.coach.daily import DailyBox, DailyDateError, daily_box, parse_day
from shutthebox.dice import format_roll
from shutthebox.errors import ShutTheBoxError
from shutthebox.language import _, ngettext
from shutthebox.match import Match
from shutthebox.narration import preset_text, rules_text, tell
from shutthebox.rules import PRESETS
from shutthebox.strategies import format_move
from shutthebox.tiles import mask_of, tiles_of
from shutthebox.turn import Phase
from shutthebox.web.play.results import game_results
from shutthebox.web.play.seats import Seat, SeatKind, SeatTakenError
from shutthebox.web.play.view import pending_view
from shutthebox.web.solving.review import chart_words
from shutthebox.web.storage import RESULTS, NewGame, record_results, store_new_game

MAX_MOVES = 40
"""More decisions than any daily turn has (each but a dice choice shuts a tile, 12 at most)."""

ID_PREFIX = "da11"
"""How a daily result's game id begins (a game id is 32 hexadecimal digits): then the day's
eight digits, then a hash of the day and the token."""


class DailyMoveError(ShutTheBoxError):
    """A decision that the day's turn does not allow where it was made."""


class PlayedTodayError(SeatTakenError):
    """The token has a result for the day already."""


def today() -> date:
    return datetime.now(UTC).date()


def box_of(day: str | None, now: date | None = None) -> DailyBox:
    """The box of ``day`` (``YYYY-MM-DD``; None: today, UTC). Only today's box and
    yesterday's are played (a turn begun before midnight ends after it).

    :raises DailyDateError: another day, or not a date.
    """
    now = now or today()
    found = now if day is None else parse_day(day)
    if not now - timedelta(days=1) <= found <= now:
        raise DailyDateError(_("the daily box of {found} cannot be played now: only "
                               "today's ({now}) or yesterday's").format(found=found, now=now))
    return daily_box(found)


def _action(match: Match, number: int, move: Any) -> int:
    """The action of decision ``number`` (from 1): a dice count, or the tiles to shut."""
    turn = match.pending.turn
    assert turn is not None
    legal = turn.legal_actions()
    if turn.phase is Phase.CHOOSE_DICE:
        if isinstance(move, int) and not isinstance(move, bool) and move in legal:
            return move
        raise DailyMoveError(_("move {number} ({move!r}) is not a choice of dice: "
                               "choose {legal}").format(
                               number=number, move=move,
                               legal=' or '.join(str(d) for d in legal)))
    roll = format_roll(turn.roll) if turn.roll else "?"
    if isinstance(move, list) and all(isinstance(t, int) and not isinstance(t, bool)
                                      for t in move):
        try:
            action = mask_of(move)
        except ValueError:
            action = -1
        if action in legal:
            return action
    raise DailyMoveError(_("move {number} ({move!r}) is not legal on the roll {roll}: "
                           "the legal moves are {legal}").format(
                           number=number, move=move, roll=roll,
                           legal=' or '.join(format_move(a) for a in legal)))


def replayed(box: DailyBox, moves: Sequence[Any], name: str = "You") -> Match:
    """The day's turn with these decisions, each roll the day's, rolled up to the next
    decision (or the end).

    :raises DailyMoveError: a decision that is not legal where it comes, or one after the
        turn ended.
    """
    if len(moves) > MAX_MOVES:
        raise DailyMoveError(_("{count} moves: a daily turn has at most {MAX_MOVES}").format(
                               count=len(moves), MAX_MOVES=MAX_MOVES))
    match = box.start(name)
    for number, move in enumerate([*moves, None], 1):
        while not match.is_over and match.pending.is_chance:
            match.apply_roll(box.next_roll(match))
        if move is None:
            break
        if match.is_over:
            raise DailyMoveError(_("move {number} ({move!r}) comes after the turn ended").format(
                                   number=number, move=move))
        match.decide(_action(match, number, move))
    return match


def turn_state(box: DailyBox, match: Match) -> dict[str, Any]:
    """Where the day's turn stands, as the page shows it: the box, the open tiles, what it
    waits for (as a game's ``pending``), the steps so far in words."""
    seats = [Seat(0, SeatKind.HERE, match.players[0])]
    said = [told.text for told in (tell(e, match) for e in match.events) if told is not None]
    return {"day": box.day.isoformat(), "preset": box.preset,
            "title": _("The daily box of {day}: {preset}").format(
                day=box.day.isoformat(), preset=preset_text(PRESETS[box.preset])["text"]
                if box.preset in PRESETS else box.preset),
            "rules_text": rules_text(box.rules),
            "intro": _("Everyone who plays today's box gets the same dice, roll by roll, so "
                       "scores compare fairly. At the end you see your score, what perfect "
                       "play scored on the same dice, and your accuracy."),
            "status": "over" if match.is_over else "playing",
            "board": list(tiles_of(match.board)), "tiles": box.rules.tiles,
            "pending": pending_view(match, seats), "log": said,
            "moves": sum(1 for e in match.events if e["type"] in ("dice", "shut"))}


def turn_log(match: Match) -> dict[str, Any]:
    return match.to_log()


def result(day: str, moves: list[Any], name: str) -> dict[str, Any]:
    """The finished turn against perfect play on the same dice, in words (the solver
    worker's work): ``score``, ``perfect``, ``accuracy``, ``lines`` (what the player reads)
    and ``review`` (the coach's analysis with its chart in words, as the review sends it).

    :raises DailyMoveError: the moves do not finish the day's turn.
    """
    box = daily_box(parse_day(day))
    match = replayed(box, moves, name)
    if not match.is_over:
        raise DailyMoveError(_("the daily turn is not finished: send every decision"))
    found = box.result(turn_log(match))
    analysis = found["analysis"]
    chart = chart_words(analysis, analysis["decisions"])
    (player,) = analysis["players"]
    score, perfect = found["score"], found["perfect"]
    said = (_("{name} scored {score}: the same as perfect play.") if score == perfect else
            _("{name} scored {score}: perfect play scored {perfect} on the same dice."))
    lines = [said.format(name=name, score=score, perfect=perfect), player["accuracy_sentence"],
             _("Perfect play: {moves}.").format(moves=_(", ").join(found["perfect_moves"])),
             *(mark["text"] for mark in chart["marks"] if mark["size"] != "inaccuracy")]
    return {"score": score, "perfect": perfect, "accuracy": found["accuracy"], "lines": lines,
            "review": {"players": analysis["players"], "moments": analysis["moments"],
                       "marks": analysis["marks"], "chart": chart}}


def _day_prefix(box: DailyBox) -> str:
    return ID_PREFIX + box.day.isoformat().replace("-", "")


def result_id(box: DailyBox, token: str) -> str:
    """The id of the token's result of the day: one a day."""
    digest = hashlib.sha256(f"{box.day.isoformat()} {token}".encode()).hexdigest()
    return f"{_day_prefix(box)}{digest[:20]}"


def store_result(db: Connection, box: DailyBox, match: Match, token: str) -> str:
    """Store the finished turn as a finished solo game with its result; its id.

    :raises PlayedTodayError: the token has a result for the day already.
    """
    from sqlalchemy.exc import IntegrityError

    game_id = result_id(box, token)
    seat = Seat(0, SeatKind.HERE, match.players[0])
    prefix = [{"type": "seats", "pace": "instant", "seats": [seat.to_dict()]}]
    game = NewGame(game_id, match.config.to_dict(), [None], "over", "nobody",
                   [{"seat": 0, "kind": "here", "name": seat.name, "computer": None,
                     "token_hash": None, "invite": None, "joined": True}],
                   [*prefix, *match.events])
    try:
        with db.begin_nested():
            store_new_game(db, game)
    except IntegrityError:
        raise PlayedTodayError(_("you have played the daily box of {day} already: one "
                                 "result a day").format(day=box.day)) from None
    record_results(db, game_id, game_results(match))
    return game_id


def day_table(db: Connection, box: DailyBox) -> dict[str, Any]:
    """The day's results, best first (equal scores by who finished first)."""
    rows = db.execute(select(RESULTS.c.player, RESULTS.c.scores, RESULTS.c.game_id)
                      .where(RESULTS.c.game_id.like(f"{_day_prefix(box)}%"))
                      .order_by(RESULTS.c.finished).limit(1000)).all()
    sign = 1 if box.rules.lower_is_better else -1
    ranked = sorted(rows, key=lambda row: sign * sum(row.scores))
    results = [{"place": place, "player": row.player, "score": sum(row.scores),
                "game": row.game_id} for place, row in enumerate(ranked, 1)]
    count = len(results)
    return {"day": box.day.isoformat(), "preset": box.preset, "results": results,
            "text": (ngettext("{count} result for the daily box of {day} ({preset}), best "
                              "first.",
                              "{count} results for the daily box of {day} ({preset}), best "
                              "first.", count) if count else
                     _("No results yet for the daily box of {day}: be the first.")).format(
                count=count, day=box.day.isoformat(), preset=box.preset)}

