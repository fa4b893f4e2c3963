"""``shutthebox play``: a game in the terminal, against people and computer players."""

from __future__ import annotations

import json
import random
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from shutthebox.errors import FormatError
from shutthebox.match import GameFormat, Ledger, Match, MatchConfig, format_money, parse_stake
from shutthebox.paths import games_dir
from shutthebox.rules import Rules
from shutthebox.strategies import Strategy, make_strategy
from shutthebox.terminal.game import TerminalGame

DEFAULT_PLAYERS = "You,cpu"
COMPUTER_DEFAULT = "hard"


def parse_players(text: str, rules: Rules,
                  rng: random.Random) -> tuple[tuple[str, ...], dict[int, Strategy]]:
    """Read ``"Ann,Bob,cpu:heuristic"``: names are humans, ``cpu[:STRATEGY]`` computers.

    >>> names, cpus = parse_players("Ann,cpu:random", Rules(), random.Random(1))
    >>> names, sorted(cpus)
    (('Ann', 'CPU 1 (random)'), [1])
    """
    names: list[str] = []
    strategies: dict[int, Strategy] = {}
    entries = [e.strip() for e in text.split(",")]
    if not any(entries):
        raise FormatError(f"no players in {text!r}: give names or cpu, like 'Ann,cpu'")
    computers = 0
    for seat, entry in enumerate(entries):
        head, _, spec = entry.partition(":")
        if head.lower() == "cpu":
            computers += 1
            kind = spec or COMPUTER_DEFAULT
            strategies[seat] = make_strategy(kind, rules, random.Random(rng.random()))
            names.append(f"CPU {computers} ({kind})")
        else:
            names.append(entry)
    return tuple(names), strategies


def _ask_setup(console: Console) -> tuple[str, str | None, str]:
    console.print("[bold]Shut the Box[/]: a few questions (Enter takes the default).")
    players = input(f"Players, comma separated, cpu for a computer [{DEFAULT_PLAYERS}]: ")
    preset_name = input("Rules preset (see `shutthebox rules`) [classic]: ").strip()
    game_format = input("Format: single, rounds:R, elimination:L, loser-at:L, race:T, "
                        "battle [single]: ").strip()
    return players.strip() or DEFAULT_PLAYERS, preset_name or None, game_format or "single"


def _save(match: Match, seed: int | None) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S-%f")
    return match.save(games_dir() / f"{stamp}-{match.config.format.kind.value}.json", seed)


def play_command(
    rules: Rules,
    players: Annotated[str | None, typer.Option(
        "--players", help="comma-separated seats: a name for a human, cpu or cpu:STRATEGY "
        "for a computer (STRATEGY: easy, medium, hard, random, highest-first, fewest-tiles, "
        "optimal, optimal:shut ...). Default: You,cpu")] = None,
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
    fast: Annotated[bool, typer.Option(
        "--fast", help="no pauses between computer moves")] = False,
    as_json: Annotated[bool, typer.Option(
        "--json", help="print the result as JSON (for games of computer players)")] = False,
) -> None:
    """Play Shut the Box in the terminal. Type the tiles to shut (3 5), ? for help, h for
    a hint from the exact solver, q to quit. Finished games are saved as JSON logs in the
    data folder (see the README)."""
    console = Console(quiet=as_json)
    asked = players is None and game_format is None and sys.stdin.isatty() and not as_json
    if asked:
        players, preset_name, game_format = _ask_setup(console)
        if preset_name:
            from shutthebox.cli.options import rules_from_flags

            rules = rules_from_flags(preset_name)
    rng = random.Random(seed)
    names, strategies = parse_players(players or DEFAULT_PLAYERS, rules, rng)
    chosen_format = GameFormat.parse(game_format or ("solo" if len(names) == 1 else "single"))
    config = MatchConfig(rules, chosen_format, names, parse_stake(stake) if stake else 0)
    humans = len(names) - len(strategies)
    pause = 0.0 if fast or humans == 0 or not sys.stdout.isatty() else 0.6
    ledger = Ledger()
    results = []
    for number in range(1, games + 1):
        match = Match(config)
        game = TerminalGame(match, strategies, rng, console, pause=pause)
        finished = game.run()
        path = _save(match, seed)
        results.append({"winners": [names[s] for s in match.winners],
                        "scores": {names[s]: v for s, v in match.round_scores.items()},
                        "totals": dict(zip(names, match.totals, strict=True)),
                        "rounds": match.round, "finished": finished, "log": str(path)})
        console.print(f"game {'saved' if finished else 'saved unfinished'} to {path}",
                      soft_wrap=True, highlight=False)
        if not finished:
            break
        if config.stake:
            ledger.record(match)
            _show_ledger(console, ledger)
        if humans and number < games and not _again(console):
            break
    if as_json:
        print(json.dumps(results[0] if len(results) == 1 else results, indent=2))


def _again(console: Console) -> bool:
    try:
        return input("Another game? [Y/n] ").strip().lower() in ("", "y", "yes")
    except EOFError:
        return False


def _show_ledger(console: Console, ledger: Ledger) -> None:
    table = Table(title=f"Ledger after {ledger.games} game{'s' * (ledger.games != 1)}")
    table.add_column("player")
    table.add_column("net", justify="right")
    for name, cents in ledger.net.items():
        table.add_row(name, format_money(cents))
    console.print(table)


def register(app: typer.Typer) -> None:
    """Add the play command."""
    from shutthebox.cli.options import rule_options

    app.command("play")(rule_options(play_command))
