"""``shutthebox solve``, ``hint`` and ``review``: the exact solver from the command line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from shutthebox.dice import format_roll, parse_roll, roll_outcomes
from shutthebox.errors import TilesError
from shutthebox.match import load_log
from shutthebox.plots import check_plot_path
from shutthebox.rules import Rules
from shutthebox.solver import parse_objective, solve
from shutthebox.solver.advice import rank_dice, rank_moves, review, total_costs
from shutthebox.tiles import format_tiles, mask_of, parse_tiles, tiles_of

ObjectiveOption = Annotated[str, typer.Option(
    "--objective", "-o", help="score (best expected score) | shut (best chance to shut the "
    "box) | beat:T (best chance to score strictly better than T) | reach:T (T or better)")]
JsonOption = Annotated[bool, typer.Option("--json", help="print JSON for scripts")]


def _value_text(objective: str, value: float) -> str:
    return f"{value:.4f}" if parse_objective(objective).is_score else f"{value * 100:.4f} %"


def _open_tiles(rules: Rules, text: str) -> int:
    mask = mask_of(parse_tiles(text))
    outside = [t for t in tiles_of(mask) if t > rules.tiles]
    if outside:
        raise TilesError(f"--open {text!r} names tile {outside[0]}, but the box has tiles "
                         f"1 to {rules.tiles}")
    return mask


def _roll_summary(rules: Rules, objective: str, open_tiles: int, dice: int) -> Table:
    """Each roll of the dice with its chance, the best move and the value it leads to."""
    solution = solve(rules, objective)
    table = Table(title=f"Each roll with {format_tiles(open_tiles)} open ({objective})")
    for column in ("roll", "chance", "best move", "value"):
        table.add_column(column, justify="right")
    for roll, p in roll_outcomes(dice):
        best = solution.best_move(open_tiles, roll)
        table.add_row(format_roll(roll), f"{float(p) * 100:.2f} %",
                      format_tiles(best) if best else "no move: the turn ends",
                      _value_text(objective, solution.after_roll(open_tiles, roll)))
    return table


def solve_command(
    rules: Rules,
    objective: ObjectiveOption = "score",
    as_json: JsonOption = False,
    plot: Annotated[Path | None, typer.Option(
        "--plot", help="write a bar chart of the score distribution (PNG or SVG)")] = None,
) -> None:
    """Solve a rule set exactly: the best value, the chance to shut the box, the expected
    score and the whole score distribution under optimal play."""
    if plot is not None:
        check_plot_path(plot)
    solution = solve(rules, objective)
    distribution = solution.distribution
    if plot is not None:
        from shutthebox.plots import plot_distribution

        plot_distribution(distribution, plot, f"Optimal play ({objective}): score distribution")
    if as_json:
        print(json.dumps({
            "objective": str(solution.objective), "rules": rules.to_dict(),
            "value": solution.value(), "p_shut": solution.p_shut,
            "expected_score": solution.expected_score,
            "distribution": {str(s): p for s, p in distribution.items()}}, indent=2))
        return
    console = Console()
    console.print(f"[bold]Objective[/]: {objective}    [bold]value[/]: "
                  f"{_value_text(objective, solution.value())}")
    console.print(f"chance to shut the box: {solution.p_shut * 100:.4f} %    "
                  f"expected score: {solution.expected_score:.4f}")
    table = Table(title="Score distribution under optimal play")
    table.add_column("score", justify="right")
    table.add_column("probability", justify="right")
    table.add_column("")
    top = max(distribution.values())
    for score, p in distribution.items():
        table.add_row(str(score), f"{p * 100:.3f} %", "█" * round(30 * p / top))
    console.print(table)
    if plot is not None:
        console.print(f"plot written to {plot}")


def hint_command(
    rules: Rules,
    open_text: Annotated[str, typer.Option(
        "--open", help="the open tiles, like 1,2,4,7,8")] = "",
    roll_text: Annotated[str | None, typer.Option(
        "--roll", help="the dice, like 3,5 (or one face for one die)")] = None,
    objective: ObjectiveOption = "score",
    as_json: JsonOption = False,
) -> None:
    """Rank every legal move for a roll, best first, with its value and what it loses
    against the best; without --roll, advise the dice choice."""
    open_tiles = _open_tiles(rules, open_text) if open_text else rules.full
    console = Console()
    if roll_text is None:
        dice = rank_dice(rules, objective, open_tiles)
        if as_json:
            print(json.dumps([d.to_dict() for d in dice], indent=2))
            return
        if len(dice) == 1:
            console.print(f"No dice choice with {format_tiles(open_tiles)} open: roll "
                          f"{dice[0].dice} di{'e' if dice[0].dice == 1 else 'ce'} "
                          f"(value {_value_text(objective, dice[0].value)}). "
                          "Give --roll to rank the moves.")
            console.print(_roll_summary(rules, objective, open_tiles, dice[0].dice))
            return
        console.print(_ranking(
            f"Dice choice with {format_tiles(open_tiles)} open ({objective})", "dice",
            [(str(d.dice), d.value, d.loss) for d in dice], objective))
        return
    roll = parse_roll(roll_text)
    if len(roll) not in rules.dice_choices(open_tiles):
        allowed = " or ".join(map(str, rules.dice_choices(open_tiles)))
        raise TilesError(f"--roll {roll_text!r} is a roll of {len(roll)} "
                         f"di{'e' if len(roll) == 1 else 'ce'}, but with "
                         f"{format_tiles(open_tiles)} open the rules roll {allowed}")
    moves = rank_moves(rules, objective, open_tiles, roll)
    if as_json:
        print(json.dumps([m.to_dict() for m in moves], indent=2))
        return
    if not moves:
        console.print(f"Roll {format_roll(roll)} allows no move with "
                      f"{format_tiles(open_tiles)} open: the turn ends with score "
                      f"{rules.score(open_tiles)}.")
        return
    console.print(_ranking(
        f"Roll {format_roll(roll)} with {format_tiles(open_tiles)} open ({objective}), "
        "best first", "shut", [(format_tiles(m.tiles), m.value, m.loss) for m in moves],
        objective))


def _ranking(title: str, what: str, rows: list[tuple[str, float, float]],
             objective: str) -> Table:
    """Ranked choices as a table: each with its value and what it loses against the best."""
    table = Table(title=title)
    for column in (what, "value", "loss"):
        table.add_column(column, justify="right")
    for choice, value, loss in rows:
        table.add_row(choice, _value_text(objective, value),
                      "best" if loss == 0 else _value_text(objective, loss))
    return table


def review_command(
    game: Annotated[Path, typer.Argument(help="a saved game log (JSON)")],
    objective: Annotated[str | None, typer.Option(
        "--objective", "-o", help="judge every decision by this objective (default: as the "
        "optimal player would: expected score alone, or to win when others play)")] = None,
    as_json: JsonOption = False,
) -> None:
    """Go through a saved game: every decision, what was best, and what it cost."""
    if objective is not None:
        parse_objective(objective)
    reviewed = review(load_log(game), objective)
    costs = total_costs(reviewed)
    if as_json:
        data: dict[str, Any] = {"decisions": [r.to_dict() for r in reviewed],
                                "total_cost": costs}
        print(json.dumps(data, indent=2))
        return
    console = Console()
    judged = (f"objective {objective}" if objective is not None else
              "the optimal player's aim: the expected score, or the share of the win in a "
              "single round with others")
    table = Table(title=f"Review of {game.name}", caption=f"cost: what a decision lost "
                  f"against the best, judged by {judged}")
    for column in ("#", "player", "open", "roll", "played", "best", "cost"):
        table.add_column(column)
    for r in reviewed:
        cost = "" if r.cost < 1e-9 else f"{r.cost:.4f}"
        style = "" if not cost else "yellow"
        table.add_row(str(r.index), r.player, format_tiles(r.open_tiles),
                      format_roll(r.roll) if r.roll and r.phase == "shut" else "",
                      r.describe(r.played), r.describe(r.best), cost, style=style)
    console.print(table)
    for player, total in costs.items():
        console.print(f"{player}: total cost {total:.4f}")


def register(app: typer.Typer) -> None:
    """Add the solver commands."""
    from shutthebox.cli.options import rule_options

    app.command("solve")(rule_options(solve_command))
    app.command("hint")(rule_options(hint_command))
    app.command("review")(review_command)
