"""A single round's tables are kept in the data folder and read back by a later round of the
same rules and players, the same values; a file that is not a round's tables is made again,
and a data folder that cannot be written keeps them in memory only."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from cachetools import LRUCache

from shutthebox.rules import Rules, Scoring
from shutthebox.solver import rounds
from shutthebox.solver.round_tables import load_tables, table_path
from shutthebox.solver.rounds import RoundSolution, solve_round

RULES = Rules(tiles=6, scoring=Scoring.DIGITS)


def fresh_round(rules: Rules, players: int, disk: bool = True) -> RoundSolution:
    """A round with none of its tables in memory (``solve_round`` keeps one per rule set)."""
    found = solve_round(rules, players, disk=False)
    return RoundSolution(found.rules, players, found.scores, found.rank, found.instant,
                         disk=disk)


def unsolvable(*_: object) -> None:
    raise AssertionError("the tables were solved again")


def test_a_rounds_tables_are_read_back_from_the_data_folder(
        monkeypatch: pytest.MonkeyPatch) -> None:
    expected = fresh_round(RULES, 4, disk=False).objective(0).final_values(RULES)
    made = fresh_round(RULES, 4)
    assert made.objective(0).final_values(RULES) == pytest.approx(expected, abs=0)
    assert table_path(made.rules, 4).exists()
    monkeypatch.setattr(RoundSolution, "_solve_down_to", unsolvable)
    read = fresh_round(RULES, 4)
    assert read.objective(0).final_values(RULES) == pytest.approx(expected, abs=0)
    for seat in (1, 2, 3):
        assert np.array_equal(read.holders[seat], made.holders[seat])


def test_tables_made_for_a_posted_score_grow_when_more_is_asked() -> None:
    full = fresh_round(RULES, 4, disk=False)
    first = fresh_round(RULES, 4)
    first.objective(1, 12, 1)   # a good score posted: only the ranks as good are made
    tables, known = load_tables(first.rules, 4, len(first.scores))
    assert 0 < known[2] < len(first.scores)
    later = fresh_round(RULES, 4)
    assert later.objective(0).final_values(RULES) == pytest.approx(
        full.objective(0).final_values(RULES), abs=1e-15)
    assert load_tables(first.rules, 4, len(first.scores))[1] == {
        seat: len(first.scores) for seat in (1, 2, 3)}
    assert np.array_equal(tables[3][:known[3]], later.holders[3][:known[3]])


@pytest.mark.parametrize("content", [b"", b"not a zip file", b"PK\x03\x04broken"])
def test_a_file_that_is_not_a_rounds_tables_is_made_again(content: bytes) -> None:
    expected = fresh_round(RULES, 3, disk=False).objective(0).final_values(RULES)
    path = table_path(fresh_round(RULES, 3).rules, 3)
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    assert fresh_round(RULES, 3).objective(0).final_values(RULES) == pytest.approx(
        expected, abs=0)
    assert load_tables(RULES.replace(instant_win=True), 3, len(expected))[1] != {}


def test_tables_of_another_size_or_out_of_range_are_not_read() -> None:
    rules = RULES.replace(instant_win=True)
    path = table_path(rules, 3)
    path.parent.mkdir(parents=True)
    np.savez(path, known=np.array([0, 4, 4]), seat1=np.zeros((4, 4)), seat2=np.zeros((4, 4)))
    assert load_tables(rules, 3, 5) == ({}, {})
    np.savez(path, known=np.array([0, 5, 5]), seat1=np.full((5, 4), 2.0),
             seat2=np.zeros((5, 4)))
    assert load_tables(rules, 3, 5) == ({}, {})


def test_a_data_folder_that_cannot_be_written_keeps_the_tables_in_memory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "a file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("SHUTTHEBOX_HOME", str(blocked / "home"))
    expected = fresh_round(RULES, 3, disk=False).objective(0).final_values(RULES)
    assert fresh_round(RULES, 3).objective(0).final_values(RULES) == pytest.approx(
        expected, abs=0)
    assert not table_path(RULES.replace(instant_win=True), 3).exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a file"]


def test_solve_round_keeps_its_tables_on_disk_unless_told_not_to(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rounds, "_rounds", {})
    rules = Rules(tiles=5)
    solve_round(rules, 2, disk=False).objective(0)
    assert not table_path(rules.replace(instant_win=True), 2).exists()
    monkeypatch.setattr(rounds, "_rounds", {})
    solve_round(rules, 2).objective(0)
    assert table_path(rules.replace(instant_win=True), 2).exists()


def test_a_process_keeps_a_bounded_number_of_rounds_solved(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A server's solver worker is asked about any rule set a client names: the rounds
    least recently used are let go (and solved again, the same, when asked for again)."""
    monkeypatch.setattr(rounds, "_rounds", LRUCache(2))
    first = solve_round(Rules(tiles=3), 2, disk=False)
    four = solve_round(Rules(tiles=4), 2, disk=False)
    assert solve_round(Rules(tiles=3), 2, disk=False) is first      # used again: kept
    solve_round(Rules(tiles=5), 2, disk=False)                      # four goes
    assert solve_round(Rules(tiles=3), 2, disk=False) is first
    for tiles in (5, 6):
        solve_round(Rules(tiles=tiles), 2, disk=False)
    assert len(rounds._rounds) == 2
    again = solve_round(Rules(tiles=3), 2, disk=False)
    assert again is not first and again.win == first.win
    assert solve_round(Rules(tiles=4), 2, disk=False) is not four
