"""Tournaments of match play (``optimal``) against the round-aware player of earlier versions
(``optimal:round``) and the score player (``optimal:score``), seats rotated, with 95 %
confidence intervals, printed as the README's table.

    python3 benchmarks/match_tournaments.py [MATCHES]     # default 1000 per format
"""

from __future__ import annotations

import sys
import time

from shutthebox.rules import Rules, preset
from shutthebox.simulate.tournament import tournament

TWO = [("single", preset("classic")), ("rounds:3", preset("classic")),
       ("elimination:45", preset("classic")), ("loser-at:100", preset("classic")),
       ("race:200", preset("covered").replace(first_player="seat")),
       ("battle:rolls", preset("classic")), ("battle:turns", preset("classic"))]
FOUR = [("single", preset("classic")), ("rounds:3", preset("classic")),
        ("elimination:45", preset("classic")), ("loser-at:100", preset("classic")),
        ("race:200", preset("covered").replace(first_player="seat"))]


def row(text: str, rules: Rules, players: list[str], matches: int) -> None:
    start = time.perf_counter()
    result = tournament(rules, players, text, matches, seed=2026)
    cells = []
    for name in players:
        low, high = result.win_rate_ci(name)
        cells.append(f"{result.win_rate(name) * 100:.1f} % ({low * 100:.1f}-{high * 100:.1f})")
    print(f"| {text} | {len(players)} | {' | '.join(cells)} | {result.mean_rounds:.2f} | "
          f"{matches} |  <!-- {time.perf_counter() - start:.0f} s -->", flush=True)


def main() -> None:
    matches = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    print("| format | players | optimal (match play) | optimal:score | rounds | matches |")
    print("|---|---|---|---|---|---|")
    for text, rules in TWO:
        row(text, rules, ["optimal", "optimal:score"], matches)
    print()
    print("| format | players | optimal (match play) | optimal:round | optimal:score | "
          "highest-first | rounds | matches |")
    print("|---|---|---|---|---|---|---|---|")
    for text, rules in FOUR:
        row(text, rules, ["optimal", "optimal:round", "optimal:score", "highest-first"],
            matches)


if __name__ == "__main__":
    main()
