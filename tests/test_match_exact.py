"""The exact match solver against an independent small implementation, for boxes of 2 to 5
tiles in every format, and against the deciding round already known.

The reference walks the turn with the rules' own dice choices and legal moves (no roll
groups, no compiled kernel, no Newton step): a turn is a recursion over the open tiles, a
position between turns a recursion over the totals, and a round that can return to the same
totals is iterated plainly until it stops moving. The battle is plain value iteration over
(board, mover).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import pytest
from cachetools import LRUCache

from shutthebox.dice import roll_outcomes
from shutthebox.formats import BattleReading, FormatKind, GameFormat
from shutthebox.rules import FirstPlayer, OneDie, Rules, Scoring
from shutthebox.solver.matchplay import MatchPosition, solve_match
from shutthebox.solver.rounds import solve_round
from shutthebox.tiles import Tiles
from shutthebox.turn import legal_moves


def best_roll(rules: Rules, tiles: Tiles, after: Callable[[Tiles], float],
              stuck: Callable[[Tiles], float]) -> float:
    """The best expected value over the dice choices of one roll from ``tiles``: ``after``
    the best move, or ``stuck`` with the tiles still open when no move fits."""
    best = -1.0
    for dice in rules.dice_choices(tiles):
        total = 0.0
        for roll, p in roll_outcomes(dice):
            moves = legal_moves(rules, tiles, roll)
            total += float(p) * (max(after(tiles & ~m) for m in moves) if moves
                                 else stuck(tiles))
        best = max(best, total)
    return best


def best_turn(rules: Rules, start: Tiles, final: Callable[[Tiles], float]) -> float:
    """The best expected final value of a turn from ``start``, by plain recursion."""
    ending = cache(final)

    @cache
    def value(open_tiles: Tiles) -> float:
        if open_tiles == 0:
            return ending(0)
        return best_roll(rules, open_tiles, value, ending)

    return value(start)


def reference_first_win(rules: Rules, text: str) -> float:
    """The first player's chance to win a two-player match, computed plainly."""
    fmt = GameFormat.parse(text)
    instant = rules.shut_box_wins(fmt.multi_round)
    best = rules.best_score
    lower = rules.lower_is_better

    def share(mine: int, other: int) -> float:
        return 0.5 if mine == other else float((mine < other) == lower)

    if fmt.kind in (FormatKind.SINGLE, FormatKind.ROUNDS):
        rounds = fmt.limit or 1

        @cache
        def first(r: int, d: int) -> float:
            def final(tiles: Tiles) -> float:
                s = rules.score(tiles)
                return 1.0 if instant and s == best else second(r, d + s)
            return best_turn(rules, rules.full, final)

        @cache
        def second(r: int, d: int) -> float:
            def final(tiles: Tiles) -> float:
                t = rules.score(tiles)
                if instant and t == best:
                    return 1.0
                return 1.0 - (share(d - t, 0) if r + 1 == rounds else first(r + 1, d - t))
            return 1.0 - best_turn(rules, rules.full, final)

        return first(0, 0)

    limit = fmt.limit or 0
    settled: dict[tuple[int, int], float] = {}

    def ended(a: int, b: int) -> float:
        if max(a, b) >= limit:
            return share(a, b)
        return settled[(a, b)] if (a, b) in settled else guess[(a, b)]

    def second_value(a: int, b: int) -> float:
        def final(tiles: Tiles) -> float:
            t = rules.score(tiles)
            return 1.0 if instant and t == best else 1.0 - ended(a, b + t)
        return 1.0 - best_turn(rules, rules.full, final)

    def first_value(a: int, b: int) -> float:
        seconds = cache(second_value)

        def final(tiles: Tiles) -> float:
            s = rules.score(tiles)
            return 1.0 if instant and s == best else seconds(a + s, b)
        return best_turn(rules, rules.full, final)

    guess: dict[tuple[int, int], float] = {}
    for level in range(2 * limit - 2, -1, -1):
        for a in range(max(0, level - limit + 1), min(level, limit - 1) + 1):
            b = level - a
            guess[(a, b)] = 0.5
            for _ in range(10_000):   # the round that returns to (a, b), iterated plainly
                value = first_value(a, b)
                moved = abs(value - guess[(a, b)])
                guess[(a, b)] = value
                if moved < 1e-15:
                    break
            settled[(a, b)] = guess[(a, b)]
    return settled[(0, 0)]


def reference_battle(rules: Rules, reading: BattleReading) -> float:
    """The knocker's chance to win a battle, by plain value iteration."""
    full = rules.full
    knock = {m: 0.5 for m in range(full + 1)}
    stand = {m: 0.5 for m in range(full + 1)}

    def sweep(other: dict[int, float]) -> dict[int, float]:
        def after(tiles: Tiles) -> float:
            return 1.0 if tiles == 0 else 1.0 - other[full & ~tiles]

        new = {0: 1.0}
        for tiles in range(1, full + 1):
            if reading is BattleReading.TURNS:
                new[tiles] = best_turn(rules, tiles, after)
                continue
            new[tiles] = best_roll(rules, tiles, after, after)
        return new

    for _ in range(100_000):
        new_knock = sweep(stand)
        new_stand = sweep(new_knock)
        change = max(max(abs(new_knock[m] - knock[m]) for m in knock),
                     max(abs(new_stand[m] - stand[m]) for m in stand))
        knock, stand = new_knock, new_stand
        if change < 1e-15:
            break
    return knock[full]


SMALL_RULES = [
    Rules(tiles=2), Rules(tiles=3, one_die=OneDie.LOW_SUM), Rules(tiles=4, max_tiles=2),
    Rules(tiles=5, one_die=OneDie.HIGH_SHUT, one_die_forced=True),
]
FORMATS = ["single", "rounds:2", "rounds:3", "elimination:5", "loser-at:7"]


@pytest.mark.parametrize("rules", SMALL_RULES, ids=lambda r: f"tiles{r.tiles}")
@pytest.mark.parametrize("text", FORMATS)
def test_match_values_equal_the_plain_reference(rules: Rules, text: str) -> None:
    exact = solve_match(rules, text, disk=False)
    assert exact.first_win == pytest.approx(reference_first_win(rules, text), abs=1e-12)
    assert sum(exact.win) == pytest.approx(1.0, abs=1e-15)


@pytest.mark.parametrize("tiles", [2, 3, 4, 5])
def test_race_values_equal_the_plain_reference(tiles: int) -> None:
    rules = Rules(tiles=tiles, scoring=Scoring.COVERED)
    exact = solve_match(rules, "race:6", disk=False)
    assert exact.first_win == pytest.approx(reference_first_win(rules, "race:6"), abs=1e-12)


@pytest.mark.parametrize("rules", [Rules(tiles=4), Rules(tiles=3, scoring=Scoring.DIGITS)],
                         ids=lambda r: f"tiles{r.tiles}-{r.scoring}")
def test_instant_win_either_way_equals_the_reference(rules: Rules) -> None:
    for instant in (True, False):
        changed = rules.replace(instant_win=instant)
        for text in ("rounds:2", "loser-at:6"):
            exact = solve_match(changed, text, disk=False)
            assert exact.first_win == pytest.approx(reference_first_win(changed, text),
                                                    abs=1e-12)


@pytest.mark.parametrize("tiles", [2, 3, 4, 5])
@pytest.mark.parametrize("reading", list(BattleReading))
def test_battle_values_equal_plain_value_iteration(tiles: int, reading: BattleReading) -> None:
    rules = Rules(tiles=tiles, one_die=OneDie.LOW_SUM)
    exact = solve_match(rules, f"battle:{reading.value}", disk=False)
    assert exact.first_win == pytest.approx(reference_battle(rules, reading), abs=1e-12)


def test_single_is_the_deciding_round_already_known() -> None:
    assert solve_match(Rules(), "single", disk=False).win[0] == pytest.approx(0.5005353268,
                                                                              abs=1e-10)
    assert solve_round(Rules(), 2).win[0] == pytest.approx(0.5005353268, abs=1e-10)


@pytest.mark.parametrize("rules", SMALL_RULES[1:], ids=lambda r: f"tiles{r.tiles}")
def test_two_player_round_equals_the_single_match(rules: Rules) -> None:
    match = solve_match(rules, "single", disk=False)
    assert solve_round(rules, 2).win == pytest.approx(match.win, abs=1e-12)


def test_a_roll_off_for_the_first_player_makes_the_match_even() -> None:
    rules = Rules(tiles=4, first_player=FirstPlayer.LOWEST)
    assert solve_match(rules, "rounds:2", disk=False).win == (0.5, 0.5)


def test_the_second_player_values_every_score_of_its_turn() -> None:
    solution = solve_match(Rules(tiles=4), "single", disk=False)
    chances = solution.turn_chances(MatchPosition(totals=(3, 0), mover=1))
    assert list(chances[:5]) == [1.0, 1.0, 1.0, 0.5, 0.0]   # beat 3 to win, 3 ties


def test_the_table_on_disk_is_the_table_computed(tmp_path: object,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from shutthebox.solver.matchplay import cache_path, compute, tables

    monkeypatch.setenv("SHUTTHEBOX_HOME", str(tmp_path))
    rules = Rules(tiles=5)
    computed = compute(rules.replace(instant_win=False), GameFormat.parse("loser-at:20"))
    monkeypatch.setattr(tables, "_memory", {})
    first = solve_match(rules, "loser-at:20")
    assert cache_path(rules, "loser-at:20").exists()
    monkeypatch.setattr(tables, "_memory", {})
    again = solve_match(rules, "loser-at:20")
    assert again.first_win == first.first_win == pytest.approx(computed.first_win, abs=1e-15)
    assert (again.tables["first"] == computed.tables["first"]).all()


def test_a_process_keeps_a_bounded_number_of_match_tables(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A server's solver worker is asked for the table of any format a client names: the
    least recently used are let go (and solved again, the same, when asked for again)."""
    from shutthebox.solver.matchplay import tables

    monkeypatch.setattr(tables, "_memory", LRUCache(2))
    rules = Rules(tiles=4)
    # (the memory itself is looked at: is_cached also sees the tables on disk, which
    # other tests of this process may have written)
    kept = tables._memory

    def held(solution: object) -> bool:
        return any(table is solution for table in kept.values())

    first = solve_match(rules, "rounds:2", disk=False)
    third = solve_match(rules, "rounds:3", disk=False)
    assert solve_match(rules, "rounds:2", disk=False) is first      # used again: kept
    solve_match(rules, "rounds:4", disk=False)
    assert len(kept) == 2 and held(first) and not held(third)
    for rounds in (4, 5):
        solve_match(rules, f"rounds:{rounds}", disk=False)
    assert len(kept) == 2 and not held(first)
    again = solve_match(rules, "rounds:2", disk=False)
    assert again is not first and again.first_win == first.first_win
