"""``shutthebox games``: the saved games and their state."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from shutthebox.language import N_, _


def printable(text: str) -> str:
    """``text`` with each character that would act on the terminal (an escape, a newline)
    written as its escape: a file name in the games folder is anybody's text.

    >>> print(printable("Ann\\x1b[2J"))
    Ann\\x1b[2J
    """
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


def games_command(
    as_json: Annotated[bool, typer.Option("--json", help=N_("print JSON for scripts"))] = False,
) -> None:
    """The ``games`` command: the saved games, latest first."""
    from rich.console import Console

    from shutthebox.names import name_of
    from shutthebox.paths import games_dir
    from shutthebox.terminal.saved import saved_games

    games = saved_games()
    if as_json:
        print(json.dumps([{
            "game": game.name, "path": str(game.path),
            "format": str(game.match.config.format) if game.match else None,
            "players": list(game.match.players) if game.match else None,
            "finished": game.match.is_over if game.match else None,
            "state": game.state} for game in games], indent=2))
        return
    console = Console()
    if not games:
        console.print(_("No saved games in {folder}").format(folder=games_dir(create=False)),
                      highlight=False,
                      soft_wrap=True, markup=False)
        return
    console.print(_("Saved games in {folder}, latest first:").format(
                  folder=games_dir(create=False)), highlight=False,
                  soft_wrap=True, markup=False)
    for game in games:
        match = game.match
        players = "  ({})".format(_(", ").join(map(name_of, match.players))) if match else ""
        style = "bold" if match is not None and not match.is_over else ""
        console.print(printable(f"{game.name}  {_(game.state)}{players}"), style=style,
                      highlight=False, soft_wrap=True, markup=False)


def register(app: typer.Typer) -> None:
    """Add the games command."""
    app.command("games")(games_command)
