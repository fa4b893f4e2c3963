"""Time the exact solver on 12 tiles, each measurement in a fresh process on one thread.

- one objective: the whole solution (values, policy, score distribution, policy tables);
- every ``beat:T`` target at once, with :func:`~shutthebox.solver.solve_many` and, for
  comparison, one :func:`~shutthebox.solver.solve` call per target;
- the first decision of a posted-score-aware player (the later players' odds for every
  target, then the win objective);
- from a cold start (a fresh process, imports included): the hard computer's first decision
  and the whole ``shutthebox hint`` command in a single round, for 12 tiles with digit scoring
  and for every preset, first to play (every later player's table needed: the slowest seat)
  of 2 and of 4 players; with the round's tables on disk (as after a machine's first game:
  the goal) and the first time on a machine: no round tables in the data folder (they are
  made and saved), numba's compiled kernels already in its cache (as after installation:
  the benchmark's own solves above have compiled them), Python's bytecode cached.

Everything runs in a data folder of the benchmark's own (``SHUTTHEBOX_HOME``), the solves
with no round tables on disk.

Goals (one core): one objective under 50 ms, all targets under 1 s, every first decision and
hint under 1 s. Prints figures; asserts nothing.

    python benchmarks/bench_solver.py [--runs 2] [--markdown]
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

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

FIRST_DECISION = """
import json, time
t0 = time.perf_counter()
from shutthebox.players.base import Situation
from shutthebox.rules import Rules, Scoring, preset
from shutthebox.solver.players import make_optimal
from shutthebox.turn import Phase, TurnState
rules = {rules}
state = TurnState.start(rules)
if state.phase is Phase.ROLL:
    state = state.apply_roll(state.chance_outcomes()[-1][0])
situation = Situation(posted={posted!r}, still_to_play={still}, decisive=True)
make_optimal("", rules).choose(state, situation)
print(json.dumps({{"s": time.perf_counter() - t0}}))
"""

ONE_THREAD = {name: "1" for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                                     "NUMBA_NUM_THREADS")}


def _one_core(command: list[str]) -> list[str]:
    return ["taskset", "-c", "0", *command] if sys.platform == "linux" else command


def _rules_code(preset: str) -> str:
    return preset if preset.startswith("Rules(") else f"preset({preset!r})"


def run(preset: str, objectives: list[str], mode: str = "each") -> dict[str, float]:
    """Time one solve in a fresh process; ``preset`` is a preset name or a ``Rules(...)``."""
    code = CHILD.format(rules=_rules_code(preset), objectives=objectives, mode=mode)
    _no_round_tables()
    out = subprocess.run(_one_core([sys.executable, "-c", code]), capture_output=True,
                         text=True, check=True, env={**os.environ, **ONE_THREAD})
    result: dict[str, float] = json.loads(out.stdout)
    return result


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def first_decision(preset: str, players: int, posted: tuple[int, ...] = ()) -> tuple[float, float]:
    """Seconds from a fresh process's start to the hard computer's first decision of a single
    round of ``players``, with these scores posted before it (imports included), and the
    process's CPU seconds (the same on a quiet machine; on a busy one, what it cost)."""
    code = FIRST_DECISION.format(rules=_rules_code(preset), posted=posted,
                                 still=players - 1 - len(posted))
    cpu = _children_cpu()
    out = subprocess.run(_one_core([sys.executable, "-c", code]), capture_output=True,
                         text=True, check=True, env={**os.environ, **ONE_THREAD})
    seconds: float = json.loads(out.stdout)["s"]
    return seconds, _children_cpu() - cpu


def hint_seconds(rule_flags: list[str], players: int,
                 posted: tuple[int, ...] = ()) -> tuple[float, float]:
    """Seconds of the whole ``shutthebox hint --format single`` command, first of ``players``
    or after ``posted``, in a fresh process, and its CPU seconds."""
    command = [sys.executable, "-m", "shutthebox", "hint", *rule_flags, "--format", "single",
               "--totals", ",".join(["0"] * players)]
    if posted:
        command += ["--posted", ",".join(map(str, posted))]
    start, cpu = time.perf_counter(), _children_cpu()
    subprocess.run(_one_core(command), capture_output=True, text=True, check=True,
                   env={**os.environ, **ONE_THREAD})
    return time.perf_counter() - start, _children_cpu() - cpu


def _no_round_tables() -> None:
    """Remove the single round's tables kept in the benchmark's data folder."""
    shutil.rmtree(Path(os.environ["SHUTTHEBOX_HOME"]) / "round", ignore_errors=True)


def main(figures: Figures) -> None:
    """Every figure, in a data folder of the benchmark's own (``SHUTTHEBOX_HOME``): the
    user's neither helps nor changes."""
    home = os.environ.get("SHUTTHEBOX_HOME")
    with tempfile.TemporaryDirectory() as folder:
        os.environ["SHUTTHEBOX_HOME"] = folder
        try:
            measure(figures)
        finally:
            if home is None:
                del os.environ["SHUTTHEBOX_HOME"]
            else:
                os.environ["SHUTTHEBOX_HOME"] = home


def measure(figures: Figures) -> None:
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
    cold_starts(figures, digits_12)


Timing = tuple[float, float]


def _twice(measure: Callable[[], Timing]) -> tuple[Timing, Timing]:
    """``measure`` the first time on a machine (no round tables in the data folder: they are
    made and saved), then again with them on disk."""
    _no_round_tables()
    return measure(), measure()


def cold_starts(figures: Figures, digits_12: str) -> None:
    """The first answers of a single round from a fresh process, imports included."""
    from shutthebox.rules import PRESETS

    print("single round, from a cold start (fresh process, imports included), one core; "
          "seconds, CPU seconds in brackets; the first time on a machine (round tables made), "
          "then with them on disk")
    flags = ["--tiles", "12", "--scoring", "digits"]
    for players, posted, situation in ((2, (), "first of 2"), (2, (23,), "23 posted, last of 2"),
                                       (4, (23,), "23 posted, 2 to play"),
                                       (4, (), "first of 4")):
        first, (seconds, cpu) = _twice(partial(first_decision, digits_12, players, posted))
        first_hint, (hint, hint_cpu) = _twice(partial(hint_seconds, flags, players, posted))
        figures.add(f"12 tiles, digits, {situation}: the hard computer's first decision",
                    seconds, "s", "1 s", 2)
        figures.add(f"12 tiles, digits, {situation}: `shutthebox hint`", hint, "s", "1 s", 2)
        figures.add(f"12 tiles, digits, {situation}: the computer, first time on a machine",
                    first[0], "s", "", 2)
        figures.add(f"12 tiles, digits, {situation}: `hint`, first time on a machine",
                    first_hint[0], "s", "", 2)
        print(f"  12 tiles, digits, {situation:22} computer {seconds:.2f} s ({cpu:.2f} s), "
              f"hint {hint:.2f} s ({hint_cpu:.2f} s); the first time: computer "
              f"{first[0]:.2f} s ({first[1]:.2f} s), hint {first_hint[0]:.2f} s "
              f"({first_hint[1]:.2f} s) (goal 1 s with the tables on disk)")
    for name in PRESETS:
        measures: dict[str, Callable[[], Timing]] = {
            **{f"computer, first of {players}": partial(first_decision, name, players)
               for players in (2, 4)},
            "hint, first of 4": partial(hint_seconds, ["--preset", name], 4)}
        timings = {what: _twice(measure) for what, measure in measures.items()}
        on_disk = {what: later for what, (_, later) in timings.items()}
        first_time = {what: first for what, (first, _) in timings.items()}
        slowest = max(on_disk, key=lambda k: on_disk[k][0])
        slowest_first = max(first_time, key=lambda k: first_time[k][0])
        figures.add(f"`{name}`: the slowest first answer of a single round",
                    on_disk[slowest][0], "s", "1 s", 2)
        figures.add(f"`{name}`: the slowest first answer, first time on a machine",
                    first_time[slowest_first][0], "s", "", 2)
        print(f"  {name:18} slowest first answer {on_disk[slowest][0]:.2f} s ({slowest}; "
              + ", ".join(f"{k} {wall:.2f} s ({cpu:.2f} s)"
                          for k, (wall, cpu) in on_disk.items())
              + f"); the first time: {first_time[slowest_first][0]:.2f} s ({slowest_first}; "
              + ", ".join(f"{k} {wall:.2f} s ({cpu:.2f} s)"
                          for k, (wall, cpu) in first_time.items()) + ")")


if __name__ == "__main__":
    report.run("bench_solver", __doc__.splitlines()[0], main)
