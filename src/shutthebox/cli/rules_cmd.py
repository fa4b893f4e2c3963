"""``shutthebox rules [NAME]``: list the presets, or show one."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from shutthebox.language import N_, _
from shutthebox.rules import PRESETS, preset


def show_rules(
    name: Annotated[str | None, typer.Argument(help=N_("a preset to show in full"))] = None,
    as_json: Annotated[bool, typer.Option("--json", help=N_("print JSON for scripts"))] = False,
) -> None:
    """The ``rules`` command: the presets, or one in full."""
    console = Console(highlight=False)
    if name is not None:
        rules = preset(name)
        chosen = PRESETS[name]
        if as_json:
            print(json.dumps({"name": name, "source": chosen.source, "summary": chosen.summary,
                              "alias_of": chosen.alias_of, "rules": rules.to_dict()},
                             indent=2))
            return
        console.print(_("[bold]{name}[/]: {summary} (rule sheet {source})").format(
            name=name, summary=escape(_(chosen.summary)), source=escape(_(chosen.source))))
        table = Table()
        table.add_column(_("rule"))
        table.add_column(_("setting"))
        for row in rules.describe():
            table.add_row(*row)
        console.print(table)
        return
    if as_json:
        print(json.dumps([{"name": p.name, "source": p.source, "summary": p.summary,
                           "alias_of": p.alias_of, "rules": p.rules.to_dict()}
                          for p in PRESETS.values()], indent=2))
        return
    console.print(_("Rule presets (use with --preset NAME):"))
    table = Table()
    for column in (N_("name"), N_("what it sets"), N_("rule sheet")):
        table.add_column(_(column))
    for p in PRESETS.values():
        table.add_row(p.name, _(p.summary), _(p.source))
    console.print(table)


def register(app: typer.Typer) -> None:
    app.command("rules")(show_rules)
