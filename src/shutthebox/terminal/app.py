"""The full-screen terminal game, a Textual app: the box and the dice stay in place.

Tiles are clicked or typed (``1``-``9``, ``0`` ``-`` ``=`` for 10 to 12), Enter shuts the
selection, and the line under the dice says whether the selection is a legal move. ``h`` opens
the hint panel, the players' table and the log are panels, and the footer lists the keys.
Computer turns play out one step at a time (space skips to the next human decision). The
app only drives the session's :class:`~shutthebox.match.Match` and draws what it returns:
the engine decides what is legal. Styles are in ``app.tcss`` beside this file.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.events import Click, Resize
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Button, Footer, RichLog, Static

from shutthebox.errors import ShutTheBoxError
from shutthebox.language import N_, _
from shutthebox.match import PendingKind
from shutthebox.players.base import Role
from shutthebox.terminal.game import Outcome
from shutthebox.terminal.panels import (
    dice_text,
    hint_panel,
    players_panel,
    selection_text,
    title_text,
    too_small_text,
    turn_text,
)
from shutthebox.terminal.saved import SaveError
from shutthebox.terminal.session import GameSession
from shutthebox.terminal.words import narrate
from shutthebox.tiles import Tiles, tile_bit
from shutthebox.turn import explain_illegal

PACE = 0.7
"""Seconds between the steps of a computer's turn: slow enough to follow."""
FAST_PACE = 0.05
"""With ``--fast``."""
END_PAUSE = 3.0
"""Seconds the last board of a game of computers stays up before the app ends by itself."""
MIN_HEIGHT = 16
"""The fewest lines that show the box, the dice, the lines under them and a few of the log."""
TILE_KEYS = {str(n): n for n in range(1, 10)} | {"0": 10, "minus": 11, "equals_sign": 12}
"""The key of each tile, as on the web page: 0, - and = are 10, 11 and 12."""


class Tile(Static):
    """One tile of the box; a click selects it."""

    class Pressed(Message):
        def __init__(self, number: int) -> None:
            super().__init__()
            self.number = number

    def __init__(self, number: int) -> None:
        super().__init__(str(number), id=f"tile-{number}", classes="tile")
        self.number = number

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(self.Pressed(self.number))


class Display(Widget):
    """Text drawn from the game: a new text redraws it in place, without a new layout (the
    sizes are fixed in the CSS), so computer turns play out smoothly."""

    def __init__(self, id: str) -> None:
        super().__init__(id=id)
        self._content: RenderableType = ""

    def update(self, content: RenderableType) -> None:
        self._content = content
        self.refresh()

    def render(self) -> RenderableType:
        return self._content


class DiceButton(Button, can_focus=False):
    """A dice choice to click; keys go to the app (Enter shuts, it does not press this)."""


class GameLog(RichLog, can_focus=False):
    """The log of the game; it scrolls with the mouse wheel."""


def key_bindings(say: Callable[[str], str]) -> list[BindingType]:
    """The game's keys, each description said by ``say`` (``_`` for the reader's language)."""
    return [
        Binding("1", "tile(1)", say(N_("tile")), key_display="1-9 0 - =", show=True),
        *[Binding(key, f"tile({n})", show=False) for key, n in TILE_KEYS.items() if n > 1],
        Binding("enter", "shut", say(N_("shut"))),
        Binding("backspace", "clear", say(N_("clear")), show=False),
        Binding("escape", "clear", say(N_("clear")), show=False),
        Binding("h", "hint", say(N_("hint"))),
        Binding("space", "skip", say(N_("skip"))),
        Binding("n", "next_game", say(N_("next game"))),
        Binding("q", "quit_game", say(N_("quit"))),
        Binding("ctrl+c", "quit_game('interrupted')", say(N_("quit")), show=False,
                priority=True),
    ]


class ShutTheBoxApp(App[Outcome]):
    """A session of Shut the Box, full screen."""

    CSS_PATH = "app.tcss"
    TITLE = "Shut the Box"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = key_bindings(lambda words: words)
    """The keys, their descriptions in English (:meth:`speaking` gives the app whose footer
    speaks the reader's language)."""

    @classmethod
    def speaking(cls) -> type[ShutTheBoxApp]:
        """This app with its footer (the keys' descriptions) in the current language: a
        subclass whose bindings replace these, key for key, as Textual merges them."""
        return type(cls.__name__, (cls,), {"BINDINGS": key_bindings(_),
                                           "__module__": cls.__module__})

    def __init__(self, session: GameSession, fast: bool = False) -> None:
        super().__init__()
        self.session = session
        self.pace = FAST_PACE if fast else PACE
        self.selection: Tiles = 0
        self.hint_shown = False
        self.message = ""
        self._told = 0
        self._timer: Timer | None = None
        self._skipping = False
        self._thinking = False
        self._keys: tuple[bool, bool] | None = None
        self._lessons_told = 0
        """The number of the session's game whose lessons are in the log."""
        self.save_problem = ""
        """Why the last save failed ("" once a save succeeds): shown until then, and said
        by the command line when the game is left unsaved."""

    # --- layout ----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Display("too-small")
        yield Display("title")
        with Horizontal(id="board"):
            for number in range(1, self.session.config.rules.tiles + 1):
                yield Tile(number)
        with Horizontal(id="dice-row"):
            yield Display("dice")
            yield DiceButton(_("1 die"), id="one-die")
            yield DiceButton(_("2 dice"), id="two-dice")
        yield Display("selection")
        yield Display("turn")
        with Horizontal(id="panels"):
            with Vertical(id="players-panel"):
                yield Display("players")
            yield GameLog(id="log", markup=True, wrap=True, min_width=10)
            yield Display("hint")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#players-panel").border_title = _("Players")
        self.query_one("#log").border_title = _("Log")
        self.query_one("#hint").border_title = _("Hint")
        # as wide as the longest name needs (up to 40 characters, never cut), the marker, the
        # score and the total beside it, the border and padding around
        longest = max(len(name) for name in self.session.config.players)
        self.query_one("#players-panel").styles.width = min(56, max(26, longest + 16))
        self._fit(self.size.width, self.size.height)
        self._show()
        self._advance()

    def on_resize(self, event: Resize) -> None:
        self._fit(event.size.width, event.size.height)

    def _fit(self, width: int, height: int) -> None:
        """Bigger tiles and wider panels on a larger terminal; on one too small for the box,
        a message saying so instead of a board with tiles cut off."""
        self.screen.set_class(height >= 32, "tall")
        self.screen.set_class(width >= 120, "wide")
        need_width = self.min_width
        small = width < need_width or height < MIN_HEIGHT
        self.screen.set_class(small, "cramped")
        if small:
            self.query_one("#too-small", Display).update(
                too_small_text(width, height, need_width, MIN_HEIGHT))

    @property
    def min_width(self) -> int:
        """The columns the row of tiles needs (each tile 5 wide and a gap), with a margin."""
        return max(60, 6 * self.session.config.rules.tiles + 2)

    # --- drawing ---------------------------------------------------------------------

    def _show(self) -> None:
        """Draw everything from the match as it stands."""
        match = self.session.match
        self.query_one("#title", Display).update(title_text(self.session))
        board = match.board
        for tile in self.query(Tile):
            bit = tile_bit(tile.number)
            tile.set_class(not board & bit, "shut")
            tile.set_class(bool(self.selection & bit), "selected")
        self._show_dice()
        self.query_one("#selection", Display).update(selection_text(
            self.session, self.selection, self.message, self.save_problem, self._thinking))
        self.query_one("#turn", Display).update(turn_text(self.session))
        self.query_one("#players", Display).update(players_panel(self.session))
        self._show_log()
        if self.hint_shown and match.is_over:
            self.hint_shown = False   # nothing left to hint
        self.query_one("#hint").set_class(self.hint_shown, "shown")
        if self.hint_shown and not self.session.human_to_act:
            self.query_one("#hint", Display).update(
                "…" if match.pending.is_chance else
                _("The hint ranks your choices when it is your turn."))
        keys = (self.session.human_to_act, self.session.match.is_over)
        if keys != self._keys:   # the footer is drawn again only when its keys change
            self._keys = keys
            self.refresh_bindings()

    def _show_dice(self) -> None:
        pending = self.session.match.pending
        choosing = pending.kind is PendingKind.CHOOSE_DICE and self.session.human_to_act
        for button in self.query(DiceButton):
            if button.display != choosing:
                button.display = choosing
        self.query_one("#dice", Display).update(dice_text(self.session, choosing))

    def _show_log(self) -> None:
        match = self.session.match
        log = self.query_one("#log", RichLog)
        for event in match.events[self._told:]:
            line = narrate(event, match)
            if line:
                log.write(Text.from_markup(line))
        self._told = len(match.events)

    async def _show_hint(self) -> None:
        panel = self.query_one("#hint", Display)
        if not self.hint_shown:
            return
        if not self.session.human_to_act:
            panel.update(_("The hint ranks your choices when it is your turn."))
            return
        from shutthebox.terminal.hints import hint_for

        panel.update(_("thinking…"))
        match = self.session.match
        events = len(match.events)
        hint = await asyncio.to_thread(hint_for, match)
        if len(match.events) != events or not self.hint_shown:
            return   # the game moved on while the solver worked
        panel.update(hint_panel(hint))

    async def _show_lessons(self) -> None:
        """At a game's end: what the coach says of each person's play, in the log."""
        match = self.session.match
        lines = await asyncio.to_thread(self.session.lessons)
        if self.session.match is match:   # not if the next game has begun meanwhile
            log = self.query_one("#log", RichLog)
            for line in lines:
                log.write(Text(line))

    # --- the flow of the game ----------------------------------------------------------

    def _advance(self) -> None:
        """Play the automatic steps (rolls, computer decisions) one at a time, paced."""
        session = self.session
        if self._timer is not None:
            return
        if session.match.is_over:
            self._skipping = False
            self._save()
            self._show()
            if self._lessons_told != session.number:
                self._lessons_told = session.number
                self.run_worker(self._show_lessons(), group="lessons")
            if not session.humans:   # a demo of computers ends by itself
                self._timer = self.set_timer(
                    END_PAUSE * self.pace / PACE, self._next_or_end)
            return
        if session.human_to_act:
            self._skipping = False
            self._save()
            self._show()
            self.run_worker(self._show_hint(), exclusive=True, group="hint")
            return
        pending = session.match.pending
        computer_move = pending.is_decision
        delay = 0.001 if self._skipping else (self.pace if computer_move else self.pace / 2)
        self._timer = self.set_timer(delay, self._auto_step)

    def _save(self) -> bool:
        """Save the game; a save that fails is shown and the game goes on (q tries again)."""
        try:
            self.session.save()
        except SaveError as error:
            self.save_problem = str(error)
            return False
        self.save_problem = ""
        return True

    def _next_or_end(self) -> None:
        """After a game of computers: the next game of the session, or the end."""
        self._timer = None
        if self.session.more_games:
            self.action_next_game()
        else:
            self.exit(Outcome.FINISHED)

    async def _auto_step(self) -> None:
        self._timer = None
        session = self.session
        match = session.match
        if match.is_over or session.human_to_act:
            self._advance()
            return
        if self._skipping:
            while not (match.is_over or session.human_to_act):
                session.step()
        elif match.pending.is_chance:
            session.step()
        else:
            self._thinking = True
            self._show()
            action = await asyncio.to_thread(session.computer_action)
            self._thinking = False
            match.decide(action)
        self._show()
        self._advance()

    def _decide(self, action: int) -> None:
        try:
            self.session.match.decide(action)
        except ShutTheBoxError as error:
            self.message = str(error)
            self._show()
            return
        self.selection = 0
        self.message = ""
        self._show()
        self._advance()

    # --- actions (keys and clicks) ------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show in the footer only the keys that do something now."""
        session = self.session
        if action in ("tile", "shut", "clear"):
            return session.human_to_act
        if action == "skip":
            return not session.match.is_over and not session.human_to_act
        if action == "next_game":
            return session.match.is_over and session.more_games
        return True

    def action_tile(self, number: int) -> None:
        session = self.session
        if not session.human_to_act:
            return
        pending = session.match.pending
        if pending.kind is PendingKind.CHOOSE_DICE:
            if number in (1, 2):
                self._decide(number)
            return
        if number > session.config.rules.tiles:
            self.message = _("tile {tile} is not in this box: its tiles go from 1 to "
                             "{tiles}").format(tile=number, tiles=session.config.rules.tiles)
        elif pending.turn is not None and not pending.turn.open_tiles & tile_bit(number):
            self.message = (_("tile {tile} is up already: choose among the shut tiles")
                            if pending.role is Role.STAND else
                            _("tile {tile} is shut already: choose among the open tiles")
                            ).format(tile=number)
        else:
            self.selection ^= tile_bit(number)
            self.message = ""
        self._show()

    def on_tile_pressed(self, event: Tile.Pressed) -> None:
        self.action_tile(event.number)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if self.session.human_to_act and self.session.match.pending.kind is PendingKind.CHOOSE_DICE:
            self._decide(1 if event.button.id == "one-die" else 2)

    def action_shut(self) -> None:
        session = self.session
        if not session.human_to_act:
            return
        pending = session.match.pending
        if pending.kind is PendingKind.CHOOSE_DICE:
            self._decide(2)
            return
        turn = pending.turn
        assert turn is not None and turn.roll is not None
        if self.selection not in turn.legal_actions():
            why = explain_illegal(session.config.rules, turn.open_tiles, turn.roll,
                                  self.selection)
            self.message = why.split(" (roll ")[0]   # the board shows the roll and the box
            self._show()
            return
        self._decide(self.selection)

    def action_clear(self) -> None:
        self.selection = 0
        self.message = ""
        self._show()

    def action_hint(self) -> None:
        self.hint_shown = not self.hint_shown
        self._show()
        self.run_worker(self._show_hint(), exclusive=True, group="hint")

    def action_skip(self) -> None:
        """Play the computers' steps at once, up to the next human decision."""
        self._skipping = True
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
            self._advance()

    def action_next_game(self) -> None:
        session = self.session
        if not session.match.is_over or not session.more_games:
            return
        session.next_game()
        self._told = 0
        self.selection = 0
        self.query_one("#log", RichLog).clear()
        for tile in self.query(Tile):
            tile.display = tile.number <= session.config.rules.tiles
        self._show()
        self._advance()

    async def action_quit(self) -> None:
        """Textual's own quit key (Ctrl+Q) saves too."""
        self.action_quit_game()

    def action_quit_game(self, how: str = "quit") -> None:
        """Save and leave: the game resumes with ``shutthebox play --resume`` (a save that
        fails is said by the command line once the screen is gone)."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self._save()
        if self.session.match.is_over:
            self.exit(Outcome.FINISHED)
        else:
            self.session.close()   # another window may resume it now
            self.exit(Outcome.INTERRUPTED if how == "interrupted" else Outcome.QUIT)

