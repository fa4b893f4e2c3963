"""The sweeps of the single round (compiled, and numpy's) give the chances a whole solve of
each best rank gives, and a round's tables are the same however they are made (by either
sweep, every rank or only those a good posted score needs)."""

from __future__ import annotations

import sys

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shutthebox.rules import MoveRule, OneDie, Rules, Scoring
from shutthebox.solver import round_sweep, rounds
from shutthebox.solver.objectives import score_array
from shutthebox.solver.round_kernels import sweep
from shutthebox.solver.rounds import RoundSolution, ended_under_play, solve_round
from shutthebox.solver.successors import successors, successors_by_mask


@st.composite
def small_rules(draw: st.DrawFn) -> Rules:
    tiles = draw(st.integers(2, 7))
    one_die = draw(st.sampled_from(list(OneDie)))
    return Rules(tiles=tiles, one_die=one_die,
                 one_die_forced=one_die is not OneDie.NEVER and draw(st.booleans()),
                 moves=draw(st.sampled_from(list(MoveRule))),
                 scoring=draw(st.sampled_from(list(Scoring))))


def ranks_of(rules: Rules) -> np.ndarray:
    """Each final mask's rank among the distinct scores, the best 0."""
    scores = score_array(rules)
    distinct = np.unique(scores)
    order = distinct if rules.lower_is_better else distinct[::-1]
    return np.searchsorted(-order if not rules.lower_is_better else order,
                           -scores if not rules.lower_is_better else scores)


# A few values only, so that many moves tie and the tie rules are exercised.
SHARES = st.sampled_from([0.0, 0.25, 1 / 3, 0.5, 1.0])


@settings(max_examples=60, deadline=None)
@given(rules=small_rules(), data=st.data())
def test_the_sweeps_give_the_chances_of_a_whole_solve_of_each_best_rank(
        rules: Rules, data: st.DataObject) -> None:
    rank = ranks_of(rules)
    count = int(rank.max()) + 1
    lanes = data.draw(st.integers(1, 3))
    best_ranks = data.draw(st.integers(1, count))
    below = np.array(data.draw(st.lists(SHARES, min_size=count, max_size=count)))
    at = np.array(data.draw(st.lists(st.lists(SHARES, min_size=lanes, max_size=lanes),
                                     min_size=best_ranks, max_size=best_ranks)))
    # (each rank checked costs a whole solve a lane: the first, the last and a few drawn)
    checked = {0, best_ranks - 1} | set(data.draw(st.lists(
        st.integers(0, best_ranks - 1), max_size=3)))
    swept = round_sweep.sweep(rules, rank, below, at)
    assert swept is not None
    compiled = sweep(rules, rank, below, at)
    ranks = np.arange(count)
    for b in sorted(checked):
        for w in range(lanes):
            objective = np.where(ranks < b, below, np.where(ranks == b, at[b, w], 0.0))
            ended = ended_under_play(rules, objective[rank][:, None], compiled=False)[:, 0]
            p = np.bincount(rank, weights=ended, minlength=count)
            for tie, worse in (compiled, swept):
                assert tie[b, w] == pytest.approx(p[b], abs=1e-12)
                assert worse[b, w] == pytest.approx(p[b + 1:].sum(), abs=1e-12)
    for mine, theirs in zip(compiled, swept, strict=True):  # every rank: the sweeps agree
        assert np.allclose(mine, theirs, rtol=0, atol=1e-12)


def fresh_round(rules: Rules, players: int) -> RoundSolution:
    """A round with none of its tables made yet (``solve_round`` keeps one per rule set)."""
    found = solve_round(rules, players)
    return RoundSolution(found.rules, players, found.scores, found.rank, found.instant)


def by_numba(monkeypatch: pytest.MonkeyPatch, compiled: bool) -> None:
    """Make a round's tables by the compiled sweep, or by numpy's, whatever their size."""
    monkeypatch.setattr(rounds, "SWEEP_WORK", 0 if compiled else 1 << 62)
    monkeypatch.setattr(rounds, "NUMPY_SWEEP_RANKS", 0)


@pytest.mark.parametrize("rules", [Rules(), Rules(tiles=6, scoring=Scoring.DIGITS),
                                   Rules(tiles=7, scoring=Scoring.COVERED, one_die=OneDie.LOW_SUM),
                                   Rules(tiles=5, instant_win=False)])
def test_a_round_swept_by_numba_is_the_round_swept_by_numpy(
        rules: Rules, monkeypatch: pytest.MonkeyPatch) -> None:
    by_numba(monkeypatch, True)
    compiled = fresh_round(rules, 4)
    compiled_win = compiled.win
    by_numba(monkeypatch, False)
    numpy = fresh_round(rules, 4)
    assert numpy.win == pytest.approx(compiled_win, abs=1e-12)
    for seat in (1, 2, 3):
        assert np.allclose(numpy.holders[seat], compiled.holders[seat], rtol=0, atol=1e-12)


def test_a_fresh_process_sweeps_a_few_hundred_scores_by_numpy(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """numba's start-up costs more than numpy's sweep up to NUMPY_SWEEP_RANKS scores; past
    them, or once numba runs in the process, the compiled sweep is the cheaper."""
    work = rounds.SWEEP_WORK + 1
    monkeypatch.delitem(sys.modules, "numba", raising=False)
    assert not rounds.compiled_sweep(work, rounds.NUMPY_SWEEP_RANKS)
    assert rounds.compiled_sweep(work, rounds.NUMPY_SWEEP_RANKS + 1)
    assert not rounds.compiled_sweep(rounds.SWEEP_WORK, 4095)   # small work: numpy still
    monkeypatch.setitem(sys.modules, "numba", numba)
    assert rounds.compiled_sweep(work, 79)


def test_numpys_sweep_needs_every_move_to_better_the_rank() -> None:
    """The masks are solved rank by rank: a rank order that a move does not better (no
    scoring gives one) is refused, and the compiled sweep does the work."""
    rules = Rules(tiles=4)
    assert round_sweep.rank_steps(rules, np.zeros(16, dtype=np.int64)) is None
    assert round_sweep.sweep(rules, np.zeros(16, dtype=np.int64), np.ones(1),
                             np.ones((1, 1))) is None
    assert round_sweep.rank_steps(rules, ranks_of(rules)) is not None


@pytest.mark.parametrize("compiled", [False, True])
def test_a_good_score_posted_needs_only_the_ranks_as_good(compiled: bool,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    by_numba(monkeypatch, compiled)
    rules = Rules(tiles=7, scoring=Scoring.DIGITS)
    lazy, full = fresh_round(rules, 4), fresh_round(rules, 4)
    assert sum(full.win) == pytest.approx(1.0)   # every rank of every seat solved
    first = lazy.objective(1, 12, 1).final_values(rules)
    assert lazy.holders[2][len(lazy.scores) - 1].sum() == 0   # the worst rank: not needed
    assert first == pytest.approx(full.objective(1, 12, 1).final_values(rules), abs=1e-15)
    for score in (4, 1234567, 135):   # a worse score posted later: the tables grow
        expected = full.objective(1, score, 1).final_values(rules)
        assert lazy.objective(1, score, 1).final_values(rules) == pytest.approx(expected,
                                                                               abs=1e-15)
    assert lazy.objective(0).final_values(rules) == pytest.approx(
        full.objective(0).final_values(rules), abs=1e-15)


@settings(max_examples=30, deadline=None)
@given(rules=small_rules())
def test_the_table_by_mask_holds_each_masks_moves_of_each_roll_group(rules: Rules) -> None:
    """The sweep's table, laid out mask by mask, lists the same successors in the same
    (stable) order as the match kernels' table, laid out roll group by roll group."""
    by_group, by_mask = successors(rules), successors_by_mask(rules)
    groups, size = len(by_group.probability), by_group.size
    for mask in range(size):
        for g in range(groups):
            kept = by_group.succ[by_group.start[g * size + mask]:
                                 by_group.start[g * size + mask + 1]]
            laid = by_mask.succ[by_mask.start[mask * groups + g]:
                                by_mask.start[mask * groups + g + 1]]
            assert laid.tolist() == kept.tolist()
