"""Rule flags shared by every command that takes a rule set (play, solve, hint, ...).

Decorate a command with :func:`rule_options`: its ``rules`` parameter is replaced by the
rule flags, and the function receives the :class:`Rules` they describe.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Annotated, Any

import typer

from shutthebox.language import N_
from shutthebox.rules import Rules, preset

RULES_PANEL = N_("Rules (a preset, then any flag changes it)")

PresetOption = Annotated[str | None, typer.Option(
    "--preset", help=N_("start from a named rule set (`shutthebox rules` lists them)"),
    rich_help_panel=RULES_PANEL)]
TilesOption = Annotated[int | None, typer.Option(
    "--tiles", help=N_("number of tiles, 2 to 12 [default: 9]"), rich_help_panel=RULES_PANEL)]
OneDieOption = Annotated[str | None, typer.Option(
    "--one-die", help=N_("when one die may be rolled: never | low-sum (open tiles sum to 6 or "
    "less) | high-shut (every tile 7 and up shut)"), rich_help_panel=RULES_PANEL)]
ForcedOption = Annotated[bool | None, typer.Option(
    "--one-die-forced/--one-die-optional", help=N_("one die must be rolled when the one-die "
    "rule applies (default: the player chooses)"), rich_help_panel=RULES_PANEL)]
MovesOption = Annotated[str | None, typer.Option(
    "--moves", help=N_("any (any tiles adding up to the total) | dice (the total, or either or "
    "both dice faces)"), rich_help_panel=RULES_PANEL)]
MaxTilesOption = Annotated[int | None, typer.Option(
    "--max-tiles", help=N_("at most K tiles per roll"), rich_help_panel=RULES_PANEL)]
ScoringOption = Annotated[str | None, typer.Option(
    "--scoring", help=N_("sum (of open tiles, lower wins) | digits (open tiles read as one "
    "number, lower wins) | covered (sum of shut tiles, higher wins)"),
    rich_help_panel=RULES_PANEL)]
InstantWinOption = Annotated[bool | None, typer.Option(
    "--instant-win/--no-instant-win", help=N_("shut box wins at once [default: single, solo "
    "only]"), rich_help_panel=RULES_PANEL)]
FirstOption = Annotated[str | None, typer.Option(
    "--first", help=N_("who starts: seat (seat order) | lowest | highest (roll-off)"),
    rich_help_panel=RULES_PANEL)]


def rules_from_flags(
    preset_name: str | None = None,
    tiles: int | None = None,
    one_die: str | None = None,
    one_die_forced: bool | None = None,
    moves: str | None = None,
    max_tiles: int | None = None,
    scoring: str | None = None,
    instant_win: bool | None = None,
    first: str | None = None,
) -> Rules:
    """The rules a command line asks for: the preset (or the defaults), changed by each flag.

    >>> rules_from_flags("family-12", scoring="digits").scoring
    <Scoring.DIGITS: 'digits'>
    """
    base = preset(preset_name) if preset_name is not None else Rules()
    changes: dict[str, Any] = {
        name: value for name, value in [
            ("tiles", tiles), ("one_die", one_die), ("one_die_forced", one_die_forced),
            ("moves", moves), ("max_tiles", max_tiles), ("scoring", scoring),
            ("instant_win", instant_win), ("first_player", first)]
        if value is not None}
    if "tiles" in changes and base.max_tiles is not None and "max_tiles" not in changes:
        changes["max_tiles"] = min(base.max_tiles, changes["tiles"])
    return base.replace(**changes)


_RULE_PARAMETERS = [
    inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=annotation)
    for name, annotation in [
        ("preset_name", PresetOption), ("tiles", TilesOption), ("one_die", OneDieOption),
        ("one_die_forced", ForcedOption), ("moves", MovesOption),
        ("max_tiles", MaxTilesOption), ("scoring", ScoringOption),
        ("instant_win", InstantWinOption), ("first", FirstOption)]
]


def rule_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Give a command the rule flags; it receives them as one ``rules: Rules`` argument."""
    signature = inspect.signature(command, eval_str=True)
    kept = [p for p in signature.parameters.values() if p.name != "rules"]

    @functools.wraps(command)
    def with_rules(*args: Any, **kwargs: Any) -> Any:
        flags = {p.name: kwargs.pop(p.name) for p in _RULE_PARAMETERS}
        return command(*args, rules=rules_from_flags(**flags), **kwargs)

    with_rules.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=kept + _RULE_PARAMETERS)
    return with_rules
