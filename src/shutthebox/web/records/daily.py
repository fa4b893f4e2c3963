"""The daily box on the server (:mod:`shutthebox.coach.daily`): a claimed player's turn of
the day, dealt by the server one roll at a time from dice nobody else can compute, its result
against perfect play on the same dice, and the day's table.

The server's dice are keyed by its secret (:mod:`shutthebox.web.records.server_secrets`), so
the package's public dice of the day are not the server's, and no roll can be computed ahead.
A turn belongs to a claimed player (one a day: the table ``daily_turns`` holds the decisions
made so far). Each decision is stored before the roll that follows it is dealt: a stored
decision cannot be taken back (a change names the count of decisions it was made on, so two
requests at once cannot both move), and the server's answers hold only the rolls dealt. When
the turn ends, the server stores it as a finished solo game with its result, which the day's
table lists: no client sends a result, a score or a list of moves.

>>> from datetime import date
>>> box = box_of("2026-11-24", b"secret", now=date(2026, 11, 24))
>>> match = replayed(box, [[1, 4]])
>>> [str(e["type"]) for e in match.events][-3:], str(match.pending.kind)
(['roll', 'shut', 'roll'], 'shut')
>>> replayed(box, [[9]])
Traceback (most recent call last):
...
shutthebox.web.records.daily.DailyMoveError: move 1 ([9]) is not legal on the roll 1+4=5: \
the legal moves are 5 or 1 4 or 2 3
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from shutthebox.coach.daily import DailyBox, DailyDateError, daily_box, parse_day, steps
from shutthebox.dice import format_roll
from shutthebox.errors import ShutTheBoxError
from shutthebox.language import _, ngettext
from shutthebox.match import Match
from shutthebox.names import YOU
from shutthebox.narration import preset_text, rules_text, tell
from shutthebox.rules import PRESETS
from shutthebox.strategies import format_move
from shutthebox.tiles import mask_of, tiles_of
from shutthebox.turn import Phase
from shutthebox.web.play.results import game_results
from shutthebox.web.play.seats import Seat, SeatKind, UnauthorizedError
from shutthebox.web.play.view import pending_view
from shutthebox.web.records.players import Player
from shutthebox.web.solving.review import chart_words
from shutthebox.web.storage import RESULTS, NewGame, record_results, store_new_game
from shutthebox.web.storage import now as stamp_now
from shutthebox.web.storage.schema import DAILY_TURNS, PLAYERS

MAX_MOVES = 40
"""More decisions than any daily turn has (each but a dice choice shuts a tile, 12 at most)."""

ID_PREFIX = "da11"
"""How a daily turn's game id begins (a game id is 32 hexadecimal digits): then the day's
eight digits, then 20 random ones."""


class DailyMoveError(ShutTheBoxError):
    """A decision that the day's turn does not allow where it was made."""


class DailyTurnChangedError(ShutTheBoxError):
    """A decision made on another count of decisions than the turn has (409): made already,
    differently, or ahead of the turn."""


def unclaimed() -> UnauthorizedError:
    """The refusal to a device with no player token: the daily box is a claimed player's."""
    return UnauthorizedError(_("the daily box of this server is played under a name of your "
                               "own: claim one on the first screen, then come back"))


def today() -> date:
    return datetime.now(UTC).date()


def box_of(day: str | None, secret: bytes | None = None, now: date | None = None
           ) -> DailyBox:
    """The box of ``day`` (``YYYY-MM-DD``; None: today, UTC) with the dice ``secret`` keys
    (the server's). Only today's box and yesterday's are played (a turn begun before
    midnight ends after it).

    :raises DailyDateError: another day, or not a date.
    """
    now = now or today()
    found = now if day is None else parse_day(day)
    if not now - timedelta(days=1) <= found <= now:
        raise DailyDateError(_("the daily box of {found} cannot be played now: only "
                               "today's ({now}) or yesterday's").format(found=found, now=now))
    return daily_box(found, secret)


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


def replayed(box: DailyBox, moves: Sequence[Any], name: str = YOU) -> Match:
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


def _title(box: DailyBox) -> str:
    return _("The daily box of {day}: {preset}").format(
        day=box.day.isoformat(), preset=preset_text(PRESETS[box.preset])["text"]
        if box.preset in PRESETS else box.preset)


def box_view(box: DailyBox) -> dict[str, Any]:
    """The day's box before any turn: its day, rules and words, no roll (the rolls are
    dealt to a claimed player's turn, one at a time). ``unclaimed``: what a device with no
    player token is told (as the turn's 401 says it)."""
    return {"day": box.day.isoformat(), "preset": box.preset, "title": _title(box),
            "rules": box.rules.to_dict(), "rules_text": rules_text(box.rules),
            "intro": _intro(), "tiles": box.rules.tiles, "unclaimed": str(unclaimed())}


def _intro() -> str:
    return _("Everyone who plays today's box gets the same dice, roll by roll, so scores "
             "compare fairly. At the end you see your score, what perfect play scored on the "
             "same dice, and your accuracy.")


def turn_state(box: DailyBox, match: Match, decisions: int) -> dict[str, Any]:
    """Where the day's turn stands after ``decisions`` decisions, as the page shows it: the
    box, the open tiles, what it waits for (as a game's ``pending``), the steps so far in
    words, and ``at``, the count of decisions made (the number the next decision is sent
    with). Only the rolls dealt."""
    seats = [Seat(0, SeatKind.HERE, match.players[0])]
    said = [told.text for told in (tell(e, match) for e in match.events) if told is not None]
    return {"day": box.day.isoformat(), "preset": box.preset, "title": _title(box),
            "rules_text": rules_text(box.rules), "intro": _intro(),
            "status": "over" if match.is_over else "playing",
            "board": list(tiles_of(match.board)), "tiles": box.rules.tiles,
            "pending": pending_view(match, seats), "log": said,
            "at": decisions}


def result(day: str, moves: list[Any], secret: bytes | None, name: str = YOU
           ) -> dict[str, Any]:
    """The finished turn against perfect play on the same dice (those ``secret`` keys), in
    words (the solver worker's work): ``score``, ``perfect``, ``accuracy``, ``lines`` (what
    the player reads) and ``review`` (the coach's analysis with its chart in words, as the
    review sends it).

    Perfect play's line is told as far as the rolls the player was dealt: its later rolls
    are the day's too (each roll is the day's i-th, whatever was shut), which a player who
    has not played yet must not read from someone's result.

    :raises DailyMoveError: the moves do not finish the day's turn.
    """
    box = daily_box(parse_day(day), secret)
    match = replayed(box, moves, name)
    if not match.is_over:
        raise DailyMoveError(_("the daily turn is not finished: send every decision"))
    found = box.result(match.to_log())
    analysis = found["analysis"]
    chart = chart_words(analysis, analysis["decisions"])
    (player,) = analysis["players"]
    score, perfect = found["score"], found["perfect"]
    said = (_("{name} scored {score}: the same as perfect play.") if score == perfect else
            _("{name} scored {score}: perfect play scored {perfect} on the same dice."))
    lines = [said.format(name=_(YOU) if name == YOU else name, score=score, perfect=perfect),
             player["accuracy_sentence"],
             _("Perfect play: {moves}.").format(moves=_(", ").join(perfect_line(
                 box, sum(1 for e in match.events if e["type"] == "roll")))),
             *(mark["text"] for mark in chart["marks"] if mark["size"] != "inaccuracy")]
    return {"score": score, "perfect": perfect, "accuracy": found["accuracy"], "lines": lines,
            "review": {"players": analysis["players"], "moments": analysis["moments"],
                       "marks": analysis["marks"], "chart": chart}}


def perfect_line(box: DailyBox, rolls: int) -> list[str]:
    """Perfect play's turn on the day's dice in steps (:func:`~shutthebox.coach.daily.steps`),
    up to its roll number ``rolls`` + 1, left out with the rest (``…``).

    >>> from datetime import date
    >>> box = daily_box(date(2026, 11, 24), b"secret")
    >>> perfect_line(box, 1)
    ['roll 1+4=5', 'shut 5', '…']
    """
    events = box.perfect().events
    seen = [i for i, e in enumerate(events) if e["type"] == "roll"][rolls:]
    return steps(events) if not seen else [*steps(events[:seen[0]]), "…"]


# --- a claimed player's turn, stored ---------------------------------------------------


@dataclass(frozen=True)
class DailyTurn:
    """A claimed player's turn of one day as stored: the decisions made so far (each a
    dice count, or the tiles shut, in order) and, once it is over, its game's id."""

    day: str
    player: Player
    moves: list[Any]
    game_id: str | None

    @property
    def decisions(self) -> int:
        return len(self.moves)


def _turn_row(db: Connection, box: DailyBox, player: Player) -> DailyTurn | None:
    row = db.execute(select(DAILY_TURNS.c.moves, DAILY_TURNS.c.game_id).where(
        DAILY_TURNS.c.day == box.day.isoformat(),
        DAILY_TURNS.c.player_id == player.id)).first()
    return None if row is None else DailyTurn(box.day.isoformat(), player, list(row.moves),
                                              row.game_id)


def started_turn(db: Connection, box: DailyBox, player: Player) -> DailyTurn:
    """The player's turn of the day: the one stored, or a new one (one a day: two requests
    at once start one turn)."""
    found = _turn_row(db, box, player)
    if found is not None:
        return found
    stamp = stamp_now()
    try:
        with db.begin_nested():
            db.execute(insert(DAILY_TURNS).values(
                day=box.day.isoformat(), player_id=player.id, moves=[], decisions=0,
                game_id=None, created=stamp, updated=stamp))
    except IntegrityError:
        pass     # started at the same moment by another request: that one is the turn
    found = _turn_row(db, box, player)
    assert found is not None
    return found


def _same(stored: Any, sent: Any) -> bool:
    """Whether the decision ``sent`` is the one ``stored`` (tiles in any order)."""
    if isinstance(stored, list) and isinstance(sent, list):
        return sorted(stored) == sorted(sent)
    return type(stored) is type(sent) and bool(stored == sent)


def decide(db: Connection, box: DailyBox, player: Player, at: int, decision: Any
           ) -> DailyTurn:
    """Store the player's decision number ``at`` (counted from 0: the count of decisions
    made before it) in their turn of the day, and, if it ends the turn, the finished game.
    The same decision sent again (a repeated request) changes nothing.

    :raises DailyTurnChangedError: decision ``at`` was made already, differently, or the turn
        has fewer decisions than ``at``.
    :raises DailyMoveError: the decision is not legal where it comes.
    """
    turn = started_turn(db, box, player)
    if at < turn.decisions and _same(turn.moves[at], decision):
        return turn
    if at != turn.decisions:
        raise _changed(turn, at)
    match = replayed(box, turn.moves)
    if match.is_over:
        raise DailyMoveError(_("move {number} ({move!r}) comes after the turn ended").format(
                             number=at + 1, move=decision))
    action = _action(match, at + 1, decision)
    move: Any = decision if isinstance(decision, int) else list(tiles_of(action))
    moves = [*turn.moves, move]
    # Compare and set: the decision is stored only if none was stored since the turn was
    # read, so of two requests at once, one moves and the other finds it made.
    moved = db.execute(update(DAILY_TURNS).where(
        DAILY_TURNS.c.day == box.day.isoformat(), DAILY_TURNS.c.player_id == player.id,
        DAILY_TURNS.c.decisions == at).values(moves=moves, decisions=at + 1, updated=stamp_now()))
    if moved.rowcount != 1:
        found = _turn_row(db, box, player)
        assert found is not None
        if found.decisions > at and _same(found.moves[at], move):
            return found
        raise _changed(found, at)
    after = replayed(box, moves, player.name)     # the next roll, dealt now it is stored
    game_id = None
    if after.is_over:
        game_id = store_turn(db, box, after, player)
        db.execute(update(DAILY_TURNS).where(
            DAILY_TURNS.c.day == box.day.isoformat(),
            DAILY_TURNS.c.player_id == player.id).values(game_id=game_id))
    return DailyTurn(box.day.isoformat(), player, moves, game_id)


def _changed(turn: DailyTurn, at: int) -> DailyTurnChangedError:
    if at < turn.decisions:
        return DailyTurnChangedError(_("decision {number} of your daily turn was made "
                                       "already, differently: load the turn again").format(
                                       number=at + 1))
    return DailyTurnChangedError(ngettext(
        "your daily turn has {count} decision, not {at}: load the turn again",
        "your daily turn has {count} decisions, not {at}: load the turn again",
        turn.decisions).format(count=turn.decisions, at=at))


def store_turn(db: Connection, box: DailyBox, match: Match, player: Player) -> str:
    """Store the player's finished turn as a finished solo game with its result (the
    player's, claimed); its id."""
    game_id = f"{ID_PREFIX}{box.day.isoformat().replace('-', '')}{secrets.token_hex(10)}"
    seat = Seat(0, SeatKind.HERE, player.name)
    prefix = [{"type": "seats", "pace": "instant", "seats": [seat.to_dict()]}]
    game = NewGame(game_id, match.config.to_dict(), [None], "over", "nobody",
                   [{"seat": 0, "kind": "here", "name": player.name, "computer": None,
                     "token_hash": None, "invite": None, "joined": True,
                     "player_id": player.id}],
                   [*prefix, *match.events])
    store_new_game(db, game)
    record_results(db, game_id, [{**row, "player_id": player.id}
                                 for row in game_results(match)])
    return game_id


def day_table(db: Connection, box: DailyBox, now: date | None = None) -> dict[str, Any]:
    """The day's results, the server's records of the turns it dealt to claimed players,
    under their names as they are now, best first (equal scores by who finished first).

    Each result's ``game`` (its review) is given only once the day's box can no longer be
    played: everyone's dice are the same, so another's finished turn would show the day's
    rolls to a player who has not played yet (the game ids are random, so none is found
    otherwise; a player's own turn answers its own)."""
    rows = db.execute(
        select(PLAYERS.c.name, RESULTS.c.scores, RESULTS.c.game_id)
        .select_from(DAILY_TURNS)
        .join(PLAYERS, PLAYERS.c.id == DAILY_TURNS.c.player_id)
        .join(RESULTS, RESULTS.c.game_id == DAILY_TURNS.c.game_id)
        .where(DAILY_TURNS.c.day == box.day.isoformat())
        .order_by(RESULTS.c.finished, RESULTS.c.game_id).limit(1000)).all()
    sign = 1 if box.rules.lower_is_better else -1
    ranked = sorted(rows, key=lambda row: sign * sum(row.scores))
    playing = box.day >= (now or today()) - timedelta(days=1)
    results = [{"place": place, "player": row.name, "score": sum(row.scores),
                "game": None if playing else row.game_id}
               for place, row in enumerate(ranked, 1)]
    count = len(results)
    return {"day": box.day.isoformat(), "preset": box.preset, "results": results,
            "text": (ngettext("{count} result for the daily box of {day} ({preset}), best "
                              "first.",
                              "{count} results for the daily box of {day} ({preset}), best "
                              "first.", count) if count else
                     _("No results yet for the daily box of {day}: be the first.")).format(
                count=count, day=box.day.isoformat(), preset=box.preset)}
