"""The formats as objects: each kind says how it is played, and the match and the match
solver read the same answer."""

from __future__ import annotations

import pytest

from shutthebox.errors import FormatError
from shutthebox.formats import (
    FORMATS,
    FormatKind,
    GameFormat,
    RoundEnd,
    RoundResult,
    SolverFamily,
)


def test_every_format_kind_has_its_own_play() -> None:
    assert set(FORMATS) == set(FormatKind)
    assert all(play.kind is kind for kind, play in FORMATS.items())


@pytest.mark.parametrize(("text", "family", "rounds"), [
    ("solo", None, 1), ("single", SolverFamily.ROUNDS, 1), ("rounds:4", SolverFamily.ROUNDS, 4),
    ("elimination", SolverFamily.THRESHOLD, None), ("loser-at", SolverFamily.THRESHOLD, None),
    ("race", SolverFamily.THRESHOLD, None), ("battle:rolls", SolverFamily.BATTLE, None)])
def test_each_format_names_the_solver_family_that_tabulates_it(
        text: str, family: SolverFamily | None, rounds: int | None) -> None:
    fmt = GameFormat.parse(text)
    assert fmt.family is family
    assert fmt.rounds == rounds


def test_only_threshold_formats_have_a_threshold() -> None:
    assert GameFormat.parse("race:150").threshold == 150
    with pytest.raises(FormatError, match="rounds:3 has no limit or target"):
        _ = GameFormat.parse("rounds:3").threshold


@pytest.mark.parametrize(("text", "players", "needed"), [
    ("battle", 2, True), ("rounds:3", 2, True), ("loser-at:100", 3, True),
    ("rounds:3", 1, False), ("single", 2, False), ("solo", 1, False)])
def test_a_match_table_is_needed_for_a_battle_and_several_rounds_against_others(
        text: str, players: int, needed: bool) -> None:
    assert GameFormat.parse(text).needs_table(players) is needed


def result(number: int, totals: list[int], scores: dict[int, int] | None = None,
           playing: tuple[int, ...] = (0, 1, 2), lower_is_better: bool = True) -> RoundResult:
    return RoundResult(number, playing, scores or {s: 0 for s in playing}, totals,
                       lower_is_better)


def test_a_single_round_is_won_by_the_round_score_and_ties_share_it() -> None:
    end = GameFormat.parse("single").end_round(result(1, [9, 4, 4], {0: 9, 1: 4, 2: 4}))
    assert end == RoundEnd(winners=(1, 2))


def test_rounds_end_after_the_last_round_with_the_best_total() -> None:
    fmt = GameFormat.parse("rounds:2")
    assert fmt.end_round(result(1, [5, 9, 7])) == RoundEnd()
    assert fmt.end_round(result(2, [15, 9, 17])) == RoundEnd(winners=(1,))


def test_elimination_puts_out_each_total_at_the_limit_and_the_last_one_left_wins() -> None:
    fmt = GameFormat.parse("elimination:45")
    assert fmt.end_round(result(3, [45, 20, 50])) == RoundEnd(out=(0, 2), winners=(1,))
    assert fmt.end_round(result(3, [46, 20, 40], playing=(1, 0, 2))) == RoundEnd(out=(0,))


def test_elimination_of_everyone_left_is_won_by_the_best_of_them() -> None:
    end = GameFormat.parse("elimination:45").end_round(result(5, [50, 47, 60]))
    assert end == RoundEnd(out=(0, 1, 2), winners=(1,))


def test_loser_at_names_the_highest_total_loser_once_a_total_reaches_the_limit() -> None:
    fmt = GameFormat.parse("loser-at:100")
    assert fmt.end_round(result(4, [99, 80, 60])) == RoundEnd()
    assert fmt.end_round(result(5, [104, 104, 60])) == RoundEnd(winners=(2,), losers=(0, 1))


def test_a_race_is_won_by_the_highest_total_once_one_reaches_the_target() -> None:
    fmt = GameFormat.parse("race:100")
    assert fmt.end_round(result(6, [95, 99, 70], lower_is_better=False)) == RoundEnd()
    end = fmt.end_round(result(7, [103, 110, 90], lower_is_better=False))
    assert end == RoundEnd(winners=(1,))


def test_a_battle_has_no_rounds_to_end() -> None:
    with pytest.raises(FormatError, match="a battle has no rounds"):
        GameFormat.parse("battle").end_round(result(1, [0, 0], playing=(0, 1)))
