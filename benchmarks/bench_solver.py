"""Time the exact solver on 12 tiles, each measurement in a fresh process on one thread.

- one objective: the whole solution (values, policy, score distribution, policy tables);
- every ``beat:T`` target at once, with :func:`~shutthebox.solver.solve_many` and, for
  comparison, one :func:`~shutthebox.solver.solve` call per target;
- the first decision of a posted-score-aware player (the later players' odds for every
  target, then the win objective).

Goals (one core): one objective under 50 ms, all targets under 1 s. Prints figures; asserts
nothing.

    python benchmarks/bench_solver.py [--runs 2] [--markdown]
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import report
from report import Figures

CHILD = """
import json, time
t0 = time.perf_counter()
from shutthebox.rules import Rules, preset
from shutthebox.solver import solve, solve_many
from shutthebox.solver.players import win_solution
t1 = time.perf_counter()
rules = {rules}
objectives = {objectives!r}
t2 = time.perf_counter()
if {mode!r} == "many":
    solutions = solve_many(rules, objectives)
elif {mode!r} == "aware":
    solutions = [win_solution(rules, (20,), 2)]
else:
    solutions = [solve(rules, objective) for objective in objectives]
for solution in solutions:
    solution.value(), solution.distribution, solution.policy_tables()
t3 = time.perf_counter()
print(json.dumps({{"import_s": t1 - t0, "solve_s": t3 - t2}}))
"""

ONE_THREAD = {name: "1" for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                                     "NUMBA_NUM_THREADS")}


def run(preset: str, objectives: list[str], mode: str = "each") -> dict[str, float]:
    """Time one solve in a fresh process; ``preset`` is a preset name or a ``Rules(...)``."""
    rules = preset if preset.startswith("Rules(") else f"preset({preset!r})"
    code = CHILD.format(rules=rules, objectives=objectives, mode=mode)
    command = [sys.executable, "-c", code]
    if sys.platform == "linux":
        command = ["taskset", "-c", "0", *command]
    out = subprocess.run(command, capture_output=True, text=True, check=True,
                         env={**os.environ, **ONE_THREAD})
    result: dict[str, float] = json.loads(out.stdout)
    return result


def main(figures: Figures) -> None:
    from shutthebox.rules import Rules, Scoring, preset
    from shutthebox.solver import solve

    print("12 tiles, whole solution (values, policy, distribution, tables), fresh process, "
          "one core")
    for name in ("box-12", "family-12", "family-12-faces"):
        for objective in ("score", "shut", "beat:20", "reach:20"):
            timing = run(name, [objective])
            figures.add(f"`{name}`, `{objective}`: a whole solution", timing["solve_s"] * 1000,
                        "ms", "50 ms", 0)
            print(f"  {name:16} {objective:9} {timing['solve_s'] * 1000:7.1f} ms "
                  f"(goal 50 ms, ratio {timing['solve_s'] / 0.05:.2f}; "
                  f"import {timing['import_s'] * 1000:.0f} ms)")
    for name in ("box-12", "family-12"):
        scores = sorted(solve(preset(name), "score").distribution)
        targets = [f"beat:{t}" for t in range(scores[0], scores[-1] + 2)]
        for mode in ("many", "each"):
            timing = run(name, targets, mode)
            how = "solve_many" if mode == "many" else "one solve each"
            figures.add(f"`{name}`: all {len(targets)} `beat:T` targets ({how})",
                        timing["solve_s"], "s", "1 s" if mode == "many" else "", 2)
            print(f"  {name:16} all {len(targets)} beat:T targets ({how}): "
                  f"{timing['solve_s']:.3f} s (goal 1 s, ratio {timing['solve_s']:.2f})")
    digits_12 = repr(Rules(tiles=12, scoring=Scoring.DIGITS))
    for name, label in (("box-12", "box-12"), ("pub-digits", "pub-digits"),
                        (digits_12, "12 tiles, digits")):
        timing = run(name, [], "aware")
        figures.add(f"{label}: the first posted-score-aware decision (posted 20, 2 to play)",
                    timing["solve_s"], "s", "", 1)
        print(f"  {label:16} first posted-score-aware decision (posted 20, 2 to play): "
              f"{timing['solve_s']:.3f} s (later players' odds for every score included)")


if __name__ == "__main__":
    report.run("bench_solver", __doc__.splitlines()[0], main)
