"""The `rules` command and the shared rule flags, run as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from shutthebox.cli.options import rules_from_flags
from shutthebox.errors import RulesError, UnknownPresetError
from shutthebox.rules import PRESETS, FirstPlayer, OneDie, Rules, Scoring


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "shutthebox", *args],
                          capture_output=True, text=True, timeout=60)


def test_rules_lists_every_preset() -> None:
    result = run("rules", "--json")
    assert result.returncode == 0
    listed = {entry["name"]: entry for entry in json.loads(result.stdout)}
    assert set(listed) == set(PRESETS)
    assert listed["family-12"]["rules"]["tiles"] == 12


def test_rules_shows_one_preset() -> None:
    result = run("rules", "encyclopedia")
    assert result.returncode == 0
    assert "every tile 7 and up is shut (forced)" in result.stdout
    assert "highest roll starts" in result.stdout


def test_unknown_preset_is_a_one_line_error() -> None:
    result = run("rules", "nine")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        result.stderr.strip()]  # one line, no traceback
    assert "unknown preset 'nine'" in result.stderr
    assert "Traceback" not in result.stderr


def test_flags_change_a_preset() -> None:
    rules = rules_from_flags("lever-9", tiles=12, scoring="digits")
    assert rules == Rules(tiles=12, one_die=OneDie.LOW_SUM, scoring=Scoring.DIGITS,
                          first_player=FirstPlayer.LOWEST)


def test_changing_tiles_keeps_max_tiles_in_range() -> None:
    assert rules_from_flags("children-two-tiles", tiles=2).max_tiles == 2


@pytest.mark.parametrize(("flags", "message"), [
    ({"tiles": 13}, "tiles must be a whole number from 2 to 12, not 13"),
    ({"one_die": "sometimes"}, "one_die must be one of 'never', 'low-sum', 'high-shut'"),
    ({"one_die_forced": True}, "one_die_forced=True needs a one-die rule"),
    ({"max_tiles": 10}, "max_tiles must be a whole number from 1 to 9, not 10"),
    ({"scoring": "golf"}, "not 'golf'"),
])
def test_bad_flags_name_the_field_and_value(flags: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        rules_from_flags(**flags)  # type: ignore[arg-type]


def test_unknown_preset_error_is_a_rules_error() -> None:
    with pytest.raises(UnknownPresetError):
        rules_from_flags("nine")
