"""The command line starts fast: only the command that runs is imported."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from shutthebox.cli import COMMANDS, load_command

HEAVY = ("numba", "matplotlib", "fastapi", "sqlalchemy", "textual", "numpy")
"""(Not pydantic: typer checks every value of a command's options with it, and has no public
way to skip it for the absent ones, as the package once did through a private class.)"""


def loaded_after(code: str) -> set[str]:
    """The heavy top-level packages loaded by running ``code`` in a fresh interpreter."""
    probe = (f"import sys\n{code}\nimport json\n"
             f"print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}})))")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            timeout=60, check=True)
    return set(json.loads(result.stdout.splitlines()[-1])) & set(HEAVY)


def test_importing_the_command_line_loads_no_heavy_package() -> None:
    assert loaded_after("import shutthebox.cli") == set()


def test_help_and_rules_load_no_heavy_package() -> None:
    run = ("from shutthebox.cli import main\ntry:\n    main({args})\nexcept SystemExit:\n"
           "    pass")
    assert loaded_after(run.format(args='["--help"]')) == set()
    assert loaded_after(run.format(args='["rules", "classic"]')) == set()


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_command_summary_is_its_own_first_sentence(name: str) -> None:
    command = load_command(name)
    own = " ".join((command.help or "").split())
    summary = COMMANDS[name][1]
    assert own.startswith(summary.removesuffix(".")), (name, own)


def test_a_command_that_shows_no_help_loads_no_help_renderer() -> None:
    """Typer's help renderer (Rich's Markdown, Pygments: a seventh of a second) loads only
    when help is shown; ``--help`` still gets it, in the reader's language."""
    probe = ("import sys\nfrom shutthebox.cli import main\ntry:\n    main({args})\n"
             "except SystemExit:\n    pass\nprint('typer.rich_utils' in sys.modules)")
    for args, loaded in (('["rules", "classic"]', "False"), ('["--help"]', "True"),
                         ('["hint", "--help"]', "True")):
        result = subprocess.run([sys.executable, "-c", probe.format(args=args)],
                                capture_output=True, text=True, timeout=60, check=True)
        assert result.stdout.splitlines()[-1] == loaded, args
