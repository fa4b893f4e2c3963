"""The ``shutthebox`` command line: one module per command, no game logic here.

Each command module has a ``register(app)`` function. Bad input of any kind ends in a
one-line error on standard error and exit status 2, never a traceback.
"""

from __future__ import annotations

import sys

import typer

from shutthebox.cli import play, rules_cmd, serve, simulate, solve
from shutthebox.errors import ShutTheBoxError

app = typer.Typer(
    name="shutthebox",
    help="Shut the Box: play every rule variant, see the exact best move, simulate strategies.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    rich_markup_mode="markdown",
)



@app.callback()
def root() -> None:
    """Shut the Box: play every rule variant, see the exact best move, simulate strategies."""


for _module in (rules_cmd, play, solve, simulate, serve):
    _module.register(app)


def fail(message: str) -> None:
    """Print a one-line error and exit with status 2."""
    print(f"shutthebox: error: {message}", file=sys.stderr)
    raise SystemExit(2)


def main(argv: list[str] | None = None) -> None:
    """Run the command line (the ``shutthebox`` console script)."""
    try:
        app(args=argv, prog_name="shutthebox")
    except ShutTheBoxError as error:
        fail(str(error))
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        raise SystemExit(130) from None
