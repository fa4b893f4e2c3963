"""The computer players' fixed ratings and accuracy (the coach's ``COMPUTER_RATINGS``).

Every pair of computer players plays two-player single rounds of the classic rules, seats
rotated; each pair's win share (a tie half) gives an Elo difference ``400 log10(p / (1 -
p))``, and the ratings are the least-squares fit of those differences with the medium
computer (``highest-first``) at 1500, where a new player starts. Then each player's average
accuracy (the coach's scale) over solo turns and over single rounds against the optimal
player. Prints the figures; asserts nothing.

    python benchmarks/computer_ratings.py [--matches 20000] [--games 300] [--seed 1]
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from shutthebox.coach.analysis import analyse
from shutthebox.coach.ratings import START
from shutthebox.match import GameFormat, Match, MatchConfig, play_out
from shutthebox.rules import Rules
from shutthebox.simulate.tournament import tournament
from shutthebox.strategies import make_strategy

PLAYERS = ("random", "fewest-tiles", "highest-first", "optimal")
ANCHOR = "highest-first"


def fitted_ratings(shares: dict[tuple[str, str], float]) -> dict[str, float]:
    """The ratings whose differences best fit each pair's Elo difference, the anchor at
    :data:`START`."""
    index = {name: i for i, name in enumerate(PLAYERS)}
    rows, targets = [], []
    for (a, b), p in shares.items():
        row = np.zeros(len(PLAYERS))
        row[index[a]], row[index[b]] = 1.0, -1.0
        rows.append(row)
        targets.append(400 * math.log10(p / (1 - p)))
    anchor = np.zeros(len(PLAYERS))
    anchor[index[ANCHOR]] = 1.0
    rows.append(anchor * 1000.0)   # holds the anchor still
    targets.append(START * 1000.0)
    solution, *_ = np.linalg.lstsq(np.array(rows), np.array(targets), rcond=None)
    return {name: float(solution[index[name]]) for name in PLAYERS}


def accuracy(name: str, game_format: str, games: int, seed: int) -> float:
    """The average accuracy of ``name`` (seat 0) over ``games`` games of the format, against
    the optimal player when others play."""
    rules = Rules()
    fmt = GameFormat.parse(game_format)
    seats = ("Ann",) if fmt.kind.value == "solo" else ("Ann", "Bo")
    values = []
    for k in range(games):
        rng = random.Random(seed * 1_000_003 + k)
        match = Match(MatchConfig(rules, fmt, seats))
        players = {0: make_strategy(name, rules, random.Random(rng.random()))}
        if len(seats) == 2:
            players[1] = make_strategy("optimal", rules, rng)
        play_out(match, players, rng)
        analysis = analyse(match.to_log())
        values.append(analysis.players[0].accuracy)
    return statistics.fmean(values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20_000, help="single rounds a pair")
    parser.add_argument("--games", type=int, default=300, help="games for each accuracy")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    shares: dict[tuple[str, str], float] = {}
    print(f"Two-player single rounds of the classic rules, {args.matches} a pair:")
    for a, b in itertools.combinations(PLAYERS, 2):
        result = tournament(Rules(), [a, b], "single", args.matches, seed=args.seed)
        p = result.wins[a] / args.matches
        shares[(a, b)] = p
        print(f"  {a:>14} against {b:<14} wins {p * 100:5.1f} % "
              f"(Elo difference {400 * math.log10(p / (1 - p)):+6.0f})")
    print(f"Fitted ratings ({ANCHOR} at {START:.0f}):")
    for name, rating in sorted(fitted_ratings(shares).items(), key=lambda kv: kv[1]):
        print(f"  {name:>14} {rating:7.0f}")
    print(f"Average accuracy over {args.games} games:")
    for name in PLAYERS:
        solo = accuracy(name, "solo", args.games, args.seed)
        single = accuracy(name, "single", args.games, args.seed)
        print(f"  {name:>14}  solo {solo:5.1f}   single round against optimal "
              f"{single:5.1f}")


if __name__ == "__main__":
    main()
