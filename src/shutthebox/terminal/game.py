"""The terminal game loop: humans type, computer players are shown step by step.

The loop only asks the match what is pending, asks a human or a strategy for the action,
and tells what happened from the match's events. All rules live in the engine.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from rich.console import Console
from rich.table import Table

from shutthebox.dice import Roll, format_roll
from shutthebox.errors import ShutTheBoxError
from shutthebox.match import Event, Match, format_money
from shutthebox.solver.advice import rank_dice, rank_moves
from shutthebox.solver.objectives import SCORE
from shutthebox.solver.players import OptimalStrategy
from shutthebox.strategies import Strategy, describe_move
from shutthebox.terminal.board import render
from shutthebox.tiles import format_tiles, mask_of, parse_tiles

KEYS: dict[str, str] = {
    "3 5": "shut tiles 3 and 5 (also 3,5 or 3+5)",
    "1 / 2": "roll one die or two, when the rules let you choose",
    "?": "show the legal moves and these keys",
    "h": "hint: every legal move ranked by the exact solver",
    "q": "quit (asks first while a game is in progress)",
}
"""The keys a human can type, as shown by ``?``."""


class QuitGame(Exception):
    """The human asked to leave the game."""


@dataclass
class TerminalGame:
    """One match played in the terminal."""

    match: Match
    strategies: dict[int, Strategy]
    rng: random.Random
    console: Console
    ask: Callable[[str], str] = input
    pause: float = 0.6
    """Seconds between computer steps (0 with --fast)."""
    _roll: Roll | None = None
    _told: int = field(default=0)

    def run(self) -> bool:
        """Play until the match is over (True) or a human quits (False)."""
        self._tell_new_events()
        try:
            while not self.match.is_over:
                self._step()
                self._tell_new_events()
        except QuitGame:
            return False
        self.console.print(render(self.match, self._roll))
        return True

    # --- one step ------------------------------------------------------------------------

    def _step(self) -> None:
        pending = self.match.pending
        if pending.is_chance:
            roll = self.match.roll(self.rng)
            if pending.kind == "roll":
                self._roll = roll
            return
        assert pending.seat is not None and pending.turn is not None
        strategy = self.strategies.get(pending.seat)
        if strategy is None:
            self._human(pending.seat)
            return
        action = strategy.choose(pending.turn, self.match.situation())
        name = self.match.players[pending.seat]
        self.console.print(f"[bold]{name}[/] {describe_move(pending.turn, action)}")
        self.match.decide(action)
        if self.pause:
            time.sleep(self.pause)

    def _human(self, seat: int) -> None:
        self.console.print(render(self.match, self._roll))
        while True:
            pending = self.match.pending
            assert pending.turn is not None
            if pending.kind == "choose-dice":
                prompt = f"{self.match.players[seat]}: roll 1 or 2 dice? [2] "
            else:
                prompt = (f"{self.match.players[seat]}: roll {format_roll(pending.turn.roll or ())}"
                          " - tiles to shut (? for help): ")
            try:
                answer = self.ask(prompt).strip().lower()
            except EOFError:
                self.console.print("\ninput ended: leaving the game")
                raise QuitGame from None
            if self._command(answer):
                continue
            try:
                if pending.kind == "choose-dice":
                    self.match.decide(int(answer) if answer else 2)
                else:
                    self.match.decide(mask_of(parse_tiles(answer)))
                return
            except ShutTheBoxError as error:
                self.console.print(f"[red]{error}[/]")
            except ValueError:
                self.console.print(f"[red]{answer!r} is not 1 or 2[/]")

    def _command(self, answer: str) -> bool:
        if answer == "?":
            self._show_help()
        elif answer == "h":
            self._show_hint()
        elif answer == "q":
            try:
                sure = self.ask("Quit the game in progress? It is saved unfinished. [y/N] ")
            except EOFError:
                sure = "y"
            if sure.strip().lower().startswith("y"):
                raise QuitGame
        else:
            return False
        return True

    def _show_help(self) -> None:
        turn = self.match.pending.turn
        assert turn is not None
        moves = ", ".join(describe_move(turn, a).removeprefix("shut ")
                          for a in turn.legal_actions())
        self.console.print(f"legal: {moves}")
        for key, meaning in KEYS.items():
            self.console.print(f"  [bold]{key:>5}[/]  {meaning}")

    def _show_hint(self) -> None:
        pending = self.match.pending
        turn = pending.turn
        assert turn is not None
        rules = self.match.rules
        situation = self.match.situation() if pending.role == "turn" else None
        objective = SCORE if situation is None else \
            OptimalStrategy(rules, SCORE).solution_for(situation).objective
        plays_to_win = objective is not SCORE
        unit = "chance to win" if plays_to_win else "expected score"
        table = Table(title=f"Hint ({unit}), best first")
        if turn.roll is None or pending.kind == "choose-dice":
            table.add_column("dice")
            table.add_column(unit, justify="right")
            table.add_column("chance to shut", justify="right")
            shut_values = {d.dice: d.value for d in rank_dice(rules, "shut", turn.open_tiles)}
            for d in rank_dice(rules, objective, turn.open_tiles):
                table.add_row(str(d.dice), _show(d.value, plays_to_win),
                              f"{shut_values[d.dice] * 100:.2f} %")
        else:
            table.add_column("shut")
            table.add_column(unit, justify="right")
            table.add_column("chance to shut", justify="right")
            shut_values = {m.tiles: m.value for m in rank_moves(rules, "shut", turn.open_tiles,
                                                                 turn.roll)}
            for m in rank_moves(rules, objective, turn.open_tiles, turn.roll):
                table.add_row(format_tiles(m.tiles), _show(m.value, plays_to_win),
                              f"{shut_values[m.tiles] * 100:.2f} %")
        self.console.print(table)

    # --- telling what happened ------------------------------------------------------------

    def _tell_new_events(self) -> None:
        for event in self.match.events[self._told:]:
            line = narrate(event, self.match)
            if line:
                self.console.print(line)
        self._told = len(self.match.events)


def _show(value: float, probability: bool) -> str:
    return f"{value * 100:.2f} %" if probability else f"{value:.2f}"


def narrate(event: Event, match: Match) -> str | None:
    """One event in words, or None for events the board already shows."""
    names = match.players
    kind = event["type"]
    if kind == "roll-off":
        return f"{names[event['seat']]} rolls {format_roll(tuple(event['roll']))} for first turn"
    if kind == "first":
        return f"[bold]{names[event['seat']]}[/] plays first" if len(names) > 1 else None
    if kind == "round" and len(names) > 1:
        return f"\n[bold]— round {event['round']} —[/]"
    if kind == "turn":
        role = event.get("role")
        return f"[bold]{names[event['seat']]}[/]'s {role or 'turn'}" if len(names) > 1 else None
    if kind == "roll":
        return f"  rolls {format_roll(tuple(event['roll']))}"
    if kind == "pass":
        return f"  {names[event['seat']]} has no move and passes"
    if kind == "turn-end":
        if event["shut_box"]:
            return f"  [bold green]{names[event['seat']]} shuts the box![/] score {event['score']}"
        return (f"  no move: {names[event['seat']]}'s turn ends with "
                f"{format_tiles(mask_of(event['open']))} open, score {event['score']}")
    if kind == "eliminated":
        return f"[red]{names[event['seat']]} is out with {event['total']}[/]"
    if kind == "loser":
        return f"[red]{' and '.join(names[s] for s in event['seats'])} lost the tournament[/]"
    if kind == "winner":
        winners = " and ".join(names[s] for s in event["seats"])
        return f"\n[bold green]Winner: {winners}[/]" if len(names) > 1 else None
    if kind == "ante":
        return f"everyone antes {format_money(event['stake'])}: pot {format_money(event['pot'])}"
    if kind == "payout":
        return f"{names[event['seat']]} takes {format_money(event['amount'])}"
    return None
