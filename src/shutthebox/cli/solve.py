"""``shutthebox solve``, ``hint`` and ``review``: the exact solver from the command line.

The solver (numpy, and numba for match tables) and matplotlib are imported inside the
command functions, so that importing this module stays light.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from shutthebox.dice import format_roll, parse_roll, roll_outcomes
from shutthebox.errors import FormatError, TilesError
from shutthebox.language import N_, _, ngettext
from shutthebox.match import FormatKind, GameFormat, load_log
from shutthebox.phrases import join_words
from shutthebox.players.base import Role, Situation
from shutthebox.plots import SIZE_WORDS, check_plot_path
from shutthebox.rules import Rules
from shutthebox.strategies import format_move
from shutthebox.tiles import format_tiles, mask_of, parse_tiles, tiles_of
from shutthebox.turn import Phase, TurnState

if TYPE_CHECKING:
    from shutthebox.coach import Aim

OBJECTIVE_WORDS = {"score": N_("expected score"), "shut": N_("chance to shut the box")}
"""The plain objectives in the reader's words (the others are shown as given: ``beat:10``)."""

ObjectiveOption = Annotated[str, typer.Option(
    "--objective", "-o", help=N_("score (best expected score) | shut (best chance to shut the "
    "box) | beat:T (best chance to score strictly better than T) | reach:T (T or better)"))]
JsonOption = Annotated[bool, typer.Option("--json", help=N_("print JSON for scripts"))]


def _value_text(objective: str, value: float) -> str:
    from shutthebox.solver import parse_objective

    if objective.startswith("match"):
        return f"{value * 100:.4f} %"
    return f"{value:.4f}" if parse_objective(objective).is_score else f"{value * 100:.4f} %"


@contextmanager
def _thinking(rules: Rules) -> Iterator[None]:
    """A line on standard error while a long first solve runs (12-tile digits and the like),
    only when it is a terminal."""
    if not sys.stderr.isatty() or rules.tiles < 11:
        yield
        return
    with Console(stderr=True).status(_("thinking...")):
        yield


def _match_progress(rules: Rules, fmt: GameFormat) -> Any:
    """A progress bar on standard error the first time a match table is computed (when it is
    a terminal), and the callback that moves it."""
    from shutthebox.solver.matchplay import is_cached

    if not sys.stderr.isatty() or is_cached(rules, fmt):
        return None
    from rich.progress import Progress

    return Progress(console=Console(stderr=True), transient=True)


def _solve_match_table(rules: Rules, fmt: GameFormat) -> Any:
    from shutthebox.solver.matchplay import solve_match

    bar = _match_progress(rules, fmt)
    if bar is None:
        return solve_match(rules, fmt)
    with bar:
        task = bar.add_task(_("solving the {format} match (once; kept on disk)").format(
            format=fmt), total=1.0)

        def update(done: float) -> None:
            bar.update(task, completed=done)

        return solve_match(rules, fmt, progress=update)


def match_win(rules: Rules, text: str, players: int) -> dict[str, Any]:
    """``{"format", "players", "win"}``: each seat's chance to win the match from the start
    under optimal play by all (exact: two players in every format, any number in single)."""
    fmt = GameFormat.parse(text)
    fmt.check(rules, players)
    if fmt.kind is FormatKind.SOLO:
        raise FormatError(_("solo has nobody to beat: give a format for two or more players"))
    if players == 2:
        win = list(_solve_match_table(rules, fmt).win)
    elif fmt.kind is FormatKind.SINGLE:
        from shutthebox.solver.rounds import solve_round

        with _thinking(rules):
            shares = solve_round(rules, players).win
        rotated = rules.first_player.value != "seat"   # a roll-off: each seat starts alike
        win = [1.0 / players] * players if rotated else list(shares)
    else:
        raise FormatError(_("the match is solved exactly for two players in {format}, and "
                            "for any number of players in single; not {players} players in "
                            "{format}").format(format=fmt, players=players))
    return {"format": str(fmt), "players": players, "win": win}


def _match_sentence(match: dict[str, Any]) -> str:
    chances = _(", ").join(_("seat {seat} {chance}").format(seat=i + 1,
                                                           chance=f"{w * 100:.4f} %")
                           for i, w in enumerate(match["win"]))
    return _("Match {format}, {players} players, optimal play by all: chance to win "
             "{chances}.").format(format=match["format"], players=match["players"],
                                  chances=chances)


def _open_tiles(rules: Rules, text: str) -> int:
    mask = mask_of(parse_tiles(text))
    outside = [t for t in tiles_of(mask) if t > rules.tiles]
    if outside:
        raise TilesError(_("--open {text!r} names tile {tile}, but the box has tiles 1 to "
                           "{tiles}").format(text=text, tile=outside[0], tiles=rules.tiles))
    return mask


def _roll_summary(judged_by: Aim, open_tiles: int, dice: int) -> Table:
    """Each roll of the dice with its chance, the best move and the value it leads to."""
    rules = judged_by.rules
    table = Table(title=_("Each roll with {tiles} open ({measure})").format(
        tiles=format_tiles(open_tiles), measure=_objective_words(judged_by.name)))
    for column in (_("roll"), _("chance"), _("best move"), _("value")):
        table.add_column(column, justify="right")
    for roll, p in roll_outcomes(dice):
        state = TurnState(rules, open_tiles, Phase.SHUT, dice=dice, roll=roll)
        best = judged_by.ranked(state)
        value = judged_by.roll_value(open_tiles, roll)
        table.add_row(format_roll(roll), f"{float(p) * 100:.2f} %",
                      format_move(best[0][0]) if best else _("no move: the turn ends"),
                      f"{value:.4f}" if judged_by.is_score else f"{value * 100:.4f} %")
    return table


def solve_command(
    rules: Rules,
    objective: ObjectiveOption = "score",
    as_json: JsonOption = False,
    plot: Annotated[Path | None, typer.Option(
        "--plot", help=N_("write a bar chart of the score distribution (PNG or SVG)"))] = None,
    game_format: Annotated[str | None, typer.Option(
        "--format", help=N_("also solve the whole match: single | rounds:R | elimination:L | "
        "loser-at:L | race:T | battle:rolls | battle:turns (exact for two players; single "
        "for any number); prints each seat's chance to win"))] = None,
    players: Annotated[int, typer.Option(
        "--players", min=1, max=12, help=N_("players in the match (with --format)"))] = 2,
) -> None:
    """The ``solve`` command: a rule set solved exactly."""
    from shutthebox.solver import solve

    if plot is not None:
        check_plot_path(plot)
    match = match_win(rules, game_format, players) if game_format is not None else None
    with _thinking(rules):
        solution = solve(rules, objective)
        distribution = solution.distribution
    if plot is not None:
        from shutthebox.plots import plot_distribution

        plot_distribution(distribution, plot, _("Optimal play ({objective}): score "
                                                "distribution").format(objective=objective))
    if as_json:
        print(json.dumps({
            "objective": str(solution.objective), "rules": rules.to_dict(),
            "value": solution.value(), "p_shut": solution.p_shut,
            "expected_score": solution.expected_score,
            "distribution": {str(s): p for s, p in distribution.items()},
            **({"match": match} if match is not None else {})}, indent=2))
        return
    console = Console(highlight=False)
    console.print(_("[bold]Objective[/]: {objective}    [bold]value[/]: {value}").format(
        objective=objective, value=_value_text(objective, solution.value())))
    console.print(_("chance to shut the box: {chance}    expected score: {score}").format(
        chance=f"{solution.p_shut * 100:.4f} %", score=f"{solution.expected_score:.4f}"))
    table = Table(title=_("Score distribution under optimal play"))
    table.add_column(_("score"), justify="right")
    table.add_column(_("probability"), justify="right")
    table.add_column("")
    top = max(distribution.values())
    for score, p in distribution.items():
        table.add_row(str(score), f"{p * 100:.3f} %", "█" * round(30 * p / top))
    console.print(table)
    if match is not None:
        console.print(_match_sentence(match))
    if plot is not None:
        console.print(_("plot written to {path}").format(path=plot))


def hint_command(
    rules: Rules,
    open_text: Annotated[str | None, typer.Option(
        "--open", help=N_("the open tiles, like 1,2,4,7,8 [default: every tile]"))] = None,
    roll_text: Annotated[str | None, typer.Option(
        "--roll", help=N_("the dice, like 3,5 (or one face for one die)"))] = None,
    objective: ObjectiveOption = "score",
    as_json: JsonOption = False,
    game_format: Annotated[str | None, typer.Option(
        "--format", help=N_("rank by the chance to win this match: single | rounds:R | "
        "elimination:L | loser-at:L | race:T | battle:rolls | battle:turns"))] = None,
    totals_text: Annotated[str | None, typer.Option(
        "--totals", help=N_("with --format: your total, then each other player's, before this "
        "round, like 40,35 [default: all 0]"))] = None,
    posted_text: Annotated[str | None, typer.Option(
        "--posted", help=N_("with --format: the scores the others have posted this round, in "
        "the order of --totals after yours (the others play after you)"))] = None,
    round_number: Annotated[int | None, typer.Option(
        "--round", min=1, help=N_("with --format rounds:R: this round's number [default: 1]"))]
        = None,
    role: Annotated[str | None, typer.Option(
        "--role", help=N_("with --format battle:...: knock (shut the open tiles: --open) or "
        "stand (stand up shut tiles: --open names the tiles you may stand)"))] = None,
) -> None:
    """The ``hint`` command: the moves of a roll ranked, or the dice choice."""
    from shutthebox.coach import aim, describe_action, rank

    if open_text is not None and not open_text.strip():
        raise TilesError(_("--open '' names no tiles: give the open tiles, like 1,2,4,7,8, "
                           "or leave --open out for a full box"))
    open_tiles = _open_tiles(rules, open_text) if open_text else rules.full
    console = Console(highlight=False)
    if game_format is None:
        _only_with_format(totals_text, posted_text, round_number, role)
        judged_by = aim(rules, objective=objective)
    else:
        situation = _match_situation(rules, game_format, totals_text, posted_text,
                                     round_number, role)
        with _thinking(rules):
            judged_by = aim(rules, situation)
        objective = "match"
    if roll_text is None:
        dice = rank(TurnState(rules, open_tiles, Phase.CHOOSE_DICE), judged_by).choices
        if as_json:
            print(json.dumps([{"dice": d.action, "value": d.value, "loss": d.loss}
                              for d in dice], indent=2))
            return
        if len(dice) == 1:
            console.print(_("No dice choice with {tiles} open: roll {dice} (value {value}). "
                            "Give --roll to rank the moves.").format(
                tiles=format_tiles(open_tiles),
                dice=describe_action(Phase.CHOOSE_DICE, dice[0].action),
                value=_value_text(objective, dice[0].value)))
            console.print(_roll_summary(judged_by, open_tiles, dice[0].action))
            return
        console.print(_ranking(
            _("Dice choice with {tiles} open ({objective})").format(
                tiles=format_tiles(open_tiles), objective=_objective_words(objective)),
            _("dice"), [(str(d.action), d.value, d.loss) for d in dice], objective))
        return
    roll = parse_roll(roll_text)
    if len(roll) not in rules.dice_choices(open_tiles):
        allowed = join_words(list(map(str, rules.dice_choices(open_tiles))), "or")
        raise TilesError(ngettext(
            "--roll {roll!r} is a roll of {count} die, but with {tiles} open the rules roll "
            "{allowed}",
            "--roll {roll!r} is a roll of {count} dice, but with {tiles} open the rules roll "
            "{allowed}", len(roll)).format(roll=roll_text, count=len(roll),
                                           tiles=format_tiles(open_tiles), allowed=allowed))
    state = TurnState(rules, open_tiles, Phase.SHUT, dice=len(roll), roll=tuple(sorted(roll)))
    moves = rank(state, judged_by).choices
    by_match = game_format is not None
    if as_json:
        print(json.dumps([{"tiles": list(tiles_of(m.action)), "value": m.value, "loss": m.loss,
                           **({"expected_score": m.expected_score} if by_match else {})}
                          for m in moves], indent=2))
        return
    if not moves:
        console.print(_("Roll {roll} allows no move with {tiles} open: the turn ends with "
                        "score {score}.").format(roll=format_roll(roll),
                                                 tiles=format_tiles(open_tiles),
                                                 score=rules.score(open_tiles)))
        return
    judged = (_("chance to win the {format} match").format(format=game_format) if game_format
              else _objective_words(objective))
    title = _("Roll {roll} with {tiles} open ({judged}), best first").format(
        roll=format_roll(roll), tiles=format_tiles(open_tiles), judged=judged)
    expected = [f"{m.expected_score:.4f}" for m in moves] if by_match else None
    console.print(_ranking(title, _("shut"), [(format_move(m.action), m.value, m.loss)
                                              for m in moves], objective, expected))


def _objective_words(objective: str) -> str:
    """An objective as the reader reads it: its words for the two plain ones (``score``,
    ``shut``), else as it was given (``beat:10``)."""
    return _(OBJECTIVE_WORDS[objective]) if objective in OBJECTIVE_WORDS else objective


def _only_with_format(totals_text: str | None, posted_text: str | None,
                      round_number: int | None, role: str | None) -> None:
    """Refuse the match flags without ``--format``: the hint would quietly ignore them.

    :raises FormatError: one of them is given.
    """
    given = [(flag, value) for flag, value in (
        ("--totals", totals_text), ("--posted", posted_text), ("--round", round_number),
        ("--role", role)) if value is not None]
    if given:
        flag, value = given[0]
        raise FormatError(_("{flag} {value!r} describes a match: give the match with "
                            "--format, like --format rounds:3, or leave it out").format(
                                flag=flag, value=str(value)))


def _numbers(option: str, text: str | None) -> tuple[int, ...]:
    if text is None:
        return ()
    words = [w for w in text.replace(",", " ").split() if w]
    if not words or not all(w.isascii() and w.isdigit() and len(w) < 10 for w in words):
        raise FormatError(_("{option} {text!r} must be whole numbers separated by commas, "
                            "like 40,35").format(option=option, text=text))
    return tuple(int(w) for w in words)


def _check_match_flags(rules: Rules, fmt: GameFormat, totals_text: str | None,
                       posted_text: str | None, round_number: int | None,
                       role: str | None) -> None:
    """Refuse a match flag the format does not use, and scores or totals it cannot have.

    :raises FormatError: a flag that means nothing here, or a value out of its range.
    """
    battle = fmt.kind is FormatKind.BATTLE
    if battle and (totals_text is not None or posted_text is not None):
        flag, value = ("--totals", totals_text) if totals_text is not None else \
            ("--posted", posted_text)
        raise FormatError(_("{flag} {value!r} means nothing in a battle (it has no "
                            "scores): give --role knock or --role stand").format(
                                flag=flag, value=value))
    if role is not None and not battle:
        raise FormatError(_("--role {role!r} is for a battle, not {format}: leave it "
                            "out").format(role=role, format=fmt))
    if round_number is not None and fmt.kind is not FormatKind.ROUNDS:
        raise FormatError(_("--round {round} is for --format rounds:R, not {format}: leave "
                            "it out").format(round=round_number, format=fmt))
    posted = _numbers("--posted", posted_text)
    # Every final score, only when scores are posted: a Python loop over every mask.
    scores = sorted({rules.score(mask) for mask in range(rules.full + 1)}) if posted else []
    for score in posted:
        if score not in scores:
            raise FormatError(_("--posted {posted!r}: no turn ends with a score of {score} "
                                "under these rules (they go from {low} to {high})").format(
                                    posted=posted_text, score=score, low=scores[0],
                                    high=scores[-1]))
    for total in _numbers("--totals", totals_text):
        over = fmt.total_over(total)
        if over is not None:
            raise FormatError(f"--totals {totals_text!r}: {over}")


def _match_situation(rules: Rules, text: str, totals_text: str | None,
                     posted_text: str | None, round_number: int | None,
                     role: str | None) -> Situation:
    """The match position given on the command line, its match table worked out (once,
    with a progress bar; then kept on disk).

    :raises FormatError: the format cannot be read, does not fit, or a flag does not fit it.
    """
    from shutthebox.coach.situations import match_situation

    fmt = GameFormat.parse(text)
    _check_match_flags(rules, fmt, totals_text, posted_text, round_number, role)
    round_number = round_number or 1
    totals = _numbers("--totals", totals_text) or (0, 0)
    posted = _numbers("--posted", posted_text)
    if len(totals) < 2:
        raise FormatError(_("--totals {totals!r} needs your total and at least one "
                            "other").format(totals=totals_text))
    fmt.check(rules, len(totals))
    others = totals[1:]
    if len(posted) > len(others):
        raise FormatError(_("--posted {posted!r} names {count} scores, but there are only "
                            "{others} other players").format(posted=posted_text,
                                                            count=len(posted),
                                                            others=len(others)))
    if fmt.kind is FormatKind.BATTLE:
        if role not in (Role.KNOCK, Role.STAND):
            raise FormatError(_("a battle hint needs --role knock or --role stand, not "
                                "{role!r}").format(role=role))
    elif fmt.kind is FormatKind.ROUNDS and round_number > (fmt.limit or 0):
        raise FormatError(_("--round {round} is past the last round of {format}").format(
            round=round_number, format=fmt))
    situation = match_situation(fmt, totals, posted, round_number,
                                Role(role) if role is not None else None)
    if fmt.multi_round or fmt.kind is FormatKind.BATTLE:
        _solve_match_table(rules, fmt)   # the first time: a progress bar, then the disk
    return situation


def _ranking(title: str, what: str, rows: list[tuple[str, float, float]],
             objective: str, expected: list[str] | None = None) -> Table:
    """Ranked choices as a table: each with its value and what it loses against the best
    (and, beside a match hint, the expected score)."""
    table = Table(title=title)
    value_name = _("chance to win") if objective == "match" else _("value")
    for column in (what, value_name, _("loss"), *([_("expected score")] if expected else [])):
        table.add_column(column, justify="right")
    for i, (choice, value, loss) in enumerate(rows):
        table.add_row(choice, _value_text(objective, value),
                      _("best") if loss == 0 else _value_text(objective, loss),
                      *([expected[i]] if expected else []))
    return table


def review_command(
    game: Annotated[Path, typer.Argument(help=N_("a saved game log (JSON)"))],
    objective: Annotated[str | None, typer.Option(
        "--objective", "-o", help=N_("judge every decision by this objective (default: as the "
        "optimal player would: expected score alone, or to win when others play)"))] = None,
    as_json: JsonOption = False,
    plot: Annotated[Path | None, typer.Option(
        "--plot", help=N_("write a chart of each player's chance to win (or expected score) "
        "move by move, mistakes marked (PNG or SVG)"))] = None,
) -> None:
    """The ``review`` command: a saved game's decisions against the best."""
    from shutthebox.coach.accuracy import size_of
    from shutthebox.coach.analysis import analyse
    from shutthebox.names import name_of
    from shutthebox.solver import parse_objective

    if objective is not None:
        parse_objective(objective)
    if plot is not None:
        check_plot_path(plot)
    analysis = analyse(load_log(game), objective)
    data = analysis.to_dict()
    if plot is not None:
        from shutthebox.plots import plot_review

        plot_review(data, plot, _("Review of {game}").format(game=game.name))
    if as_json:
        print(json.dumps(data, indent=2))
        return
    reviewed = analysis.review
    numbers = reviewed.numbers()
    console = Console(highlight=False)
    judged = (_("objective {objective}").format(objective=objective) if objective is not None
              else _("the optimal player's aim: the chance to win the match (the expected "
                     "score in a game alone)"))
    table = Table(title=_("Review of {game}").format(game=escape(game.name)),
                  caption=_("cost: what a decision lost against the best, judged by {judged}; "
                            "inaccuracies dimmed, mistakes in yellow, blunders in "
                            "red").format(judged=judged))
    for column in (_("#"), _("player"), _("open"), _("roll"), _("played"), _("best"),
                   _("cost")):
        table.add_column(column)
    for r in reviewed:
        # Costs too small to count as a mistake are shown, dimmed, so that a reader sees
        # the solver's exact figure without being told off for a rounding-size loss.
        size = size_of(r.shown_cost, r.shown_unit)
        cost = ("" if r.cost < 1e-9 else f"{r.shown_cost:.4f} {_(r.shown_unit)}"
                + (f" ({_(SIZE_WORDS[size])})" if size else ""))
        style = ("red" if size == "blunder" else "yellow" if r.costly else
                 "dim" if cost else "")
        table.add_row(str(numbers[r.index]), escape(name_of(r.player)),
                      format_tiles(r.open_tiles),
                      format_roll(r.roll) if r.roll and r.phase == "shut" else "",
                      r.describe(r.played), r.describe(r.best), cost, style=style)
    console.print(table)
    for line in reviewed.verdicts():
        console.print(line, markup=False)
    for index, why in analysis.reasons.items():
        console.print(_("#{number}: {why}").format(number=numbers[index], why=why),
                      markup=False)
    for player in analysis.players:
        console.print(player.accuracy_sentence(), markup=False)
        console.print(player.sentence(), markup=False)
    if plot is not None:
        console.print(_("plot written to {path}").format(path=plot), markup=False)


def register(app: typer.Typer) -> None:
    """Add the solver commands."""
    from shutthebox.cli.options import rule_options

    app.command("solve")(rule_options(solve_command))
    app.command("hint")(rule_options(hint_command))
    app.command("review")(review_command)
