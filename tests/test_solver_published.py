"""The published figures of RULES.md (sum scoring, tiles 1-9), in exact arithmetic and in
floating point."""

from __future__ import annotations

from fractions import Fraction

import pytest

from shutthebox.rules import OneDie, Rules, preset
from shutthebox.solver import solve, solve_exact

PUBLISHED = [
    (Rules(), "7.1432"),
    (Rules(one_die=OneDie.LOW_SUM), "9.7614"),
    (Rules(one_die=OneDie.LOW_SUM, max_tiles=2), "7.4194"),
]


@pytest.mark.parametrize(("rules", "percent"), PUBLISHED, ids=repr)
def test_published_chance_to_shut_in_exact_arithmetic(rules: Rules, percent: str) -> None:
    exact = solve_exact(rules, "shut")
    assert isinstance(exact.value(), Fraction)
    assert f"{float(exact.value()) * 100:.4f}" == percent
    assert exact.p_shut == exact.value()   # the policy that maximises it achieves it
    assert solve(rules, "shut").value() == pytest.approx(float(exact.value()), abs=1e-15)


def test_published_fraction_with_one_die_optional_at_a_low_sum() -> None:
    assert solve_exact(preset("lever-9"), "shut").value() == Fraction(956177159, 9795520512)


def test_one_die_helps_and_two_tiles_per_roll_hurts() -> None:
    two_dice, one_die, two_tiles = (solve(rules, "shut").value() for rules, _ in PUBLISHED)
    assert two_dice < one_die and two_tiles < one_die
