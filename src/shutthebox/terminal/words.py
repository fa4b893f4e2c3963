"""What the terminal says: events in its colours and indents (the sentences are
:mod:`shutthebox.narration`'s), notes and keys, shared by the full-screen game and the line
mode (which print the same lines).

>>> from shutthebox.formats import GameFormat
>>> from shutthebox.match import Match, MatchConfig
>>> from shutthebox.rules import Rules
>>> match = Match(MatchConfig(Rules(), GameFormat.parse("single"), ("You", "Ann")))
>>> narrate({"type": "turn", "seat": 1, "round": 1}, match)
"[bold]Ann's turn[/]"
"""

from __future__ import annotations

from rich.markup import escape

from shutthebox.language import N_, _
from shutthebox.match import Event, Match
from shutthebox.narration import Tone, tell
from shutthebox.phrases import join_words
from shutthebox.rules import HIGH_TILE, OneDie, Rules
from shutthebox.tiles import Tiles, tile_sum

STYLES = {Tone.HEADING: "bold", Tone.GOOD: "bold green", Tone.BAD: "red"}
"""The colours of each tone of the narration."""


def one_die_note(rules: Rules, open_tiles: Tiles) -> str | None:
    """Why one die may or must be rolled now, or None when two dice are rolled.

    >>> from shutthebox.rules import preset
    >>> one_die_note(preset("encyclopedia"), 0b000111111)
    'one die: 7, 8 and 9 are shut'
    """
    choices = rules.dice_choices(open_tiles)
    if 1 not in choices:
        return None
    if rules.one_die is OneDie.HIGH_SHUT:
        high = [str(t) for t in range(HIGH_TILE, rules.tiles + 1)]
        why = (_("there are no tiles from 7 up") if not high else
               _("{tile} is shut").format(tile=high[0]) if len(high) == 1 else
               _("{tiles} are shut").format(tiles=join_words(high)))
    else:
        why = _("the open tiles add up to {sum}").format(sum=tile_sum(open_tiles))
    return (_("one die: {why}") if choices == (1,) else _("one die allowed: {why}")).format(
        why=why)


def narrate(event: Event, match: Match) -> str | None:
    """One event as a line of the terminal (rich markup), or None for events the board
    already shows: a turn's steps are indented under its heading."""
    told = tell(event, match)
    if told is None:
        return None
    said = told.brief if told.brief is not None else told.text
    style = STYLES.get(told.tone)
    if style is not None:
        cut = len(said) if told.stressed is None else told.stressed
        said = f"[{style}]{escape(said[:cut])}[/]{escape(said[cut:])}"
    else:
        said = escape(said)
    return f"  {said}" if told.step else said


KEYS: dict[str, str] = {
    "3 5": N_("shut tiles 3 and 5 (also 3,5 or 3+5)"),
    "1 / 2": N_("roll one die or two, when the rules let you choose"),
    "?": N_("show the legal moves and these keys"),
    "h": N_("hint: every legal move ranked by the exact solver"),
    "q": N_("quit and save the game (shutthebox play --resume continues it)"),
}
"""The keys of the line mode, as shown by ``?`` (said with :func:`_`)."""
