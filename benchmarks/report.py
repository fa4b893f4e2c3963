"""Benchmark figures as one dated table per benchmark on the manual's Performance page.

A benchmark measures its figures ``--runs`` times into a :class:`Figures`, prints them as it
goes, and with ``--markdown`` writes its table into ``docs/performance.md`` between the
page's markers for it (``<!-- bench:NAME -->`` and ``<!-- /bench:NAME -->``), replacing the
table that was there. The table gives each figure's range over the runs, its goal, the date,
the machine and how busy the machine was before each run, so that no one writes figures by
hand. A benchmark with no options of its own calls ``run(NAME, description, measure)``;
one with options does what it does::

    parser = argparse.ArgumentParser()
    add_arguments(parser)                 # --runs N (default 2) and --markdown
    args = parser.parse_args()
    figures = Figures("bench_solver", "python3 benchmarks/bench_solver.py --markdown")
    for _ in range(args.runs):
        figures.begin_run()
        figures.add("12 tiles, score", 41.2, "ms", "under 50 ms")
    figures.finish(args.markdown)         # prints the table; writes it with --markdown
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

PAGE = Path(__file__).resolve().parent.parent / "docs" / "performance.md"


def add_arguments(parser: argparse.ArgumentParser, runs: int = 2) -> None:
    """The two options every benchmark with a table takes."""
    parser.add_argument("--runs", type=int, default=runs,
                        help=f"repeat the whole measurement (default {runs}); the table "
                        "gives the range")
    parser.add_argument("--markdown", action="store_true",
                        help="write the table into docs/performance.md")


def machine() -> str:
    """The machine in a line: cores, processor, system and Python."""
    model = platform.processor() or platform.machine()
    try:
        cpuinfo = Path("/proc/cpuinfo").read_text(encoding="utf-8")
        found = re.search(r"^model name\s*:\s*(.+)$", cpuinfo, re.MULTILINE)
        model = found.group(1).strip() if found else model
    except OSError:
        pass
    return (f"{os.cpu_count()} cores ({model}), {platform.system()} {platform.release()}, "
            f"Python {platform.python_version()}")


def span(values: list[float], digits: int) -> str:
    """``1.2-1.5``, or one value when every run agrees at this precision."""
    low, high = f"{min(values):,.{digits}f}", f"{max(values):,.{digits}f}"
    return low if low == high else f"{low}-{high}"



def write_between(page: Path, marker: str, markdown: str) -> None:
    """Write ``markdown`` into ``page`` between ``<!-- MARKER -->`` and ``<!-- /MARKER -->``,
    replacing what stood there.

    :raises SystemExit: the page lacks either marker.
    """
    begin, end = f"<!-- {marker} -->", f"<!-- /{marker} -->"
    text = page.read_text(encoding="utf-8")
    if begin not in text or end not in text:
        raise SystemExit(f"{page} has no {begin} ... {end} markers for this table")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    page.write_text(f"{head}{begin}\n{markdown}{end}{tail}", encoding="utf-8")

@dataclass
class Figure:
    what: str
    unit: str
    goal: str
    digits: int
    values: list[float] = field(default_factory=list)


@dataclass
class Figures:
    """The figures of one benchmark over its runs."""

    name: str
    command: str
    figures: dict[str, Figure] = field(default_factory=dict)
    loads: list[float] = field(default_factory=list)

    def begin_run(self) -> None:
        """Note how busy the machine is as a run starts (the one-minute load average)."""
        self.loads.append(os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan"))

    def add(self, what: str, value: float, unit: str, goal: str = "", digits: int = 1) -> None:
        """One run's value of a figure; the figures keep the order they were first added."""
        figure = self.figures.setdefault(what, Figure(what, unit, goal, digits))
        figure.values.append(value)

    def markdown(self, today: datetime.date | None = None) -> str:
        """The table with its date, machine, runs and load."""
        today = today or datetime.date.today()
        runs = max((len(f.values) for f in self.figures.values()), default=0)
        lines = [f"Measured {today.isoformat()} by `{self.command}`: {runs} run"
                 f"{'s' * (runs != 1)}, the range over them. Machine: {machine()}; its cores "
                 f"are shared with other work (the load average as each run began: "
                 f"{', '.join(f'{load:.1f}' for load in self.loads)}).",
                 "",
                 "| figure | result | goal |",
                 "|---|---|---|"]
        lines += [f"| {f.what} | {span(f.values, f.digits)} {f.unit} | {f.goal or '-'} |"
                  for f in self.figures.values()]
        return "\n".join(lines) + "\n"

    def publish(self, page: Path = PAGE) -> None:
        """Write the table into ``page`` between this benchmark's markers."""
        write_between(page, f"bench:{self.name}", self.markdown())

    def repeat(self, runs: int, measure: Callable[[Figures], None], write: bool) -> None:
        """``runs`` runs of ``measure``, then the table printed (and written, if asked)."""
        for _ in range(runs):
            self.begin_run()
            measure(self)
        self.finish(write)

    def finish(self, write: bool) -> None:
        """Print the table, and write it into the page when asked."""
        print()
        print(self.markdown())
        if write:
            self.publish()
            print(f"written into {PAGE}")


def run(name: str, description: str, measure: Callable[[Figures], None]) -> None:
    """The whole of a benchmark without options of its own: ``--runs`` runs of ``measure``,
    then its table printed, and written into the page with ``--markdown``."""
    parser = argparse.ArgumentParser(description=description)
    add_arguments(parser)
    args = parser.parse_args()
    Figures(name, f"python3 benchmarks/{name}.py --markdown").repeat(args.runs, measure,
                                                                    args.markdown)
