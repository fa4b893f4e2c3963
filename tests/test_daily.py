"""The daily box (:mod:`shutthebox.coach.daily`, ``shutthebox daily``): everyone gets the same
dice roll by roll, whatever they shut; the result is the score against perfect play on the
same dice, with the accuracy."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Callable
from datetime import date, timedelta

import pytest

from shutthebox.coach.daily import DAILY_PRESETS, daily_box
from shutthebox.errors import LogError
from shutthebox.match import Match
from shutthebox.rules import OneDie
from shutthebox.strategies import Strategy, format_move, make_strategy
from shutthebox.tiles import mask_of
from tests.test_solver_cli import run

DAY = date(2026, 11, 24)


def rolls_of(match: Match) -> list[tuple[int, ...]]:
    return [tuple(e["roll"]) for e in match.events if e["type"] == "roll"]


def by_strategy(name: str, seed: int) -> Callable[[Match], int]:
    """The decisions of a computer player, as the daily box asks for them."""
    players: dict[str, Strategy] = {}

    def choose(match: Match) -> int:
        assert match.pending.turn is not None
        player = players.setdefault(name, make_strategy(name, match.rules,
                                                        random.Random(seed)))
        return player.choose(match.pending.turn, match.situation())
    return choose


def test_a_daily_box_played_twice_with_different_choices_sees_the_same_dice() -> None:
    differed = 0
    for offset in range(2 * len(DAILY_PRESETS)):   # every rule set of the rotation, twice
        box = daily_box(DAY + timedelta(days=offset))
        first = box.play(by_strategy("highest-first", 1))
        second = box.play(by_strategy("random", 2))
        moves = [[e["tiles"] for e in m.events if e["type"] == "shut"] for m in (first, second)]
        differed += moves[0] != moves[1]
        a, b = rolls_of(first), rolls_of(second)
        for i in range(min(len(a), len(b))):
            if len(a[i]) == len(b[i]):
                assert a[i] == b[i]
            assert a[i] == box.roll(i, len(a[i])) and b[i] == box.roll(i, len(b[i]))
    assert differed >= len(DAILY_PRESETS)


def test_one_die_is_the_first_die_of_the_days_roll() -> None:
    box = daily_box(DAY)
    for i in range(50):
        (face,) = box.roll(i, 1)
        assert face in box.roll(i, 2)
    one_die = [d for d in (DAY + timedelta(days=k) for k in range(12))
               if daily_box(d).rules.one_die is not OneDie.NEVER]
    assert one_die   # the rotation has rule sets where one die is rolled


def test_each_day_has_its_own_dice_and_the_rotation_its_rule_sets() -> None:
    days = [daily_box(DAY + timedelta(days=k)) for k in range(30)]
    assert len({tuple(box.rolls(12)) for box in days}) == 30
    assert {box.preset for box in days} == set(DAILY_PRESETS)
    assert daily_box(DAY).rolls() == daily_box(DAY).rolls()   # and a day is always the same


def test_the_dice_are_fair_enough() -> None:
    box = daily_box(DAY)
    faces = [f for i in range(6000) for f in box.roll(i, 2)]
    for face in range(1, 7):
        assert faces.count(face) == pytest.approx(2000, rel=0.1)


def test_perfect_play_scores_the_optimal_players_score_with_full_accuracy() -> None:
    box = daily_box(DAY)
    perfect = box.perfect()
    result = box.result(perfect.to_log())
    assert result["score"] == result["perfect"] == box.perfect_score()
    assert result["accuracy"] == pytest.approx(100.0)
    worse = box.result(box.play(by_strategy("random", 3)).to_log())
    assert worse["perfect"] == result["perfect"] and worse["accuracy"] <= 100.0


def test_the_public_dice_stay_the_dates_and_a_secret_keys_other_dice() -> None:
    box = daily_box(DAY)
    assert box.rolls(6) == [(1, 2), (3, 6), (1, 4), (1, 1), (1, 2), (5, 5)]   # as ever
    keyed = daily_box(DAY, b"the server's secret")
    assert keyed.rules == box.rules and keyed.rolls(30) != box.rolls(30)
    with pytest.raises(LogError, match="is not the daily box of 2026-11-24"):
        keyed.check(box.perfect().to_log())      # a line played on the public dice


def test_a_game_with_other_dice_is_not_the_days_box() -> None:
    box = daily_box(DAY)
    other = daily_box(DAY + timedelta(days=len(DAILY_PRESETS)))   # the same rule set
    assert other.preset == box.preset
    with pytest.raises(LogError, match="is not the daily box of 2026-11-24"):
        box.check(other.perfect().to_log())


def test_the_daily_command_plays_the_box_from_typed_moves() -> None:
    box = daily_box(DAY)
    perfect = box.perfect()
    lines = [str(e["dice"]) if e["type"] == "dice" else format_move(mask_of(e["tiles"]))
             for e in perfect.events if e["type"] in ("dice", "shut")]
    answers = "\n".join(["13", "?", *lines]) + "\n"   # a bad tile first: asked again
    result = run_with_input(["daily", "--date", DAY.isoformat(), "--json"], answers)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["score"] == data["perfect"] == box.perfect_score()
    assert data["accuracy"] == pytest.approx(100.0) and data["day"] == "2026-11-24"
    assert data["moves"] == data["perfect_moves"] and data["moves"][0].startswith("roll ")
    assert "tile 13 is not in this box" in result.stderr and "legal:" in result.stderr
    # the public box, played offline: its result is local, a server's box has other dice
    assert "your result stays on this computer" in result.stderr
    assert "daily box deals dice of its own" in result.stderr


def test_the_daily_command_refuses_a_bad_date_and_ended_input_in_one_line() -> None:
    bad = run("daily", "--date", "24/11/2026")
    assert bad.returncode == 2 and "date '24/11/2026' is not a day" in bad.stderr
    assert "Traceback" not in bad.stderr
    ended = run_with_input(["daily", "--date", DAY.isoformat()], "")
    assert ended.returncode == 1 and "input ended" in ended.stderr
    assert "Traceback" not in ended.stderr


def run_with_input(args: list[str], text: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "shutthebox", *args], input=text,
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "COLUMNS": "120"})
