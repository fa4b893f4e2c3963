"""``shutthebox daily``: the daily box in lines of text, the same dice for everyone.

This is the public box (:func:`shutthebox.coach.daily.daily_box` without a secret): its
dice are the date's, played offline, and its result is local. A server's daily box deals
dice keyed by the server's own secret (:mod:`shutthebox.web.records.daily`), so it says so.

The moves are read a line at a time (a terminal, or a pipe); with ``--json`` the prompts go
to standard error and the result, as JSON, to standard output.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from shutthebox.errors import ShutTheBoxError
from shutthebox.language import N_, _
from shutthebox.plots import SIZE_WORDS

DateOption = Annotated[str | None, typer.Option(
    "--date", help=N_("play the box of another day, like 2026-11-24 [default: today, UTC]"))]


class InputEndedError(ShutTheBoxError):
    """Standard input ended before the box was finished."""

    exit_status = 1


def daily_command(
    day_text: DateOption = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help=N_("print the result as JSON for scripts (the prompts go to standard "
        "error)"))] = False,
    name: Annotated[str | None, typer.Option(
        "--name", help=N_("your name in the result (without it, the result speaks to "
                          "you)"))] = None,
) -> None:
    """The ``daily`` command: today's box, in lines of text."""
    from shutthebox.coach.daily import daily_box, parse_day
    from shutthebox.names import clean_name

    day = parse_day(day_text) if day_text is not None else datetime.now(UTC).date()
    from shutthebox.names import YOU

    player = clean_name(name) if name is not None else YOU
    box = daily_box(day)
    console = Console(stderr=as_json, highlight=False)
    from shutthebox.rules import PRESETS

    console.print(_("[bold]Daily box of {day}[/]: {preset} ({summary}).").format(
        day=day.isoformat(), preset=box.preset, summary=escape(_(PRESETS[box.preset].summary))))
    console.print(_("This is the public box of the day, the same dice for everyone offline: "
                    "your result stays on this computer. A server's daily box deals dice of "
                    "its own."))
    match = box.play(_reader(console, input), player)
    result = box.result(match.to_log())
    if as_json:
        print(json.dumps(result, indent=2))
        return
    said = (_("Your score: [bold]{score}[/]; perfect play on the same dice scored {perfect} "
              "(lower is better). Accuracy {accuracy}.") if box.rules.lower_is_better else
            _("Your score: [bold]{score}[/]; perfect play on the same dice scored {perfect} "
              "(higher is better). Accuracy {accuracy}."))
    if player != YOU:
        said = (_("{name}'s score: [bold]{score}[/]; perfect play on the same dice scored "
                  "{perfect} (lower is better). Accuracy {accuracy}.")
                if box.rules.lower_is_better else
                _("{name}'s score: [bold]{score}[/]; perfect play on the same dice scored "
                  "{perfect} (higher is better). Accuracy {accuracy}."))
    console.print(said.format(name=escape(player), score=result["score"],
                              perfect=result["perfect"], accuracy=f"{result['accuracy']:.1f}"))
    console.print(_("Perfect play on the same dice: {moves}.").format(
        moves=escape(_(", ").join(result["perfect_moves"]))))
    for mark in result["analysis"]["marks"]:
        if mark["why"]:
            console.print(f"  {_(SIZE_WORDS[mark['size']])}: {escape(mark['why'])}")


def _reader(console: Console, ask: Callable[[str], str]) -> Callable[..., int]:
    """The human's decisions, asked a line at a time until one is legal."""
    from shutthebox.dice import format_roll
    from shutthebox.match import Match, PendingKind
    from shutthebox.strategies import describe_move, format_move
    from shutthebox.terminal.game import read_move
    from shutthebox.tiles import format_tiles

    def choose(match: Match) -> int:
        pending = match.pending
        turn = pending.turn
        assert turn is not None
        while True:
            if pending.kind is PendingKind.CHOOSE_DICE:
                prompt = _("Open: {tiles}. Roll 1 or 2 dice? [2] ").format(
                    tiles=format_tiles(turn.open_tiles))
            else:
                prompt = _("Open: {tiles}. Roll {roll}: tiles to shut (? for the legal "
                           "moves): ").format(tiles=format_tiles(turn.open_tiles),
                                             roll=format_roll(turn.roll or ()))
            console.print(prompt, end="")
            try:
                answer = ask("").strip().lower()
            except EOFError:
                console.print()
                raise InputEndedError(_("input ended before the daily box was finished")) \
                    from None
            if answer == "?":
                moves = _(", ").join(describe_move(turn, a) if pending.kind is
                                     PendingKind.CHOOSE_DICE else format_move(a)
                                     for a in turn.legal_actions())
                console.print(_("legal: {moves}").format(moves=moves))
                continue
            try:
                action = (_dice(answer) if pending.kind is PendingKind.CHOOSE_DICE
                          else read_move(answer, match.rules))
                if pending.kind is PendingKind.SHUT:
                    turn.shut(action)   # refuses an illegal move, saying why
            except ShutTheBoxError as error:
                console.print(f"[red]{escape(str(error))}[/]")
                continue
            return action

    return choose


def _dice(answer: str) -> int:
    if answer not in ("", "1", "2"):
        raise ShutTheBoxError(_("{answer!r} is not 1 or 2").format(answer=answer))
    return int(answer or "2")


def register(app: typer.Typer) -> None:
    """Add the ``daily`` command."""
    app.command("daily")(daily_command)

