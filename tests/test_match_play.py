"""The optimal player in whole matches: the match engine played by the exact match policies
agrees with the exact values (Monte Carlo, within 4 standard errors), match play wins more
than the score player, and the formats' defaults (instant win, battle readings) hold."""

from __future__ import annotations

import random

import pytest

from shutthebox.coach import review
from shutthebox.match import GameFormat, Match, MatchConfig, play_out
from shutthebox.players.base import Strategy
from shutthebox.rules import OneDie, Rules, Scoring
from shutthebox.solver.matchplay import against_score_player, solve_match
from shutthebox.strategies import make_strategy


def first_seat_share(rules: Rules, text: str, names: tuple[str, str], games: int,
                     seed: int) -> float:
    """Seat 0's share of the wins over ``games`` matches (ties shared)."""
    players: dict[int, Strategy] = {
        seat: make_strategy(name, rules, random.Random(seat)) for seat, name in enumerate(names)}
    rng = random.Random(seed)
    share = 0.0
    for _ in range(games):
        match = Match(MatchConfig(rules, GameFormat.parse(text), ("a", "b")))
        play_out(match, players, rng)
        share += (0 in match.winners) / len(match.winners)
    return share / games


@pytest.mark.parametrize(("rules", "text"), [
    (Rules(tiles=5), "loser-at:10"),
    (Rules(tiles=4, one_die=OneDie.LOW_SUM), "rounds:3"),
    (Rules(tiles=5, scoring=Scoring.COVERED), "race:20"),
    (Rules(tiles=5), "battle:rolls"),
    (Rules(tiles=5), "battle:turns"),
])
def test_the_match_engine_under_match_play_agrees_with_the_exact_value(rules: Rules,
                                                                       text: str) -> None:
    games = 1500
    exact = solve_match(rules, text, disk=False).first_win
    seen = first_seat_share(rules, text, ("optimal", "optimal"), games, seed=11)
    se = (exact * (1 - exact) / games) ** 0.5
    assert abs(seen - exact) < 4 * se


def test_match_play_wins_more_than_the_score_player() -> None:
    rules = Rules(tiles=5)
    games = 1200
    aware = first_seat_share(rules, "loser-at:14", ("optimal", "optimal:score"), games, 3)
    plain = first_seat_share(rules, "loser-at:14", ("optimal:score", "optimal:score"), games, 3)
    assert aware > plain


@pytest.mark.parametrize("text", ["single", "rounds:3", "loser-at:16", "elimination:9"])
def test_match_play_gets_at_least_the_match_value_against_the_score_player(text: str) -> None:
    rules = Rules(tiles=5, one_die=OneDie.LOW_SUM)
    value = solve_match(rules, text, disk=False).first_win
    assert against_score_player(rules, text, match_first=True) >= value - 1e-12
    assert against_score_player(rules, text, match_first=False) >= 1.0 - value - 1e-12


def test_a_shut_box_scores_zero_in_a_multi_round_format_by_default() -> None:
    match = Match(MatchConfig(Rules(tiles=2), GameFormat.parse("rounds:2"), ("a", "b")))
    assert match.rules.instant_win is False
    match.apply_roll((1, 2))
    match.decide(0b11)                       # a shut box: 0 for the round, play goes on
    assert not match.is_over and match.totals == [0, 0]
    single = Match(MatchConfig(Rules(tiles=2), GameFormat.parse("single"), ("a", "b")))
    assert single.rules.instant_win is True
    forced = Rules(tiles=2, instant_win=True)
    assert Match(MatchConfig(forced, GameFormat.parse("rounds:2"), ("a", "b"))).rules \
        .instant_win is True


def test_battle_alone_is_the_reading_by_turns() -> None:
    assert str(GameFormat.parse("battle")) == "battle:turns"
    assert GameFormat.parse("battle:rolls").by_turns is False


def test_in_a_battle_by_turns_the_knocker_rolls_on_until_stuck() -> None:
    match = Match(MatchConfig(Rules(tiles=4), GameFormat.parse("battle:turns"), ("a", "b")))
    match.apply_roll((1, 2))
    match.decide(0b0100)                      # shut 3: the knocker rolls again
    assert match.pending.seat == 0 and match.pending.role == "knock"
    match.apply_roll((6, 6))                  # no move: the stander's turn
    assert match.pending.seat == 1 and match.pending.role == "stand"


def test_review_of_a_match_costs_chance_to_win() -> None:
    rules = Rules(tiles=5)
    match = Match(MatchConfig(rules, GameFormat.parse("loser-at:14"), ("a", "b")))
    players: dict[int, Strategy] = {0: make_strategy("highest-first", rules, random.Random(1)),
                                    1: make_strategy("optimal", rules, random.Random(2))}
    play_out(match, players, random.Random(5))
    reviewed = review(match.to_log())
    assert all(0.0 <= r.played_value <= 1.0 + 1e-9 for r in reviewed)
    assert all(r.cost < 1e-9 for r in reviewed if r.player == "b")
