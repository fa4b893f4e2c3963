"""How to play one game, in words: its rules and its format as a player reads them.

The same sentences are the web page's "How to play" screen and the manual's example of it:
they are made here, from the game's :class:`~shutthebox.rules.Rules` and
:class:`~shutthebox.match.GameFormat`, and nowhere else.

>>> from shutthebox.rules import preset
>>> [section.heading for section in how_to_play(preset("classic"), "single")]
['Your turn', 'The dice', 'Your score', 'Winning']
>>> import textwrap
>>> print(textwrap.fill(how_to_play(preset("classic"), "single")[0].lines[1], 80))
Shut open tiles that add up to the roll: a roll of 3 and 5 (8) may shut 8, 1+7,
2+6, 3+5, 1+2+5 or 1+3+4, whichever are open.
"""

from __future__ import annotations

from dataclasses import dataclass

from shutthebox.language import N_, _
from shutthebox.match import FormatKind, GameFormat
from shutthebox.phrases import join_words
from shutthebox.rules import (
    HIGH_TILE,
    LOW_SUM_LIMIT,
    FirstPlayer,
    MoveRule,
    OneDie,
    Rules,
    Scoring,
)
from shutthebox.tiles import tiles_of
from shutthebox.turn import legal_moves


@dataclass(frozen=True)
class Section:
    """A heading and its sentences."""

    heading: str
    lines: tuple[str, ...]

    def to_dict(self) -> dict[str, object]:
        return {"heading": self.heading, "lines": list(self.lines)}


def _written(tiles: tuple[int, ...]) -> str:
    """A move as the example writes it, lowest tile first (as every move is written):
    ``'1+2+5'``."""
    return "+".join(str(t) for t in tiles)


def how_to_play(rules: Rules, game_format: str | GameFormat) -> list[Section]:
    """The game's rules, section by section, in the words the page and the manual show.

    :raises FormatError: the format cannot be read.
    """
    fmt = GameFormat.parse(game_format) if isinstance(game_format, str) else game_format
    return [_turn(rules, fmt), _dice(rules), _score(rules, fmt), _winning(rules, fmt)]


def _turn(rules: Rules, fmt: GameFormat) -> Section:
    example = (3, 5) if rules.tiles >= 8 else (1, 2)
    total = sum(example)
    moves = sorted(legal_moves(rules, rules.full, example),
                   key=lambda m: tuple(reversed(tiles_of(m))), reverse=True)
    which = join_words([_written(tiles_of(m)) for m in moves], "or")
    how = (_("Shut open tiles that add up to the roll") if rules.moves is MoveRule.ANY else
           _("Shut the tile of the roll's total, or of either die, or of both dice"))
    if rules.max_tiles is not None:
        how = _("{how} (at most {most} tiles a roll)").format(how=how, most=rules.max_tiles)
    battle = fmt.kind is FormatKind.BATTLE
    lines = [
        (_("The box holds tiles 1 to {tiles}, all open at the start: the knocker shuts them, "
           "the stander stands shut ones up again.") if battle else
         _("The box holds tiles 1 to {tiles}, all open at the start.")).format(tiles=rules.tiles),
        _("{how}: a roll of {first} and {second} ({total}) may shut {moves}, whichever are "
          "open.").format(how=how, first=example[0], second=example[1], total=total,
                          moves=which),
        _("Roll again and again: the turn ends when a roll can shut nothing (you cannot stop "
          "before), or when every tile is shut: the box is shut."),
    ]
    return Section(_("Your turn"), tuple(lines))


def _dice(rules: Rules) -> Section:
    if rules.one_die is OneDie.NEVER:
        lines = [_("Always roll both dice.")]
    elif rules.one_die is OneDie.LOW_SUM:
        lines = [(_("Roll both dice; once the open tiles add up to {low} or less, roll one die "
                    "only.") if rules.one_die_forced else
                  _("Roll both dice; once the open tiles add up to {low} or less, you may "
                    "choose to roll one die instead (the hint says which is better).")
                  ).format(low=LOW_SUM_LIMIT)]
    else:
        lines = [(_("Roll both dice; once every tile from {high} up is shut, roll one die "
                    "only.") if rules.one_die_forced else
                  _("Roll both dice; once every tile from {high} up is shut, you may choose "
                    "to roll one die instead (the hint says which is better).")
                  ).format(high=HIGH_TILE)]
    return Section(_("The dice"), tuple(lines))


_SCORES = {
    Scoring.SUM: N_("Your score is the sum of the tiles left open: lower is better."),
    Scoring.DIGITS: N_("Your score is the tiles left open read as one number (1, 4 and 9 "
                       "open score 149): lower is better."),
    Scoring.COVERED: N_("Your score is the sum of the tiles you shut: higher is better."),
}
_FIRST = {
    FirstPlayer.SEAT: N_("Players take their turns in seat order."),
    FirstPlayer.LOWEST: N_("Everyone rolls first: the lowest total starts (a tie rolls "
                           "again)."),
    FirstPlayer.HIGHEST: N_("Everyone rolls first: the highest total starts (a tie rolls "
                            "again)."),
}


def _score(rules: Rules, fmt: GameFormat) -> Section:
    if fmt.kind is FormatKind.BATTLE:
        return Section(_("Your score"), (
            _("A battle keeps no score: each turn ends as any turn does, and the other player "
              "goes on from the board it leaves."),))
    shut = rules.shut_box_wins(fmt.multi_round)
    lines = [_(_SCORES[rules.scoring]), _("A shut box wins at once.") if shut else
             _("A shut box is the best score there is, and play goes on.")]
    return Section(_("Your score"), tuple(lines))


def _winning(rules: Rules, fmt: GameFormat) -> Section:
    goal = fmt.goal
    lines = [_("{goal}.").format(goal=goal[:1].upper() + goal[1:])]
    if fmt.kind is not FormatKind.SOLO:
        lines.append(_(_FIRST[rules.first_player]))
    return Section(_("Winning"), tuple(lines))
