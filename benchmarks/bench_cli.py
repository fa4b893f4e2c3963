"""Start-up time of the command line, as ratios to importing typer and rich alone.

Each command runs in a fresh process, several times; the median wall time (and CPU time,
steadier on a busy machine) is compared with the median of ``python -c "import typer,
rich.console"`` measured in the same run. Goals:
``--help`` and ``rules`` at most 2x, ``hint`` and ``solve`` on 9 tiles at most 5x (their
compiled kernels come from the on-disk cache after the first run, which is not timed).
Prints figures; asserts nothing.

    python benchmarks/bench_cli.py [--times 7] [--runs 2] [--markdown]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time

from report import Figures, add_arguments

BASELINE = [sys.executable, "-c", "import typer, rich.console"]
COMMANDS: list[tuple[str, list[str], float]] = [
    ("shutthebox --help", ["--help"], 2.0),
    ("shutthebox rules", ["rules"], 2.0),
    ("shutthebox rules classic", ["rules", "classic"], 2.0),
    ("shutthebox games", ["games"], 2.0),
    ("shutthebox hint --open 1,2,4,7,8 --roll 3,5", ["hint", "--open", "1,2,4,7,8", "--roll",
                                                     "3,5"], 5.0),
    ("shutthebox solve", ["solve"], 5.0),
]


def timed(argv: list[str], runs: int) -> tuple[float, float]:
    """The median wall and CPU (user + system) seconds of ``runs`` runs of a command, output
    discarded. CPU time is the steadier figure on a busy machine."""
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        began = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        walls.append(time.perf_counter() - began)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--times", type=int, default=7, help="runs of each command")
    add_arguments(parser)
    args = parser.parse_args()
    Figures("bench_cli", "python3 benchmarks/bench_cli.py --markdown").repeat(
        args.runs, lambda figures: measure(args.times, figures), args.markdown)


def measure(runs: int, figures: Figures) -> None:
    cli = [sys.executable, "-m", "shutthebox"]
    for _, args, _ in COMMANDS:   # warm the disk caches (compiled kernels, solutions)
        subprocess.run([*cli, *args], stdout=subprocess.DEVNULL, check=True)
    wall, cpu = timed(BASELINE, runs)
    figures.add("the baseline, `python -c 'import typer, rich.console'`", wall * 1000, "ms", "",
                0)
    print(f"baseline, python -c 'import typer, rich.console': wall {wall * 1000:.0f} ms, "
          f"CPU {cpu * 1000:.0f} ms (medians of {runs} runs)")
    print(f"{'command':<46} {'wall':>7} {'ratio':>6} {'CPU':>7} {'ratio':>6}  goal")
    for name, args, goal in COMMANDS:
        seconds, cpu_seconds = timed([*cli, *args], runs)
        ratio, cpu_ratio = seconds / wall, cpu_seconds / cpu
        figures.add(f"`{name}`, wall time", ratio, "x", f"{goal:.0f}x")
        figures.add(f"`{name}`, CPU time", cpu_ratio, "x", f"{goal:.0f}x")
        verdict = "ok" if max(ratio, cpu_ratio) <= goal else \
            "ok by CPU" if cpu_ratio <= goal else "over"
        print(f"{name:<46} {seconds * 1000:5.0f}ms {ratio:5.1f}x {cpu_seconds * 1000:5.0f}ms "
              f"{cpu_ratio:5.1f}x  {goal:.0f}x {verdict}")


if __name__ == "__main__":
    main()
