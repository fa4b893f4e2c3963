"""Time the exact solver on 12 tiles: each objective in a fresh process, and every
``beat:T`` target at once. Goals (one core): one objective under 50 ms, all targets under
1 s. Prints figures; asserts nothing.

    python benchmarks/bench_solver.py
"""

from __future__ import annotations

import json
import subprocess
import sys

CHILD = """
import json, time
t0 = time.perf_counter()
from shutthebox.rules import preset
from shutthebox.solver import solve
t1 = time.perf_counter()
rules = preset({preset!r})
objectives = {objectives!r}
t2 = time.perf_counter()
for objective in objectives:
    solve(rules, objective).value()
t3 = time.perf_counter()
print(json.dumps({{"import_s": t1 - t0, "solve_s": t3 - t2, "count": len(objectives)}}))
"""


def run(preset: str, objectives: list[str]) -> dict[str, float]:
    code = CHILD.format(preset=preset, objectives=objectives)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={"OMP_NUM_THREADS": "1", "PATH": ""})
    result: dict[str, float] = json.loads(out.stdout)
    return result


def main() -> None:
    from shutthebox.rules import preset
    from shutthebox.solver import solve

    print("12-tile solves, each in a fresh process (numpy, one thread)")
    for name in ("box-12", "family-12", "family-12-faces"):
        for objective in ("score", "shut", "beat:20", "reach:20"):
            figures = run(name, [objective])
            print(f"  {name:16} {objective:9} {figures['solve_s'] * 1000:7.1f} ms "
                  f"(goal 50 ms, ratio {figures['solve_s'] / 0.05:.2f})")
    for name in ("box-12", "family-12"):
        scores = sorted(solve(preset(name), "score").distribution)
        targets = [f"beat:{t}" for t in range(scores[0], scores[-1] + 2)]
        figures = run(name, targets)
        print(f"  {name:16} all {len(targets)} beat:T targets: {figures['solve_s']:.3f} s "
              f"(goal 1 s, ratio {figures['solve_s']:.2f})")


if __name__ == "__main__":
    main()
