"""The baselines table's script: it explains its options, has a smoke test that writes
nothing, and is what wrote the manual's table."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "baselines.py"


def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True,
                          text=True, timeout=timeout, cwd=ROOT, check=False,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "src")})


def test_help_explains_every_option() -> None:
    shown = run("--help")
    assert shown.returncode == 0
    for option, words in [("--markdown", "write the table into docs/environments.md"),
                          ("--fast", "a smoke test"), ("--turn-steps", "(default: 60000)"),
                          ("--twelve-steps", "12 tiles"), ("--match-steps", "on a match task"),
                          ("--seeds", "their mean"), ("--matches", "matches played"),
                          ("--match-positions", "max_positions"),
                          ("--tasks", "the whole suite")]:
        assert option in shown.stdout and words in " ".join(shown.stdout.split()), option


def test_a_smoke_test_is_never_written_into_the_manual() -> None:
    refused = run("--fast", "--markdown")
    assert refused.returncode == 2
    assert "--fast measures nothing worth writing: leave out --markdown" in refused.stderr
    unknown = run("--tasks", "shutthebox/Nope-v0")
    assert unknown.returncode == 2 and "unknown task 'shutthebox/Nope-v0'" in unknown.stderr


def test_the_fast_run_prints_a_row_for_a_turn_and_a_match_played() -> None:
    pytest.importorskip("sb3_contrib", reason="the rl extra (sb3-contrib) is not installed")
    fast = run("--fast", "--tasks", "shutthebox/Turn-Classic-Beat4-v0",
               "shutthebox/Match-Classic-Rounds3-v0", timeout=300)
    assert fast.returncode == 0, fast.stderr
    assert "| `shutthebox/Turn-Classic-Beat4-v0` (recommended) | 0.1735 | 0.1424 | 0.0126 " \
           "(fewest-tiles) |" in fast.stdout
    played = next(line for line in fast.stdout.splitlines()
                  if line.startswith("| `shutthebox/Match-Classic-Rounds3-v0` | 0.4987 | "))
    assert " ± " in played and ", by play |" in played    # refused exactly: measured by play
    assert "by `python3 benchmarks/baselines.py --fast --tasks" in fast.stdout


def test_the_manuals_table_is_the_scripts() -> None:
    page = (ROOT / "docs" / "environments.md").read_text(encoding="utf-8")
    table = page.split("<!-- baselines:table -->\n", 1)[1].split("<!-- /baselines:table -->")[0]
    assert table.startswith("Measured ") and "by `python3 benchmarks/baselines.py" in table
    assert "--fast" not in table
    assert "| task | optimum | random | best simple player | MaskablePPO, mean (range) | " \
           "headroom |" in table
