"""``shutthebox rules [NAME]``: list the presets, or show one."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from shutthebox.rules import PRESETS, preset


def show_rules(
    name: Annotated[str | None, typer.Argument(help="a preset to show in full")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON for scripts")] = False,
) -> None:
    """List the rule presets and what each sets, or show one preset in full."""
    console = Console()
    if name is not None:
        rules = preset(name)
        chosen = PRESETS[name]
        if as_json:
            print(json.dumps({"name": name, "source": chosen.source, "summary": chosen.summary,
                              "rules": rules.to_dict()}, indent=2))
            return
        console.print(f"[bold]{name}[/]: {chosen.summary} (rule sheet {chosen.source})",
                      highlight=False)
        table = Table()
        table.add_column("rule")
        table.add_column("setting")
        for row in rules.describe():
            table.add_row(*row)
        console.print(table)
        return
    if as_json:
        print(json.dumps([{"name": p.name, "source": p.source, "summary": p.summary,
                           "rules": p.rules.to_dict()} for p in PRESETS.values()], indent=2))
        return
    console.print("Rule presets (use with --preset NAME):", highlight=False)
    table = Table()
    for column in ("name", "what it sets", "rule sheet"):
        table.add_column(column)
    for p in PRESETS.values():
        table.add_row(p.name, p.summary, p.source)
    console.print(table)


def register(app: typer.Typer) -> None:
    app.command("rules")(show_rules)
