"""Drawing the game with rich: the box, the dice, whose turn, scores, totals and the pot."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from shutthebox.dice import Roll
from shutthebox.language import N_, _
from shutthebox.match import FormatKind, Match, PendingKind, format_money
from shutthebox.names import about, name_of
from shutthebox.narration import format_text
from shutthebox.players.base import Role
from shutthebox.terminal.words import one_die_note
from shutthebox.tiles import Tiles, tile_bit

STYLES = {
    "open": "bold black on #e8c07d",
    "shut": "dim #5a3d1e on #2b1a0e",
    "selected": "bold white on #2f6f3e",
    "die": "bold black on white",
    "turn": "bold #e8c07d",
    "winner": "bold green",
}
"""The colours of the board, in one place."""

DIE_FACES = {1: "⚀", 2: "⚁", 3: "⚂", 4: "⚃", 5: "⚄", 6: "⚅"}


def tiles_line(tiles: int, open_tiles: Tiles) -> Text:
    """The row of tiles: open ones raised, shut ones dark."""
    line = Text()
    for tile in range(1, tiles + 1):
        is_open = bool(open_tiles & tile_bit(tile))
        label = f" {tile:>2} " if is_open else "  · "
        line.append(label, style=STYLES["open" if is_open else "shut"])
        line.append(" ")
    return line


def dice_line(roll: Roll | None) -> Text:
    """The dice of the last roll."""
    if not roll:
        return Text(_("dice: {roll}").format(roll="-"))
    line = Text(_("dice: {roll}").format(roll=""))
    for face in roll:
        line.append(f" {DIE_FACES[face]} {face} ", style=STYLES["die"])
        line.append(" ")
    if len(roll) == 2:
        line.append(f"= {sum(roll)}")
    return line


def scores_table(match: Match) -> Table:
    """Each player's score this round, total, and status (▶ to play, ★ won); a name is
    never cut or wrapped."""
    table = Table(box=None, pad_edge=False)
    table.add_column(_("player"), no_wrap=True)
    battle = match.config.format.is_battle
    table.add_column(_("role") if battle else _("score"), justify="right")
    multi_round = match.config.format.multi_round
    if multi_round:
        table.add_column(_("total"), justify="right")
    pending = match.pending
    for seat, name in enumerate(match.players):
        # the marker, not a word after the name, says who won: a word wraps a narrow panel
        marker = "▶ " if pending.seat == seat and not match.is_over else "  "
        status = "" if match.active[seat] else " " + _("(out)")
        if seat in match.winners and len(match.players) > 1:
            marker = "★ "
        style = STYLES["winner"] if seat in match.winners else (
            STYLES["turn"] if pending.seat == seat else "")
        shown = (_("knocks") if match.order and match.order[0] == seat else _("stands")) \
            if battle else str(match.round_scores.get(seat, "-"))
        row: list[Text | str] = [Text(marker + name_of(name) + status, style=style), shown]
        if multi_round:
            row.append(str(match.totals[seat]))
        table.add_row(*row)
    return table


def last_roll(match: Match) -> Roll | None:
    """The dice of the current turn's last roll, if it has rolled."""
    turn = match.pending.turn
    return turn.roll if turn is not None and turn.roll else None


def turn_line(match: Match) -> str | None:
    """Whose turn it is ("Your turn" for You), its role in a battle, and the one-die note."""
    pending = match.pending
    if pending.seat is None or match.is_over or pending.kind is PendingKind.ROLL_OFF:
        return None
    name = match.players[pending.seat]
    if pending.role is Role.KNOCK:
        line = about(name, N_("Your turn (knocking down)"), N_("{name} to play (knocking down)"))
    elif pending.role is Role.STAND:
        line = about(name, N_("Your turn (standing up)"), N_("{name} to play (standing up)"))
    else:
        line = about(name, N_("Your turn"), N_("{name} to play"))
    note = one_die_note(match.rules, pending.turn.open_tiles) if pending.turn else None
    return f"{line} · {note}" if note else line


def render(match: Match, note: str | None = None) -> RenderableType:
    """The whole board for the current state of a match, with a note under it."""
    config = match.config
    title = _("Shut the Box · {format}").format(
        format=format_text(config.format, match.round or None))
    parts: list[RenderableType] = [tiles_line(config.rules.tiles, match.board),
                                   dice_line(last_roll(match))]
    turn = turn_line(match)
    if turn:
        parts.append(Text(turn, style=STYLES["turn"]))
    if note:
        parts.append(Text(note))
    if config.format.kind is not FormatKind.SOLO or match.round_scores:
        parts.append(scores_table(match))
    if config.stake:
        parts.append(Text(_("pot: {pot}").format(pot=format_money(match.pot))))
    return Panel(Group(*parts), title=title, border_style="#8b5a2b")
