"""The cost of a match table, known before it is worked out (shutthebox.solver.cost): the rows
it counts are the rows the solver makes, and the largest limit that fits is the boundary.
(How the estimate compares with real solving times: ``benchmarks/bench_cost.py``.)"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shutthebox.errors import FormatError
from shutthebox.match import GameFormat
from shutthebox.rules import Rules, Scoring
from shutthebox.solver.cost import _rounds_rows, largest_limit, table_seconds
from shutthebox.solver.matchplay import solve_match


@pytest.mark.parametrize(("tiles", "scoring", "rounds"),
                         [(4, "sum", 1), (6, "sum", 3), (5, "digits", 2), (6, "covered", 4)])
def test_the_rows_counted_are_the_rows_a_rounds_table_has(tiles: int, scoring: str,
                                                          rounds: int) -> None:
    rules = Rules(tiles=tiles, scoring=Scoring(scoring))
    fmt = "single" if rounds == 1 else f"rounds:{rounds}"
    tables = solve_match(rules, fmt, disk=False).tables
    made = sum(len(v) for k, v in tables.items() if k.startswith(("first_d", "second_d")))
    assert _rounds_rows(rules, rounds) == made


@settings(max_examples=40, deadline=None)
@given(tiles=st.integers(2, 12), kind=st.sampled_from(["elimination", "loser-at", "rounds"]),
       budget=st.floats(0.01, 3600.0))
def test_the_largest_limit_that_fits_is_the_boundary(tiles: int, kind: str,
                                                     budget: float) -> None:
    rules = Rules(tiles=tiles)
    largest = largest_limit(rules, kind, budget)
    if largest is None:
        assert table_seconds(rules, f"{kind}:1") > budget
        return
    assert table_seconds(rules, f"{kind}:{largest}") <= budget
    try:
        beyond = GameFormat.parse(f"{kind}:{largest + 1}")
    except FormatError:
        return                                  # the format's own largest number fits
    assert table_seconds(rules, beyond) > budget


@given(tiles=st.integers(2, 12), limit=st.integers(1, 9_999))
def test_a_larger_limit_never_costs_less(tiles: int, limit: int) -> None:
    rules = Rules(tiles=tiles)
    for kind in ("elimination", "loser-at"):
        assert table_seconds(rules, f"{kind}:{limit}") <= table_seconds(rules,
                                                                         f"{kind}:{limit + 1}")


def test_the_request_that_kept_a_server_busy_for_hours_is_priced_in_hours() -> None:
    assert table_seconds(Rules(tiles=12), "loser-at:10000") > 10 * 3600
    assert table_seconds(Rules(tiles=9, scoring=Scoring.DIGITS), "rounds:3") > 3600
    assert table_seconds(Rules(), "battle:turns") < 60 and table_seconds(Rules(), "solo") == 0


def test_a_format_without_a_number_has_no_largest_limit() -> None:
    with pytest.raises(FormatError):
        largest_limit(Rules(), "battle", 60.0)
