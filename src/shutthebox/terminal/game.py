"""The line mode: the game as lines of text, for pipes, scripts and screen readers.

The loop asks the session's match what is pending, asks a human (a line of input) or lets the
session play a computer step, and tells what happened from the match's events. All rules
live in the engine. ``q``, end of input and Ctrl-C save the game unfinished.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from shutthebox.dice import format_roll
from shutthebox.errors import ShutTheBoxError, TilesError
from shutthebox.language import _
from shutthebox.match import PendingKind
from shutthebox.names import name_of
from shutthebox.players.base import Role
from shutthebox.rules import Rules
from shutthebox.strategies import describe_move, format_move
from shutthebox.terminal.board import render
from shutthebox.terminal.session import GameSession
from shutthebox.terminal.words import KEYS, narrate, one_die_note
from shutthebox.tiles import Tiles, mask_of, parse_tiles
from shutthebox.turn import Phase


class Outcome(StrEnum):
    """How a game in the terminal ended."""

    FINISHED = "finished"
    QUIT = "quit"
    """``q`` or the end of input: saved unfinished."""
    INTERRUPTED = "interrupted"
    """Ctrl-C: saved unfinished."""


class QuitGame(Exception):
    """The human asked to leave the game."""


def read_move(text: str, rules: Rules) -> Tiles:
    """The tiles a player typed, each checked against this box.

    >>> read_move("7 1", Rules())
    65
    >>> read_move("13", Rules())
    Traceback (most recent call last):
    ...
    shutthebox.errors.TilesError: tile 13 is not in this box: its tiles go from 1 to 9
    """
    numbers = parse_tiles(text)
    for number in numbers:
        if not 1 <= number <= rules.tiles:
            raise TilesError(_("tile {number} is not in this box: its tiles go from 1 "
                               "to {tiles}").format(number=number, tiles=rules.tiles))
    return mask_of(numbers)


@dataclass
class TerminalGame:
    """The session's current match played in lines of text."""

    session: GameSession
    console: Console
    ask: Callable[[str], str] = input
    pause: float = 0.6
    """Seconds between computer steps (0 with --fast)."""
    _told: int = field(default=0)

    def run(self) -> Outcome:
        """Play until the match is over, or a human quits; the game is saved either way."""
        match = self.session.match
        try:
            self._tell_new_events()
            while not match.is_over:
                if self.session.human_to_act:
                    self.session.save()
                    self._human()
                else:
                    if self.session.step() is not None and self.pause:
                        time.sleep(self.pause)
                self._tell_new_events()
        except QuitGame:
            self._leave()
            return Outcome.QUIT
        except KeyboardInterrupt:
            self._leave()
            return Outcome.INTERRUPTED
        except BrokenPipeError:   # the reader of the output left: keep what was played
            self._leave()
            raise
        self.session.save()
        self.console.print(render(match))
        note = self.session.best_note()
        if note:
            self.console.print(note)
        for line in self.session.lessons():
            self.console.print(line, markup=False, highlight=False)
        return Outcome.FINISHED

    def _leave(self) -> None:
        """Save the unfinished game and let go of it (another window may resume it)."""
        try:
            self.session.save()
        finally:
            self.session.close()

    def _human(self) -> None:
        match = self.session.match
        self.console.print(render(match, self.session.best_note()))
        while True:
            pending = match.pending
            assert pending.turn is not None and pending.seat is not None
            name = name_of(match.players[pending.seat])
            if pending.kind is PendingKind.CHOOSE_DICE:
                note = one_die_note(match.rules, pending.turn.open_tiles)
                prompt = _("{name}: {note}. Roll 1 or 2 dice? [2] ").format(name=name, note=note)
            else:
                prompt = (_("{name}: roll {roll} - tiles to stand up (? for help): ")
                          if pending.role is Role.STAND else
                          _("{name}: roll {roll} - tiles to shut (? for help): ")).format(
                    name=name, roll=format_roll(pending.turn.roll or ()))
            try:
                answer = self.ask(prompt).strip().lower()
            except EOFError:
                self.console.print("\n" + _("input ended: leaving the game"))
                raise QuitGame from None
            if self._command(answer):
                continue
            try:
                if pending.kind is PendingKind.CHOOSE_DICE:
                    if answer not in ("", "1", "2"):
                        raise ShutTheBoxError(_("{answer!r} is not 1 or 2").format(answer=answer))
                    match.decide(int(answer or "2"))
                else:
                    match.decide(read_move(answer, match.rules))
                return
            except ShutTheBoxError as error:
                self.console.print(f"[red]{escape(str(error))}[/]", highlight=False)

    def _command(self, answer: str) -> bool:
        if answer == "?":
            self._show_help()
        elif answer == "h":
            self._show_hint()
        elif answer == "q":
            try:
                sure = self.ask(_("Quit? The game is saved and `shutthebox play --resume` "
                                  "continues it. [y/N] "))
            except EOFError:
                sure = "y"
            if sure.strip().lower().startswith("y"):
                raise QuitGame
        else:
            return False
        return True

    def _show_help(self) -> None:
        turn = self.session.match.pending.turn
        assert turn is not None
        moves = _(", ").join(format_move(a) if turn.phase is Phase.SHUT else describe_move(turn, a)
                          for a in turn.legal_actions())
        self.console.print(_("legal: {moves}").format(moves=moves), highlight=False)
        for key, meaning in KEYS.items():
            self.console.print(f"  [bold]{key:>5}[/]  {_(meaning)}", highlight=False)

    def _show_hint(self) -> None:
        from shutthebox.terminal.hints import hint_for

        hint = hint_for(self.session.match)
        self.console.print(hint.title, highlight=False)
        table = Table()
        for number, column in enumerate(hint.columns):
            table.add_column(column, justify="left" if number == 0 else "right")
        for row in hint.rows:
            table.add_row(*row)
        self.console.print(table)

    def _tell_new_events(self) -> None:
        match = self.session.match
        for event in match.events[self._told:]:
            line = narrate(event, match)
            if line:
                self.console.print(line, highlight=False)
        self._told = len(match.events)
