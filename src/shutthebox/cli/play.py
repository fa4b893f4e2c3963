"""``shutthebox play``: a game in the terminal, against people and computer players.

On a terminal the game is full screen (Textual); with ``--plain``, or when standard input or
output is not a terminal (pipes, scripts, screen readers), it is played in lines of text.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any

import typer

from shutthebox.errors import FormatError
from shutthebox.match import GameFormat, MatchConfig, format_money, parse_stake
from shutthebox.rules import Rules
from shutthebox.terminal.words import MAX_NAME

if TYPE_CHECKING:
    from rich.console import Console

    from shutthebox.terminal.session import GameSession

DEFAULT_PLAYERS = "You,cpu"
COMPUTER_DEFAULT = "hard"


def parse_players(text: str) -> tuple[tuple[str, ...], dict[int, str]]:
    """Read ``"Ann,Bob,cpu:heuristic"``: names are humans, ``cpu[:STRATEGY]`` computers.

    >>> parse_players("Ann,cpu:random")
    (('Ann', 'CPU 1 (random)'), {1: 'random'})
    """
    entries = [e.strip() for e in text.split(",")]
    if not any(entries):
        raise FormatError(f"no players in {text!r}: give names or cpu, like 'Ann,cpu'")
    names: list[str] = []
    computers: dict[int, str] = {}
    for seat, entry in enumerate(entries):
        head, _, spec = entry.partition(":")
        if head.lower() == "cpu":
            computers[seat] = spec or COMPUTER_DEFAULT
            names.append(f"CPU {len(computers)} ({computers[seat]})")
        elif len(entry) > MAX_NAME:
            raise FormatError(f"player name {entry!r} is longer than {MAX_NAME} characters")
        else:
            names.append(entry)
    return tuple(names), computers


def check_players(text: str) -> str:
    """The players, if every name and computer strategy is good."""
    from shutthebox.strategies import make_strategy

    _, computers = parse_players(text)
    for kind in computers.values():
        make_strategy(kind, Rules(), random.Random(0))
    return text


def make_session(rules: Rules, players: str, game_format: str | None, stake: str | None,
                 seed: int | None, games: int = 1) -> GameSession:
    """A session of the players, the format (default: single, or solo for one player) and the
    stake; every name and strategy is checked here."""
    from shutthebox.terminal.session import GameSession

    names, computers = parse_players(players)
    chosen = GameFormat.parse(game_format or ("solo" if len(names) == 1 else "single"))
    config = MatchConfig(rules, chosen, names, parse_stake(stake) if stake else 0)
    return GameSession(config, computers, random.Random(seed), seed, games)


def _ask(question: str, read: Callable[[str], Any], console: Console) -> Any:
    """Ask until the answer reads (``read`` gets "" for Enter and gives the default)."""
    while True:
        try:
            answer = input(question).strip()
        except EOFError:
            raise typer.Abort from None
        try:
            return read(answer)
        except ValueError as error:
            console.print(f"[red]{error}[/]: try again", highlight=False)


def _wizard(rules: Rules, stake: str | None, seed: int | None, games: int,
            console: Console) -> GameSession:
    """The setup questions, each asked again until its answer is good."""
    from shutthebox.cli.options import rules_from_flags

    console.print("[bold]Shut the Box[/]: a few questions (Enter takes the default).")
    names = _ask(f"Players, comma separated, cpu for a computer [{DEFAULT_PLAYERS}]: ",
                 lambda text: check_players(text or DEFAULT_PLAYERS), console)
    chosen = _ask("Rules preset (see `shutthebox rules`) [classic]: ",
                  lambda text: rules_from_flags(text) if text else rules, console)
    session: GameSession = _ask(
        "Format: single, solo, rounds:R, elimination:L, loser-at:L, race:T, battle "
        "[single, or solo for one player]: ",
        lambda text: make_session(chosen, names, text or None, stake, seed, games), console)
    return session


def play_command(
    rules: Rules,
    game: Annotated[str | None, typer.Argument(
        help="with --resume: the saved game to resume (see `shutthebox games`)",
        show_default=False)] = None,
    players: Annotated[str | None, typer.Option(
        "--players", help="comma-separated seats: a name (up to 40 characters) for a human, "
        "cpu or cpu:STRATEGY for a computer (STRATEGY: easy, medium, hard, random, "
        "highest-first, fewest-tiles, optimal, optimal:shut ...). Default: You,cpu")] = None,
    game_format: Annotated[str | None, typer.Option(
        "--format", help="single | solo | rounds:R | elimination:L | loser-at:L | race:T | "
        "battle (default: single, or solo for one player)")] = None,
    stake: Annotated[str | None, typer.Option(
        "--stake", help="play for a pot: every player antes this much each game")] = None,
    games: Annotated[int, typer.Option(
        "--games", min=1, help="games in the session (with people at the table you are "
        "asked after each game)")] = 1,
    seed: Annotated[int | None, typer.Option(
        "--seed", help="seed the dice, to replay a game exactly")] = None,
    resume: Annotated[bool, typer.Option(
        "--resume", help="resume a saved unfinished game: the latest, or GAME")] = False,
    plain: Annotated[bool, typer.Option(
        "--plain", help="play in lines of text, not full screen (automatic when input or "
        "output is not a terminal)")] = False,
    fast: Annotated[bool, typer.Option(
        "--fast", help="no pauses between computer moves")] = False,
    as_json: Annotated[bool, typer.Option(
        "--json", help="print the result as JSON (for games of computer players)")] = False,
) -> None:
    """Play Shut the Box in the terminal. Click or type the tiles to shut, h for a hint from
    the exact solver, q to quit (the game is saved; --resume continues it). Games are saved
    as JSON logs in the data folder (see the README)."""
    from rich.console import Console

    console = Console(quiet=as_json)
    if game is not None and not resume:
        raise FormatError(f"unexpected argument {game!r}: a game name goes with --resume")
    terminal = sys.stdin.isatty() and sys.stdout.isatty()
    if resume:
        given = [flag for flag, value in (("--players", players), ("--format", game_format),
                                          ("--stake", stake)) if value is not None]
        if given:
            raise FormatError(f"--resume continues a saved game as it was: drop {given[0]}")
        from shutthebox.terminal.saved import find_game
        from shutthebox.terminal.session import GameSession

        session = GameSession.resume(find_game(game), seed)
        console.print(f"resuming {session.path.stem}", highlight=False)
    elif players is None and game_format is None and terminal and not as_json:
        session = _wizard(rules, stake, seed, games, console)
    else:
        session = make_session(rules, DEFAULT_PLAYERS if players is None else players,
                               game_format, stake, seed, games)
    full_screen = terminal and not plain and not as_json
    if full_screen:
        from shutthebox.terminal.app import ShutTheBoxApp

        outcome = ShutTheBoxApp(session, fast=fast).run()
        console.print(f"game saved to {session.path}", highlight=False, soft_wrap=True)
        if outcome == "interrupted":
            raise SystemExit(130)
        return
    _play_lines(session, console, fast or session.humans == 0 or not sys.stdout.isatty(),
                as_json)


def _play_lines(session: GameSession, console: Console, fast: bool, as_json: bool) -> None:
    from shutthebox.terminal.game import Outcome, TerminalGame

    results = []
    while True:
        outcome = TerminalGame(session, console, pause=0.0 if fast else 0.6).run()
        match = session.match
        names = match.players
        results.append({"winners": [names[s] for s in match.winners],
                        "scores": {names[s]: v for s, v in match.round_scores.items()},
                        "totals": dict(zip(names, match.totals, strict=True)),
                        "rounds": match.round, "finished": outcome is Outcome.FINISHED,
                        "log": str(session.path)})
        finished = outcome is Outcome.FINISHED
        console.print(f"game {'saved' if finished else 'saved unfinished'} to {session.path}",
                      soft_wrap=True, highlight=False)
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
        print(json.dumps(results[0] if len(results) == 1 else results, indent=2))


def _again() -> bool:
    try:
        return input("Another game? [Y/n] ").strip().lower() in ("", "y", "yes")
    except EOFError:
        return False


def _show_ledger(console: Console, session: GameSession) -> None:
    from rich.table import Table

    ledger = session.ledger
    console.print(f"Ledger after {ledger.games} game{'s' * (ledger.games != 1)}",
                  highlight=False)
    table = Table()
    table.add_column("player")
    table.add_column("net", justify="right")
    for name, cents in ledger.net.items():
        table.add_row(name, format_money(cents))
    console.print(table)


def register(app: typer.Typer) -> None:
    """Add the play command."""
    from shutthebox.cli.options import rule_options

    app.command("play")(rule_options(play_command))
