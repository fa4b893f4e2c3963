"""The ``shutthebox`` command line: one module per command, no game logic here.

Each command module has a ``register(app)`` function. A command's module is imported only
when that command runs (``shutthebox --help`` and ``rules`` load neither numba nor the web
stack). Bad input of any kind ends in a one-line error on standard error and exit status 2,
a machine that refuses (a read-only or full disk) in one line and exit status 1, never a
traceback.
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from collections.abc import Sequence
from typing import Annotated, Any, cast

import typer
from typer.core import TyperGroup

from shutthebox.errors import ShutTheBoxError
from shutthebox.language import N_, _, from_environment, speak
from shutthebox.paths import reason


def usage_error(error: BaseException) -> bool:
    """Whether ``error`` is a usage error of the command line's parser (a bad option, a
    missing argument, a value out of range), told by the attributes click documents for
    its ``UsageError`` (``exit_code`` 2, ``ctx``, ``format_message``): typer carries its own
    copy of click and exports none of its exception classes, and its maintainers ask
    programs not to import that copy."""
    return getattr(error, "exit_code", None) == 2 and hasattr(error, "ctx") \
        and callable(getattr(error, "format_message", None))


def asks_for_help(error: Any) -> bool:
    """Whether a usage error is a command given no arguments that answers with its help
    (click's ``NoArgsIsHelpError``, whose message is the help)."""
    return error.ctx is not None and error.format_message() == error.ctx.get_help()


COMMANDS: dict[str, tuple[str, str]] = {
    "rules": ("rules_cmd", N_("List the rule presets and what each sets, or show one preset "
                              "in full.")),
    "play": ("play", N_("Play Shut the Box in the terminal.")),
    "games": ("games", N_("List the saved games with their state, latest first.")),
    "solve": ("solve", N_("Solve a rule set exactly: the best value, the chance to shut the "
                          "box, the expected score and the whole score distribution under "
                          "optimal play.")),
    "hint": ("solve", N_("Rank every legal move for a roll, best first, with its value and "
                         "what it loses against the best; without --roll, advise the dice "
                         "choice.")),
    "review": ("solve", N_("Go through a saved game: every decision, what was best, and what "
                           "it cost.")),
    "daily": ("daily", N_("Play today's box: everyone gets the same dice, roll by roll; then "
                          "your score against perfect play on the same dice, and your "
                          "accuracy.")),
    "simulate": ("simulate", N_("Play many single turns of a strategy and compare the "
                                "figures with the exact ones.")),
    "tournament": ("simulate", N_("Play whole matches between strategies, seats rotated, and "
                                  "report win rates.")),
    "serve": ("serve", N_("Serve the web app: play in the browser with friends, with hints, "
                          "history and statistics.")),
    "backup": ("backup", N_("Back up the server's games while it runs: SQLite through its "
                            "online backup (the copy is a SQLite file), PostgreSQL as one "
                            "consistent export (a gzip file of JSON lines).")),
    "admin": ("admin", N_("The server host's tools: an admin token, the games open, end a "
                          "game, rename or free a player's name.")),
    "health": ("health", N_("Ask the server on this machine whether it is ready: exit status "
                            "0 if it is, 1 if not (for a service manager or a container's "
                            "health check).")),
    "db": ("db", N_("The server database's schema revision, and its migration.")),
    "restore": ("backup", N_("Restore a backup into an empty database (either kind, from "
                             "either kind), migrated to this version's schema; stop the "
                             "server first, start it after.")),
}
"""Each command: the module under ``shutthebox.cli`` that registers it, and its summary for
``shutthebox --help`` (a test holds each equal to the command's own first sentence)."""

DETAILS: dict[str, str] = {
    "play": N_("Click or type the tiles to shut, h for a hint from the exact solver, q to quit "
               "(the game is saved; --resume continues it). Games are saved as JSON logs in "
               "{games}, a folder of the data folder {home} (the environment variable "
               "SHUTTHEBOX_HOME chooses another); --no-save plays without saving."),
    "games": N_("The games are those of {games}, a folder of the data folder {home} (the "
                "environment variable SHUTTHEBOX_HOME chooses another). `shutthebox play "
                "--resume GAME` continues an unfinished one."),
}
"""What a command's help says after its summary (``{home}`` and ``{games}``: the data
folder and its games folder, as this environment sets them)."""

ABOUT = N_("Shut the Box: play every rule variant, see the exact best move, simulate "
           "strategies.")
"""What ``shutthebox --help`` says first."""

TYPER_WORDS = {
    "ARGUMENTS_PANEL_TITLE": N_("Arguments"),
    "OPTIONS_PANEL_TITLE": N_("Options"),
    "COMMANDS_PANEL_TITLE": N_("Commands"),
    "DEFAULT_STRING": N_("[default: {}]"),
    "REQUIRED_LONG_STRING": N_("[required]"),
}
"""The words Typer's help screens write themselves, by the name of the public setting of
``typer.rich_utils`` that holds each: set in the reader's language as help is shown (that
module loads Rich's Markdown and Pygments, a seventh of a second that a command that shows
no help need not pay)."""


def speak_help(command: Any) -> Any:
    """``command`` with the words of its help in the current language: its own help, each
    parameter's help and panel, and the help option's; and no type shown beside a flag
    (``--json`` takes no value, so Typer's ``<bool>`` would only mislead)."""
    command.short_help = _(command.short_help) if command.short_help else command.short_help
    for param in command.params:
        if getattr(param, "help", None):
            param.help = _(param.help)
        panel = getattr(param, "rich_help_panel", None)
        if panel:
            param.rich_help_panel = _(panel)
        if getattr(param, "is_flag", False):
            param.metavar = ""
        elif param.param_type_name == "argument" and param.metavar is None and param.name:
            param.metavar = param.name.upper()   # a placeholder, as the help writes GAME
    return command


class SpokenHelp:
    """A command (or group) whose ``--help`` option speaks the reader's language and shows
    no type: mixed into Typer's own classes."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        typer_speaks()
        super().format_help(ctx, formatter)  # type: ignore[misc]

    def format_usage(self, ctx: Any, formatter: Any) -> None:
        pieces = self.collect_usage_pieces(ctx)  # type: ignore[attr-defined]
        formatter.write_usage(ctx.command_path, " ".join(pieces), prefix=_("Usage: "))

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)  # type: ignore[misc]
        if option is not None:
            option.help = _("Show this message and exit.")
            option.metavar = ""
        return option


class SpokenCommand(SpokenHelp, typer.core.TyperCommand):
    """A command whose help screen speaks the reader's language."""


class SpokenGroup(SpokenHelp, TyperGroup):
    """A command of commands (``db``, ``admin``) whose help screen speaks the reader's
    language."""


class SpokenTyper(typer.Typer):
    """A Typer whose commands are :class:`SpokenCommand` unless told otherwise."""

    def command(self, *args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("cls", SpokenCommand)
        return super().command(*args, **kwargs)


def typer_speaks() -> None:
    """Typer's own words (its panels' titles, ``[default: ...]``) in the current language."""
    from typer import rich_utils

    for name, words in TYPER_WORDS.items():
        if hasattr(rich_utils, name):
            setattr(rich_utils, name, _(words))


def load_command(name: str) -> Any:
    """The real command ``name``, its module imported now."""
    module = importlib.import_module(f"shutthebox.cli.{COMMANDS[name][0]}")
    commands = SpokenTyper()
    module.register(commands)
    group = typer.main.get_group(commands)
    command = speak_help(group.commands[name])
    command.help = _(COMMANDS[name][1])
    for own in getattr(command, "commands", {}).values():   # a group's commands (db, admin)
        speak_help(own)
        own.help = _(own.help) if own.help else own.help
    if name in DETAILS:
        from shutthebox.paths import data_home

        home = data_home()
        command.help += " " + _(DETAILS[name]).format(home=home, games=home / "games")
    return command


class LazyGroup(SpokenHelp, TyperGroup):
    """The commands, listed from :data:`COMMANDS` and imported only when one runs; its help
    in the reader's language."""

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        self.help = _(ABOUT)
        for name, (_module, summary) in COMMANDS.items():
            self.commands[name] = typer.core.TyperCommand(name, help=_(summary))
        for param in cast("list[Any]", self.params):
            if getattr(param, "help", None):
                param.help = _(param.help)
            if getattr(param, "is_flag", False):
                param.metavar = ""

    def resolve_command(self, ctx: Any, args: list[str]) -> tuple[str | None, Any, list[str]]:
        name, _, rest = super().resolve_command(ctx, args)
        assert name is not None
        return name, load_command(name), rest


app = typer.Typer(
    name="shutthebox",
    cls=LazyGroup,
    help=ABOUT,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    rich_markup_mode="markdown",
)


def show_version(asked: bool) -> None:
    """Print the installed package's version and stop (``--version``)."""
    if asked:
        from importlib.metadata import PackageNotFoundError, version

        try:
            print(f"shutthebox {version('shutthebox')}")
        except PackageNotFoundError:   # run from a source tree that was never installed
            from shutthebox import __version__

            print(f"shutthebox {__version__}")
        raise typer.Exit


@app.callback()
def root(
    _version: Annotated[bool, typer.Option(
        "--version", help=N_("print the version of shutthebox and stop"),
        callback=show_version, is_eager=True)] = False,
) -> None:
    """Shut the Box: play every rule variant, see the exact best move, simulate strategies."""


def fail(message: str, status: int = 2) -> None:
    """Print a one-line error and exit with ``status`` (2: bad input; 1: the machine
    refused)."""
    print(_("shutthebox: error: {message}").format(message=" ".join(message.splitlines())),
          file=sys.stderr)
    raise SystemExit(status)


_PLAIN_REASONS = {
    "Input should be a valid integer, unable to parse string as an integer":
        N_("not a whole number"),
    "Input should be a valid number, unable to parse string as a number": N_("not a number"),
}

USAGE_WORDS = [(re.compile(pattern), words) for pattern, words in [
    (r"no such option: (?P<option>\S+)(?P<rest>.*)", N_("no such option: {option}")),
    (r"option '(?P<option>[^']+)' requires an argument",
     N_("option '{option}' requires an argument")),
    (r"option '(?P<option>[^']+)' does not take a value",
     N_("option '{option}' does not take a value")),
    (r"no such command '(?P<command>[^']+)'(?P<rest>.*)", N_("no such command '{command}'")),
    (r"missing argument '(?P<argument>[^']+)'", N_("missing argument '{argument}'")),
    (r"missing option '(?P<option>[^']+)'", N_("missing option '{option}'")),
    (r"got unexpected extra arguments? \((?P<arguments>.*)\)",
     N_("unexpected extra arguments ({arguments})")),
    (r"got unexpected extra argument\(s\) \((?P<arguments>.*)\)",
     N_("unexpected extra arguments ({arguments})")),
    (r"(?:Input )?should be greater than or equal to (?P<number>\S+)",
     N_("should be {number} or more")),
    (r"(?:Input )?should be less than or equal to (?P<number>\S+)",
     N_("should be {number} or less")),
]]
"""Click's and Typer's words for a bad command line (English only), each with ours: said in
the reader's language. A message none of them reads is shown as it is."""


def usage_words(message: str) -> str:
    """A usage error's words in the reader's language (``message`` as it is, when none of
    :data:`USAGE_WORDS` reads it).

    >>> usage_words("no such option: --bogus")
    'no such option: --bogus'
    >>> usage_words("Input should be greater than or equal to 1")
    'should be 1 or more'
    """
    if message in _PLAIN_REASONS:
        return _(_PLAIN_REASONS[message])
    for pattern, words in USAGE_WORDS:
        found = pattern.fullmatch(message)
        if found:
            values = {k: v for k, v in found.groupdict().items() if k != "rest"}
            return _(words).format(**values) + (found.groupdict().get("rest") or "")
    return message


def _raw_value(argv: Sequence[str], opts: Sequence[str]) -> str | None:
    """What the user typed for an option (``--games abc`` or ``--games=abc``)."""
    for index, word in enumerate(argv):
        for opt in opts:
            if word == opt and index + 1 < len(argv):
                return argv[index + 1]
            if word.startswith(opt + "="):
                return word[len(opt) + 1:]
    return None


def usage_message(error: Any, argv: Sequence[str]) -> str:
    """A click usage error as one line that names the command and quotes the input."""
    command = error.ctx.command_path.removeprefix("shutthebox").strip() if error.ctx else ""
    param = getattr(error, "param", None)
    if param is not None and getattr(param, "opts", None) and error.message:
        reason = usage_words(error.message).replace("Input should be", "should be")
        raw = _raw_value(argv, param.opts)
        shown = param.opts[0] if raw is None else f"{param.opts[0]} {raw!r}"
        message = f"{shown}: {reason}"
    else:
        message = " ".join(error.format_message().split())
        message = usage_words(message[:1].lower() + message[1:].rstrip("."))
    where = f"shutthebox {command} --help" if command else "shutthebox --help"
    said = _("{message} (see '{help}')").format(message=message, help=where)
    return f"{command}: {said}" if command else said


def main(argv: list[str] | None = None) -> None:
    """Run the command line (the ``shutthebox`` console script).

    Whatever goes wrong ends in one line on standard error, never a traceback: exit status
    2 for bad input, 1 when the machine refuses (a read-only or full disk, a file that cannot
    be read, a closed output), 130 for Ctrl-C.
    """
    from shutthebox.cli.output import plain_where_needed

    args = sys.argv[1:] if argv is None else list(argv)
    if sys.stdout is None:
        print(_("shutthebox: error: {message}").format(
            message=_("standard output is closed: nothing could be shown")), file=sys.stderr)
        raise SystemExit(1)
    plain_where_needed(sys.stdout)
    plain_where_needed(sys.stderr)
    speak(from_environment(os.environ))   # the terminal speaks the language of LANG
    command = typer.main.get_command(app)
    try:
        status = command.main(args=args, prog_name="shutthebox", standalone_mode=False)
    except ShutTheBoxError as error:
        fail(str(error), getattr(error, "exit_status", 2))
    except typer.Abort:
        print(_("shutthebox: stopped"), file=sys.stderr)
        raise SystemExit(1) from None
    except KeyboardInterrupt:
        print("\n" + _("interrupted"), file=sys.stderr)
        raise SystemExit(130) from None
    except BrokenPipeError:
        _quiet_stdout()   # the reader left (| head): nothing more to say, to anyone
        raise SystemExit(1) from None
    except OSError as error:
        where = f" ({error.filename})" if error.filename else ""
        fail(f"{reason(error)}{where}", 1)
    except Exception as error:
        if not usage_error(error):
            raise
        if asks_for_help(error):
            print(cast(Any, error).ctx.get_help())
            raise SystemExit(2) from None
        fail(usage_message(error, args))
    if isinstance(status, int) and status:
        raise SystemExit(status)


def _quiet_stdout() -> None:
    """Point standard output at the null device, so Python's final flush of a closed pipe
    does not print an error of its own."""
    import os

    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
