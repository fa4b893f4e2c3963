"""``shutthebox admin``: the server host's tools on the database itself (the admin view's,
:mod:`shutthebox.web.api.routes.admin`, without a server): make an admin token, list the
games open, end one, rename or free a player's name."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from shutthebox.cli.backup import DATABASE_HELP, database_url
from shutthebox.language import N_, _

TOKEN = N_("Make a new random token and its hash: give the hash to the server "
           "(--admin-token or SHUTTHEBOX_ADMIN_TOKEN; --metrics-token likewise), keep the "
           "token to yourself.")
GAMES = N_("List the games waiting for players or being played, the latest changed first.")
END = N_("End a game being played: nothing more is played, nobody wins it.")
# Words the catalogues translate, true of a claimed name too (which moves with its player);
# the manual says what rename and free do to a claim.
RENAME = N_("Give a player's finished games (their statistics and rating) to another name.")
FREE = N_("Set a name's finished games aside under another name, so that the name starts "
          "afresh.")
Database = Annotated[str | None, typer.Option("--database-url", help=DATABASE_HELP)]


def token_command() -> None:
    """Make a new random token and its hash: give the hash to the server (--admin-token
    or SHUTTHEBOX_ADMIN_TOKEN; --metrics-token likewise), keep the token to yourself."""
    from shutthebox.web.settings import hash_token, new_token

    token = new_token()
    print(_("token (keep it, send it as Authorization: Bearer): {token}").format(token=token))
    print(_("hash (give it to the server): {hash}").format(hash=hash_token(token)))


def games_command(
    database: Database = None,
    as_json: Annotated[bool, typer.Option("--json", help=N_("print JSON for scripts"))] = False,
) -> None:
    """List the games waiting for players or being played, the latest changed first."""
    from shutthebox.cli.games import printable
    from shutthebox.web.play.admin import open_games
    from shutthebox.web.storage import make_engine

    engine = make_engine(database_url(database), pool_size=1)
    try:
        games = open_games(engine)
    finally:
        engine.dispose()
    if as_json:
        print(json.dumps(games, indent=2))
        return
    if not games:
        print(_("No game is waiting or being played."))
    for game in games:
        seats = ", ".join(seat["name"] + ("" if seat["taken"] else "?") for seat in game["seats"])
        print(printable(f"{game['id']}  {game['status']:8}  {game['updated'][:19]}  {seats}"))


def end_command(
    game: Annotated[str, typer.Argument(help=N_("the game's id"))],
    database: Database = None,
) -> None:
    """End a game being played: nothing more is played, nobody wins it."""
    from shutthebox.web.play.admin import end_game
    from shutthebox.web.play.changes import GameChanges
    from shutthebox.web.storage import make_engine

    engine = make_engine(database_url(database), pool_size=1)
    changes = GameChanges(engine)
    try:
        end_game(changes, game)
    finally:
        changes.close()
        engine.dispose()
    print(_("Ended the game {game}").format(game=game))


def rename_command(
    old: Annotated[str, typer.Argument(help=N_("the name now"))],
    new: Annotated[str, typer.Argument(help=N_("the name to give its games"))],
    database: Database = None,
) -> None:
    """Rename a player: a claimed name with its player, statistics and rating; a name given
    at the table, its finished games."""
    from shutthebox.web.records.names import rename
    from shutthebox.web.storage import make_engine

    engine = make_engine(database_url(database), pool_size=1)
    try:
        count = rename(engine, old, new)
    finally:
        engine.dispose()
    print(_("{count} games of {old!r} are now {new!r}'s").format(count=count, old=old, new=new))


def free_command(
    name: Annotated[str, typer.Argument(help=N_("the name to free"))],
    database: Database = None,
) -> None:
    """Free a name: a claimed name's player is renamed aside (Name (1)) and signed out on
    every device, so that someone else can claim it."""
    from shutthebox.web.records.names import free
    from shutthebox.web.storage import make_engine

    engine = make_engine(database_url(database), pool_size=1)
    try:
        aside = free(engine, name)
    finally:
        engine.dispose()
    print(_("{name!r} is free; its games are now {aside!r}'s").format(name=name, aside=aside))


def register(app: typer.Typer) -> None:
    """Add the admin command and its own."""
    from shutthebox.cli import SpokenGroup, SpokenTyper

    admin = SpokenTyper(no_args_is_help=True, cls=SpokenGroup)
    admin.command("token", help=TOKEN)(token_command)
    admin.command("games", help=GAMES)(games_command)
    admin.command("end", help=END)(end_command)
    admin.command("rename", help=RENAME)(rename_command)
    admin.command("free", help=FREE)(free_command)
    app.add_typer(admin, name="admin")
