"""``shutthebox simulate`` and ``tournament``: strategies measured by playing them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from shutthebox.language import N_, _
from shutthebox.match import format_money, parse_stake
from shutthebox.plots import check_plot_path
from shutthebox.rules import Rules
from shutthebox.simulate import SimulationError, simulate, tournament

MAX_TURNS = 1_000_000_000
"""The most turns ``simulate`` plays: about five minutes on one core of a recent machine."""
MAX_MATCHES = 10_000_000
"""The most matches ``tournament`` plays: hours already for three optimal players."""

PATH_WORDS = {"table": N_("table"), "general": N_("general")}
"""How the simulation played, in words: by the strategy's compiled tables, or any strategy
through the turn machine."""

JsonOption = Annotated[bool, typer.Option("--json", help=N_("print JSON for scripts"))]
PlotOption = Annotated[Path | None, typer.Option(
    "--plot", help=N_("write a chart to this file (.png or .svg)"))]


def _progress(console: Console, enabled: bool) -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeRemainingColumn(), console=console, disable=not enabled,
                    transient=True)


def simulate_command(
    rules: Rules,
    strategy: Annotated[str, typer.Option(
        "--strategy", "-s", help=N_("optimal, optimal:shut, highest-first, fewest-tiles, random, "
        "..."))] = "optimal",
    games: Annotated[int, typer.Option(
        "--games", "-n", help=N_("turns to play, up to 1,000,000,000"))] = 1_000_000,
    seed: Annotated[int, typer.Option("--seed", help=N_("seed of the dice"))] = 0,
    as_json: JsonOption = False,
    plot: PlotOption = None,
) -> None:
    """The ``simulate`` command: a strategy's single turns against the exact figures."""
    if games < 1:
        raise SimulationError(_("--games must be at least 1, not {games}").format(games=games))
    if games > MAX_TURNS:
        raise SimulationError(_("--games {games} is more than this command plays: at most "
                                "{most:,} turns (about five minutes)").format(
                                    games=games, most=MAX_TURNS))
    if plot is not None:
        check_plot_path(plot)
    console = Console(stderr=as_json)
    with _progress(console, True) as bar:
        task = bar.add_task(_("{strategy}: playing").format(strategy=strategy), total=games)

        def advance(done: int) -> None:
            finished = done >= games   # then the exact figures are worked out
            bar.update(task, completed=done, description=(
                _("{strategy}: working out the exact figures") if finished else
                _("{strategy}: playing")).format(strategy=strategy))

        result = simulate(rules, strategy, games, seed, progress=advance)
    if plot is not None:
        from shutthebox.plots import plot_distribution

        plot_distribution(result.distribution, plot,
                          _("{strategy}: {games:,} simulated turns over the exact "
                            "distribution").format(strategy=strategy, games=games),
                          exact=result.exact_distribution)
    if as_json:
        print(json.dumps(result.to_dict(), indent=2))
        return
    apart = result.to_dict()["exact"]["mean_score_standard_errors_apart"]
    low, high = result.mean_score_ci
    p_low, p_high = result.p_shut_ci
    console.print(_("{strategy}: {games:,} turns ({path} path, {speed:,.0f} turns/s)").format(
        strategy=strategy, games=games, path=_(PATH_WORDS.get(result.path, result.path)),
        speed=result.turns_per_second),
        highlight=False)
    table = Table()
    for column in ("", _("simulated"), _("95 % interval"), _("exact")):
        table.add_column(column, justify="right")
    table.add_row(_("mean score"), f"{result.mean_score:.4f}", f"{low:.4f} – {high:.4f}",
                  f"{result.exact_mean_score:.4f}")
    table.add_row(_("shut the box"), f"{result.p_shut * 100:.3f} %",
                  f"{p_low * 100:.3f} – {p_high * 100:.3f} %",
                  f"{result.exact_p_shut * 100:.3f} %")
    console.print(table)
    console.print(_("the simulated mean is {apart:+.2f} standard errors from the exact "
                    "value").format(apart=apart), highlight=False)
    if plot is not None:
        console.print(_("plot written to {path}").format(path=plot), highlight=False)


def tournament_command(
    rules: Rules,
    players: Annotated[str, typer.Option(
        "--players", help=N_("comma-separated strategies, one per seat"))] =
        "optimal,highest-first,fewest-tiles",
    game_format: Annotated[str, typer.Option(
        "--format", help=N_("single | rounds:R | elimination:L | loser-at:L | race:T | battle"))]
        = "single",
    matches: Annotated[int, typer.Option(
        "--matches", "-n", help=N_("matches to play, up to 10,000,000"))] = 1000,
    seed: Annotated[int, typer.Option("--seed", help=N_("seed of the dice"))] = 0,
    stake: Annotated[str | None, typer.Option(
        "--stake", help=N_("every player antes this much each match"))] = None,
    as_json: JsonOption = False,
    plot: PlotOption = None,
) -> None:
    """The ``tournament`` command: whole matches between strategies."""
    if not 1 <= matches <= MAX_MATCHES:
        raise SimulationError(_("--matches must be 1 to {most:,}, not {matches}").format(
            most=MAX_MATCHES, matches=matches))
    names = [name.strip() for name in players.split(",") if name.strip()]
    if not names:
        raise SimulationError(_("no players in {players!r}: give strategies, like "
                                "'optimal,highest-first'").format(players=players))
    if plot is not None:
        check_plot_path(plot)
    console = Console(stderr=as_json)
    with _progress(console, True) as bar:
        task = bar.add_task(_("matches"), total=matches)
        result = tournament(rules, names, game_format, matches, seed,
                            parse_stake(stake) if stake else 0,
                            progress=lambda done: bar.update(task, completed=done))
    if plot is not None:
        from shutthebox.plots import plot_win_rates

        rates = [result.win_rate(n) for n in result.players]
        errors = [result.win_rate(n) - result.win_rate_ci(n)[0] for n in result.players]
        plot_win_rates(result.players, rates, errors, plot,
                       _("{format}: win rates over {matches:,} matches").format(
                           format=result.format, matches=matches))
    if as_json:
        print(json.dumps(result.to_dict(), indent=2))
        return
    console.print(_("{format}, {matches:,} matches, {rounds:.2f} rounds per match").format(
        format=result.format, matches=matches, rounds=result.mean_rounds), highlight=False)
    table = Table()
    for column in (_("strategy"), _("win rate"), _("95 % interval")):
        table.add_column(column, justify="right")
    if result.stake:
        table.add_column(_("winnings per game"), justify="right")
    for name in result.players:
        low, high = result.win_rate_ci(name)
        row = [name, f"{result.win_rate(name) * 100:.2f} %",
               f"{low * 100:.2f} – {high * 100:.2f} %"]
        if result.stake:
            row.append(format_money(round(result.winnings[name] / matches)))
        table.add_row(*row)
    console.print(table)
    if plot is not None:
        console.print(_("plot written to {path}").format(path=plot), highlight=False)


def register(app: typer.Typer) -> None:
    """Add the simulation commands."""
    from shutthebox.cli.options import rule_options

    app.command("simulate")(rule_options(simulate_command))
    app.command("tournament")(rule_options(tournament_command))
