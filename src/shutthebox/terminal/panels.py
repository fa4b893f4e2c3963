"""The texts of the full-screen game's panels (:mod:`shutthebox.terminal.app`): the line
under the dice, whose turn, and the players' table, made from the session as it is."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from shutthebox.dice import format_roll
from shutthebox.language import N_, _
from shutthebox.match import PendingKind, format_money
from shutthebox.names import about
from shutthebox.narration import format_text, winners_line
from shutthebox.players.base import Role
from shutthebox.strategies import format_move
from shutthebox.terminal.board import DIE_FACES, last_roll, scores_table, turn_line
from shutthebox.terminal.session import GameSession
from shutthebox.tiles import Tiles, tile_sum

if TYPE_CHECKING:
    from shutthebox.terminal.hints import Hint  # (the solver loads only with a hint)


def selection_text(session: GameSession, selection: Tiles, message: str | None,
                   save_problem: str | None, thinking: bool) -> Text:
    """The line under the dice: what the player is asked, or whether the tiles chosen
    make a move."""
    match = session.match
    if message:
        return Text(message, style="bold red")
    if save_problem:
        return Text(_("Not saved: {problem}").format(problem=save_problem),
                    style="bold red")
    if match.is_over:
        return Text(_("Game over. n: next game · q: quit") if session.more_games else
                    _("Game over. q: quit"), style="bold")
    pending = match.pending
    if not session.human_to_act:
        name = match.players[pending.seat] if pending.seat is not None else ""
        return Text(about(name, N_("You are thinking… (space skips)"),
                          N_("{name} is thinking… (space skips)")) if thinking else
                    about(name, N_("You are playing (space skips)"),
                          N_("{name} is playing (space skips)")))
    turn = pending.turn
    assert turn is not None
    if pending.kind is PendingKind.CHOOSE_DICE:
        return Text(_("Press 1 or 2, or click a button, to roll one die or two"))
    stand = pending.role is Role.STAND
    if not selection:
        return Text((_("Choose the tiles to stand up for {roll}: click or type them, then "
                       "Enter") if stand else
                     _("Choose the tiles to shut for {roll}: click or type them, then Enter")
                     ).format(roll=format_roll(turn.roll or ())))
    chosen = format_move(selection)
    total = sum(turn.roll or ())
    picked = tile_sum(selection)
    if selection in turn.legal_actions():
        return Text((_("✓ {tiles} = {sum}: Enter to stand up") if stand else
                     _("✓ {tiles} = {sum}: Enter to shut")).format(tiles=chosen, sum=picked),
                    style="bold green")
    return Text(_("✗ {tiles} = {sum}, the roll is {total}").format(
        tiles=chosen, sum=picked, total=total), style="yellow")


def turn_text(session: GameSession) -> Text:
    """Whose turn, or who won."""
    match = session.match
    if match.is_over:
        line = winners_line(match) if len(match.players) > 1 else \
            _("score {score}").format(score=match.round_scores.get(0, "-"))
    else:
        line = turn_line(match) or ""
    return Text(line, style="bold #e8c07d")

def players_panel(session: GameSession) -> RenderableType:
    """The players' table, the best so far, the goal, the pot and the ledger."""
    parts: list[RenderableType] = [scores_table(session.match)]
    best = session.best_note()
    if best:
        parts.append(Text(f"\n{best}"))
    parts.append(Text("\n" + _("To win: {goal}").format(goal=session.config.format.goal),
                      style="dim"))
    if session.config.stake:
        parts.append(Text(_("pot: {pot}").format(pot=format_money(session.match.pot))))
        if session.ledger.games:
            parts.append(Text(_("ledger: {money}").format(money=", ".join(
                f"{name} {format_money(cents)}" for name, cents in
                session.ledger.net.items()))))
    return Group(*parts)


def title_text(session: GameSession) -> Text:
    """The game's title: its format, and which game of the session it is."""
    match = session.match
    title = _("Shut the Box · {format}").format(
        format=format_text(match.config.format, match.round or None))
    if session.games > 1:
        title = _("{title} · game {number} of {games}").format(
            title=title, number=session.number, games=session.games)
    return Text(title, style="bold")


def dice_text(session: GameSession, choosing: bool) -> Text:
    """The dice as last rolled (their faces and total), or that none is rolled yet."""
    roll = last_roll(session.match)
    text = Text(_("dice") + " ")
    if roll:
        for face in roll:
            text.append(f" {DIE_FACES[face]} {face} ", style="bold black on white")
            text.append(" ")
        if len(roll) == 2:
            text.append(f"= {sum(roll)}", style="bold")
    elif choosing:
        text.append(_("not rolled yet"))
    else:
        text.append("-")
    return text


def hint_panel(hint: Hint) -> RenderableType:
    """The hint: every choice ranked, best first, in the unit the computer aims at."""
    table = Table(box=None, pad_edge=False, expand=True)
    short = _("win") if hint.unit == "chance to win" else _("score")
    choice = _("dice") if hint.choice == "dice" else _("shut")
    for number, column in enumerate((choice, short, _("shut box"))):
        table.add_column(column, justify="left" if number == 0 else "right")
    for row in hint.rows:
        table.add_row(*row)
    title = _("{unit}, best first").format(unit=_(hint.unit))
    return Group(Text(title, style="bold"), table)


def too_small_text(width: int, height: int, need_width: int, min_height: int) -> Text:
    """What a terminal too small for the box shows instead of it."""
    return Text(_("This terminal is {width}x{height}: the box needs {need}x{min_height}. Make "
                  "the window larger, or quit (q) and play with --plain.").format(
                    width=width, height=height, need=need_width, min_height=min_height),
                style="bold")
