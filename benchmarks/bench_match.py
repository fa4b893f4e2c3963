"""How long the exact two-player match tables take, from nothing (no cache), on one core.

Goals (issue 11): any 9-tile rule set and format up to loser-at:100 and race:200 in under
5 s, 12 tiles in under 60 s. The compiled kernels are warmed first (their compilation is
cached on disk and is not part of a table's cost).

    python3 benchmarks/bench_match.py            # 9 tiles, every format, then 12 tiles
    python3 benchmarks/bench_match.py --quick    # 9 tiles only
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

from report import Figures, add_arguments

from shutthebox.rules import Rules, Scoring, preset
from shutthebox.solver.matchplay import solve_match

Tables = list[tuple[str, Rules, list[str]]]
"""(name, rules, the formats whose tables are timed)."""

NINE: Tables = [
    ("classic", preset("classic"), ["single", "rounds:3", "rounds:10", "elimination:45",
                                    "loser-at:100", "battle:rolls", "battle:turns"]),
    ("pub", preset("pub"), ["elimination:45", "loser-at:100"]),
    ("pub-digits", preset("pub-digits"), ["single", "elimination:45", "loser-at:100"]),
    ("children-two-tiles", preset("children-two-tiles"), ["loser-at:100"]),
    ("covered", preset("covered"), ["single", "race:200"]),
]
TWELVE: Tables = [
    ("box-12", preset("box-12"), ["single", "rounds:3", "elimination:45", "loser-at:100",
                                  "battle:rolls", "battle:turns"]),
    ("family-12", preset("family-12"), ["loser-at:100"]),
    ("box-12 covered", Rules(tiles=12, scoring=Scoring.COVERED), ["race:200"]),
]


def timed(name: str, rules: Rules, text: str, goal: float) -> float:
    start = time.perf_counter()
    solution = solve_match(rules, text, disk=False)
    seconds = time.perf_counter() - start
    print(f"{name:>20} {text:>14}  {seconds:7.2f} s  ({seconds / goal:4.2f} of the goal)  "
          f"first player wins {solution.first_win * 100:.4f} %", flush=True)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="9 tiles only")
    parser.add_argument("--one-run", action="store_true", help=argparse.SUPPRESS)
    add_arguments(parser)
    args = parser.parse_args()
    command = "python3 benchmarks/bench_match.py" + " --quick" * args.quick + " --markdown"
    figures = Figures("bench_match", command)
    if args.one_run:
        solve_match(Rules(tiles=4), "loser-at:20", disk=False)   # warm the compiled kernels
        solve_match(Rules(tiles=4), "battle:rolls", disk=False)
        slowest(9, NINE, 5.0, figures)
        if not args.quick:
            slowest(12, TWELVE, 60.0, figures)
        print(json.dumps({f.what: [f.values[0], f.unit, f.goal, f.digits]
                          for f in figures.figures.values()}))
        return
    # Each run in a fresh process: within one, every table after the first run is remembered.
    for _ in range(args.runs):
        figures.begin_run()
        child = subprocess.run([sys.executable, __file__, "--one-run", *["--quick"] * args.quick],
                               capture_output=True, text=True, check=True)
        *lines, last = child.stdout.splitlines()
        print("\n".join(lines), flush=True)
        for what, (value, unit, goal, digits) in json.loads(last).items():
            figures.add(what, value, unit, goal, digits)
    figures.finish(args.markdown)


def slowest(tiles: int, tables: Tables, goal: float, figures: Figures) -> None:
    """Time each table of ``tables`` against ``goal`` seconds, and print the slowest."""
    worst = 0.0
    print(f"{tiles} tiles (goal: under {goal:.0f} s each)")
    for name, rules, formats in tables:
        for text in formats:
            seconds = timed(name, rules, text, goal)
            worst = max(worst, seconds)
            if text in ("loser-at:100", "race:200", "battle:rolls"):
                figures.add(f"{tiles} tiles, `{name}`, `{text}`", seconds, "s", "", 2)
    figures.add(f"{tiles} tiles, the slowest table", worst, "s", f"under {goal:.0f} s", 2)
    print(f"slowest {tiles}-tile table: {worst:.2f} s")


if __name__ == "__main__":
    main()
