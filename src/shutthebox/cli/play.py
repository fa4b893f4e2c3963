"""``shutthebox play``: a game in the terminal, against people and computer players.

On a terminal the game is full screen (Textual); with ``--plain``, or when standard input or
output is not a terminal (pipes, scripts, screen readers), it is played in lines of text.
"""

from __future__ import annotations

import json
import os
import random
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any

import typer

from shutthebox.errors import FormatError, ShutTheBoxError
from shutthebox.language import N_, _, ngettext
from shutthebox.match import GameFormat, MatchConfig, format_money, parse_stake
from shutthebox.names import clean_name
from shutthebox.paths import NO_WRITING, DataFolderError
from shutthebox.rules import Rules

if TYPE_CHECKING:
    from rich.console import Console

    from shutthebox.terminal.session import GameSession

DEFAULT_PLAYERS = "You,cpu"
COMPUTER_DEFAULT = "hard"
MAX_GAMES = 1000
"""The most games in one session: a thousand games of computers take about half a minute."""


class ClosedInputError(ShutTheBoxError):
    """People are to play, but standard input is closed: nobody can type a move."""

    exit_status = 1
    """The command line's exit status: the input was good, the machine has no keyboard."""


def is_terminal(stream: Any) -> bool:
    """Whether ``stream`` is an open terminal (a closed or missing stream is not one)."""
    try:
        return stream is not None and bool(stream.isatty())
    except (ValueError, OSError):   # a closed file
        return False


def input_is_open() -> bool:
    """Whether standard input exists and is open (``<&-`` closes it)."""
    return sys.stdin is not None and not sys.stdin.closed


def full_screen_fits() -> bool:
    """Whether this terminal can show the full-screen game: it is not ``TERM=dumb`` (which
    moves no cursor and shows no colour) and can show the board's characters."""
    from shutthebox.cli.output import shows_everything

    return os.environ.get("TERM", "") != "dumb" and shows_everything(sys.stdout)


def parse_players(text: str) -> tuple[tuple[str, ...], dict[int, str]]:
    """Read ``"Ann,Bob,cpu:heuristic"``: names are humans, ``cpu[:STRATEGY]`` computers.

    >>> parse_players("Ann,cpu:random")
    (('Ann', 'CPU 1 (random)'), {1: 'random'})
    """
    entries = [e.strip() for e in text.split(",")]
    if not any(entries):
        raise FormatError(_("no players in {text!r}: give names or cpu, like "
                            "'Ann,cpu'").format(text=text))
    names: list[str] = []
    computers: dict[int, str] = {}
    for seat, entry in enumerate(entries):
        head, _sep, spec = entry.partition(":")
        if head.lower() == "cpu":
            computers[seat] = spec or COMPUTER_DEFAULT
            names.append(f"CPU {len(computers)} ({computers[seat]})")
        else:
            names.append(clean_name(entry))
    return tuple(names), computers


def check_players(text: str) -> str:
    """The players, if every name and computer strategy is good."""
    from shutthebox.strategies import make_strategy

    _, computers = parse_players(text)
    for kind in computers.values():
        make_strategy(kind, Rules(), random.Random(0))
    return text


def make_session(rules: Rules, players: str, game_format: str | None, stake: str | None,
                 seed: int | None, games: int = 1, keep: bool = True) -> GameSession:
    """A session of the players, the format (default: single, or solo for one player) and the
    stake, its games saved if ``keep``; every name and strategy is checked here.

    :raises DataFolderError: the games are to be kept, and the data folder cannot be written.
    """
    from shutthebox.terminal.session import GameSession

    config = match_config(rules, players, game_format, stake)
    _names, computers = parse_players(players)
    return GameSession(config, computers, random.Random(seed), seed, games, keep=keep)


def match_config(rules: Rules, players: str, game_format: str | None,
                 stake: str | None) -> MatchConfig:
    """The match of the players, the format (default: single, or solo for one player) and
    the stake, each checked."""
    names, _computers = parse_players(players)
    chosen = GameFormat.parse(game_format or ("solo" if len(names) == 1 else "single"))
    return MatchConfig(rules, chosen, names, parse_stake(stake) if stake else 0)


def kept_session(rules: Rules, players: str, game_format: str | None, stake: str | None,
                 seed: int | None, games: int, keep: bool) -> GameSession:
    """The session, saved if it can be: computers alone play on unsaved when the data
    folder cannot be written (nobody would resume them), saying so on standard error.

    :raises DataFolderError: people are playing and the game cannot be saved (the message
        names SHUTTHEBOX_HOME and --no-save).
    """
    try:
        return make_session(rules, players, game_format, stake, seed, games, keep)
    except DataFolderError as error:
        names, computers = parse_players(players)
        if len(names) > len(computers):
            raise DataFolderError(_("this game is saved as it is played, and it cannot be: "
                                    "{why}; or play with --no-save").format(why=error)) \
                from None
        print(_("shutthebox: the game is not saved: {why}").format(why=error),
              file=sys.stderr)
        return make_session(rules, players, game_format, stake, seed, games, keep=False)


def _ask(question: str, read: Callable[[str], Any], console: Console) -> Any:
    """Ask until the answer reads (``read`` gets "" for Enter and gives the default)."""
    from rich.markup import escape

    while True:
        try:
            answer = input(question).strip()
        except EOFError:
            raise typer.Abort from None
        try:
            return read(answer)
        except DataFolderError:
            raise
        except ValueError as error:
            console.print(_("{error}: try again").format(error=f"[red]{escape(str(error))}[/]"),
                          highlight=False)


def _wizard(rules: Rules, stake: str | None, seed: int | None, games: int,
            console: Console, keep: bool = True) -> GameSession:
    """The setup questions, each asked again until its answer is good."""
    from shutthebox.cli.options import rules_from_flags

    console.print(_("[bold]Shut the Box[/]: a few questions (Enter takes the default)."))
    names = _ask(_("Players, comma separated, cpu for a computer [{players}]: ").format(
                     players=DEFAULT_PLAYERS),
                 lambda text: check_players(text or DEFAULT_PLAYERS), console)
    chosen = _ask(_("Rules preset (see `shutthebox rules`) [classic]: "),
                  lambda text: rules_from_flags(text) if text else rules, console)
    console.print(_("Formats: {formats}").format(
        formats="single, solo, rounds:R, elimination:L, loser-at:L, race:T, battle"),
        highlight=False)

    def read_format(text: str) -> str | None:
        match_config(chosen, names, text or None, stake)   # refuses a bad format at once
        return text or None

    game_format: str | None = _ask(_("Format [single, or solo for one player]: "),
                                   read_format, console)
    return kept_session(chosen, names, game_format, stake, seed, games, keep)


def play_command(
    rules: Rules,
    game: Annotated[str | None, typer.Argument(
        help=N_("with --resume: the saved game to resume (see `shutthebox games`)"),
        show_default=False)] = None,
    players: Annotated[str | None, typer.Option(
        "--players", help=N_("comma-separated seats: a name (up to 40 characters) for a "
        "human, "
        "cpu or cpu:STRATEGY for a computer (STRATEGY: easy, medium, hard, random, "
        "highest-first, fewest-tiles, optimal, optimal:shut ...). Default: You,cpu"))] = None,
    game_format: Annotated[str | None, typer.Option(
        "--format", help=N_("single | solo | rounds:R | elimination:L | loser-at:L | race:T | "
        "battle (default: single, or solo for one player)"))] = None,
    stake: Annotated[str | None, typer.Option(
        "--stake", help=N_("play for a pot: every player antes this much each game"))] = None,
    games: Annotated[int, typer.Option(
        "--games", min=1, max=MAX_GAMES, help=N_("games in the session, up to 1000 "
        "(with people at the table you are asked after each game)"))] = 1,
    seed: Annotated[int | None, typer.Option(
        "--seed", help=N_("seed the dice, to replay a game exactly"))] = None,
    resume: Annotated[bool, typer.Option(
        "--resume", help=N_("resume a saved unfinished game: the latest, or GAME"))] = False,
    plain: Annotated[bool, typer.Option(
        "--plain", help=N_("play in lines of text, not full screen (automatic when input or "
        "output is not a terminal)"))] = False,
    fast: Annotated[bool, typer.Option(
        "--fast", help=N_("no pauses between computer moves"))] = False,
    as_json: Annotated[bool, typer.Option(
        "--json", help=N_("print the result as JSON (for games of computer players)"))] = False,
    no_save: Annotated[bool, typer.Option(
        "--no-save", help=N_("do not save the games (nothing is written in the data "
                             "folder; such a game cannot be resumed)"))] = False,
) -> None:
    """The ``play`` command (its help, with the data folder, is :data:`~shutthebox.cli.
    DETAILS`'s)."""
    from rich.console import Console

    console = Console(quiet=as_json)
    if game is not None and not resume:
        raise FormatError(_("unexpected argument {game!r}: a game name goes with "
                            "--resume").format(game=game))
    terminal = is_terminal(sys.stdin) and is_terminal(sys.stdout)
    if no_save:             # nothing in the data folder, the solver's tables included
        os.environ[NO_WRITING] = "1"
    if resume:
        given = [flag for flag, value in (("--players", players), ("--format", game_format),
                                          ("--stake", stake)) if value is not None]
        if no_save:
            given.append("--no-save")
        if given:
            raise FormatError(_("--resume continues a saved game as it was: drop "
                                "{flag}").format(flag=given[0]))
        from shutthebox.terminal.saved import find_game
        from shutthebox.terminal.session import GameSession

        saved = find_game(game)
        assert saved.match is not None
        _check_input(len(saved.match.players) - len(saved.computers))
        session = GameSession.resume(saved, seed)
    elif players is None and game_format is None and terminal and not as_json:
        session = _wizard(rules, stake, seed, games, console, not no_save)
    else:
        seats = DEFAULT_PLAYERS if players is None else players
        names, computers = parse_players(seats)
        _check_input(len(names) - len(computers))
        session = kept_session(rules, seats, game_format, stake, seed, games, not no_save)
    try:
        if resume and session.path is not None:
            console.print(_("resuming {game}").format(game=session.path.stem), highlight=False)
        if terminal and not plain and not as_json and full_screen_fits():
            _play_full_screen(session, console, fast)
        else:
            _play_lines(session, console,
                        fast or session.humans == 0 or not is_terminal(sys.stdout), as_json)
    finally:
        session.close()


def _check_input(humans: int) -> None:
    """Refuse a game with people in it when nobody can type (before anything is written).

    :raises ClosedInputError: standard input is closed.
    """
    if humans and not input_is_open():
        raise ClosedInputError(_(
            "standard input is closed, so nobody can type a move: run it from a terminal, "
            "or give --players cpu,cpu to watch computers play"))


def _play_full_screen(session: GameSession, console: Console, fast: bool) -> None:
    """The game full screen; what happened is said after it, in one line."""
    from shutthebox.terminal.app import ShutTheBoxApp
    from shutthebox.terminal.game import Outcome
    from shutthebox.terminal.saved import SaveError

    app = ShutTheBoxApp.speaking()(session, fast=fast)
    outcome = app.run()
    if app.save_problem:
        raise SaveError(app.save_problem)
    if outcome is None:   # the app stopped on an error it has shown
        raise SystemExit(1)
    _say_saved(console, session, outcome is Outcome.FINISHED)
    if outcome is Outcome.INTERRUPTED:
        raise SystemExit(130)


def _play_lines(session: GameSession, console: Console, fast: bool, as_json: bool) -> None:
    from shutthebox.terminal.game import Outcome, TerminalGame

    results = []
    while True:
        if as_json and session.games > 1 and is_terminal(sys.stderr):
            print("\r" + _("game {number} of {games}").format(
                number=session.number, games=session.games), end="", file=sys.stderr,
                  flush=True)
        outcome = TerminalGame(session, console, pause=0.0 if fast else 0.6).run()
        match = session.match
        names = match.players
        results.append({"winners": [names[s] for s in match.winners],
                        "scores": {names[s]: v for s, v in match.round_scores.items()},
                        "totals": dict(zip(names, match.totals, strict=True)),
                        "rounds": match.round, "finished": outcome is Outcome.FINISHED,
                        "log": None if session.path is None else str(session.path)})
        finished = outcome is Outcome.FINISHED
        _say_saved(console, session, finished)
        if outcome is Outcome.INTERRUPTED:
            raise SystemExit(130)
        if not finished:
            break
        if session.config.stake:
            _show_ledger(console, session)
        if not session.more_games or (session.humans and not _again()):
            break
        session.next_game()
    if as_json:
        if session.games > 1 and is_terminal(sys.stderr):
            print(file=sys.stderr)
        print(json.dumps(results[0] if len(results) == 1 else results, indent=2))


def _say_saved(console: Console, session: GameSession, finished: bool) -> None:
    """Where the game was saved (nothing when it is not kept)."""
    if session.path is None:
        return
    console.print((_("game saved to {path}") if finished else
                   _("game saved unfinished to {path}")).format(path=session.path),
                  highlight=False, soft_wrap=True)


def _again() -> bool:
    try:
        answer = input(_("Another game? [Y/n] ")).strip().lower()
    except EOFError:
        return False
    return answer in ("", "y", "yes", _("y"), _("yes"))


def _show_ledger(console: Console, session: GameSession) -> None:
    from rich.table import Table

    ledger = session.ledger
    console.print(ngettext("Ledger after {games} game", "Ledger after {games} games",
                           ledger.games).format(games=ledger.games), highlight=False)
    table = Table()
    table.add_column(_("player"))
    table.add_column(_("net"), justify="right")
    for name, cents in ledger.net.items():
        table.add_row(name, format_money(cents))
    console.print(table)


def register(app: typer.Typer) -> None:
    """Add the play command."""
    from shutthebox.cli.options import rule_options

    app.command("play")(rule_options(play_command))
