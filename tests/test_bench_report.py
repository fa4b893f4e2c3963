"""The benchmarks' table writer: a table replaces the one between its markers, and nothing
else on the page changes."""

from __future__ import annotations

import datetime
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from report import Figures, span


def test_a_range_over_runs_or_one_value_when_they_agree() -> None:
    assert span([1.24, 1.5, 1.31], 1) == "1.2-1.5"
    assert span([1.01, 0.99], 1) == "1.0"
    assert span([1500.0, 2100.0], 0) == "1,500-2,100"


def test_a_table_replaces_the_one_between_its_markers(tmp_path: Path) -> None:
    page = tmp_path / "performance.md"
    page.write_text("# P\n\n<!-- bench:b -->\nold table\n<!-- /bench:b -->\n\nafter\n")
    figures = Figures("b", "python3 benchmarks/b.py --markdown")
    for value in (40.2, 44.9):
        figures.begin_run()
        figures.add("a solve", value, "ms", "50 ms", 0)
    figures.publish(page)
    text = page.read_text()
    assert "old table" not in text and text.startswith("# P\n") and text.endswith("\nafter\n")
    assert "| a solve | 40-45 ms | 50 ms |" in text
    assert f"Measured {datetime.date.today().isoformat()}" in text and "2 runs" in text


def test_a_page_without_the_markers_is_refused(tmp_path: Path) -> None:
    page = tmp_path / "performance.md"
    page.write_text("# P\n")
    with pytest.raises(SystemExit, match="no <!-- bench:b -->"):
        Figures("b", "b").publish(page)
