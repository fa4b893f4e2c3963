"""Where a player stands in a match played elsewhere (on a wooden box, or typed on the command
line): the format, everyone's totals before the round, the scores posted this round and the
round's number, made into the :class:`~shutthebox.players.base.Situation` the optimal player
aims from, so that a hint there is ranked by the chance to win.

>>> from shutthebox.formats import GameFormat
>>> from shutthebox.rules import Rules
>>> where = table_situation(Rules(), GameFormat.parse("loser-at:100"), (40, 35, 20), (9,))
>>> where.totals, where.posted, where.still_to_play
((40, 44, 20), (9,), 1)
>>> table_position(Rules(), [1, 4, 7], [3, 4]).phase
<Phase.SHUT: 'shut'>
"""

from __future__ import annotations

from collections.abc import Sequence

from shutthebox.dice import Roll
from shutthebox.errors import FormatError, TilesError
from shutthebox.formats import FormatKind, GameFormat
from shutthebox.language import _
from shutthebox.match import MAX_PLAYERS, possible_scores
from shutthebox.phrases import join_words
from shutthebox.players.base import Role, Situation
from shutthebox.rules import Rules
from shutthebox.tiles import format_tiles, mask_of
from shutthebox.turn import Phase, TurnState


def match_situation(fmt: GameFormat, totals: Sequence[int], posted: Sequence[int],
                    round_number: int = 1, role: Role | None = None) -> Situation:
    """The situation of the player whose total is ``totals[0]``: the others' totals follow,
    before this round; ``posted`` are the scores the first of them posted this round (the
    rest play after). A battle reads only ``role``. The values are not checked (see
    :func:`table_situation`)."""
    if fmt.kind is FormatKind.BATTLE:
        return Situation(format=fmt, role=role or Role.KNOCK)
    others = tuple(totals[1:])
    after_posting = tuple(t + p for t, p in zip(others, posted, strict=False))
    return Situation(posted=tuple(posted), still_to_play=len(others) - len(posted),
                     totals=(totals[0], *after_posting, *others[len(posted):]),
                     round=round_number, decisive=fmt.kind is FormatKind.SINGLE, format=fmt,
                     others_played=tuple(i < len(posted) for i in range(len(others))))


def table_situation(rules: Rules, fmt: GameFormat, totals: Sequence[int],
                    posted: Sequence[int] = (), round_number: int = 1,
                    role: Role | None = None) -> Situation:
    """:func:`match_situation`, its values checked against the rules and the format.

    :raises FormatError: the format does not fit the rules or the number of players, fewer
        than two totals or more than a table holds, a total the format has already ended or
        put out, more posted scores than other players, a score no turn ends with, a round
        past the last, or a battle without a role.
    """
    if fmt.kind is FormatKind.BATTLE:
        if role not in (Role.KNOCK, Role.STAND):
            raise FormatError(_("a battle's advice needs a role, knock or stand, not "
                                "{role!r}").format(role=role))
        fmt.check(rules, 2)
        return match_situation(fmt, totals, posted, round_number, role)
    if not 2 <= len(totals) <= MAX_PLAYERS:
        raise FormatError(_("{count} totals: give yours and each other player's, 2 to "
                            "{most} in all").format(count=len(totals), most=MAX_PLAYERS))
    fmt.check(rules, len(totals))
    for total in totals:
        over = fmt.total_over(total) if total >= 0 else _("a total is never negative")
        if over is not None:
            raise FormatError(_("total {total}: {why}").format(total=total, why=over))
    if len(posted) > len(totals) - 1:
        raise FormatError(_("{count} posted scores, but there are only {others} other "
                            "players").format(count=len(posted), others=len(totals) - 1))
    allowed = possible_scores(rules)
    for score in posted:
        if score not in allowed:
            raise FormatError(_("posted score {score}: no turn ends with that score under "
                                "these rules (they go from {low} to {high})").format(
                                score=score, low=min(allowed), high=max(allowed)))
    last = fmt.rounds
    if not round_number >= 1 or (last is not None and round_number > last):
        raise FormatError(_("round {round} is not a round of {format}").format(
                            round=round_number, format=fmt))
    return match_situation(fmt, totals, posted, round_number)


def table_position(rules: Rules, open_tiles: Sequence[int], roll: Sequence[int] | None
                   ) -> TurnState:
    """The turn on a box with these tiles open: after ``roll`` (a shut decision, or the end
    of the turn when it allows no move), or before it (a dice choice, or the roll itself
    when the rules leave no choice).

    :raises TilesError: no tile, a tile twice or not on the box, a face that is not 1 to 6,
        or a number of dice the rules do not roll with these tiles open.
    """
    if not open_tiles:
        raise TilesError(_("no open tile: a turn with every tile shut has nothing to "
                           "decide"))
    mask = mask_of(open_tiles)
    if mask & ~rules.full:
        raise TilesError(_("open tiles {tiles!r}: the box's tiles go from 1 to "
                           "{most}").format(tiles=list(open_tiles), most=rules.tiles))
    before = TurnState.before_roll(rules, mask)
    if roll is None:
        return before
    faces: Roll = tuple(sorted(roll))
    choices = rules.dice_choices(mask)
    if len(faces) not in choices or not all(1 <= face <= 6 for face in faces):
        raise TilesError(_("roll {roll!r}: with {tiles} open the rules roll {dice} dice, "
                           "each face 1 to 6").format(
                           roll=list(roll), tiles=format_tiles(mask),
                           dice=join_words([str(c) for c in choices], "or")))
    rolling = before if before.phase is Phase.ROLL else before.choose_dice(len(faces))
    return rolling.apply_roll(faces)
